/* roe_internal.h — cpu_ref's private face of the fast Roe solver (roe_fast.c), which
 * roe_scalar.c's public roe_cpu_* calls dispatch to, and the boundary edge both solvers
 * share (roe_scalar.c).  Not part of the contract (roe_cpu.h). */
#ifndef SWGL_ROE_INTERNAL_H
#define SWGL_ROE_INTERNAL_H

#include "roe_cpu.h"

struct roe_fast;
/* use_double: the double (SSE2 x2) kernels, else the float (SSE x4) ones.  clk: the
 * owner's clock of the boundary data (swe.h), which the fast solver reads (the segment
 * values, rain and sources of the step) and fills (ring_rate, the accounts of sources and
 * clip) and advances as the scalar solver does.  NULL with the message set. */
struct roe_fast *roe_fast_create(const swe_problem *p, int use_double, swe_clock *clk);
void roe_fast_destroy(struct roe_fast *f);
void roe_fast_set_state(struct roe_fast *f, const double *h, const double *qx, const double *qy);
void roe_fast_get_state(const struct roe_fast *f, double *h, double *qx, double *qy);
void roe_fast_halo(struct roe_fast *f, int set, int x, int y, int w, int h, double *buf);
double roe_fast_rates(struct roe_fast *f);
int roe_fast_apply(struct roe_fast *f, double dt);
void roe_fast_clip_stats(const struct roe_fast *f, double *volume, double *rel);
int roe_fast_threads(const struct roe_fast *f);
int roe_fast_is_double(const struct roe_fast *f);
/* the kernels' precision, instruction set and lanes: "float, AVX-512 x16" */
const char *roe_fast_simd(const struct roe_fast *f);

/* One boundary edge (one side active, the other a ghost of code c), in double, as both
 * solvers compute it (roe_cpu.h "Boundary edges"):
 *   wa, Ha     the active cell's state (h, qx, qy) and depth function (the ghost's bed is
 *              the active cell's: H_ghost = Ha);
 *   v, vmax    the ghost's segment value at the step's time and its largest value (0, 0
 *              for a ghost with no segment);
 *   ex, ey     the unit normal from the low (west / south) cell L to the high one R;
 *   ghost_low  the ghost is L (the active cell is R).
 * Writes F-_LR (fL) and F-_RL (fR) (the ghost's side: what roe_edge gives it, or 0 for a
 * discharge) and *phi = Phi (M1), the mass flux from L to R per unit length; returns the
 * edge's speed for (8). */
double roe_boundary_edge(unsigned char c, double v, double vmax, const double wa[3], double Ha, double ex,
                         double ey, int ghost_low, double g, double h_dry, double fL[3], double fR[3],
                         double *phi);

#endif
