/* sediment.h — the dual-lithology (Rivenaes) sediment model of Su et al. (2013),
 * equations (1)-(2), and its CPU reference solvers (the explicit scheme (3)-(4)).
 *
 * Grid of nx*ny points with one ring of ghost points (Su 3.1).  Per-point arrays have
 * (nx+2)*(ny+2) entries indexed exactly as in swe.h: k = j*(nx+2) + i, i = 0..nx+1
 * west to east, j = 0..ny+1 south to north; interior points i = 1..nx, j = 1..ny; the
 * point (i, j) sits at x = (i-1) dx, y = (j-1) dy.
 */
#ifndef SWGL_SEDIMENT_H
#define SWGL_SEDIMENT_H

enum sed_form {
    SED_FORM_PAPER = 0,        /* (4) exactly as printed (the benchmarked kernel) */
    SED_FORM_CONSERVATIVE = 1  /* the flux form of the right-hand side (docs/sediment.md) */
};

enum sed_side { SED_NONE = -1, SED_WEST = 0, SED_EAST = 1, SED_SOUTH = 2, SED_NORTH = 3 };

typedef struct sed_problem {
    int nx, ny;                 /* interior grid points */
    double dx, dy;              /* m */
    double dt;                  /* s: the step to take (see sed_dt_limit) */
    double cs, cm;              /* compaction ratios C_s, C_m */
    double layer;               /* thickness A of the transport layer, m */
    const double *alpha;        /* (nx+2)*(ny+2): sand diffusion coefficient, m^2/s */
    const double *beta;         /* (nx+2)*(ny+2): mud diffusion coefficient, m^2/s */
    enum sed_form form;
    /* A river mouth: sand and mud enter through the points first..last (1-based,
     * inclusive, counted along the side from its west or south end) of one side, at a
     * prescribed volume rate per unit boundary length (m^2/s).  Elsewhere the boundary
     * flux is zero. */
    enum sed_side inflow_side;  /* SED_NONE: closed basin */
    int inflow_first, inflow_last;
    double inflow_sand, inflow_mud;
} sed_problem;

/* Largest stable dt of the explicit scheme for this problem (before any safety factor). */
double sed_dt_limit(const sed_problem *p);

enum sed_cpu_kind { SED_CPU_SCALAR = 0, SED_CPU_FAST = 1 };
typedef struct sed_cpu sed_cpu;

sed_cpu *sed_cpu_create(const sed_problem *p, enum sed_cpu_kind kind, char *err, int errlen);
void sed_cpu_destroy(sed_cpu *s);
void sed_cpu_set_state(sed_cpu *s, const double *h, const double *sand);
void sed_cpu_get_state(const sed_cpu *s, double *h, double *sand);
/* n steps of (3) then (4), with the ghost points set from the boundary fluxes before
 * each pass.  Returns 0, or -1 if a NaN appeared. */
int sed_cpu_run(sed_cpu *s, int steps);
int sed_cpu_threads(const sed_cpu *s);
const char *sed_cpu_name(const sed_cpu *s);

#endif
