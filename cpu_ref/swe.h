/* swe.h — the shallow-water problem on a Cartesian grid with a ghost ring, and the
 * CPU reference solvers of the Lastra et al. (2009) first-order Roe scheme.
 *
 * Layout shared by the CPU and GPU solvers (and by solver/, which fills it from a
 * scenario): every per-cell array has (nx+2)*(ny+2) entries, row-major, index
 *     k = j*(nx+2) + i,   i = 0..nx+1 (west to east), j = 0..ny+1 (south to north);
 * interior cells are i = 1..nx, j = 1..ny; row 0 / column 0 and row ny+1 / column nx+1
 * are the ghost ring.  Cell (i, j) has its centre at x = (i - 0.5) dx, y = (j - 0.5) dy.
 *
 * Every cell carries a code:
 *   SWE_ACTIVE    a computed volume;
 *   SWE_WALL      a ghost (ring cell or inactive cell next to an active one) that closes
 *                 the edge it shares with an active cell: q.n = 0;
 *   SWE_FREE      a ghost that makes the shared edge transmissive (zero-order
 *                 extrapolation: the exterior state is the interior one);
 *   SWE_OFF       padding that touches no active cell (never read).
 * Boundary edges build their exterior state from the interior cell and the ghost's
 * code (wall: mirror of the normal discharge; free: copy), with the exterior bed equal
 * to the interior one, so a wall is exact for any shape of the active region.
 *
 * H is Lastra's depth function, measured downward from a datum: H = -z_b.
 * State W = (h, qx, qy), free surface eta = h - H.
 */
#ifndef SWGL_SWE_H
#define SWGL_SWE_H

enum swe_code { SWE_ACTIVE = 0, SWE_WALL = 1, SWE_FREE = 2, SWE_OFF = 3 };

typedef struct swe_problem {
    int nx, ny;                 /* interior cells */
    double dx, dy;              /* m */
    double g;                   /* m/s^2 */
    double cfl;                 /* gamma in (8), 0 < cfl <= 1 */
    double h_dry;               /* m: a cell with h <= h_dry is dry (velocity 0) */
    const double *H;            /* (nx+2)*(ny+2): depth function H = -z_b */
    const unsigned char *code;  /* (nx+2)*(ny+2): enum swe_code */
} swe_problem;

/* One edge of the Roe scheme, (5)-(7) with the Harten-Hyman entropy fix and the two
 * emerging-bottom cases of Castro et al. (Lastra 3.1 remark 4).
 *   wi, wj   states (h, qx, qy) of the cells on each side;
 *   Hi, Hj   depth function of each cell;
 *   ex, ey   unit normal pointing from i to j;
 * Writes fi = F-_ij (what cell i subtracts, times dt/|V_i| |Gamma|) and
 *        fj = F-_ji (the same for cell j, with the normal reversed).
 * Returns max |lambda| of the Roe matrix (its ||D_ij||_inf), used by (8). */
double swe_roe_edge(const double wi[3], const double wj[3], double Hi, double Hj,
                    double ex, double ey, double g, double h_dry,
                    double fi[3], double fj[3]);

/* CPU solvers: the scalar one in double precision (the accuracy reference) and the
 * fast one (SSE over 4 cells, OpenMP over rows) in single precision. */
enum swe_cpu_kind { SWE_CPU_SCALAR = 0, SWE_CPU_FAST = 1 };

typedef struct swe_cpu swe_cpu;

/* Copies the problem (H, code); NULL on bad input or no memory (message in *err). */
swe_cpu *swe_cpu_create(const swe_problem *p, enum swe_cpu_kind kind, char *err, int errlen);
void swe_cpu_destroy(swe_cpu *s);   /* NULL is fine */

/* State in and out, arrays of (nx+2)*(ny+2) doubles; ghost entries are ignored on
 * input and set to 0 on output. */
void swe_cpu_set_state(swe_cpu *s, const double *h, const double *qx, const double *qy);
void swe_cpu_get_state(const swe_cpu *s, double *h, double *qx, double *qy);

/* One time step: dt from (8) with the problem's CFL, then dt = min(dt, dt_max),
 * then (4).  After the update a cell with h < 0 gets h = 0, and a cell with
 * h <= h_dry gets q = 0.  Returns the dt taken (dt_max when no wave moves anywhere),
 * or a negative number if a NaN appeared. */
double swe_cpu_step(swe_cpu *s, double dt_max);

int swe_cpu_threads(const swe_cpu *s);     /* OpenMP threads used (1 for scalar) */
const char *swe_cpu_name(const swe_cpu *s); /* "cpu-scalar (double)" / "cpu (float, SSE x4, N threads)" */

#endif
