/* kp_gpu_internal.h — what the kp_gpu*.c files share, not part of the API (kp_gpu.h):
 * struct kp_gpu, the arrays in either precision with the uniforms most passes set, and
 * each file's entry points for the others (prefixed kpg_).  The files, a concept each
 * (kp_gpu_step.c's head comment draws a stage through them):
 *   kp_gpu.c          the arrays, create and destroy, the state up and down
 *   kp_gpu_flux.c     the flux pass, early exit (depth marks), auto's timing and the
 *                     profile's sections
 *   kp_gpu_kernels.c  gpu-compute: the fused flux kernel (kp_flux_cs) and run_to's step
 *                     on tile-list kernels (kp_tiles.glsl), their shape and buffer
 *   kp_gpu_step.c     a stage and a step on passes: the flux and the bound (rates), the
 *                     integration pass (apply), the step with dt on the GPU (run_to)
 *   kp_gpu_forcing.c  boundary data, the ring's rates, rain, point sources, accounts, maps
 *   kp_gpu_mpi.c      over MPI ranks: stage 0 in parts, the halo read back and written
 *   kp_gpu_hold.c     the held time step: bounds left on the GPU, the state saved
 *   kp_gpu_backend.c  the adapters: kp_backend_gpu (scheme.h) */
#ifndef SWGL_KP_GPU_INTERNAL_H
#define SWGL_KP_GPU_INTERNAL_H

#include "kp_gpu.h"
#include "tuning.h"

#include "gpu_hold.h"
#include "gpu_bvals.h"
#include "gpu_gather.h"
#include "gpu_maps.h"
#include "gpu_redraw.h"
#include "gpu_pass.h"
#include "gpu_reductor.h"
#include "gpu_steps.h"
#include "gpu_strips.h"
#include "gpu_timer.h"

enum { MAN_NONE = 0, MAN_UNIFORM = 1, MAN_TEXTURE = 2 };

struct kp_gpu {
    int nx, ny, tw, th, ntx, nty;
    double dx, dy, g, cfl, eps, kappa, theta;
    double cap_depth;   /* kp_problem cap_depth: the thin cells' speed cap (0: none) */
    int rk2, manning, dbl;       /* dbl: double precision (GL_ARB_gpu_shader_fp64) */
    int compute;                 /* compute passes (gpu-compute): no early exit yet (its
                                  * methods draw instanced quads or use the depth test) */
    /* gpu-compute, float, no boundary data: the flux evaluation as one kernel
     * (kp_flux_cs.glsl), which skips dry tiles itself when the step's early exit is on
     * (kp.early_exit on, or auto's current choice, timed as for the passes) */
    int fused;
    int ee_forbidden;                             /* water may appear in a dry tile: no early exit */
    int gx, gy;                                   /* kp_flux_cs's work group */
    int xshare;                                   /* kp_flux_cs shares a row's points (KP_XSHARE) */
    int cx, cy;                                   /* the cells each of its invocations sweeps */
    int tx, ty, tnx, tny;                         /* its tile, in cells, and the tiles over the arrays */
    int staged;                                   /* its texels in shared memory (tune kp.stage) */
    gpu_program *p_fused;        /* the flux kernel (the host clock's stage; tune kp.fused=flux) */
    gpu_array2d *part;           /* its per-work-group minima of cfl r: the reduction's input */
    /* run_to's step as kernels that skip dry tiles outright (kp_tiles.glsl; kpg_step_kernels):
     * stage 0's flux, the clock with stage 0's integration, RK2's stage 1 flux and
     * integration, each over a list of tiles and at most max_groups work groups; the
     * tiles' buffer (bound words, lists), the list this step runs, the step's stamp, and
     * whether the buffer must be set afresh (after anything but these kernels changed the
     * state) */
    int kstep, max_groups;
    gpu_program *p_kflux, *p_kint, *p_kfused1;
    /* the rest rule (kp_tiles.glsl "The second rule", tune kp.rest): its kernel
     * (kp_rest_cs.glsl), whether the step uses it, and whether the run may */
    gpu_program *p_krest;
    int rest, rest_ok;
    /* the step's last kernel (Euler: p_kint, RK2: p_kfused1) built again with the flood
     * maps updated in it (SWE_MAPS_INLINE; kp_gpu_maps_start), and its defines */
    gpu_program *p_klast_maps;
    char klast_defs[1800];
    gpu_buffer *tiles;
    int tpar, tiles_stale;
    unsigned tstamp;
    double gn2;
    unsigned char *code;
    double *bij;
    /* the scheme's arrays (kpg_arr_create): one RGBA32F member, or in double two RGBA32UI */
    gpu_mrt *state[2], *qstar, *bed, *R, *man;
    gpu_mrt_depth *dR;           /* early exit: R with the marks of skipped tiles */
    gpu_array2d *wet[2];
    gpu_reductor *red;
    gpu_program *p_flux;         /* the flux pass (kp_flux_cell) */
    gpu_program *p_fill;         /* the zero state of skipped tiles in R, and their marks */
    gpu_program *p_wet, *p_int[2][2];   /* p_int[stage][dt on the GPU] */
    gpu_clock *clock;
    int cur;
    double dt_recent;
    char defs[1024];
    swgl_tuning tune;            /* the tuning choices (kp_gpu_create_tuned) */
    /* early exit */
    int depth_valid;             /* the depth buffer holds the marks of wet[1 - wi] */
    int count_frags;             /* count the flux passes' fragments (kp_gpu_count_fragments) */
    long frags;
    enum kp_early_exit ee_mode;
    int ee_cur, step_ee, step_sample, last_ee;
    int wi, prev_valid;          /* the wet map written next; whether wet[1 - wi] describes R */
    /* the second rule on the passes (kp_wet.glsl, kp_tiles_vs.glsl; tune kp.rest): whether
     * the run may use it (float, the fragment path, no water brought in), whether the arrays
     * hold a whole step's history (Q^{n-1}, its Q*, the last R: 0 after anything but a step
     * wrote the state), and what stage 0's wet map did (kp_wet.glsl's u_rest) */
    int rest_frag, rest_hist, rest_s0;
    long step_n, choices;
    struct { double sec; long evals; } acc[2];
    double est[2];
    /* timing */
    gpu_timer *timer;
    int profile;
    double prof_sec[KP_PASS_COUNT];
    long prof_n[KP_PASS_COUNT];
    char renderer[128];
    /* boundary data, rain and point sources (cpu_ref/swe.h; docs/boundaries.md): the
     * host clock runs the steps (stage and advance with the time known), the values go
     * up per stage, the boundary faces' volume rates come back per stage (kp_ring.glsl);
     * redraw: cells the integration draws again with a rise (gpu_redraw.h: sources,
     * discharge hydrographs; KP_CELL_ADD) */
    int forcing, M, redraw;
    /* devb: the boundary data is open, level or depth faces, or a discharge that holds its
     * value, only, with no rain or source (swe_forcing_faces_on_gpu): the step stays on the
     * kernels (g->fused), the values go up once or, where a level or depth is a series
     * (bvary), are computed on the GPU at each stage's time on its clock (bv, gpu_bvals.h),
     * and the ring pass under
     * SWE_RING_ACC sums each boundary face's volumes on the GPU after each stage (racc[ri],
     * M x 4: (in, out) as float pairs; swe_ring_acc.glsl), read back only when the
     * accounts are asked for */
    int devb, ri, bvary;
    gpu_bvals bv;
    int plain;                   /* no ghost has a value (SWGL_PLAIN_BOUNDARIES): no u_bvals read */
    gpu_array2d *racc[2];
    gpu_program *p_racc;
    const swe_forcing *forc;
    const swe_problem *sw;       /* the caller's (set_state's rain quantum) */
    swe_clock fclk;
    gpu_mrt *bvals, *rainf;      /* per segment (value, largest value); the rain field */
    /* the clip's accounts (kp_integrate.glsl KP_CLIP): the depth each own cell's clip added
     * in the last integration, written beside the state through a view of each array the
     * integration draws into (state[0], state[1], Q*, with it), summed after each stage */
    gpu_array2d *clip;
    gpu_mrt *clipv[3];
    gpu_array2d *ring;
    gpu_program *p_ring;
    float *ringbuf;
    double *bvbuf;
    gpu_gather *gauges;          /* the gauges' texels, gathered (kp_gpu_backend.c be_sample) */
    /* flood maps (gpu_maps.h; shaders/kp/kp_maps.glsl) */
    gpu_maps maps;
    double t_now, stop_now;      /* the host clock's time; run_to's stop */
    /* over MPI ranks, stage 0 in parts while the halo is exchanged (kp_gpu_rates_rects):
     * whether a step's parts have begun; the halo's strips (NULL: tune mpi.pack=off) */
    int parts_open, parts_tiled;
    gpu_strips *strips;
    /* the held step (kp_gpu_hold.c): the saved state, its side, maps side and time */
    gpu_hold hold;
    int held_cur, held_mi;
    double held_t;
};

/* ---- kp_gpu_hold.c: the held time step (scheme_hold_ops) ------------------------------ */

int kpg_hold_able(const void *self);
swgl_status kpg_stage_quiet(void *self, int k, int slot);
swgl_status kpg_bounds(void *self, int n, double *b);
swgl_status kpg_save(void *self);
swgl_status kpg_restore(void *self);

/* ---- kp_gpu.c: arrays in either precision, the uniforms ------------------------------ */

swgl_status kpg_arr_create(const kp_gpu *g, int w, int h, int count, int bound, const char *label, gpu_mrt **out);
swgl_status kpg_arr_upload_rect(const kp_gpu *g, gpu_mrt *m, int x, int y, int w, int h, const double *v);
swgl_status kpg_arr_download_rect(const kp_gpu *g, gpu_mrt *m, int x, int y, int w, int h, double *v);
swgl_status kpg_arr_upload(const kp_gpu *g, gpu_mrt *m, const double *v);
/* Binds array element k of m (k-th float4 of each texel) to the pass's input NAME, or
 * in double to NAME_a and NAME_b (those the program uses: a pass that reads only .zw
 * has no NAME_a). */
#define BIND(g, p, name, m, k) kpg_bind_arr(g, p, name, name "_a", name "_b", m, k)
void kpg_bind_arr(const kp_gpu *g, gpu_pass *p, const char *name, const char *na, const char *nb, gpu_mrt *m, int k);
void kpg_set_real(const kp_gpu *g, gpu_pass *p, const char *name, double v);
double kpg_kappa4(const kp_gpu *g);
void kpg_set_dxy(kp_gpu *g, gpu_pass *p);
void kpg_recon_uniforms(kp_gpu *g, gpu_pass *p);

/* the array the min reduction reads: R (single) or its bound member (double) */
static inline gpu_array2d *kpg_bound_array(kp_gpu *g)
{
    return g->fused ? g->part : gpu_mrt_member(g->R, g->dbl ? 2 : 0);
}

/* ---- kp_gpu_flux.c: the flux passes, early exit, timing ------------------------------ */

swgl_status kpg_build_flux(kp_gpu *g);
/* A step's early-exit variant (and whether auto samples it), fixed at its stage 0. */
void kpg_choose_early_exit(kp_gpu *g);
/* Stage k's flux evaluation -> R (stage 0 fixes the step's early-exit variant). */
swgl_status kpg_flux_eval(kp_gpu *g, int k);
/* A timed section for pass (the profile, auto's sample): opened or not; close it with
 * kpg_section_end. */
int kpg_section_begin(kp_gpu *g, int pass, int end_of_eval);
void kpg_section_end(kp_gpu *g, int opened);

/* ---- kp_gpu_kernels.c: the fused flux kernel, the step on tile-list kernels ----------- */

/* kp_flux_cs's shape and the step on kernels' settings (the environment; at create) */
swgl_status kpg_kernels_shape(kp_gpu *g, int flux_only);
/* their programs and buffers (g->fused; nothing else) */
swgl_status kpg_kernels_create(kp_gpu *g);
swgl_status kpg_flux_kernel(kp_gpu *g, gpu_mrt *src, int ee);
swgl_status kpg_step_kernels(kp_gpu *g, const gpu_clock_args *a);
swgl_status kpg_kstep_tiles(kp_gpu *g, long *computed, long *total);

/* ---- kp_gpu_step.c: the integration pass --------------------------------------------- */

void kpg_integrate_pass(kp_gpu *g, gpu_pass *p, int k, double dt, const gpu_array2d *clock, double rain_s,
                        double cell_add);

/* ---- kp_gpu_forcing.c: boundary data, ring, rain, sources, maps ---------------------- */

swgl_status kpg_forcing_create(kp_gpu *g, const kp_problem *p);
swgl_status kpg_forcing_values(kp_gpu *g, int k);
/* the values of a series (g->bvary) computed on the GPU at t_cpu plus the k most recent
 * steps of clock (gpu_bvals.h) */
swgl_status kpg_forcing_values_gpu(kp_gpu *g, double t_cpu, const gpu_array2d *clock, int k);
swgl_status kpg_ring_rates(kp_gpu *g, int k);
/* the step on kernels' sums of a stage's boundary faces (g->devb: from src, with the
 * step's clock) */
swgl_status kpg_ring_acc(kp_gpu *g, gpu_mrt *src, const gpu_array2d *clock);
/* Stage k's redraws after its integration pass into out (host clock): the point
 * sources' cells and the discharge faces' (gpu_redraw.h). */
swgl_status kpg_redraw(kp_gpu *g, int k, double dt, double rain_s, gpu_mrt *out);
swgl_status kpg_maps_pass(kp_gpu *g, double t, const gpu_array2d *clock, double t_known);

/* ---- kp_gpu_mpi.c: the halo as the state's texels ------------------------------------ */

swgl_status kpg_halo_get(kp_gpu *g, int x, int y, int w, int h, void *buf);
swgl_status kpg_halo_set(kp_gpu *g, int x, int y, int w, int h, const void *buf);

#endif
