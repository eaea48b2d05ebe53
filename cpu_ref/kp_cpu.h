/* kp_cpu.h — the second-order Kurganov-Petrova (2007) central-upwind scheme as Brodtkorb,
 * Saetra & Altinakar (2011) run it (their (3)-(10)), on the shallow-water problem of
 * swe.h, and its CPU solvers: scalar double (kp_scalar.c, the truth) and fast
 * (kp_fast.c: SIMD over a row + OpenMP over rows, float; or double with
 * KP_CPU_FAST_DOUBLE), with tile early exit.  The GPU passes (shaders/kp/) compute the
 * same equations; docs/kp.md sets them beside the passes.
 *
 * ---- Unknowns and bed ---------------------------------------------------------------
 * Cell averages Q = (w, hu, hv) on the ghost-ring grid (swgl_grid.h), w = B + h the
 * water-surface elevation.  The bed B is bilinear in each cell from its four corner
 * values Bc (corner (i, j) at x = i dx, y = j dy, i = 0..nx, j = 0..ny; interior cell
 * (i, j) of grid_in has the corners (i, j), (i+1, j), (i, j+1), (i+1, j+1)).  Per cell:
 *   face midpoints   B_E = (Bc(i+1, j) + Bc(i+1, j+1)) / 2,  B_W likewise at x = i dx,
 *                    B_N = (Bc(i, j+1) + Bc(i+1, j+1)) / 2,  B_S likewise at y = j dy;
 *   cell average     B_ij = (sum of the four corners) / 4 = (B_E + B_W)/2 = (B_N + B_S)/2.
 * A ghost cell's face values are those of the face it shares with the domain (the bed
 * is continuous across every face; the corners cover the whole grid).  The state the
 * solvers take and give is (h, hu, hv) (h = w - B_ij), like roe's.
 *
 * ---- One evaluation of R(Q) (3), per active cell k --------------------------------
 * eps = p->sw.h_dry: the depth below which water does not move ("depths below a
 * machine-precision threshold set to zero", Brodtkorb 2.1).
 *  1. Neighbour values for the slopes.  For the neighbour m across a face of k:
 *       m ACTIVE:             Q_m;
 *       m WALL (or OFF):      (w_k, hu_k, hv_k) with the normal momentum negated (mirror);
 *       m FREE:               Q_k (zero-order extrapolation).
 *     So across any boundary face the w difference is 0 (the w slope there is 0).
 *  2. Slopes (4), generalized minmod, theta = p->theta in [1, 2], as differences per
 *     cell (not divided by dx), for w, hu, hv, in x from (west m_W, k, east m_E):
 *       d = MM(theta (Q_E - Q_k), (Q_E - Q_W) / 2, theta (Q_k - Q_W))
 *       MM(a, b, c) = min(a, b, c) if all > 0, max(a, b, c) if all < 0, else 0;
 *     in y likewise from (south, k, north).
 *  3. Point values at the four face midpoints: Q_E = Q + d_x/2, Q_W = Q - d_x/2,
 *     Q_N = Q + d_y/2, Q_S = Q - d_y/2.
 *  4. Positivity of w (Figure 1d, Kurganov-Petrova 2007 (2.9)-(2.10)), per direction:
 *       if w_E < B_E:  w_E = B_E, w_W = 2 w - B_E;   else if w_W < B_W:  w_W = B_W,
 *       w_E = 2 w - B_W   (and the same for N/S).  Point depths h_F = w_F - B_F,
 *       then h_F = max(h_F, 0) (rounding).  (w >= B_ij makes both >= 0 in exact
 *       arithmetic, and h_E + h_W = 2 h.)
 *  5. A dry cell (h_k = w_k - B_ij <= eps) gives no water: all its point depths and
 *     point momenta are 0 (w_F = B_F).  A wet cell's point with h_F <= eps is dry too:
 *     h_F = 0, u_F = v_F = 0.
 *  6. Desingularized point velocities (5)-(6), kappa = p->sw.kappa (m):
 *       u_F = sqrt(2) h_F (hu)_F / sqrt(h_F^4 + max(h_F^4, kappa^4))   (v likewise),
 *     and the point momenta recomputed as (hu)_F = h_F u_F, (hv)_F = h_F v_F.
 *     (For h_F >= kappa this is u = hu/h.)
 *  7. Central-upwind flux across each face with at least one ACTIVE side, from the
 *     point values on its two sides: minus (low side: the west/south cell's E/N point)
 *     and plus (the east/north cell's W/S point).  A boundary face's ghost side takes
 *     the active side's point value through the rule of 1 (wall: normal momentum and
 *     velocity negated; free: copied), its bed the face's B_F.  With the normal
 *     velocity un and c = sqrt(g h) at each point:
 *       a+ = max(un- + c-, un+ + c+, 0),   a- = min(un- - c-, un+ - c+, 0)
 *       F(Q) = (h un, h un u + g h^2/2, h un v) in x (in y: (h vn, h vn u, h vn v +
 *       g h^2/2)), with h un = (hu)_F recomputed in 6;
 *       if a+ - a- > 0:  Flux = (a+ F(Q-) - a- F(Q+)) / (a+ - a-)
 *                               + a+ a- / (a+ - a-) (Q+ - Q-)
 *       where the mass row's Q+ - Q- is h+ - h- (= w+ - w-: both points share B_F;
 *       written with the point depths of 4-6, which avoids the cancellation of w - B
 *       in float and agrees with the zeroed depths of 5), and the momentum rows use
 *       the recomputed point momenta of 6;
 *       else Flux = 0.
 *     A wall face therefore carries no mass: the mirror gives a+ = -a- and h+ = h-, so
 *     the mass flux is 0 (every backend writes it as 0: a fused multiply-add of
 *     ap qm - am qp would leave a residue).  Face speed a = max(a+, -a-).
 *  8. Bed source (well balanced against the g h^2/2 of the fluxes):
 *       S_hu = -g (B_E - B_W) / dx * (h_E + h_W) / 2,
 *       S_hv = -g (B_N - B_S) / dy * (h_N + h_S) / 2
 *     with k's own point depths (after 4 and 5).
 *  9. R_k = -(Flux_E - Flux_W) / dx - (Flux_N - Flux_S) / dy + (0, S_hu, S_hv).
 * 10. Local time-step bound (8): r_k = min(dx / max(a_E, a_W), dy / max(a_N, a_S)),
 *     x / 0 = +inf; the step bound is cfl * min_k r_k (cfl = p->sw.cfl, default 0.25:
 *     a quarter cell per step, the paper's (8) and the positivity condition of the
 *     scheme).  A NaN or an infinity in an active cell's state, or a NaN in R, makes the
 *     bound NaN (a blow-up).
 * A tile of cells that is dry (every h <= eps), with its four edge-neighbour tiles dry,
 * has R = 0 and r = +inf exactly (every point depth is 0, so every flux and source is
 * 0): early exit skips it and changes nothing, bit for bit.
 *
 * ---- Time integration with friction (7), (9)-(10), per active cell -----------------
 * Manning: H~f(Q) = g n^2 sqrt(u^2 + v^2) / h^(4/3) (>= 0) with the desingularized cell
 * velocity (6) (u = sqrt(2) h hu / sqrt(h^4 + max(h^4, kappa^4))) and n from p->manning
 * (NULL: n = 0, no friction); a cell with h <= eps has H~f = 0 (its momentum is zeroed
 * below anyway).
 *   stage 0 (Euler, and RK2's first):  w* = w + dt R_w,
 *                                      (hu)* = (hu + dt R_hu) / (1 + dt H~f(Q^n))
 *   stage 1 (RK2):  w^{n+1} = 0.5 (w^n + (w* + dt R_w(Q*))),
 *                   (hu)^{n+1} = 0.5 ((hu)^n + ((hu)* + dt R_hu(Q*))) / (1 + 0.5 dt H~f(Q*))
 *   (written in this order of operations on every backend)
 * then, per updated cell, h = w - B_ij: h < 0 -> w = B_ij (rounding only: the scheme
 * keeps h >= 0 for cfl <= 1/4; kp_cpu_clip_stats reports what it added),
 * h <= eps -> hu = hv = 0, and eps < h < kappa -> hu = h u, hv = h v with the velocities
 * of (6) (the cell momentum desingularized as the point momenta are, roe's (M5): without
 * it a thin cell at a receding shore keeps momentum while it loses depth, cell
 * velocities of 60 m/s appear where the exact one is 0.7, and the bound (8) follows
 * them: Thacker's case at 100^2 took 11601 RK2 steps a period instead of 1151).
 * Then the thin cells' speed cap (issue 27, item 5): a cell with eps < h < cap_depth whose
 * depth in the stage's state (Q^n, or RK2's Q*) was below cap_depth too has its momentum
 * scaled down, where needed, to the speed S = max over its active neighbours n (the four
 * across its faces) wet (h_n > eps) and deeper than it in the stage's state of
 * |u_n| + 2 sqrt(g h_n), with u_n
 * the velocity (6) of that state: the speed water of n reaches running out onto a dry bed
 * (the Riemann invariant u + 2c of the rarefaction), which no thin cell fed by n can pass.
 * Without a deeper neighbour a cell is left as it is.  Only momentum changes (the volume
 * does not); deep flow, the lake at rest and a front's true speed are untouched (kp_cap).
 * Without it thin cells at Thacker's shore ran at 3.85 m/s where the exact speed is 0.70
 * (docs/kp.md "Thin cells").  Ghost and inactive cells are never updated.  The mass update
 * telescopes (each face's mass flux is added to one cell and subtracted from the other),
 * so sum h |V| changes only by rounding and by the clip.
 */
#ifndef SWGL_KP_CPU_H
#define SWGL_KP_CPU_H

#include "swe.h"

/* Tiles of early exit: KP_TILE x KP_TILE cells (the GPU uses the same). */
#define KP_TILE 16

enum kp_early_exit { KP_EARLY_EXIT_AUTO = 0, KP_EARLY_EXIT_ON = 1, KP_EARLY_EXIT_OFF = 2 };

typedef struct kp_problem {
    swe_problem sw;            /* grid, g, cfl, h_dry (eps above), kappa, code; sw.H = -B_ij */
    const double *Bc;          /* (nx+1)(ny+1) corner bed elevations, index j (nx+1) + i */
    const double *manning;     /* grid_size values of Manning's n (s m^-1/3), or NULL: 0 */
    double cap_depth;          /* m: the thin cells' speed cap below this depth (item above); 0: none */
    double theta;              /* generalized minmod, [1, 2]; Brodtkorb: 1.3 */
    int rk2;                   /* 1: TVD RK2 (7), 0: Euler */
    enum kp_early_exit early_exit;
    int rest_off;              /* 1: early exit's second rule (tiles at rest) off (tune kp.rest=off) */
} kp_problem;

/* The one validation (after swe_problem_check): SWGL_ERR_ARG "kp: ..." (theta in [1, 2],
 * cfl <= 1/4 is not required here, Bc given and finite, manning finite and >= 0). */
swgl_status kp_problem_check(const kp_problem *p);

/* Face and cell bed values of the ghost-ring cell k = grid_at(nx, i, j) (i = 0..nx+1):
 * B_E, B_W, B_N, B_S and B_ij (ghost cells: the value of the face they share with the
 * domain in the direction that touches it; the corners clamped to the grid). */
void kp_cell_bed(const kp_problem *p, int i, int j, double *BE, double *BW, double *BN, double *BS,
                 double *Bij);

/* The point velocity (6): sqrt(2) h q / sqrt(h^4 + max(h^4, kappa^4)) (0 for h <= 0). */
double kp_desing(double h, double q, double kappa);

enum kp_cpu_kind { KP_CPU_SCALAR = 0, KP_CPU_FAST = 1, KP_CPU_FAST_DOUBLE = 2 };

typedef struct kp_cpu kp_cpu;

/* Copies the problem; NULL on bad input or no memory (swgl_last_error()). */
kp_cpu *kp_cpu_create(const kp_problem *p, enum kp_cpu_kind kind);
void kp_cpu_destroy(kp_cpu *s);   /* NULL is fine */

/* State (h, hu, hv) in and out, grid_size arrays; ghost entries ignored on input, 0 on
 * output; h <= eps is stored with q = 0.  set_state starts a step (stage 0). */
void kp_cpu_set_state(kp_cpu *s, const double *h, const double *qx, const double *qy);
void kp_cpu_get_state(const kp_cpu *s, double *h, double *qx, double *qy);
/* The state as the solver stores it, Q^n = (w, hu, hv) in its precision, of the w x h
 * ghost-ring cells from (x, y) (grid_at coordinates) into buf, 3 values a cell, rows from
 * the south (set 0), or from buf into the state (set 1): the halo of a domain
 * decomposition (solver/schemes/core/scheme_mpi.c).  Values got from one solver and set into
 * another of the same kind are the same bits. */
void kp_cpu_halo(kp_cpu *s, int set, int x, int y, int w, int h, double *buf);

/* Stage k (0, and 1 with rk2): R of the stage's state (Q^n for 0, Q* for 1) and the
 * bound cfl min r (+INFINITY when nothing moves, NaN on a NaN). */
double kp_cpu_rates(kp_cpu *s, int stage);
/* Stage k's update with dt (the bound of stage 0 or less).  After the last stage the
 * state is Q^{n+1}.  Returns 0, or -1 if a NaN appeared or dt is not a finite >= 0. */
int kp_cpu_apply(kp_cpu *s, int stage, double dt);
int kp_cpu_stages(const kp_cpu *s);   /* 2 (rk2) or 1 */

/* The time of the next step's stage 0 (s; the solver also moves it by dt after each
 * step): the boundary data, rain and sources of cpu_ref/swe.h are evaluated at it (and
 * at t + dt in RK2's stage 1). */
void kp_cpu_set_time(kp_cpu *s, double t, double stop);
/* The volumes that came in and went out since the start (swe.h swe_account, of the
 * problem's forcing shape). */
void kp_cpu_account(const kp_cpu *s, swe_account *out);

/* The surface w of the active cells (grid_size; the bed's datum as the problem's),
 * exactly as the solver holds it (h = w - B_ij loses bits where |h| is far above |w|),
 * and back after set_state (its momenta kept): a restart then continues bit for bit. */
void kp_cpu_get_surface(const kp_cpu *s, double *w);
void kp_cpu_set_surface(kp_cpu *s, const double *w);

/* What the last apply's clip h < 0 -> 0 added (m^3), may be NULL. */
void kp_cpu_clip_stats(const kp_cpu *s, double *volume);
/* Early exit of the last rates: tiles computed and tiles in all (both 0 when off). */
void kp_cpu_tiles(const kp_cpu *s, long *computed, long *total);
int kp_cpu_threads(const kp_cpu *s);      /* OpenMP threads (1 for scalar) */
int kp_cpu_is_fast(const kp_cpu *s);
const char *kp_cpu_precision(const kp_cpu *s);   /* "single" | "double" */
const char *kp_cpu_name(const kp_cpu *s);  /* "cpu-scalar (double)", "cpu (float, AVX2 x8, 16 threads, early exit on)" */

#endif
