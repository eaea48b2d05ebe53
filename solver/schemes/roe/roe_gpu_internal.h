/* roe_gpu_internal.h — what the roe_gpu*.c files share, not part of the API (roe_gpu.h):
 * struct roe_gpu and each file's entry points for the others (prefixed rog_).  The files,
 * a concept each (roe_gpu_step.c's head comment draws a step through them):
 *   roe_gpu.c          the arrays in either precision, create and destroy, the state up
 *                      and down
 *   roe_gpu_step.c     a step on passes: the edge and dt passes and the bound (rates), the
 *                      update pass (apply), the step with dt on the GPU (run_to)
 *   roe_gpu_forcing.c  boundary data, the ring's rates, rain, point sources, accounts, maps
 *   roe_gpu_mpi.c      over MPI ranks: the stage in rectangles while the halo goes
 *   roe_gpu_hold.c     the held time step: bounds left on the GPU, the state saved
 *   roe_gpu_backend.c  the adapters (ROG_BACKEND): roe_backend_gpu (scheme.h); hllc_gpu.c
 *                      builds hllc_backend_gpu from them with hllc's face */
#ifndef SWGL_ROE_GPU_INTERNAL_H
#define SWGL_ROE_GPU_INTERNAL_H

#include "roe_gpu.h"

#include "gpu_hold.h"
#include "gpu_bvals.h"
#include "gpu_gather.h"
#include "gpu_maps.h"
#include "gpu_pass.h"
#include "gpu_redraw.h"
#include "gpu_reductor.h"
#include "gpu_strips.h"
#include "gpu_steps.h"
#include "scheme.h"

struct roe_gpu {
    const char *scheme;           /* the scheme whose face the engine runs: "roe", "hllc" (messages) */
    int nx, ny, tex_w, tex_h;     /* the arrays: (nx+2) x (ny+2) texels */
    int dbl;                      /* double precision (packed doubles, ROE_DOUBLE) */
    double g, cfl, h_dry, kappa, dx, dy;
    gpu_array2d *state[2], *bed;  /* float: the state ping-pong */
    gpu_mrt *state_d[2];          /* double: (h, qx) + (qy, code), ping-pong */
    gpu_mrt *flux, *cell;
    gpu_reductor *red;
    gpu_program *p_edge, *p_dt, *p_update;
    /* the step chosen on the GPU (run_to): the clock (gpgpu's gpu_clock: its texels, pass
     * and read-back) and the update pass that reads dt from it */
    gpu_clock *clock;
    gpu_program *p_update_clock;
    double dt_recent;            /* the largest step read back so far */
    const unsigned char *code;   /* the problem's cell codes (kept by the caller) */
    int mass_from_edges;         /* the update re-reads the edges' mass fluxes (variant) */
    int cur;
    gpu_strips *strips;          /* the halo's strips over MPI ranks (NULL: tune mpi.pack=off) */
    char renderer[128];
    int compute;                /* built as compute passes (gpu-compute) */
    int fused;                  /* gpu-compute: edge and dt passes as one kernel (roe_step_cs) */
    int gx, gy;                 /* its work group */
    gpu_program *p_step;        /* that kernel */
    gpu_array2d *part;          /* its per-work-group minima of dt_i: the reduction's input */
    int parts_open, parts_tiled; /* a stage in parts begun; its rectangles all on the kernel's tiling */
    /* boundary data, rain and point sources (cpu_ref/swe.h; docs/boundaries.md): the
     * host clock runs the steps, the segment values go up per step, the boundary edges'
     * volume rates come back per step (roe_ring.glsl); redraw: cells the update draws
     * again with a rise (gpu_redraw.h: sources, discharge hydrographs; ROE_CELL_ADD) */
    int forcing, M, redraw;
    /* devb: the boundary data is open, level or depth faces, or a discharge that holds its
     * value, only (swe_forcing_faces_on_gpu):
     * the step stays on the fused kernel and the clock, the values go up once or, where a
     * level or depth is a series (bvary), are computed on the GPU at each step's time on
     * its clock (bv, gpu_bvals.h), and the ring pass under SWE_RING_ACC sums each boundary
     * edge's volumes on the GPU every step (racc[ri], M x 4; swe_ring_acc.glsl), read back
     * only when the accounts are asked for */
    int devb, ri, bvary;
    gpu_bvals bv;
    int plain;                    /* no ghost has a value (roe_plain): no u_bvals read */
    gpu_array2d *racc[2];
    gpu_program *p_racc;
    const swe_forcing *forc;
    swe_clock fclk;
    gpu_array2d *bvals, *rainf, *ring;
    gpu_program *p_ring;
    float *ringbuf;
    gpu_gather *gauges;           /* the gauges' texels, gathered (rog_be_sample) */
    /* flood maps (swe_maps.h; shaders/roe/roe_maps.glsl), as kp_gpu_forcing.c keeps them */
    gpu_maps maps;
    gpu_program *p_update_maps;  /* the clock's update with the maps in it (SWE_MAPS_INLINE) */
    double t_now, stop_now;
    double t_known;               /* run_to: the CPU's time of the step's clock args (its lefts count from it) */
    char maps_defs[1200];
    /* the face's friction (roe_gpu_face): Manning's n per cell, (n, 0, 0, 0) or packed
     * (n, 0); NULL: none (ROE_MANNING undefined) */
    gpu_array2d *manning;
    /* the held step (roe_gpu_hold.c): the saved state, its side, maps side and time */
    gpu_hold hold;
    int held_cur, held_mi;
    double held_t;
};

/* ---- roe_gpu_backend.c: the adapters, shared by the schemes on the engine ------------- */

/* A backend instance (scheme_backend.create) of the problem p with the scheme's face. */
swgl_status rog_backend_create(const swe_problem *p, const roe_gpu_face *face, const scheme_config *cfg,
                               void **self);
void rog_be_destroy(void *self);
swgl_status rog_be_set(void *self, double *const *f);
swgl_status rog_be_get(void *self, double *const *f);
swgl_status rog_be_halo_get(void *self, int x, int y, int w, int h, void *buf);
swgl_status rog_be_halo_set(void *self, int x, int y, int w, int h, const void *buf);
int rog_be_cell_bytes(const void *self);
/* roe_gpu_step.c: the edge and dt passes over a rectangle of cells (NULL: all), and the
 * reduction's input (cells: each cell's dt_i, not the fused kernel's group minima) */
swgl_status rog_edge_and_cell(roe_gpu *r, const gpu_rect *rect);
gpu_array2d *rog_bound_array(roe_gpu *r, int cells);
/* roe_gpu_mpi.c: stage 0 in parts while the halo is exchanged (scheme_halo_ops) */
int rog_be_overlap(void *self, int strips, long max_cells, int forced);
swgl_status rog_be_halo_request(void *self, int x, int y, int w, int h);
swgl_status rog_be_halo_fetch(void *self, void *buf);
swgl_status rog_be_halo_room(void *self, int strips, long max_cells);
swgl_status rog_be_stage_rects(void *self, int k, const int (*rects)[4], int n, double *bound);
void rog_be_tiling(const void *self, int tile[2]);
swgl_status rog_be_halo_view(void *self, void *fallback, const void **p);
swgl_status rog_be_halo_area(void *self, long bytes, void **p);
swgl_status rog_be_stage(void *self, int k, double *dt_stable);
swgl_status rog_be_advance(void *self, int k, double dt);
void rog_be_describe(const void *self, char *name, size_t len);
const char *rog_be_precision(const void *self);
void rog_be_finish(void *self);
swgl_status rog_be_run_to(void *self, double t, double stop, int stop_index, double dt_floor, timeloop_span *sp);
swgl_status rog_be_sample(void *self, const size_t *cells, int n, double *const *out);
void rog_be_set_time(void *self, double t, double stop);
swgl_status rog_be_maps_start(void *self, swe_maps *m);
swgl_status rog_be_maps_read(void *self, swe_maps *m);
int rog_be_host_clock(const void *self);
swgl_status rog_be_account(void *self, swe_account *a);
swgl_status rog_be_device_field(void *self, const char *name, scheme_device_field *f);
/* A scheme_backend table of the engine (BACKEND_GPU; gpu-compute is the same backend on
 * compute passes, scheme.c) with the scheme's create: roe's (roe_gpu_backend.c), hllc's
 * (hllc_gpu.c). */
/* the engine's capability tables (roe_gpu_backend.c), every face's */
extern const scheme_forcing_ops rog_forcing;
extern const scheme_device_ops rog_device;
extern const scheme_probe_ops rog_probe;
extern const scheme_halo_ops rog_halo;
extern const scheme_hold_ops rog_hold;
#define ROG_BACKEND(create_fn)                                                                                    \
    {.backend = BACKEND_GPU, .create = create_fn, .destroy = rog_be_destroy, .set_state = rog_be_set,            \
     .get_state = rog_be_get, .stage = rog_be_stage, .advance = rog_be_advance, .stages = scheme_one_stage,       \
     .describe = rog_be_describe, .precision = rog_be_precision, .finish = rog_be_finish, .forcing = &rog_forcing, \
     .device = &rog_device, .probe = &rog_probe, .halo = &rog_halo, .hold = &rog_hold}

/* ---- roe_gpu_step.c: binding the state, the update pass ----------------------------- */

/* the state arrays of ping-pong side `side` as a pass's inputs */
void rog_bind_state(roe_gpu *r, gpu_pass *p, int side);
/* a double for the double passes: its low and high 32 bits as two int uniforms */
void rog_pass_double(gpu_pass *p, const char *lo, const char *hi, double v);
/* The update pass (roe_update.glsl); dt from the uniform, or, when clock is not NULL,
 * from the clock texel (the program built with ROE_DT_ON_GPU; in double the landing
 * step is recomputed from left, the previous clock prev and unknown, as the clock pass
 * got them).  With boundary data: the rain rain_s (swe_clock_rain: s x rain[]), and a
 * cell's rise cell_add (its sources' and its discharge faces': gpu_redraw.h) drawn
 * into rect (NULL: the whole array, no rise).  Leaves the new state in
 * 1 - r->cur (the caller flips r->cur). */
swgl_status rog_update_pass(roe_gpu *r, double dt, const gpu_array2d *clock, const gpu_array2d *prev, double left,
                            int unknown, const gpu_rect *rect, double rain_s, double cell_add);

/* ---- roe_gpu_forcing.c: boundary data, ring, rain, sources, maps -------------------- */

/* The boundary data's arrays and pass (r->forcing). */
swgl_status rog_forcing_create(roe_gpu *r, const swe_problem *p, const char *defs);
/* The step's segment values at its time (the host clock's), up to the GPU. */
swgl_status rog_forcing_values(roe_gpu *r);
/* The step's update on the host clock: the boundary edges' accounts, the update, then
 * the cells with point sources or beside a discharge hydrograph's faces drawn again with
 * their summed rise (gpu_redraw.h), the step on the clock. */
/* the step on the kernel's boundary sums (r->devb), with the step's clock */
swgl_status rog_ring_acc(roe_gpu *r, const gpu_array2d *clock);
swgl_status rog_forcing_update(roe_gpu *r, double dt);
/* The flood maps' pass after a step (gpu_maps.h): the state after it, at time t (host
 * clock) or from the clock texels (run_to). */
swgl_status rog_maps_pass(roe_gpu *r, double t, const gpu_array2d *clock, double t_known);

#endif
