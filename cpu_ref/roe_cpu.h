/* roe_cpu.h — the CPU reference solvers of the Lastra et al. (2009) first-order Roe
 * scheme on the shallow-water problem of swe.h: the edge flux (roe_flux.c, the function
 * the GLSL edge pass transliterates), the scalar double solver (roe_scalar.c, the
 * accuracy reference) and the fast SIMD + OpenMP solver, float or double (roe_fast.c). */
#ifndef SWGL_ROE_CPU_H
#define SWGL_ROE_CPU_H

#include "swe.h"

/* One edge of the Roe scheme, (5)-(7) with the Harten-Hyman entropy fix and the two
 * emerging-bottom cases of Castro et al. (Lastra 3.1 remark 4).
 *   wi, wj   states (h, qx, qy) of the cells on each side;
 *   Hi, Hj   depth function of each cell;
 *   ex, ey   unit normal pointing from i to j;
 * Writes fi = F-_ij (what cell i subtracts, times dt/|V_i| |Gamma|) and
 *        fj = F-_ji (the same for cell j, with the normal reversed).
 * Returns max |lambda| of the Roe matrix (its ||D_ij||_inf), used by (8). */
double roe_edge(const double wi[3], const double wj[3], double Hi, double Hj,
                    double ex, double ey, double g, double h_dry,
                    double fi[3], double fj[3]);

/* The same edge as a face of the shared signature (swe.h swe_face_fn: mass flux F_h from
 * L = i to R = j, the momentum L loses, the momentum R gains; beds as elevations z = -H),
 * as the GPU's edge engine takes every first-order scheme's face (roe_face.glsl). */
swe_face_fn roe_face;

/* CPU solvers: the scalar one in double precision (the accuracy reference) and the
 * fast one (SIMD, OpenMP over rows) in single precision (SSE over 4 cells) or, as
 * ROE_CPU_FAST_DOUBLE, in double (SSE2 over 2 cells): the same kernels (roe_fast_body.h). */
enum roe_cpu_kind { ROE_CPU_SCALAR = 0, ROE_CPU_FAST = 1, ROE_CPU_FAST_DOUBLE = 2 };

typedef struct roe_cpu roe_cpu;


/* Copies the problem (H, code); NULL on bad input or no memory (swgl_last_error()). */
roe_cpu *roe_cpu_create(const swe_problem *p, enum roe_cpu_kind kind);
void roe_cpu_destroy(roe_cpu *s);   /* NULL is fine */

/* State in and out, arrays of (nx+2)*(ny+2) doubles; ghost entries are ignored on
 * input and set to 0 on output.  A cell with h <= h_dry is stored with q = 0 (a dry
 * cell has no velocity; the mass flux (M1) of its edges relies on it). */
void roe_cpu_set_state(roe_cpu *s, const double *h, const double *qx, const double *qy);
void roe_cpu_get_state(const roe_cpu *s, double *h, double *qx, double *qy);
/* The state as the solver stores it, (h, qx, qy) in its precision, of the w x h ghost-ring
 * cells from (x, y) (grid_at coordinates) into buf, 3 values a cell, rows from the south
 * (set 0), or from buf into the state (set 1): the halo of a domain decomposition
 * (solver/schemes/core/scheme_mpi.c); the same bits from one solver to another of its kind. */
void roe_cpu_halo(roe_cpu *s, int set, int x, int y, int w, int h, double *buf);

/* One time step = roe_cpu_rates, then dt = min(dt_stable, dt_max), then roe_cpu_apply.
 * Returns the dt taken (dt_max when no wave moves anywhere), or a negative number if
 * a NaN is in the state or appeared. */
double roe_cpu_step(roe_cpu *s, double dt_max);

/* Boundary data, rain and point sources (swe.h "Boundary data"; p->forcing, NULL: none).
 * The solver keeps a swe_clock: rates evaluates the segment values, the rain factor and
 * the sources' Q at the step's time t (roe_cpu_set_time, else the previous step's t + dt),
 * apply moves t by dt.  An edge between an active cell a (state (h_a, q_a), depth function
 * H_a) and a ghost of the ring with code c and value v (its segment's) is computed with
 * the ghost's bed equal to a's (B_f = -H_a), normal n_out out of the domain:
 *   wall, free        the mirror / copy of a (as without forcing; a ghost that is not on
 *                     the ring, inside a mask, is a wall);
 *   level, depth      the Roe edge with the exterior (h_b, h_b u_a), h_b =
 *                     swe_exterior_depth(c, v, -H_a, h_a) (level: max(v + H_a, 0); depth:
 *                     v), u_a = q_a / h_a (0 where a or the exterior is dry);
 *   discharge         the imposed flux, no Riemann problem: out of a it carries mass -v
 *                     (v = Q / L >= 0 into the domain) and momentum M n_out (M of
 *                     swe_discharge_flux(v, h_a): the normal momentum flux h un^2 + g h^2/2
 *                     of the inflow, un = -v / h_b), written as the fluctuation
 *                         F-_a = (-v, M n_out) - F(W_a).n_out,
 *                         F(W_a).n = (qn_a, q_a un_a + g h_a^2/2 n),
 *                     so that Phi (M1) out of a = qn_a + F-_a[0] = -v (set exactly) and the
 *                     momentum update (4) adds -dt/|V| |Gamma| M n_out (the F(W_a) terms of
 *                     a cell's four edges cancel); v = 0 gives M = g h_a^2/2: the wall of
 *                     roe_flux.c's case B, so a lake at rest stays at rest.
 * rates returns at most the clock's dt_cap (swe.h: the step that rain and sources allow
 * on a dry bed).  The speed of such an edge in (8) is at least swe_boundary_speed(c, vmax, -H_a, g) (the
 * segment's largest value), and on a discharge edge max(v / h_b + sqrt(g h_b),
 * |un_a| + sqrt(g h_a)).  The volume through the edge is what (M4) moved: theta_a P_ae on
 * an outflow (the draining limiter scales it), P_ae on an inflow (the ghost's theta is 1),
 * so the accounts (ring_rate, by SWE_RING) are filled in apply.  Rain: h += dt rate on
 * every active cell, with the flux update, before the rounding clip; sources: after it,
 * h <- swe_source_take(h, 0, dt Q / |V|) (no more than the cell holds), the change times
 * |V| to the source's account; then the dry rule and (M5) (once, on the final h). */

/* A step in two calls (the time loop may take the min of dt over several solvers, or
 * shorten dt to land on an output time, between them).  The scheme (the same for both
 * kinds; roe_scalar.c and roe_fast.c write it beside the code):
 *
 * roe_cpu_rates: the edge sweep on the current state W^n.  Every edge e, between the
 * cells i (west/south) and j (east/north) with the unit normal n from i to j, once:
 *   F-_ij, F-_ji, ||D_ij||_inf from roe_edge (boundary edges: exterior state from
 *   the interior one, see above);
 *   mass flux from i to j:   Phi_e = qn_i + F-_ij[0],   qn_i = q_i . n          (M1)
 *     (= qn_j - F-_ji[0]: F-_ij[0] + F-_ji[0] = qn_j - qn_i); Phi_e = 0 exactly on a
 *     wall edge; on a free edge it is qn of the active cell; the emerging-bottom
 *     cases and dry|dry edges give 0 (a dry cell has q = 0);
 *   stored: G_e = |Gamma_e| Phi_e (|Gamma| = dy on x-edges, dx on y-edges).
 * Per active cell i, with P_ie = +-G_e the flux out of i across its edge e (+ on its
 * east and north edges, - on its west and south edges):
 *   momentum sums   M_i = sum_e |Gamma_e| F-_i,e[1..2]      (F- of i's side of e)
 *   (8) sum         S_i = sum_e |Gamma_e| ||D_e||_inf
 *   outflow         O_i = sum_e max(P_ie, 0)                                     (M2)
 *   drain time      tau_i = h_i |V_i| / O_i,   +inf when O_i = 0;  tau = +inf on
 *                   every ghost / inactive cell (a ghost never limits).
 * Returns the largest dt that (8) allows, dt_stable = 2 cfl |V| / max_i S_i
 * (|V| = dx dy), +INFINITY when no wave moves (all S_i = 0), NaN if a NaN is in the
 * state (h, qx or qy of an active cell) or in the sums.
 *
 * roe_cpu_apply: the update with this dt (0 <= dt <= what rates returned; any dt when
 * rates returned +INFINITY, which changes nothing), from the sums of the last
 * roe_cpu_rates (call it again after roe_cpu_set_state):
 *   theta_k = min(1, tau_k / dt)                                                  (M3)
 *   donor(e) = i when P_ie > 0, else the cell across e (a ghost: theta = 1)
 *   h_i  <- h_i - dt/|V| sum_e theta_donor(e) P_ie                               (M4)
 *   q_i  <- q_i - dt/|V| M_i                                         ((4), unchanged)
 *   then h < 0 -> h = 0 (rounding only: (M4) gives h >= 0 in exact arithmetic, since
 *   the outflows of i are scaled by theta_i <= tau_i/dt and inflows only add), and
 *   h <= h_dry -> q = 0, and in a thin film the velocity is desingularized as in
 *   Kurganov & Petrova (2007) (Brodtkorb et al. 2011 (5)-(6)):
 *       h < kappa:  q <- h u,  u = sqrt(2) h q / sqrt(h^4 + max(h^4, kappa^4)),
 *                   i.e. q <- q sqrt(2) r^2 / sqrt(r^4 + 1),  r = h / kappa     (M5)
 *   (continuous at h = kappa, q unchanged above it; mass untouched).  Without it a
 *   film of 10-100 um at a receding shoreline can keep a velocity of tens of m/s (the
 *   momentum change there is a small difference of large pressure and bed terms),
 *   which the bound (8) then follows: on Thacker's case at 100^2 one such cell halved
 *   the time step for the last 8% of the period.
 * Both cells of an edge use the same theta and +-G_e, so the volume sum_i h_i |V|
 * changes only by summation rounding (walls; free edges pass theta G_e).  This is the
 * draining limiter of Bollermann, Chen, Kurganov & Noelle (2013) on the fluctuation
 * form of Lastra et al. (2009): where no cell drains (theta = 1 everywhere), (M4) is
 * (4) in exact arithmetic (sum_e |Gamma_e| n_e = 0 on a rectangle).
 * Returns 0, or -1 if a NaN appeared (or dt is NaN, negative, or infinite while
 * waves move or the problem has boundary data, rain or sources). */
double roe_cpu_rates(roe_cpu *s);
int roe_cpu_apply(roe_cpu *s, double dt);

/* Receding shoreline, measured on Thacker's planar oscillation in a paraboloid
 * (tests/test_roe_thacker.c: a = 1, h0 = 0.1, sigma = 0.5 on [0, 4]^2, walls, one
 * period T; h_dry = 1e-5 = 1e-4 h0; exact speed |u| = U = sigma w = 0.70 m/s on the
 * whole wet disc).  Numbers for 100^2 (scalar; fast within ~10%) unless stated.
 *  - Volume: the former h < 0 -> 0 clip added +1.1e-4 (100^2) / +2.2e-5 (200^2) of
 *    the volume per period, in double as in float, at the receding shore; with (M1)-(M4)
 *    the change is 0 in double (compensated sum; -3.5e-15 at 200^2 with a plain one)
 *    and ~5e-9 in float.  The remaining clip removes < 1 eps of the update's operands.
 *  - Velocities, max |u|/U: cells with h > h0/10 (within ~2 cells of the front) 1.39
 *    over the period (1.46 at 80^2, 1.26 at 200^2: first-order smearing of the front);
 *    h > 10 h_dry: 1.82 at t = T, 3.7 over the period; thin cells h_dry < h <= 10 h_dry:
 *    2.07 at t = T, 8.5 (fast 9.4) over the period, with |u| > 3U in 0.09% of the thin
 *    cell-steps.  Before the limiter: the same within ~10% (2.23 at T, 9.3 max).
 *    Why: a thin cell on the receding side loses most of its water in one step, mostly
 *    across the edge to its deeper downslope neighbour.  On that edge the Roe state has
 *    h_ij = (h_i + h_j)/2 >> h_i, and the momentum fluctuation is the small difference
 *    of the pressure and bed-source terms (both O(g h_ij dH)): it takes almost none of
 *    the cell's momentum with the water that leaves (seen at 80^2: an edge that took
 *    1.7e-4 m of a 3.1e-4 m cell took 4e-7 of its 3.0e-4 m^2/s of x-momentum), so q/h
 *    of what remains grows by about the factor h fell (up to 20x in one step).  Where
 *    the update would overdraw a cell, (M4) scales its outflow so that it ends with
 *    about its inflow while its momentum update (4) is unlimited: if that leaves
 *    h > h_dry, it shows the same spike (the clip used to end such a cell at h = 0,
 *    hence q = 0).  A spike lasts one step (85%), rarely two or three (the cell dries,
 *    q = 0, or refills) and carries little momentum, but it shortens dt through (8).
 *  - The film: a cell with h <= h_dry has q = 0; a dry|dry edge carries no mass, nor
 *    does an edge to a wet cell whose surface is below the dry cell's bed (case A:
 *    F-_ij = 0, qn_i = 0, hence Phi = 0).  So the water that the receding front leaves
 *    at <= h_dry stays on the beach until water above its bed comes back.  At t = T: 2.2e-5 m^3 = 1.4e-4
 *    of the volume over 3.2 m^2 (mean 0.68 h_dry), <= h_dry x the area that dried
 *    (3.5 m^2) <= h_dry x the bared beach (5 pi a^2 / 4 = 3.9 m^2).  It is conserved
 *    (part of the volume, not lost) and scales with h_dry. */

/* The time of the next step (s; apply also moves it by dt): the boundary data, rain and
 * sources are evaluated at it. */
void roe_cpu_set_time(roe_cpu *s, double t, double stop);
/* The volumes that came in and went out since the creation (swe.h swe_account, of the
 * problem's forcing shape: swe_account_init with p->forcing), the clip included. */
void roe_cpu_account(const roe_cpu *s, swe_account *out);

/* What the rounding clip h < 0 -> 0 of the last roe_cpu_apply added: the volume
 * sum (-h) |V| over the clipped cells (m^3), and the largest -h / scale_i with
 * scale_i = h_i + dt/|V| sum_e |theta_donor(e) P_ie| (the size of the terms whose
 * rounding it absorbs: a few machine epsilons when (M4) works as stated).
 * Either pointer may be NULL. */
void roe_cpu_clip_stats(const roe_cpu *s, double *volume, double *rel);

int roe_cpu_threads(const roe_cpu *s);     /* OpenMP threads used (1 for scalar) */
int roe_cpu_is_fast(const roe_cpu *s);     /* 1: the SIMD solver (float or double), 0: scalar double */
const char *roe_cpu_precision(const roe_cpu *s);   /* "single" (fast float) | "double" */
/* "cpu-scalar (double)" / "cpu (float, SSE x4, N threads)" / "cpu (double, SSE2 x2, N threads)" */
const char *roe_cpu_name(const roe_cpu *s);

#endif
