/* sediment.h — the dual-lithology (Rivenaes) sediment model of Su et al. (2013),
 * equations (1)-(2), and its CPU reference solvers (the explicit scheme (3)-(4)).
 *
 * Grid of nx*ny points with one ring of ghost points (Su 3.1).  Per-point arrays have
 * (nx+2)*(ny+2) entries indexed as every grid of swgl_grid.h: k = j*(nx+2) + i, i = 0..nx+1
 * west to east, j = 0..ny+1 south to north; interior points i = 1..nx, j = 1..ny; the
 * point (i, j) sits at x = (i-1) dx, y = (j-1) dy.
 */
#ifndef SWGL_SEDIMENT_H
#define SWGL_SEDIMENT_H

#include "swgl_error.h"
#include "swgl_grid.h"

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

/* The one validation of a sediment problem, called by every backend: SWGL_ERR_ARG with
 * "sediment: ..." naming what is wrong (grid, dx/dy, cs/cm/layer, alpha/beta >= 0 at
 * every point, the inflow segment and rates, alpha/beta > 0 where sediment flows in,
 * dt > 0). */
swgl_status sed_problem_check(const sed_problem *p);

/* A copy of p that owns its alpha and beta (*alpha, *beta, grid_size, freed by the
 * caller), their ghost ring copied from the boundary points; SWGL_ERR_NO_MEMORY. */
swgl_status sed_problem_copy(const sed_problem *p, sed_problem *out, double **alpha, double **beta);

/* NULL with the message set (sed_problem_check, or out of memory). */
sed_cpu *sed_cpu_create(const sed_problem *p, enum sed_cpu_kind kind);
void sed_cpu_destroy(sed_cpu *s);
void sed_cpu_set_state(sed_cpu *s, const double *h, const double *sand);
void sed_cpu_get_state(const sed_cpu *s, double *h, double *sand);
/* The state (h, s) of the w x h points from (x, y) (grid_at coordinates) into buf, 2 values
 * a point, rows from the south (set 0), or from buf into the state (set 1): the halo of a
 * domain decomposition (solver/schemes/core/scheme_mpi.c); the ghosts are filled again before
 * each pass, as always. */
void sed_cpu_halo(sed_cpu *s, int set, int x, int y, int w, int h, double *buf);
/* n steps of (3) then (4), with the ghost points set from the boundary fluxes before
 * each pass.  Returns 0, or -1 if a NaN appeared. */
int sed_cpu_run(sed_cpu *s, int steps);
/* One step of (3) then (4) with this dt (at most p->dt, the step the problem was checked
 * for); no NaN check (sed_cpu_run does one at its end). */
void sed_cpu_step(sed_cpu *s, double dt);
/* 1 if the state holds a NaN or an infinity (at an interior point). */
int sed_cpu_blown(const sed_cpu *s);
int sed_cpu_threads(const sed_cpu *s);
/* The fast solver's threads: n fixed, or 0 (the default) as many as the cores the other
 * programs leave, looked at every 0.25 s, at most OpenMP's count (cpu_info.h cpu_load) */
void sed_cpu_set_threads(sed_cpu *s, int n);
int sed_cpu_is_fast(const sed_cpu *s);                  /* 1: SSE2 + OpenMP, 0: scalar */
const sed_problem *sed_cpu_problem(const sed_cpu *s);   /* its copy of the problem */
const char *sed_cpu_name(const sed_cpu *s);

/* ---- additions (docs/sediment.md explains each) ------------------------------------ */

/* dt limit including the upwind-advection limit of the s pass evaluated on the state h
 * ((nx+2)*(ny+2), ghosts ignored): min(sed_dt_limit(p), dt_diff * A / max|h_N - h_P|). */
double sed_dt_limit_state(const sed_problem *p, const double *h);

/* Constants of one step, precomputed once so that every kernel (scalar, SSE2, GLSL)
 * multiplies by the same numbers. */
typedef struct sed_consts {
    double dt;
    double rdx2, rdy2;          /* 1/dx^2, 1/dy^2 */
    double ics, icm;            /* 1/C_s, 1/C_m */
    double layer;               /* A */
    double px, py;              /* 1/(2 C_s dx^2), 1/(2 C_s dy^2): the factors of (4) */
    int threads;                /* the fast passes' OpenMP threads this step (1: sed_consts_init) */
} sed_consts;
void sed_consts_init(sed_consts *c, const sed_problem *p);

/* ---- per-point rules: pure functions of the 5-point stencil ---------------------------
 * Stencil arrays are ordered  [0] = C (i,j), [1] = W (i-1,j), [2] = E (i+1,j),
 * [3] = S (i,j-1), [4] = N (i,j+1).  The GLSL h and s passes are line-by-line copies. */

/* Point diffusivity of (1):  K = alpha s / C_s + beta (1 - s) / C_m. */
static inline double sed_k(double a, double b, double s, double ics, double icm)
{
    return a * s * ics + b * (1.0 - s) * icm;
}

/* Face value of K between C and a neighbour N.
 *   paper:        K_{i+1/2} = (K_C + K_N) / 2   (the arithmetic means of (3))
 *   conservative: K of the higher of the two points (upwind w.r.t. the flow -grad h) */
static inline double sed_face(int form, double kC, double kN, double hC, double hN)
{
    if (form == SED_FORM_PAPER) return 0.5 * (kC + kN);
    return hN > hC ? kN : kC;
}

/* h pass, (3):  h+ = h + dt [ (K_E (h_E - h_C) + K_W (h_W - h_C)) / dx^2
 *                             + (K_N (h_N - h_C) + K_S (h_S - h_C)) / dy^2 ]
 * with face values K_W, K_E, K_S, K_N from sed_face. */
static inline double sed_point_h(int form, const sed_consts *c, const double h[5],
                                 const double s[5], const double a[5], const double b[5])
{
    double k[5];
    for (int q = 0; q < 5; q++) k[q] = sed_k(a[q], b[q], s[q], c->ics, c->icm);
    double fW = sed_face(form, k[0], k[1], h[0], h[1]);
    double fE = sed_face(form, k[0], k[2], h[0], h[2]);
    double fS = sed_face(form, k[0], k[3], h[0], h[3]);
    double fN = sed_face(form, k[0], k[4], h[0], h[4]);
    double lap = (fE * (h[2] - h[0]) + fW * (h[1] - h[0])) * c->rdx2
               + (fN * (h[4] - h[0]) + fS * (h[3] - h[0])) * c->rdy2;
    return h[0] + c->dt * lap;
}

/* s pass.  Both forms solve  A (s+ - s) + s+ (h+_C - h_C) = dt RHS  for s+:
 *     s+ = (A s_C + dt RHS) / (A + h+_C - h_C).
 * paper, (4) as printed (hn = h^{l+1}):
 *     RHS = [d_x(alpha s)] (hn_E - hn_W) / (2 C_s dx^2) + [d_y(alpha s)] (hn_N - hn_S) / (2 C_s dy^2)
 *     d_x(alpha s) = (alpha s)_C - (alpha s)_W  if hn_W > hn_E,  else (alpha s)_E - (alpha s)_C;
 * conservative, the sand part of the h pass's fluxes (hl = h^l, the same faces, the same
 * upwind choice, so sum over points of dt RHS is exactly the sand the h pass moved):
 *     RHS = (sig_E (hl_E - hl_C) + sig_W (hl_W - hl_C)) / dx^2 + (sig_N .. + sig_S ..) / dy^2,
 *     sig_f = (alpha s)_up / C_s,  up = the higher (in hl) of C and the neighbour. */
static inline double sed_point_s(int form, const sed_consts *c, const double hl[5],
                                 const double hn[5], const double s[5], const double a[5])
{
    double rhs;
    if (form == SED_FORM_PAPER) {
        double u0 = a[0] * s[0];
        double gx = hn[1] > hn[2] ? u0 - a[1] * s[1] : a[2] * s[2] - u0;
        double gy = hn[3] > hn[4] ? u0 - a[3] * s[3] : a[4] * s[4] - u0;
        rhs = c->px * gx * (hn[2] - hn[1]) + c->py * gy * (hn[4] - hn[3]);
    } else {
        double u[5];
        for (int q = 0; q < 5; q++) u[q] = a[q] * s[q] * c->ics;
        double fW = sed_face(form, u[0], u[1], hl[0], hl[1]);
        double fE = sed_face(form, u[0], u[2], hl[0], hl[2]);
        double fS = sed_face(form, u[0], u[3], hl[0], hl[3]);
        double fN = sed_face(form, u[0], u[4], hl[0], hl[4]);
        rhs = (fE * (hl[2] - hl[0]) + fW * (hl[1] - hl[0])) * c->rdx2
            + (fN * (hl[4] - hl[0]) + fS * (hl[3] - hl[0])) * c->rdy2;
    }
    return (c->layer * s[0] + c->dt * rhs) / (c->layer + (hn[0] - hl[0]));
}

/* Ghost rule.  A ghost point G takes its values from the boundary point P next to it
 * (alpha_G = alpha_P, beta_G = beta_P always), given the prescribed inflow rates qs, qm
 * (m^2/s, >= 0; both 0 on a closed boundary) and dn, the spacing normal to the side:
 *   closed (qs + qm == 0):  h_G = h_P,  s_G = s_P  (mirror about the boundary face: no flux);
 *   inflow:  X = qs C_s / alpha_P,  Y = qm C_m / beta_P,  s_G = X / (X + Y),
 *            conservative: h_G = h_P + dn (X + Y),
 *            paper:        h_G = h_P + dn (qs + qm) / ((K_P + K(s_G)) / 2);
 * so that the face's discrete fluxes are exactly qs / dn (sand, conservative form) and
 * (qs + qm) / dn (total, both forms) per unit area of the point's cell.  out[0] = h_G,
 * out[1] = s_G.  Derivation: docs/sediment.md. */
static inline void sed_ghost(int form, const sed_consts *c, double qs, double qm, double dn,
                             double hP, double sP, double aP, double bP, double out[2])
{
    if (!(qs + qm > 0.0)) {
        out[0] = hP;
        out[1] = sP;
        return;
    }
    double X = qs > 0.0 ? qs / (aP * c->ics) : 0.0;
    double Y = qm > 0.0 ? qm / (bP * c->icm) : 0.0;
    double sG = X / (X + Y);
    double jump;
    if (form == SED_FORM_PAPER)
        jump = dn * (qs + qm) / (0.5 * (sed_k(aP, bP, sP, c->ics, c->icm) + sed_k(aP, bP, sG, c->ics, c->icm)));
    else
        jump = dn * (X + Y);
    out[0] = hP + jump;
    out[1] = sG;
}

/* The one ghost fill of every backend: the ghost ring of h (and, if sg is not NULL, of
 * sg) by sed_ghost applied to the boundary points of h and s (alpha, beta with their
 * ghost ring copied from the boundary points); corners take the diagonal point's
 * values so that output grids hold no garbage. */
void sed_fill_ghosts(const sed_problem *p, const sed_consts *c, const double *alpha,
                     const double *beta, double *h, const double *s, double *sg);

/* Internal: the passes of the two CPU kinds, on arrays with the ghost ring already set
 * (alpha, beta with ghosts copied from their boundary points). */
void sed_scalar_h_pass(const sed_problem *p, const sed_consts *c, const double *alpha,
                       const double *beta, const double *h, const double *s, double *hn);
void sed_scalar_s_pass(const sed_problem *p, const sed_consts *c, const double *alpha,
                       const double *h, const double *hn, const double *s, double *sn);
void sed_fast_h_pass(const sed_problem *p, const sed_consts *c, const double *alpha,
                     const double *beta, const double *h, const double *s, double *hn);
void sed_fast_s_pass(const sed_problem *p, const sed_consts *c, const double *alpha,
                     const double *h, const double *hn, const double *s, double *sn);

#endif
