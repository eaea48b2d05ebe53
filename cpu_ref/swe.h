/* swe.h — the shallow-water problem on a Cartesian grid with a ghost ring, as every
 * shallow-water scheme (roe; kp to come) and backend takes it, and its one validation.
 * The Roe scheme's CPU solvers are in roe_cpu.h.
 *
 * Layout shared by the CPU and GPU solvers (and by solver/, which fills it from a
 * scenario): the ghost-ring grid of swgl_grid.h, every per-cell array grid_size(nx, ny)
 * entries, k = grid_at(nx, i, j), i = 0..nx+1 (west to east), j = 0..ny+1 (south to
 * north); interior cells i = 1..nx, j = 1..ny.  Cell (i, j) has its centre at
 * x = (i - 0.5) dx, y = (j - 0.5) dy.
 *
 * Every cell carries a code of enum cell_code (swgl_grid.h):
 *   CELL_ACTIVE  a computed volume;
 *   CELL_WALL    a ghost (ring cell or inactive cell next to an active one) that closes
 *                the edge it shares with an active cell: q.n = 0;
 *   CELL_FREE    a ghost that makes the shared edge transmissive (zero-order
 *                extrapolation: the exterior state is the interior one);
 *   CELL_OFF     padding that touches no active cell (never read).
 * Boundary edges build their exterior state from the interior cell and the ghost's
 * code (wall: mirror of the normal discharge; free: copy), with the exterior bed equal
 * to the interior one, so a wall is exact for any shape of the active region.
 *
 * H is Lastra's depth function, measured downward from a datum: H = -z_b.
 * State W = (h, qx, qy), free surface eta = h - H.
 */
#ifndef SWGL_SWE_H
#define SWGL_SWE_H

#include "swgl_error.h"
#include "swgl_grid.h"

#include <math.h>

typedef struct swe_problem {
    int nx, ny;                 /* interior cells */
    double dx, dy;              /* m */
    double g;                   /* m/s^2 */
    double cfl;                 /* gamma in (8), 0 < cfl <= 1 */
    double h_dry;               /* m: a cell with h <= h_dry is dry (velocity 0) */
    double kappa;               /* m: thin-film depth of the Roe solvers' velocity
                                 * desingularization (roe_cpu.h (M5)); 0: off */
    const double *H;            /* (nx+2)*(ny+2): depth function H = -z_b */
    const unsigned char *code;  /* (nx+2)*(ny+2): enum cell_code (swgl_grid.h) */
    const struct swe_forcing *forcing;   /* boundary data, rain, point sources; NULL: none */
    /* The interior cells whose time-step bound counts (domain decomposition over MPI
     * ranks, solver/schemes/core/scheme_mpi.c: a rank's own block; the halo cells around it are
     * computed too, but their bound, made with stale ghosts, is not the global one):
     * columns own[0] .. own[2]-1, rows own[1] .. own[3]-1, 0-based; own[2] == 0: every cell. */
    int own[4];
    /* The fast CPU solvers' threads (kp, roe, hllc, sediment): 0, as many as the cores other programs leave,
     * at most OpenMP's count (cpu_ref/cpu_info.h); N > 0: N, always (--tune cpu.threads=N) */
    int threads;
    /* roe's fast CPU solver's vector instructions (cpu_ref/roe_fast.c): SWE_ISA_AUTO, the
     * widest the CPU has; or SSE2, AVX2, AVX-512 (an error where the CPU lacks it) */
    int isa;
} swe_problem;

enum { SWE_ISA_AUTO = 0, SWE_ISA_SSE2 = 1, SWE_ISA_AVX2 = 2, SWE_ISA_AVX512 = 3 };

/* The face of a first-order scheme whose update is the draining one (roe_cpu.h (M2)-(M5),
 * hllc_cpu.h (H5)-(H7)): one signature in C and in GLSL (shaders/swe/swe_face.glsl, where
 * the GPU's edge engine, solver/schemes/roe/roe_gpu*.c, calls the scheme's), as Basilisk's
 * riemann.h or GeoClaw's rpn2.  wL, wR: (h, qx, qy) of cells L (west/south) and R
 * (east/north); zL, zR their bed elevations; (ex, ey) the unit normal from L to R.
 * Writes *F_h, the mass flux per unit length from L to R, mL the momentum flux per unit
 * length L loses and mR the one R gains; returns the face's speed s_e (the bound is
 * dt = 2 cfl |V| / sum_e |Gamma_e| s_e).  hllc_face is one (hllc_cpu.h). */
typedef double swe_face_fn(const double wL[3], const double wR[3], double zL, double zR, double ex, double ey,
                           double g, double h_dry, double *F_h, double mL[2], double mR[2]);
/* Its boundary counterpart: a face between active cell a (wa, bed za) and a ghost of
 * cell code c (swgl_grid.h) with segment value v and largest value vmax (0 without a
 * segment; GLSL passes them as bv = (v, vmax)); ghost_low: the ghost is L.  The same
 * outputs; a wall moves no mass.  hllc_boundary_face is one. */
typedef double swe_bface_fn(unsigned char c, double v, double vmax, const double wa[3], double za, double ex,
                            double ey, int ghost_low, double g, double h_dry, double *F_h, double mL[2],
                            double mR[2]);

/* Whether interior cell (i, j) (1-based, grid_at's) counts in the bound (swe_problem own). */
static inline int swe_owns(const swe_problem *p, int i, int j)
{
    return p->own[2] == 0 || (i - 1 >= p->own[0] && i - 1 < p->own[2] && j - 1 >= p->own[1] && j - 1 < p->own[3]);
}

/* ---- Boundary data, rain and point sources (docs/boundaries.md) -----------------------
 *
 * Time series: n >= 1 rows (t_k, v_k) with t increasing; the value at t is the linear
 * interpolation between rows, the first value before t_0, the last after t_{n-1} (a
 * constant is one row).
 *
 * The ring's ghosts (swgl_grid.h) are grouped in segments, one per item of a side's
 * [boundary] list that is not a wall; the ring index of the ghost beside interior row or
 * column m of a side is SWE_RING(side, m, M) = side * M + m (side 0 west, 1 east, 2
 * south, 3 north; m from the south or west end; M = max(nx, ny)).  Each segment has a
 * code and, for the codes with a value, a series.  At a face between an active cell and
 * a ghost of the ring, with the active side's depth h_a and velocities (un, ut) at the
 * face (normal un positive out of the domain; kp: its point value; roe: its cell) and the
 * face's bed B_f:
 *   CELL_WALL       the exterior (h_a, -un, ut): a mirror;
 *   CELL_FREE       the exterior (h_a, un, ut): a copy;
 *   CELL_LEVEL = v  the exterior depth max(v - B_f, 0): the given surface; with the
 *                   interior's velocities (un, ut) where it is not deeper than the
 *                   interior (water leaves, or the two are level), at rest where it is
 *                   deeper (water comes in from a still reservoir, tide or lake: copying
 *                   an inflowing velocity into a deeper exterior would feed the inflow
 *                   its own momentum, faster every step); where the bed is above v the
 *                   exterior is dry (water may leave, none comes in);
 *   CELL_DEPTH = v  the exterior depth v, velocities as for a level;
 *   CELL_DISCHARGE  no exterior state: the face carries the imposed flux of
 *                   swe_discharge_flux with q = Q(t) / L, Q(t) the segment's series
 *                   (m^3/s, >= 0, into the domain) spread evenly over the segment's
 *                   length L (wet or dry cells alike: an inflow must be able to start on
 *                   a dry bed).
 * Rain: rate(k, t) = rain[k] (m/s) times the rain series' value at t when rain_series >=
 * 0 (a hydrograph in mm/h: rain[] is then 1 / 3.6e6), added to the mass rate of every
 * active cell.  Point sources: Q(t) m^3/s of series src_series[s] into active cell
 * src_cell[s] (a grid_at index), added to its mass rate as Q / (dx dy); where Q < 0 the
 * update takes no more than the cell holds (swe_source_take).
 *
 * Over a step [t, t + dt] every series is applied by its exact mean (swe_series_mean:
 * the integral of the piecewise-linear series over the step, / dt), so that what a run
 * adds is the series' integral to rounding, whatever the step and the rows inside it:
 *   rain     falls at the end of the step as dt times its mean (swe_clock_rain);
 *   sources  add dt Q-bar (Euler), or Q-bar in both stages of RK2 (stage 0's update
 *            enters the step with weight 1/2, stage 1's dt/2: dt Q-bar in all);
 *   discharge faces are evaluated with the series' value at the stage's time (t, or
 *            t + dt in RK2's stage 1: the face's momentum and wave speed, and so the
 *            step's bound, need it before dt is known); once dt is known each stage's
 *            update adds to the active cell beside the face its volume rate
 *            (Q-bar - Q(t_stage)) / L times the face's length (swe_clock_inflow), so
 *            the faces' mass over the step is dt Q-bar exactly, as for the sources.
 * The accounts book what was added. */
#define SWE_RING(side, m, M) ((size_t)(side) * (size_t)(M) + (size_t)(m))

typedef struct swe_series {
    int n;
    const double *t, *v;
} swe_series;

typedef struct swe_segment {
    unsigned char code;         /* CELL_FREE, CELL_LEVEL, CELL_DEPTH or CELL_DISCHARGE */
    int series;                 /* the value's series, -1 for a free outlet */
    double length;              /* m: the faces' total length */
    double vmax;                /* the largest value over the series (discharge: per unit
                                 * width), for swe_boundary_speed */
} swe_segment;

typedef struct swe_forcing {
    int n_series;
    const swe_series *series;
    int n_seg;
    const swe_segment *seg;
    const int *seg_of;          /* 4 M entries (SWE_RING): a ghost's segment, -1 for a wall */
    const double *rain;         /* grid_size: m/s (times the rain series), NULL: no rain */
    int rain_series;            /* -1: rain[] is the rate */
    int n_src;
    const size_t *src_cell;     /* grid_at index of an active cell */
    const int *src_series;      /* m^3/s */
    double datum;               /* m: the elevation the solver's bed is measured from (its
                                 * z = 0); a level's values are elevations, less datum */
    /* A block of a run over MPI ranks (solver/schemes/core/scheme_mpi.c; NULL / 0 otherwise):
     * ring_count (4 M): 1 where the ring face's volume counts in this block's accounts (its
     * active side is one of the block's own cells), 0 where another rank counts it;
     * whole, whole_h: the whole grid's problem and depths, for what must be the whole
     * grid's (the rain's largest rate and its release quantum, the sources' cap on dt),
     * computed by every block alike without asking the others; forced: the whole grid has
     * boundary data, rain or sources (so every block runs the forced paths, whatever lies
     * in it); src_global: each source's index in the whole grid's list, or -1 where
     * another rank owns its cell (applied here, accounted there). */
    const unsigned char *ring_count;
    const struct swe_problem *whole;
    const double *whole_h;
    int forced;
    const int *src_global;
} swe_forcing;

/* The ring index (SWE_RING) of the ghost (i, j) of the ring (grid_at coordinates) and its
 * segment; -1 when (i, j) is not on the ring (corners included) or f has no segments. */
static inline int swe_ring_of(const struct swe_forcing *f, int nx, int ny, int M, int i, int j, size_t *r)
{
    if (!f || !f->n_seg) return -1;
    if (i == 0 && j >= 1 && j <= ny) *r = SWE_RING(0, j - 1, M);
    else if (i == nx + 1 && j >= 1 && j <= ny) *r = SWE_RING(1, j - 1, M);
    else if (j == 0 && i >= 1 && i <= nx) *r = SWE_RING(2, i - 1, M);
    else if (j == ny + 1 && i >= 1 && i <= nx) *r = SWE_RING(3, i - 1, M);
    else return -1;
    return f->seg_of[*r];
}

/* The point sources of one cell act together, on every backend: their rises are summed
 * and taken at once (swe_source_take), so that no order among them matters.
 * swe_sources_at_cell: for source q, 0 when an earlier source has the same cell (it took
 * them all), else the number n of sources in q's cell (q first, at most
 * SWE_SOURCES_PER_CELL: swe_clock_init refuses more), their indices, their rises add[m]
 * = src_q * scale (m) and the sum *total.  swe_sources_account: the volume the cell
 * received (applied, m^3, < 0 where it lost) to the sources' accounts with weight w:
 * where some take, the adding ones their rise and the taking ones the rest in proportion
 * to theirs; where all add, the applied volume in proportion. */
#define SWE_SOURCES_PER_CELL 16
struct swe_account;
int swe_sources_at_cell(const struct swe_forcing *f, int q, const double *src_q, double scale, int *members,
                        double *add, double *total);
void swe_sources_account(struct swe_account *a, const int *members, const double *add, int n, double applied,
                         double area, double w);

/* The value of a series at t, and its exact mean over [t, t + dt] (the value at t where
 * dt <= 0): gpgpu/base/swgl_series.h. */
double swe_series_at(const swe_series *s, double t);
double swe_series_mean(const swe_series *s, double t, double dt);

/* The forcing at time t: per segment the value its faces use (level: m above the datum;
 * depth: m;
 * discharge: m^2/s per unit width, Q / L; free: 0), the rain series factor (1 without a
 * series) and each source's Q (m^3/s).  Any output may be NULL. */
void swe_forcing_at(const swe_forcing *f, double t, double *seg_val, double *rain_factor, double *src_q);
/* The same as means over [t, t + dt] (swe_series_mean). */
void swe_forcing_mean(const swe_forcing *f, double t, double dt, double *seg_val, double *rain_factor,
                      double *src_q);

/* The imposed flux of a discharge face (q >= 0 m^2/s into the domain; h_a the active
 * side's depth at the face): mass q, normal momentum flux (into the domain)
 *     M = q^2 / h_b + g h_b^2 / 2,   h_b = max(h_a, (q^2 / g)^(1/3))
 * (the water enters at the interior depth, or at critical depth where the interior is
 * shallower or dry; with q = 0 it is a wall with the interior's pressure, so a lake at
 * rest stays at rest), tangential momentum flux 0 (the inflow is normal to the face).
 * Returns the face's wave speed q / h_b + sqrt(g h_b) (0 when h_b = 0). */
static inline double swe_discharge_flux(double q, double h_a, double g, double *M)
{
    double hc = q > 0.0 ? cbrt(q * q / g) : 0.0, hb = h_a > hc ? h_a : hc;
    if (!(hb > 0.0)) {
        *M = 0.0;
        return 0.0;
    }
    *M = q * q / hb + 0.5 * g * hb * hb;
    return q / hb + sqrt(g * hb);
}

/* The smallest speed a face of a value code counts in the time-step bound, whatever
 * the state: the speed of the water its largest value would bring onto a dry bed (a
 * level or depth h: the dam-break front 2 sqrt(g h); a discharge q: critical inflow,
 * 2 (g q)^(1/3)).  Without it a dry domain whose inflow starts at 0 would allow any
 * step, and the next stage would pour a whole hydrograph into one cell. */
static inline double swe_boundary_speed(int code, double vmax, double B_f, double g)
{
    double h = code == CELL_LEVEL ? vmax - B_f : code == CELL_DEPTH ? vmax : 0.0;
    if (code == CELL_DISCHARGE) return vmax > 0.0 ? 2.0 * cbrt(g * vmax) : 0.0;
    return h > 0.0 ? 2.0 * sqrt(g * h) : 0.0;
}

/* The depth of the exterior a ghost of a value code shows (level: max(v - B_f, 0);
 * depth: v); h_a for the others. */
static inline double swe_exterior_depth(int code, double v, double B_f, double h_a)
{
    return code == CELL_LEVEL ? (v - B_f > 0.0 ? v - B_f : 0.0) : code == CELL_DEPTH ? v : h_a;
}

/* Whether a level or depth exterior of depth he beside an active side of depth ha is at
 * rest (deeper: water comes in) rather than moving with the interior. */
static inline int swe_exterior_at_rest(int code, double he, double ha)
{
    return (code == CELL_LEVEL || code == CELL_DEPTH) && he > ha;
}

/* What a backend accumulates from the start of the run (m^3): per segment the volume in
 * and out through its faces, the rain, per source what it added (< 0: took), and what
 * the h < 0 clip added. */
typedef struct swe_account {
    int n_seg, n_src;
    double *seg_in, *seg_out, *src;
    double rain, clip;
} swe_account;

swgl_status swe_account_init(swe_account *a, const swe_forcing *f);   /* zeroed totals */
void swe_account_free(swe_account *a);
void swe_account_copy(const swe_account *a, swe_account *to);          /* same shape */
/* Adds w dt times the boundary faces' volume rates ring_rate (4 M entries, m^3/s into the
 * domain, by SWE_RING) to the segments' in or out. */
void swe_account_faces(swe_account *a, const swe_forcing *f, const double *ring_rate, int M, double w_dt);
/* Adds the GPU's sums of the boundary faces (4 M texels by SWE_RING, each (in, its low word,
 * out, its low word) in m^3: shaders/swe/swe_ring_acc.glsl) to the segments' in and out, each
 * pair added in double. */
void swe_account_pairs(swe_account *a, const swe_forcing *f, const float *sums, int M);

/* What a solver keeps of the forcing while it runs: the values of the stage it is in,
 * the boundary faces' volume rates of that stage (filled by the solver), and the
 * accounts.  Shared by every backend of roe and kp, so the accounting is written once:
 *   swe_clock_stage(c, k):   before stage k's rates: the values at t (k = 0) or at
 *                            t + dt (k = 1, dt from stage 0's apply);
 *   swe_clock_applied(c, k, stages, dt):  after stage k's update with dt: adds w dt
 *                            ring_rate to the accounts (w = 1/2 in RK2, 1 in Euler),
 *                            and after the last stage moves t to t + dt.
 *   swe_clock_step(c, dt):   at the start of stage 0's update, dt known: the step's
 *                            means (swe.h "over a step"): src_q and the rain become the
 *                            step's means for every stage, seg_fix each discharge
 *                            segment's mean less the value the stage's faces used;
 *                            swe_clock_stage(c, 1) then sets only the faces' values.
 * The time loop sets t exactly at the start of a step, with its next stop
 * (swe_clock_set_time). */
typedef struct swe_clock {
    const swe_forcing *f;
    int M;                      /* max(nx, ny) */
    double t, dt0, stop;        /* stop: the time loop's next stop (+inf: none given) */
    double *seg_val, rain_factor, *src_q;
    double *seg_mean, *seg_fix;  /* the step's means; a discharge hydrograph: mean - seg_val, else 0 */
    unsigned char *seg_hydro;    /* per segment: a discharge whose series varies (seg_fix's) */
    int n_fix;                   /* swe_clock_inflow's faces (4 M entries each): */
    size_t *fix_cell, *fix_ring; /* the active cell, the ring face */
    double *fix_add, *fix_rate;  /* the rise (m), the volume rate (m^3/s) */
    size_t *ring_cell;           /* 4 M: the active cell beside each ring face, SIZE_MAX: none */
    double dx, dy;
    double *ring_rate;          /* 4 M: m^3/s into the domain, by SWE_RING */
    double rain_area;           /* sum over active cells of rain[k] dx dy (m^3/s per unit factor) */
    double dt_cap;              /* s: the largest step rain and sources allow (+inf: none) */
    /* rain (swe_clock_rain): the factor's mean over the step, what has fallen and not yet
     * been added (s x factor), the least worth adding, what the last update added */
    double rain_mean, rain_pending, rain_quantum, rain_max, rain_applied;
    swe_account acc;
} swe_clock;

/* f = p->forcing (may be NULL).  dt_cap: water that rain or a source puts on a dry bed
 * moves at the gravity-wave speed of the depth it adds in a step, r dt (r the largest
 * rate, m/s: rain, or Q / (dx dy) of a source), so the CFL condition dt sqrt(g r dt) <=
 * cfl min(dx, dy) caps the step at (cfl min(dx, dy) / sqrt(g r))^(2/3) even where the
 * state allows any step (a dry domain). */
swgl_status swe_clock_init(swe_clock *c, const swe_problem *p);   /* SWGL_ERR_ARG: > SWE_SOURCES_PER_CELL in a cell */
void swe_clock_free(swe_clock *c);
void swe_clock_set_time(swe_clock *c, double t, double stop);
void swe_clock_stage(swe_clock *c, int stage);
void swe_clock_applied(swe_clock *c, int stage, int stages, double dt);
void swe_clock_step(swe_clock *c, double dt);
/* The discharge faces' correction of a stage's update (swe.h "over a step"), after the
 * stage's ring_rate is set: for each face of a discharge segment whose interior cell is
 * active, its grid_at index c->fix_cell[m] and the rise c->fix_add[m] = w_dt seg_fix
 * len / (dx dy) (m; w_dt the stage's weight times dt, as the sources': dt in stage 0,
 * dt/2 in RK2's stage 1), which the solver adds to the cell's depth (a rise < 0 that
 * would leave it below its bed is clipped, as the update's rounding is, and booked);
 * fix_rate[m] = seg_fix len the face's volume rate.  Returns the count (0 when every
 * seg_fix is 0: a constant series, or no discharge).  swe_clock_inflow_rates, once the
 * stage's ring_rate is set, adds the rates to it, so the accounts book what was added. */
int swe_clock_inflow(swe_clock *c, double w_dt);
void swe_clock_inflow_rates(swe_clock *c);
/* Rain falls as a step of its own at the end of each time step: the multiplier of rain[]
 * (s) the update of stage `stage` adds, 0 but in the last stage, where it is what fell
 * since the last addition: dt times the rate's mean over the step (swe_clock_step).  A solver that keeps the surface w in float sets a quantum
 * (swe_clock_rain_quantum): the rain then waits until it adds at least 64 ulp of the
 * largest |w| to a cell, because float rounds a small increment the same way every step
 * (an increment of 2.1 ulp loses 0.1 ulp each time: 5% of the rain), where a pulse of
 * 64 ulp or more loses under 1%, at random.  What waits falls anyway on the step that
 * reaches the next stop (an output time, the end) and on a step where the rain has
 * stopped.  What is added is accounted (swe_clock_applied). */
double swe_clock_rain(swe_clock *c, int stage, int stages, double dt);
/* The quantum for a solver of machine epsilon eps that keeps w: 64 eps times the largest
 * |w| = |bed| + h over the active cells of the state h (grid_size) plus 1 m (for what
 * rain and inflows add); called with each new state (set_state). */
void swe_clock_rain_quantum(swe_clock *c, const swe_problem *p, double eps, const double *h);

/* Whether the problem has open boundary faces, rain or sources (0: nothing to account). */
int swe_forcing_any(const swe_forcing *f);
/* Whether v takes more than one value */
int swe_series_varies(const swe_series *v);
/* Whether f is boundary faces only, each open (free), a level or depth (a number or a
 * series) or a discharge that holds its value (a number, or a series of one value), with
 * no rain, no source and not a block of a run over MPI ranks: data a GPU step can hold
 * without the host's clock (no cell is drawn again; a series' value at a stage's time is
 * computed on the GPU from the GPU's clock: solver/schemes/swe/gpu_bvals.h), so the GPU
 * backends keep such runs on their kernels.  A discharge hydrograph is not: the cells
 * beside its faces are drawn again with the step's mean (gpu_redraw.h). */
int swe_forcing_faces_on_gpu(const swe_forcing *f);
/* Whether a segment of f (not free) takes more than one value over the run */
int swe_forcing_faces_vary(const swe_forcing *f);
/* SWGL_ERR_ARG (with the message) where a cell has more than SWE_SOURCES_PER_CELL sources. */
swgl_status swe_sources_check(const swe_forcing *f);

/* A source's update of a surface w over bed B by add (m; < 0 takes water): w + add, but
 * never below B (no more than the cell holds). */
static inline double swe_source_take(double w, double B, double add)
{
    double v = w + add;
    return add >= 0.0 ? v : v > B ? v : B;
}

/* The one validation of a problem, called by every backend (CPU and GPU): SWGL_ERR_ARG
 * with "swe: ..." naming what is wrong (nx, ny >= 1; dx, dy, g > 0; cfl in (0, 1];
 * h_dry, kappa >= 0; H and code given). */
swgl_status swe_problem_check(const swe_problem *p);

#endif
