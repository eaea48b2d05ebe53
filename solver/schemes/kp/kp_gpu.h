/* kp_gpu.h — the Kurganov-Petrova scheme as Brodtkorb et al. (2011) run it, as fragment
 * passes (shaders/kp/; the equations: cpu_ref/kp_cpu.h): per stage a flux pass (R and
 * the local bound), a min reduction (stage 0), the integration pass, and
 * the early exit of 3.2.1 (a wet map of tiles; dry tiles with dry neighbours are not
 * drawn); float, or double where the GL context has GL_ARB_gpu_shader_fp64 (--precision
 * double).  The backend for scheme.h is kp_backend_gpu (kp.h); these calls are for tests
 * and benches.
 *
 * Early exit draws the flux pass with the depth test, the skipped tiles marked in a depth
 * buffer (kp_gpu_flux.c); the tuning choices (tuning.h) reach it through
 * kp_gpu_create_tuned. */
#ifndef SWGL_KP_GPU_H
#define SWGL_KP_GPU_H

#include "kp_cpu.h"
#include "swe_maps.h"
#include "swgl_error.h"

typedef struct kp_gpu kp_gpu;

/* p is checked by swe_problem_check and kp_problem_check (as on the CPU); the arrays are
 * copied (nothing of p need outlive the solver). */
swgl_status kp_gpu_create(const kp_problem *p, kp_gpu **out);
/* The same in double precision when dbl (the context needs GL_ARB_gpu_shader_fp64; the
 * arrays then hold doubles packed into RGBA32UI texels, shaders/kp/kp_real.glsl). */
swgl_status kp_gpu_create_prec(const kp_problem *p, int dbl, kp_gpu **out);
/* The same with the tuning choices (tuning.h; NULL: the defaults): kp.fused, kp.group,
 * kp.cells, kp.stage, kp.xshare, kp.max_groups. */
struct swgl_tuning;
swgl_status kp_gpu_create_tuned(const kp_problem *p, int dbl, const struct swgl_tuning *tune, kp_gpu **out);
int kp_gpu_is_double(const kp_gpu *g);
void kp_gpu_destroy(kp_gpu *g);   /* NULL is fine */
/* (h, hu, hv) on the ghost-ring grid, grid_size(nx, ny) doubles; non-active cells are
 * ignored on input and 0 on output; h <= h_dry is stored with q = 0.  Starts a step. */
swgl_status kp_gpu_set_state(kp_gpu *g, const double *h, const double *qx, const double *qy);
swgl_status kp_gpu_get_state(kp_gpu *g, double *h, double *qx, double *qy);
int kp_gpu_stages(const kp_gpu *g);   /* 2 (rk2) or 1 */
/* Stage k's flux pass (R of Q^n for k = 0, of Q* for k = 1); for k = 0 also the min
 * reduction, whose 1x1 result is read back: *dt_stable = cfl min r (+inf when nothing
 * moves; -1 when a cell holds a NaN or an infinity).  k = 1 reads nothing back
 * (*dt_stable = +inf). */
swgl_status kp_gpu_rates(kp_gpu *g, int k, double *dt_stable);
/* Over MPI ranks (scheme.h overlap, stage_rects, halo_request, halo_fetch): 2, the reach
 * of the flux's stencil, where stage k can be evaluated in parts (float, no boundary data,
 * the flux kernel or the cell pass; the passes then without early exit), else 0; stage k's
 * flux on n rectangles (x, y, w, h), and with bound not NULL then kp_gpu_rates' bound of
 * the whole arrays (every cell must have been covered by the parts); a queued read-back of
 * the state as halo_get gives it, and the oldest one's values. */
int kp_gpu_overlap(const kp_gpu *g);
/* Room for `strips` halo read-backs in flight of up to max_cells cells each
 * (kp_gpu_halo_request); SWGL_ERR_ARG where there are too few. */
swgl_status kp_gpu_halo_room(kp_gpu *g, int strips, long max_cells);
swgl_status kp_gpu_rates_rects(kp_gpu *g, int k, const int (*rects)[4], int n, double *bound);
/* The tiling on which kp_gpu_rates_rects keeps the whole stage's form (scheme.h tiling):
 * the flux kernel's tile, or 1 x 1 for the passes. */
void kp_gpu_tiling(const kp_gpu *g, int tile[2]);
swgl_status kp_gpu_halo_request(kp_gpu *g, int x, int y, int w, int h);
swgl_status kp_gpu_halo_fetch(kp_gpu *g, void *buf);
/* The oldest strip in place (mapped buffers) or copied into fallback; room to receive a
 * strip into in place (*p NULL: none) (scheme.h halo view, area). */
swgl_status kp_gpu_halo_view(kp_gpu *g, void *fallback, const void **p);
swgl_status kp_gpu_halo_area(kp_gpu *g, long bytes, void **p);
/* the texels a cell of the halo's bytes: 1 (float4), or 2 (uint4 members, double) */
int kp_gpu_halo_members(const kp_gpu *g);
/* Stage k's integration pass with dt (stage 0's bound or less). */
swgl_status kp_gpu_apply(kp_gpu *g, int k, double dt);
/* Steps from t to stop with dt chosen on the GPU (scheme_backend.run_to; gpgpu's clock):
 * both stages of a RK2 step read the dt the clock computed from stage 0's bound (the
 * passes: after its reduction; the kernels: in stage 0's integration kernel). */
struct timeloop_span;
swgl_status kp_gpu_run_to(kp_gpu *g, double t, double stop, int stop_index, double dt_floor,
                          struct timeloop_span *sp);
/* The same through stops[0..n-1] (scheme.h run_stops), the state's texels at the n_cells
 * cells kept at each landing (gpu_gather_capture; compute passes, float) */
swgl_status kp_gpu_run_stops(kp_gpu *g, double t, const double *stops, int n, int stop_index, double dt_floor,
                             const size_t *cells, int n_cells, struct timeloop_span *sp);

/* ---- early exit, profile (benches) ---------------------------------------- */

/* Changes the early-exit mode (auto restarts its measurements). */
void kp_gpu_set_early_exit(kp_gpu *g, enum kp_early_exit mode);
enum kp_early_exit kp_gpu_early_exit_mode(const kp_gpu *g);
/* Whether the flux passes skip dry tiles now (on; off; auto: its current choice). */
/* 1 where the flux evaluation runs as the one kernel kp_flux_cs (gpu-compute, float, no
 * boundary data): no wet-map or fill passes; dry tiles skipped inside it. */
int kp_gpu_fused(const kp_gpu *g);
int kp_gpu_early_exit_active(const kp_gpu *g);
/* Auto's measurements: GPU seconds of one flux evaluation (wet map + flux passes) with
 * early exit and without (-1 until measured), and how many choices it has made. */
void kp_gpu_auto_estimates(const kp_gpu *g, double *with_exit, double *without_exit, long *choices);
/* Tiles the last flux evaluation computed, of all: the passes, KP_TILE x KP_TILE tiles of
 * interior cells from the wet map read back (a stall; for benches); run_to's step on
 * kernels, the flux kernel's tiles on the list that step ran.  Without early exit in that
 * evaluation, computed = total; with early exit inside the flux kernel on the host clock
 * (kp_gpu_fused), computed = -1: not counted. */
swgl_status kp_gpu_tiles(kp_gpu *g, long *computed, long *total);
/* on: each flux evaluation counts the fragments its flux pass ran, i.e.
 * passed the depth test (GL_SAMPLES_PASSED, waited for: a stall; for tests); the count
 * of the last one, -1 until counted. */
void kp_gpu_count_fragments(kp_gpu *g, int on);
long kp_gpu_fragments(const kp_gpu *g);

/* The passes of a step, for the profile. */
enum kp_gpu_pass {
    KP_PASS_WET = 0,      /* the wet map (kp_wet.glsl) */
    KP_PASS_FLUX,         /* the flux pass, with its fill */
    KP_PASS_REDUCE,       /* the min reduction (all its 2x2 passes) */
    KP_PASS_CLOCK,        /* the clock pass (run_to) */
    KP_PASS_INTEGRATE,    /* the integration pass */
    KP_PASS_COUNT
};
const char *kp_gpu_pass_name(int pass);   /* "wet map", "flux", ... */
/* on: every pass is timed (GL_TIME_ELAPSED) and the totals start from 0; off: stops. */
void kp_gpu_profile(kp_gpu *g, int on);
/* The totals since profiling was switched on: GPU seconds and the number of passes timed,
 * per pass; waits for the queries still in flight (call it after the run). */
swgl_status kp_gpu_profile_read(kp_gpu *g, double seconds[KP_PASS_COUNT], long counts[KP_PASS_COUNT]);

/* Boundary data, rain and sources (cpu_ref/swe.h): the time of the next step (the host
 * clock's), whether the problem has any (then the time loop runs stage and advance, not
 * run_to), and the accounts since the start. */
void kp_gpu_set_time(kp_gpu *g, double t, double stop);
int kp_gpu_host_clock(const kp_gpu *g);
swgl_status kp_gpu_account(const kp_gpu *g, swe_account *a);

/* The flood maps (swe_maps.h): kept on the GPU from m's state, a pass after every step. */
swgl_status kp_gpu_maps_start(kp_gpu *g, swe_maps *m);
swgl_status kp_gpu_maps_read(kp_gpu *g, swe_maps *m);

#endif
