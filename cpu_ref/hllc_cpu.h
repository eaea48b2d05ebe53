/* hllc_cpu.h — the CPU solvers of the first-order HLLC scheme with the hydrostatic
 * reconstruction of Audusse, Bouchut, Bristeau, Klein & Perthame (2004) and semi-implicit
 * Manning friction, on the shallow-water problem of swe.h (docs/hllc.md): the per-face
 * flux (hllc_flux.c, written once for every precision in hllc_face.h), the scalar double
 * solver (hllc_scalar.c, the reference) and the fast one, plain C with OpenMP over rows,
 * float or double (hllc_fast.c); both run the same step (hllc_solver_body.h).
 *
 * The step, per face e between cells L (west/south) and R (east/north), normal n from L
 * to R, |Gamma_e| = dy on x-faces, dx on y-faces, z = -H the bed:
 *   hydrostatic reconstruction                                                    (H1)
 *       z_f = max(z_L, z_R),  h_L* = max(0, h_L + z_L - z_f),  h_R* likewise,
 *       velocities kept: U_K* = (h_K*, h_K* u_K)  (u_K = q_K / h_K, 0 where h_K <= h_dry)
 *   wave speeds (Einfeldt / Toro), c = sqrt(g h*), normal velocities un:            (H2)
 *       both wet:   S_L = min(un_L - c_L, u~ - c~),  S_R = max(un_R + c_R, u~ + c~),
 *                   u~ = (sqrt(h_L*) un_L + sqrt(h_R*) un_R) / (sqrt(h_L*) + sqrt(h_R*)),
 *                   c~ = sqrt(g (h_L* + h_R*) / 2)
 *       L dry:      S_L = un_R - 2 c_R,  S_R = un_R + c_R
 *       R dry:      S_L = un_L - c_L,    S_R = un_L + 2 c_L
 *       both dry:   no flux, speed 0
 *   HLLC flux of (U_L*, U_R*), F(U) = (h un, h un^2 + g h^2 / 2, h un ut):          (H3)
 *       S_L >= 0: F(U_L*);  S_R <= 0: F(U_R*);  else mass and normal momentum the HLL
 *       flux  (S_R F_L - S_L F_R + S_L S_R (U_R* - U_L*)) / (S_R - S_L),  and the
 *       transverse momentum carried by the contact wave:  F_t = F_h ut_K, K = L where
 *       S* >= 0, else R, with
 *       S* = (S_L h_R* (un_R - S_R) - S_R h_L* (un_L - S_L))
 *            / (h_R* (un_R - S_R) - h_L* (un_L - S_L))
 *   Audusse's well-balancing correction, each side its own:                         (H4)
 *       M_L = F_mom + g/2 (h_L^2 - h_L*^2) n,    M_R = F_mom + g/2 (h_R^2 - h_R*^2) n
 *   (lake at rest: every face gives M = g h_K^2 / 2 n to cell K, which its opposite
 *   face cancels; a dry island's faces give the wet side g h^2/2 n, no mass).
 *   G_e = |Gamma_e| F_h (mass, L to R), speed s_e = max(|S_L|, |S_R|).
 * Per active cell i, P_ie = +-G_e the flux out of i (+ on its east and north faces):
 *   time step    dt <= 2 cfl |V| / max_i sum_e |Gamma_e| s_e                        (H5)
 *                (|V| = dx dy: in 1-D dt = cfl dx / s; on a square grid dt (s/dx +
 *                s/dy) <= cfl, the 2-D condition of a first-order unsplit scheme)
 *   draining     O_i = sum_e max(P_ie, 0), tau_i = h_i |V| / O_i, theta_i = min(1,
 *                tau_i / dt), the donor's theta on each face                      (H6)
 *                h_i <- h_i - dt/|V| sum_e theta_donor(e) P_ie
 *   momentum     q_i <- (q_i - dt/|V| sum_e +-|Gamma_e| M_e,i) / (1 + dt Hf_i)      (H7)
 *                (east/north faces M_L, west/south faces -M_R), Manning
 *                Hf = g n^2 |u| / h^(4/3) of the state at the step's start with the
 *                desingularized velocity u = sqrt(2) h q / sqrt(h^4 + max(h^4,
 *                kappa^4)) (as kp: cpu_ref/kp_cpu.h); 0 where h <= h_dry or n = 0
 *   then rain (h += dt rate), h < 0 -> 0 (rounding only, accounted as clip), the dry
 *   rule h <= h_dry -> q = 0, the thin-film rule h < kappa -> q *= sqrt(2) r^2 /
 *   sqrt(r^4 + 1), r = h / kappa (roe_cpu.h (M5)), point sources (swe_source_take).
 * Both cells of a face use the same theta and +-G_e: the volume changes by summation
 * rounding only, and h stays >= 0 for any dt (the outflow of i is scaled to what it holds).
 * Boundary faces: the exterior state of roe's (roe_cpu.h "Boundary data"): wall mirror,
 * free copy, level / depth the exterior depth with the interior's velocity (at rest where
 * deeper), with the exterior bed equal to the interior's, so no correction (H4); a
 * discharge face the imposed flux (mass v into the domain, momentum M n of
 * swe_discharge_flux); its speed at least swe_boundary_speed.  A wall face moves no mass. */
#ifndef SWGL_HLLC_CPU_H
#define SWGL_HLLC_CPU_H

#include "swe.h"

/* The problem: the shallow-water one, and Manning's n per cell (grid_size, NULL: none). */
typedef struct hllc_problem {
    swe_problem sw;
    const double *manning;
} hllc_problem;

/* One interior face, (H1)-(H4), in double (the reference; the solvers use the same
 * formula, hllc_face.h).  wL, wR: (h, qx, qy); zL, zR: bed elevations; (ex, ey) the unit
 * normal from L to R.  Writes *F_h (mass flux per unit length, L to R), mL (the momentum
 * flux per unit length cell L loses, x and y) and mR (the one R gains); returns the
 * face's speed max(|S_L|, |S_R|) (0 when both reconstructed depths are 0). */
double hllc_face(const double wL[3], const double wR[3], double zL, double zR, double ex, double ey, double g,
                 double h_dry, double *F_h, double mL[2], double mR[2]);

/* A face between active cell a (state wa, bed za) and a ghost of code c (segment value v,
 * largest value vmax; 0 without a segment); ghost_low: the ghost is L (west/south).
 * Writes F_h (L to R, 0 on a wall), mL, mR as hllc_face; returns the speed. */
double hllc_boundary_face(unsigned char c, double v, double vmax, const double wa[3], double za, double ex,
                          double ey, int ghost_low, double g, double h_dry, double *F_h, double mL[2], double mR[2]);

/* both in the shared face signature (swe.h; the GLSL: shaders/hllc/hllc_face.glsl) */
swe_face_fn hllc_face;
swe_bface_fn hllc_boundary_face;

enum hllc_cpu_kind { HLLC_CPU_SCALAR = 0, HLLC_CPU_FAST = 1, HLLC_CPU_FAST_DOUBLE = 2 };
typedef struct hllc_cpu hllc_cpu;

/* Copies the problem; NULL on bad input or no memory (swgl_last_error()). */
hllc_cpu *hllc_cpu_create(const hllc_problem *p, enum hllc_cpu_kind kind);
void hllc_cpu_destroy(hllc_cpu *s);   /* NULL is fine */
/* State in and out (grid_size doubles); ghosts ignored on input, 0 on output; h <= h_dry
 * is stored with q = 0. */
void hllc_cpu_set_state(hllc_cpu *s, const double *h, const double *qx, const double *qy);
void hllc_cpu_get_state(const hllc_cpu *s, double *h, double *qx, double *qy);
/* (h, qx, qy) of the w x h cells from (x, y) into buf (set 0) or from it (set 1), as
 * roe_cpu_halo. */
void hllc_cpu_halo(hllc_cpu *s, int set, int x, int y, int w, int h, double *buf);
/* rates: the face sweep of the current state; returns the bound (H5) (at most the
 * clock's dt_cap; +INFINITY when nothing moves; NaN when a NaN is in the state).
 * apply: the update (H6)-(H7) with dt <= the bound; 0, or -1 on a NaN / bad dt.
 * step: both, dt = min(bound, dt_max); the dt taken or < 0. */
double hllc_cpu_rates(hllc_cpu *s);
int hllc_cpu_apply(hllc_cpu *s, double dt);
double hllc_cpu_step(hllc_cpu *s, double dt_max);
void hllc_cpu_set_time(hllc_cpu *s, double t, double stop);
void hllc_cpu_account(const hllc_cpu *s, swe_account *out);
/* the last apply's rounding clip: volume (m^3) and the largest -h over the terms' size */
void hllc_cpu_clip_stats(const hllc_cpu *s, double *volume, double *rel);
int hllc_cpu_threads(const hllc_cpu *s);
const char *hllc_cpu_precision(const hllc_cpu *s);   /* "single" | "double" */
const char *hllc_cpu_name(const hllc_cpu *s);        /* "cpu-scalar (double)", "cpu (float, up to N threads)" */

#endif
