/* kp_internal.h — cpu_ref's private face of the fast Kurganov-Petrova solver (kp_fast.c),
 * which kp_scalar.c's public kp_cpu_* calls dispatch to.  Not part of the contract
 * (kp_cpu.h). */
#ifndef SWGL_KP_INTERNAL_H
#define SWGL_KP_INTERNAL_H

#include "kp_cpu.h"

struct kp_fast;
/* dbl: 0 float, 1 double.  NULL with the message set. */
/* clk: the owner's clock of the boundary data (swe.h), which the fast solver fills
 * (ring_rate, the accounts of sources and clip) and advances as the scalar one does. */
struct kp_fast *kp_fast_create(const kp_problem *p, int dbl, swe_clock *clk);
void kp_fast_destroy(struct kp_fast *f);
void kp_fast_set_state(struct kp_fast *f, const double *h, const double *qx, const double *qy);
void kp_fast_get_state(const struct kp_fast *f, double *h, double *qx, double *qy);
void kp_fast_halo(struct kp_fast *f, int set, int x, int y, int w, int h, double *buf);
double kp_fast_rates(struct kp_fast *f, int stage);
int kp_fast_apply(struct kp_fast *f, int stage, double dt);
void kp_fast_clip_stats(const struct kp_fast *f, double *volume);
void kp_fast_tiles(const struct kp_fast *f, long *computed, long *total);
int kp_fast_threads(const struct kp_fast *f);
/* "cpu (float, SIMD x8, 16 threads, early exit auto)" */
const char *kp_fast_name(const struct kp_fast *f);

/* kp_scalar.c's item 7 in double, which the fast solver calls for the boundary faces: the
 * central-upwind flux from the minus point (h, un, ut) to the plus point, and the flux
 * of a face between an active point a and a ring ghost of code c (cpu_ref/swe.h
 * "Boundary data"); both fill F (face frame) and return the face speed. */
double kp_cu_flux(const double m[3], const double p[3], double g, double F[3]);
double kp_boundary_face(int c, double v, double vmax, double Bf, const double a[3], int ghost_low, double g,
                        double eps, double F[3]);

#endif
