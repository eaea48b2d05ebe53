/* kp_gpu.c — the Kurganov-Petrova scheme as Brodtkorb et al. (2011) run it (their
 * (3)-(10), the equations of cpu_ref/kp_cpu.h), as fragment passes (shaders/kp/), and its
 * backend behind scheme.h.
 *
 * Arrays, (nx+2) x (ny+2) texels with the ghost ring (swgl_grid.h), float4:
 *   state[2]  (w, hu, hv, x), ping-pong; x = h = w - B_ij for an active cell (the wet
 *             map reads it) and -(1 + code) for a non-active one (so the flux pass knows
 *             the code of the cells two away without reading their bed texel)
 *   qstar     Q* of RK2 (same layout)
 *   bed       (B_E, B_N, B_ij, code), constant; B_W, B_S are the west / south
 *             neighbour's B_E / B_N (kp_cell_bed: a ghost holds the faces it shares)
 *   R         (R_w, R_hu, R_hv, cfl r) of the stage's state: the flux pass's output
 *   faces     MRT (east face, north face, source) of the "faces" flux variant only
 *   wet[2]    ceil(nx/16) x ceil(ny/16): 1 where a tile holds water (early exit); the
 *             last two evaluations' maps
 *   depth     depth methods: a 24-bit depth buffer with R (and one with the faces MRT),
 *             each in a framebuffer of its own (gpu_mrt_depth): 0 on skipped tiles, 1 else
 *   manning   (g n^2) per cell, only when n varies (one n: a uniform; none: no friction)
 *   clock     the step chosen on the GPU (gpgpu's gpu_clock, run_to)
 * One stage (Euler: stage 0; RK2: stages 0 and 1, Brodtkorb (7), (10)):
 *   [wet map]   kp_wet.glsl, one fragment per tile (early exit only)
 *   [fill]      early exit only: kp_fill.glsl writes R = (0, 0, 0, +inf) (faces: 0) into
 *               the tiles skipped now that the last early-exit evaluation computed;
 *               the other skipped tiles still hold it, so no clear is needed
 *               (depth methods: it also marks the depth buffer, below)
 *   flux        "cell" (kp_flux_cell.glsl): R and cfl r per cell from its 9-cell cross,
 *               or "faces" (kp_faces.glsl, MRT: each face once and the source;
 *               kp_gather.glsl: R and cfl r); with early exit the dry tiles with dry
 *               neighbours are not run (methods below): what they would compute is
 *               exactly the fill value, so the bits are the same with early exit on, off
 *               or auto, with every method
 *   reduction   stage 0 only: min of R.w over the grid (2x2 passes), the bound cfl min r;
 *               its 1x1 result is the only value read back (stage()), or stays on the
 *               GPU for the clock pass (run_to)
 *   [clock]     run_to: gpgpu's clock.glsl, dt = min(bound, time left); both stages of a
 *               RK2 step read it
 *   integration kp_integrate.glsl: Q* (stage 0) or Q^{n+1} (stage 1), friction, clip
 * Early-exit methods, SWGL_KP_EE (default KP_GPU_EE_DEFAULT below; kp_gpu_ee_method; the
 * backend's describe() names it); all draw the fill with one instanced quad per 16x16
 * tile (kp_tiles_vs.glsl), collapsed where nothing changes:
 *   quads       flux and gather drawn as one quad per 16x16 tile, those of skipped tiles
 *               collapsed in the vertex shader.  No extra bytes, but thousands of small
 *               primitives in instance order instead of the full-screen quad's
 *               rasterization order: on an H100 the step took 41% more time this way
 *               even with no tile skipped (2048^2 dam break: 209 vs 295 Mcells/s).
 *   quads32/64  the same with quads of 2x2 / 4x4 tiles (32 / 64 cells a side), drawn when
 *               any of their tiles is not skipped (a skipped tile computed anyway gives
 *               the fill value): 4x / 16x fewer primitives, some dry cells computed.
 *   depth       flux and gather drawn as the full-screen quad (window depth 0.5) with
 *               GL_LESS and no depth write, into R / the faces with their depth buffer;
 *               the fill pass (depth test GL_ALWAYS, depth write) also draws the tiles
 *               whose mark changed since the last early-exit evaluation (every tile after
 *               a flux-variant switch), at depth 0 where skipped and 1 where computed, so
 *               early-Z rejects the skipped tiles' fragments before the shader runs (the
 *               flux shaders neither discard nor write gl_FragDepth).  Cost: the depth
 *               buffer (4 B per cell per target, not read by any shader) and the few
 *               tiles that change; rasterization order as without early exit.
 *   depthclear  the same marks made afresh each evaluation: a depth clear to 1 and the
 *               skipped tiles drawn depth-only at 0 (GL_LESS throughout, which no
 *               coarse-Z implementation can mind), besides the fill; costs one depth-only
 *               quad per skipped tile per evaluation.
 * Flux variant: SWGL_KP_FLUX=cell|faces (default KP_GPU_FLUX_DEFAULT below).  Early exit:
 * kp.early_exit = on | off | auto; auto times a flux evaluation (wet map, fill, flux
 * passes) of each variant with GL_TIME_ELAPSED queries read back without waiting: its
 * current choice on step 100 m, the other one on step 100 m + 2 (after a warm-up step),
 * and keeps the faster (Brodtkorb 3.2.1: runtime analysis and a probe every hundredth
 * step).
 * Bytes a stage must move per cell, at the fewest (float4 = 16 B; the neighbours'
 * texels are other cells' own, from the cache):
 *   cell flux     reads state and bed (32), writes R (16)                        48
 *   faces flux    face pass reads state and bed (32), writes 3 targets (48); the
 *                 gather reads the cell's 3 (48), writes R (16)                   144
 *   reduction     reads R (16), stage 0 only (its 2x2 passes add a third)         16
 *   integration   reads Q, R, bed (48; stage 1 also Q*: 64), writes 16        64 / 80
 *   wet map       reads the state (16), early exit only                            16
 *   depth marks   depth methods: 4 B per cell of the tiles redrawn (depth), or a clear
 *                 and the skipped tiles (depthclear); early-Z reads 4 B per cell per
 *                 flux-side pass (compressed / coarse on most GPUs)
 * Euler step: 48 + 16 + 64 = 128 B (faces 224 B); RK2 step: 128 + 48 + 80 = 256 B (faces
 * 448 B); early exit adds 16 B per stage and saves the flux of every skipped tile.
 * (Brodtkorb: 11 floats per cell stored; here Q twice, Q*, R and bed: 20 floats.)
 * Double precision (--precision double, GL_ARB_gpu_shader_fp64; shaders/kp/kp_real.glsl):
 * the same passes with real = double; each array is an MRT of two RGBA32UI members (two
 * doubles per texel: (x, y) and (z, w)), R has a third, RGBA32F, member (0, 0, 0, cfl r)
 * for the float min reduction and the clock (the step is a float there, as in single);
 * constants are double uniforms; h^(1/3) of the friction is float's pow refined by two
 * Newton steps.  Twice the bytes of single. */
#include "kp_gpu.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_context.h"
#include "gpu_maps.h"
#include "gpu_pass.h"
#include "gpu_readback.h"
#include "gpu_reductor.h"
#include "gpu_steps.h"
#include "gpu_timer.h"
#include "kp.h"
#include "scheme_shaders.h"

/* The flux variant without SWGL_KP_FLUX: the faster on an H100 (docs/performance.md). */
#define KP_GPU_FLUX_DEFAULT KP_GPU_FLUX_CELL
/* The early-exit method without SWGL_KP_EE (head comment): "depth" keeps the full-screen
 * rasterization order of the flux passes and marks only the tiles that change: the
 * fastest measured on an H100, 2% slower than off when nothing is skipped, where quads
 * was 29% slower (docs/performance.md). */
#define KP_GPU_EE_DEFAULT KP_GPU_EE_DEPTH
/* Auto early exit: a probe of the other variant every this many steps. */
#define KP_AUTO_PERIOD 100
#define KP_TIMER_SLOTS 512
/* kp_tiles.glsl's buffer: a header of 12 words (the two bound words, the time left and the
 * unknown steps' sum, two dispatch commands, the two lists' lengths), a stamp a tile, then
 * the two lists; a dispatch runs at most KT_MAX_GROUPS work groups (GL guarantees 65535
 * in x; SWGL_KP_MAX_GROUPS=N fewer, to test), each running its share of the tiles in turn.
 * The layout is kp_tiles_buf's (shaders/kp/kp_tiles.glsl): change both together. */
#define KT_HEAD 12
#define KT_CMD(k) ((4 + 3 * (size_t)(k)) * sizeof(unsigned))
#define KT_COUNT(k) ((10 + (size_t)(k)) * sizeof(unsigned))
#define KT_MAX_GROUPS 65535

enum { MAN_NONE = 0, MAN_UNIFORM = 1, MAN_TEXTURE = 2 };
/* timer tags: the pass, the variant (early exit on), an auto sample, the last section of
 * a flux evaluation, a profiled section */
enum { TAG_EE = 8, TAG_SAMPLE = 16, TAG_END = 32, TAG_PROF = 64 };

struct kp_gpu {
    int nx, ny, tw, th, ntx, nty;
    double dx, dy, g, cfl, eps, kappa, theta;
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
    gpu_program *p_fused;        /* the flux kernel (the host clock's stage; SWGL_KP_FUSED=flux) */
    gpu_array2d *part;           /* its per-work-group minima of cfl r: the reduction's input */
    /* run_to's step as kernels that skip dry tiles outright (kp_tiles.glsl; step_kernels):
     * stage 0's flux, the clock with stage 0's integration, RK2's stage 1 flux and
     * integration, each over a list of tiles and at most max_groups work groups; the
     * tiles' buffer (bound words, lists), the list this step runs, the step's stamp, and
     * whether the buffer must be set afresh (after anything but these kernels changed the
     * state) */
    int kstep, max_groups;
    gpu_program *p_kflux, *p_kint, *p_kfused1;
    gpu_buffer *tiles;
    int tpar, tiles_stale;
    unsigned tstamp;
    double gn2;
    unsigned char *code;
    double *bij;
    /* the scheme's arrays (arr_create): one RGBA32F member, or in double two RGBA32UI */
    gpu_mrt *state[2], *qstar, *bed, *R, *man, *faces;
    gpu_mrt_depth *dR, *dfaces;  /* depth methods: R and faces with the marks of skipped tiles */
    gpu_array2d *wet[2];
    gpu_reductor *red;
    gpu_program *p_flux[2][2];   /* [variant][tiled]: the cell pass or the faces pass */
    gpu_program *p_gather[2];    /* [tiled] */
    gpu_program *p_fill[2];      /* the zero state of skipped tiles: [0] R, [1] the faces MRT */
    gpu_program *p_mark;         /* depthclear: the skipped tiles, depth only */
    gpu_program *p_wet, *p_int[2][2];   /* p_int[stage][dt on the GPU] */
    gpu_clock *clock;
    int cur;
    double dt_recent;
    enum kp_gpu_flux flux;
    char defs[1024];
    /* early exit */
    enum kp_gpu_ee ee_method;
    int group, ngx, ngy;         /* quads methods: tiles per quad side; quads per row, column */
    int depth_valid;             /* depth: the depth buffers hold the marks of wet[1 - wi] */
    int count_frags;             /* count the flux passes' fragments (kp_gpu_count_fragments) */
    long frags;
    enum kp_early_exit ee_mode;
    int ee_cur, step_ee, step_sample, last_ee;
    int wi, prev_valid;          /* the wet map written next; whether wet[1 - wi] describes R */
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
     * up per stage, the boundary faces' volume rates come back per stage (kp_ring.glsl) */
    int forcing, M;
    const swe_forcing *forc;
    const swe_problem *sw;       /* the caller's (set_state's rain quantum) */
    swe_clock fclk;
    gpu_mrt *bvals, *rainf;      /* per segment (value, largest value); the rain field */
    gpu_array2d *ring;
    gpu_program *p_ring;
    float *ringbuf;
    double *bvbuf;
    /* flood maps (gpu_maps.h; shaders/kp/kp_maps.glsl) */
    gpu_maps maps;
    double t_now, stop_now;      /* the host clock's time; run_to's stop */
    /* over MPI ranks, stage 0 in parts while the halo is exchanged (kp_gpu_rates_rects):
     * whether a step's parts have begun; the halo's read-backs, of up to halo_max texels */
    int parts_open;
    gpu_readback *halo_rb;
    float *halo_tmp;
    long halo_max;
};

static const char *pass_names[KP_PASS_COUNT] = {"wet map", "flux", "gather", "reduction", "clock", "integration"};
const char *kp_gpu_pass_name(int pass) { return pass >= 0 && pass < KP_PASS_COUNT ? pass_names[pass] : "?"; }
const char *kp_gpu_flux_name(enum kp_gpu_flux f) { return f == KP_GPU_FLUX_FACES ? "faces" : "cell"; }
static const char *ee_names[KP_GPU_EE_COUNT] = {"quads", "quads32", "quads64", "depth", "depthclear"};
const char *kp_gpu_ee_name(enum kp_gpu_ee m) { return m >= 0 && m < KP_GPU_EE_COUNT ? ee_names[m] : "?"; }
enum kp_gpu_ee kp_gpu_ee_method(const kp_gpu *g) { return g->ee_method; }
/* SWGL_KP_CELLS=AxB: the cells each invocation of kp_flux_cs sweeps (A columns of B cells),
 * to measure the choice */
static swgl_status cells_from_env(const char *v, int *cx, int *cy)
{
    if (!v || !*v) return SWGL_OK;
    int a = 0, b = 0, used = 0;
    if (sscanf(v, "%dx%d%n", &a, &b, &used) != 2 || v[used] != '\0' || a < 1 || b < 1 || a > 8 || b > 64)
        return swgl_fail(SWGL_ERR_ARG, "SWGL_KP_CELLS=%s: expected AxB (e.g. 1x4) with 1 <= A <= 8 and 1 <= B <= 64", v);
    *cx = a;
    *cy = b;
    return SWGL_OK;
}

/* A switch of the environment, 0 or 1 (unset or empty: `def`) */
static swgl_status flag_from_env(const char *name, int def, int *out)
{
    const char *v = getenv(name);
    *out = def;
    if (!v || !*v) return SWGL_OK;
    if (strcmp(v, "0") != 0 && strcmp(v, "1") != 0)
        return swgl_fail(SWGL_ERR_ARG, "%s=%s: expected 0 or 1", name, v);
    *out = v[0] == '1';
    return SWGL_OK;
}

/* kp_flux_cs's shape, whichever chose it: rows shared need one column an invocation and
 * groups 4 or more wide; staged, the tile (tx x ty cells) with its ring of two must fit the
 * 32 KiB of shared memory GL guarantees (two float4 a cell, 64 bytes for the group's flags
 * and min, and the shared rows' point and face a invocation, 32 bytes) */
static swgl_status flux_shape_check(int gx, int gy, int cx, int cy, int xshare, int staged)
{
    if (xshare && (cx != 1 || gx < 4))
        return swgl_fail(SWGL_ERR_ARG, "SWGL_KP_XSHARE=1: expected one column an invocation (SWGL_KP_CELLS=1xB, "
                                       "here %dx%d) and work groups 4 or more wide (SWGL_KP_GROUP, here %dx%d)",
                         cx, cy, gx, gy);
    long tx = (long)(gx - (xshare ? 2 : 0)) * cx, ty = (long)gy * cy;
    long bytes = (tx + 4) * (ty + 4) * 32 + 64 + (xshare ? 32L * gx * gy : 0);
    if (staged && bytes > 32768)
        return swgl_fail(SWGL_ERR_ARG,
                         "kp's flux kernel (SWGL_KP_GROUP=%dx%d, SWGL_KP_CELLS=%dx%d, SWGL_KP_XSHARE=%d, staged): its "
                         "tile of %ld x %ld cells with a ring of two needs %ld B of shared memory, more than the 32 KiB "
                         "GL guarantees (SWGL_KP_STAGE=0 reads the arrays instead)",
                         gx, gy, cx, cy, xshare, tx, ty, bytes);
    return SWGL_OK;
}

static int ee_depth(const kp_gpu *g) { return g->ee_method == KP_GPU_EE_DEPTH || g->ee_method == KP_GPU_EE_DEPTHCLEAR; }
enum kp_gpu_flux kp_gpu_flux_variant(const kp_gpu *g) { return g->flux; }
enum kp_early_exit kp_gpu_early_exit_mode(const kp_gpu *g) { return g->ee_mode; }
int kp_gpu_stages(const kp_gpu *g) { return g->rk2 ? 2 : 1; }

int kp_gpu_fused(const kp_gpu *g) { return g->fused; }

int kp_gpu_early_exit_active(const kp_gpu *g)
{
    return g->ee_mode == KP_EARLY_EXIT_ON || (g->ee_mode == KP_EARLY_EXIT_AUTO && g->ee_cur);
}

void kp_gpu_destroy(kp_gpu *g)
{
    if (!g) return;
    gpu_mrt_destroy(g->state[0]);
    gpu_mrt_destroy(g->state[1]);
    gpu_mrt_destroy(g->qstar);
    gpu_mrt_destroy(g->bed);
    gpu_mrt_destroy(g->R);
    gpu_array2d_destroy(g->wet[0]);
    gpu_array2d_destroy(g->wet[1]);
    gpu_mrt_destroy(g->man);
    gpu_mrt_depth_destroy(g->dR);
    gpu_mrt_depth_destroy(g->dfaces);
    gpu_mrt_destroy(g->faces);
    gpu_reductor_destroy(g->red);
    for (int v = 0; v < 2; v++)
        for (int t = 0; t < 2; t++) gpu_program_destroy(g->p_flux[v][t]);
    for (int t = 0; t < 2; t++) gpu_program_destroy(g->p_gather[t]), gpu_program_destroy(g->p_fill[t]);
    for (int s = 0; s < 2; s++)
        for (int c = 0; c < 2; c++) gpu_program_destroy(g->p_int[s][c]);
    gpu_program_destroy(g->p_wet);
    gpu_program_destroy(g->p_fused);
    gpu_program_destroy(g->p_kflux);
    gpu_program_destroy(g->p_kint);
    gpu_program_destroy(g->p_kfused1);
    gpu_buffer_destroy(g->tiles);
    gpu_array2d_destroy(g->part);
    gpu_program_destroy(g->p_mark);
    gpu_clock_destroy(g->clock);
    gpu_readback_destroy(g->halo_rb);
    free(g->halo_tmp);
    gpu_timer_destroy(g->timer);
    gpu_maps_destroy(&g->maps);
    gpu_mrt_destroy(g->bvals);
    gpu_mrt_destroy(g->rainf);
    gpu_array2d_destroy(g->ring);
    gpu_program_destroy(g->p_ring);
    swe_clock_free(&g->fclk);
    free(g->ringbuf);
    free(g->bvbuf);
    free(g->code);
    free(g->bij);
    free(g);
}

/* ---- timing: auto early exit and the profile ------------------------------------------ */

static void account(kp_gpu *g, int tag, double sec)
{
    int pass = tag & 7, v = (tag & TAG_EE) != 0;
    /* llvmpipe (Mesa 22-23) answers an elapsed-time query that begins right after a
     * fence (the clock's read-back) or around a context's first draw with thousands of
     * seconds (its clock's origin): no pass takes 10 s, such a sample is dropped */
    if (!(sec >= 0 && sec < 10)) return;
    if ((tag & TAG_PROF) && pass < KP_PASS_COUNT) {
        g->prof_sec[pass] += sec;
        g->prof_n[pass]++;
    }
    if (tag & TAG_SAMPLE) {
        g->acc[v].sec += sec;
        if (tag & TAG_END) g->acc[v].evals++;
    }
}

/* Takes the timer results that are in (all of them, waiting, when wait); auto chooses
 * once both variants have a measured flux evaluation. */
static void drain(kp_gpu *g, int wait)
{
    int tag;
    double sec;
    if (!g->timer) return;
    while (gpu_timer_fetch(g->timer, wait, &tag, &sec)) account(g, tag, sec);
    if (g->acc[0].evals > 0 && g->acc[1].evals > 0) {
        for (int v = 0; v < 2; v++) g->est[v] = g->acc[v].sec / (double)g->acc[v].evals;
        g->ee_cur = g->est[1] <= g->est[0];
        g->choices++;
        memset(g->acc, 0, sizeof g->acc);
    }
}

/* Opens a timed section for pass when the profile is on or the step is auto's sample;
 * returns whether one was opened (close it with section_end). */
static int section_begin(kp_gpu *g, int pass, int end_of_eval)
{
    int sample = g->step_sample && (pass == KP_PASS_WET || pass == KP_PASS_FLUX || pass == KP_PASS_GATHER);
    if (!g->timer || (!g->profile && !sample)) return 0;
    int tag = pass | (g->step_ee ? TAG_EE : 0) | (sample ? TAG_SAMPLE : 0) | (end_of_eval ? TAG_END : 0) |
              (g->profile ? TAG_PROF : 0);
    if (gpu_timer_begin(g->timer, tag)) return 1;
    if (!g->profile) return 0;   /* every slot in flight: this sample goes untimed */
    int t;
    double sec;
    if (gpu_timer_fetch(g->timer, 1, &t, &sec)) account(g, t, sec);   /* the profile waits for a slot */
    return gpu_timer_begin(g->timer, tag);
}

static void section_end(kp_gpu *g, int opened)
{
    if (opened) gpu_timer_end(g->timer);
}

void kp_gpu_profile(kp_gpu *g, int on)
{
    drain(g, 1);
    g->profile = on && g->timer;
    memset(g->prof_sec, 0, sizeof g->prof_sec);
    memset(g->prof_n, 0, sizeof g->prof_n);
}

swgl_status kp_gpu_profile_read(kp_gpu *g, double seconds[KP_PASS_COUNT], long counts[KP_PASS_COUNT])
{
    if (!g->timer) return swgl_fail(SWGL_ERR_GL, "kp gpu: no timer queries");
    drain(g, 1);
    for (int k = 0; k < KP_PASS_COUNT; k++) {
        seconds[k] = g->prof_sec[k];
        counts[k] = g->prof_n[k];
    }
    return SWGL_OK;
}

void kp_gpu_auto_estimates(const kp_gpu *g, double *with_exit, double *without_exit, long *choices)
{
    if (with_exit) *with_exit = g->est[1];
    if (without_exit) *without_exit = g->est[0];
    if (choices) *choices = g->choices;
}

void kp_gpu_set_early_exit(kp_gpu *g, enum kp_early_exit mode)
{
    drain(g, 1);
    if (g->ee_forbidden) mode = KP_EARLY_EXIT_OFF;   /* kp_gpu_create says why */
    /* the compute passes have no early exit (its methods draw quads or use the depth
     * test); the fused kernel skips dry tiles itself, on, off or auto as the passes */
    g->ee_mode = g->compute && !g->fused ? KP_EARLY_EXIT_OFF : mode;
    g->ee_cur = 1;   /* auto starts with early exit on, as Brodtkorb's */
    g->step_n = 0;
    g->choices = 0;
    g->est[0] = g->est[1] = -1;
    memset(g->acc, 0, sizeof g->acc);
}

/* ---- creation ------------------------------------------------------------------------ */

/* ---- arrays in either precision ------------------------------------------------------- */

/* An array of `count` float4 elements per texel: single, count RGBA32F members; double,
 * 2 count RGBA32UI members (each element's (x, y) and (z, w) as doubles); `bound`: one
 * more RGBA32F member in double, the (0, 0, 0, cfl r) the min reduction reads (in single,
 * R's own .w). */
static swgl_status arr_create(const kp_gpu *g, int w, int h, int count, int bound, const char *label, gpu_mrt **out)
{
    gpu_mrt_desc d = {w, h, g->dbl ? 2 * count : count, {0}, label};
    for (int k = 0; g->dbl && k < 2 * count; k++) d.format[k] = GPU_RGBA32UI;
    if (g->dbl && bound) d.format[d.count++] = GPU_RGBA32F;
    return gpu_mrt_create(&d, out);
}

/* The w x h texels from (x, y) of an array, 4 doubles a texel (double: the halves (x, y)
 * and (z, w) in the two members), from v (single: rounded to float) or into v */
static swgl_status arr_rect(const kp_gpu *g, gpu_mrt *m, int set, int x, int y, int w, int h, double *v)
{
    swgl_status st = SWGL_OK;
    for (int half = 0; half < (g->dbl ? 2 : 1) && st == SWGL_OK; half++)
        st = gpu_array2d_rect_doubles(gpu_mrt_member(m, half), set, x, y, w, h, v, 4, 2 * half);
    return st;
}
static swgl_status arr_upload_rect(const kp_gpu *g, gpu_mrt *m, int x, int y, int w, int h, const double *v)
{
    return arr_rect(g, m, 1, x, y, w, h, (double *)v);
}
static swgl_status arr_download_rect(const kp_gpu *g, gpu_mrt *m, int x, int y, int w, int h, double *v)
{
    return arr_rect(g, m, 0, x, y, w, h, v);
}

/* Element k of an array as 4 doubles per texel from v (single: rounded to float). */
static swgl_status arr_upload(const kp_gpu *g, gpu_mrt *m, const double *v)
{
    const gpu_array2d *a = gpu_mrt_member(m, 0);
    return arr_upload_rect(g, m, 0, 0, gpu_array2d_width(a), gpu_array2d_height(a), v);
}

static swgl_status arr_download(const kp_gpu *g, gpu_mrt *m, double *v)
{
    const gpu_array2d *a = gpu_mrt_member(m, 0);
    return arr_download_rect(g, m, 0, 0, gpu_array2d_width(a), gpu_array2d_height(a), v);
}

/* Binds array element k of m (k-th float4 of each texel) to the pass's input NAME, or
 * in double to NAME_a and NAME_b (those the program uses: a pass that reads only .zw
 * has no NAME_a). */
#define BIND(g, p, name, m, k) bind_arr(g, p, name, name "_a", name "_b", m, k)
static void bind_arr(const kp_gpu *g, gpu_pass *p, const char *name, const char *na, const char *nb, gpu_mrt *m,
                     int k)
{
    if (!g->dbl) {
        gpu_pass_array(p, name, gpu_mrt_member(m, k));
        return;
    }
    if (gpu_program_uniform(p->program, na) >= 0) gpu_pass_array(p, na, gpu_mrt_member(m, 2 * k));
    if (gpu_program_uniform(p->program, nb) >= 0) gpu_pass_array(p, nb, gpu_mrt_member(m, 2 * k + 1));
}

/* A constant uniform in the passes' precision. */
static void set_real(const kp_gpu *g, gpu_pass *p, const char *name, double v)
{
    if (g->dbl) gpu_pass_double(p, name, v);
    else gpu_pass_float(p, name, (float)v);
}

/* kappa^4 as each precision's CPU twin computes it */
static double kappa4(const kp_gpu *g)
{
    if (g->dbl) return (g->kappa * g->kappa) * (g->kappa * g->kappa);
    float k2 = (float)(g->kappa * g->kappa);
    return k2 * k2;
}

/* the array the min reduction reads: R (single) or its bound member (double) */
static gpu_array2d *bound_array(kp_gpu *g) { return g->fused ? g->part : gpu_mrt_member(g->R, g->dbl ? 2 : 0); }

/* the fill program of the zero state: which 0 for R, 1 for the faces MRT */
static swgl_status build_fill(kp_gpu *g, int which)
{
    char defs[1200];
    swgl_status st;
    if (g->ee_method == KP_GPU_EE_DEPTHCLEAR && !g->p_mark) {
        snprintf(defs, sizeof defs, "%s#define KP_TILES_MARK 1\n", g->defs);
        if ((st = gpu_program_create_vs("kp_fill", "kp_tiles_vs", defs, &g->p_mark)) != SWGL_OK) return st;
    }
    if (g->p_fill[which]) return SWGL_OK;
    snprintf(defs, sizeof defs, "%s#define KP_TILES_FILL 1\n%s%s", g->defs, which ? "#define KP_FILL_FACES 1\n" : "",
             g->ee_method == KP_GPU_EE_DEPTH ? "#define KP_TILES_DEPTH 1\n" : "");
    return gpu_program_create_vs("kp_fill", "kp_tiles_vs", defs, &g->p_fill[which]);
}

/* a flux-side pass drawn through kp_tiles_vs.glsl, quads of g->group tiles a side */
static swgl_status build_tiled(kp_gpu *g, const char *name, gpu_program **out)
{
    char defs[1200];
    if (*out) return SWGL_OK;
    if (g->group > 1)
        snprintf(defs, sizeof defs, "%s#define KP_GROUP %d\n#define KP_NGX %d\n#define KP_NGY %d\n", g->defs,
                 g->group, g->ngx, g->ngy);
    else snprintf(defs, sizeof defs, "%s", g->defs);
    return gpu_program_create_vs(name, "kp_tiles_vs", defs, out);
}

static swgl_status build_flux(kp_gpu *g, enum kp_gpu_flux f)
{
    swgl_status st;
    const char *name = f == KP_GPU_FLUX_FACES ? "kp_faces" : "kp_flux_cell";
    if (!g->p_flux[f][0] && (st = gpu_program_create(name, g->defs, &g->p_flux[f][0])) != SWGL_OK) return st;
    /* the depth methods draw the full-screen programs with a depth test */
    if (!ee_depth(g) && (st = build_tiled(g, name, &g->p_flux[f][1])) != SWGL_OK) return st;
    if ((st = build_fill(g, 0)) != SWGL_OK) return st;
    if (f == KP_GPU_FLUX_FACES) {
        if ((st = build_fill(g, 1)) != SWGL_OK) return st;
        if (!g->faces && (st = arr_create(g, g->tw, g->th, 3, 0, "kp faces (east, north, source)", &g->faces)))
            return st;
        if (ee_depth(g) && !g->dfaces && (st = gpu_mrt_depth_create(g->faces, &g->dfaces)) != SWGL_OK) return st;
        if (!g->p_gather[0] && (st = gpu_program_create("kp_gather", g->defs, &g->p_gather[0])) != SWGL_OK) return st;
        if (!ee_depth(g) && (st = build_tiled(g, "kp_gather", &g->p_gather[1])) != SWGL_OK) return st;
    }
    return SWGL_OK;
}

swgl_status kp_gpu_set_flux(kp_gpu *g, enum kp_gpu_flux f)
{
    if (f != KP_GPU_FLUX_CELL && f != KP_GPU_FLUX_FACES) return swgl_fail(SWGL_ERR_ARG, "kp gpu: unknown flux variant");
    swgl_status st = build_flux(g, f);
    if (st == SWGL_OK && f != g->flux) {
        g->flux = f;
        g->prev_valid = 0;   /* the faces arrays hold nothing of the new variant's */
        g->depth_valid = 0;  /* nor their depth buffer any mark */
    }
    return st;
}

static swgl_status upload_constants(kp_gpu *g, const kp_problem *p)
{
    size_t n = grid_size(g->nx, g->ny);
    double *b = calloc(4 * n, sizeof(double));
    if (!b) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    for (int j = 0; j < g->th; j++)
        for (int i = 0; i < g->tw; i++) {
            size_t k = grid_at(g->nx, i, j);
            double BE, BW, BN, BS, Bij;
            kp_cell_bed(p, i, j, &BE, &BW, &BN, &BS, &Bij);
            b[4 * k] = BE;
            b[4 * k + 1] = BN;
            b[4 * k + 2] = Bij;
            b[4 * k + 3] = g->code[k];
            g->bij[k] = Bij;
        }
    swgl_status st = arr_upload(g, g->bed, b);
    if (st == SWGL_OK && g->manning == MAN_TEXTURE) {
        memset(b, 0, 4 * n * sizeof(double));
        for (size_t k = 0; k < n; k++)
            if (g->code[k] == CELL_ACTIVE) b[4 * k] = p->sw.g * p->manning[k] * p->manning[k];
        st = arr_upload(g, g->man, b);
    }
    free(b);
    return st;
}

/* The boundary data's arrays and pass (g->forcing). */
static swgl_status forcing_create(kp_gpu *g, const kp_problem *p)
{
    const swe_forcing *f = g->forc;
    swgl_status st = swe_clock_init(&g->fclk, &p->sw);
    if (st != SWGL_OK) return st;
    int ns = f->n_seg > 0 ? f->n_seg : 1;
    gpu_array2d_desc rd = {g->M, 4, GPU_RGBA32F, "kp boundary faces' rates"};
    g->ringbuf = malloc(4 * 4 * (size_t)g->M * sizeof(float));
    g->bvbuf = calloc(4 * (size_t)ns, sizeof(double));
    if (!g->ringbuf || !g->bvbuf) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    if ((st = arr_create(g, ns, 1, 1, 0, "kp boundary values", &g->bvals)) != SWGL_OK ||
        (st = gpu_array2d_create(&rd, &g->ring)) != SWGL_OK ||
        (st = gpu_program_create("kp_ring", g->defs, &g->p_ring)) != SWGL_OK)
        return st;
    if (f->rain) {
        size_t n = grid_size(g->nx, g->ny);
        double *r = calloc(4 * n, sizeof(double));
        if (!r) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
        for (size_t k = 0; k < n; k++) r[4 * k] = g->code[k] == CELL_ACTIVE ? f->rain[k] : 0.0;
        st = arr_create(g, g->tw, g->th, 1, 0, "kp rain", &g->rainf);
        if (st == SWGL_OK) st = arr_upload(g, g->rainf, r);
        free(r);
    }
    return st;
}

swgl_status kp_gpu_create(const kp_problem *p, kp_gpu **out) { return kp_gpu_create_prec(p, 0, out); }

int kp_gpu_is_double(const kp_gpu *g) { return g->dbl; }

swgl_status kp_gpu_create_prec(const kp_problem *p, int dbl, kp_gpu **out)
{
    swgl_status st;
    *out = NULL;
    if (!p) return swgl_fail(SWGL_ERR_ARG, "kp: no problem");
    if ((st = swe_problem_check(&p->sw)) != SWGL_OK || (st = kp_problem_check(p)) != SWGL_OK) return st;
    scheme_register_shaders();
    kp_gpu *g = calloc(1, sizeof *g);
    if (!g) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    g->compute = gpu_compute_passes();
    g->nx = p->sw.nx;
    g->ny = p->sw.ny;
    g->tw = grid_stride(g->nx);
    g->th = grid_rows(g->ny);
    g->ntx = (g->nx + KP_TILE - 1) / KP_TILE;
    g->nty = (g->ny + KP_TILE - 1) / KP_TILE;
    g->dx = p->sw.dx;
    g->dy = p->sw.dy;
    g->g = p->sw.g;
    g->cfl = p->sw.cfl;
    g->eps = p->sw.h_dry;
    g->kappa = p->sw.kappa;
    g->theta = p->theta;
    g->rk2 = p->rk2 != 0;
    g->dbl = dbl != 0;
    size_t n = grid_size(g->nx, g->ny);
    g->code = malloc(n);
    g->bij = malloc(n * sizeof(double));
    if (!g->code || !g->bij) {
        kp_gpu_destroy(g);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    }
    memcpy(g->code, p->sw.code, n);
    /* Manning: none, one value, or a texture */
    g->manning = MAN_NONE;
    if (p->manning) {
        double n0 = -1;
        for (size_t k = 0; k < n; k++) {
            if (g->code[k] != CELL_ACTIVE) continue;
            if (n0 < 0) n0 = p->manning[k];
            else if (p->manning[k] != n0) g->manning = MAN_TEXTURE;
        }
        if (g->manning != MAN_TEXTURE && n0 > 0) {
            g->manning = MAN_UNIFORM;
            g->gn2 = p->sw.g * n0 * n0;
        }
    }
    const char *fv = getenv("SWGL_KP_FLUX");
    g->flux = KP_GPU_FLUX_DEFAULT;
    if (fv && *fv) {
        if (strcmp(fv, "cell") == 0) g->flux = KP_GPU_FLUX_CELL;
        else if (strcmp(fv, "faces") == 0) g->flux = KP_GPU_FLUX_FACES;
        else {
            kp_gpu_destroy(g);
            return swgl_fail(SWGL_ERR_ARG, "SWGL_KP_FLUX=%s: expected cell or faces", fv);
        }
    }
    const char *ev = getenv("SWGL_KP_EE");
    g->ee_method = KP_GPU_EE_DEFAULT;
    if (ev && *ev) {
        int m = 0;
        while (m < KP_GPU_EE_COUNT && strcmp(ev, ee_names[m]) != 0) m++;
        if (m == KP_GPU_EE_COUNT) {
            kp_gpu_destroy(g);
            return swgl_fail(SWGL_ERR_ARG, "SWGL_KP_EE=%s: expected quads, quads32, quads64, depth or depthclear", ev);
        }
        g->ee_method = (enum kp_gpu_ee)m;
    }
    g->group = g->ee_method == KP_GPU_EE_QUADS64 ? 4 : g->ee_method == KP_GPU_EE_QUADS32 ? 2 : 1;
    g->ngx = (g->ntx + g->group - 1) / g->group;
    g->ngy = (g->nty + g->group - 1) / g->group;
    snprintf(g->defs, sizeof g->defs,
             "%s%s#define KP_TILE %d\n#define KP_NX %d\n#define KP_NY %d\n#define KP_NTX %d\n#define KP_NTY %d\n"
             "#define KP_MANNING %d\n%s",
             g->dbl ? "#extension GL_ARB_gpu_shader_fp64 : require\n#define KP_DOUBLE 1\n" : "", CELL_CODE_GLSL,
             KP_TILE, g->nx, g->ny, g->ntx, g->nty, g->manning,
             (p->sw.forcing && p->sw.forcing->n_seg) || grid_has_value_codes(g->code, n) ? "" : GRID_PLAIN_GLSL);
    if (p->sw.own[2]) {   /* a rank's block over MPI: the bound of its own cells only (kp_rates.glsl) */
        size_t l = strlen(g->defs);
        snprintf(g->defs + l, sizeof g->defs - l, "#define KP_OWN ivec4(%d, %d, %d, %d)\n", p->sw.own[0] + 1,
                 p->sw.own[1] + 1, p->sw.own[2] + 1, p->sw.own[3] + 1);
    }
    g->forc = p->sw.forcing;
    g->sw = &p->sw;
    g->forcing = swe_forcing_any(g->forc);
    const char *fu = getenv("SWGL_KP_FUSED");
    g->fused = g->compute && !g->dbl && !g->forcing && !(fu && strcmp(fu, "0") == 0);
    /* run_to steps on kernels that skip dry tiles outright (step_kernels; measured on an
     * H200, docs/performance.md); SWGL_KP_FUSED=flux keeps the reduction, the clock and
     * the integration as passes after the flux kernel, to measure the choice */
    int flux_only = fu && strcmp(fu, "flux") == 0;
    g->M = g->nx > g->ny ? g->nx : g->ny;
    if (g->forcing) {
        size_t l = strlen(g->defs);
        if (g->forc->n_seg) l += (size_t)snprintf(g->defs + l, sizeof g->defs - l, "#define KP_NSEG %d\n", g->forc->n_seg);
        if (g->forc->rain) l += (size_t)snprintf(g->defs + l, sizeof g->defs - l, "#define KP_RAIN 1\n");
        if (g->forc->n_src) snprintf(g->defs + l, sizeof g->defs - l, "#define KP_SOURCES 1\n");
    }
    char di[4][1200], di_kfused1[1800], di_flux[1400], di_kflux[1800], di_kint[1600], grp[128], tdefs[128];
    /* kp_flux_cs's shape (measured on an H200, docs/performance.md, "What was tried"):
     * below 2^22 cells (2048^2; ghosts not counted) work groups of 16 x 8, one cell an invocation, the texels
     * staged in shared memory (Malpasset's 0.7 M cells: 4.37 s against 4.9 s or more for
     * every sweep); from 2^22 cells on, groups of 32 x 2 each sweeping columns of 8 cells
     * with a row's points shared (KP_XSHARE), reading the arrays (4096^2 RK2: 1.13e10
     * against 8.2e9).  To measure the choices: SWGL_KP_GROUP=AxB (the work group),
     * SWGL_KP_CELLS=AxB (the cells an invocation sweeps), SWGL_KP_XSHARE=0|1 (a row's
     * points shared between invocations; one column an invocation) and SWGL_KP_STAGE=0|1
     * (the group's texels in shared memory or read from the arrays) */
    const char *gv = getenv("SWGL_KP_GROUP"), *cv = getenv("SWGL_KP_CELLS");
    int big = (long)g->nx * g->ny >= 1L << 22, staged = 0;
    g->gx = big ? 32 : 16;
    g->gy = big ? 2 : 8;
    g->cx = 1;
    g->cy = big ? 8 : 1;
    if (g->fused && ((st = group_from_env("SWGL_KP_GROUP", gv, 1, &g->gx, &g->gy)) != SWGL_OK ||
                     (st = cells_from_env(cv, &g->cx, &g->cy)) != SWGL_OK ||
                     (st = flag_from_env("SWGL_KP_XSHARE", big, &g->xshare)) != SWGL_OK ||
                     (st = flag_from_env("SWGL_KP_STAGE", !big, &staged)) != SWGL_OK ||
                     (st = flux_shape_check(g->gx, g->gy, g->cx, g->cy, g->xshare, staged)) != SWGL_OK)) {
        kp_gpu_destroy(g);
        return st;
    }
    const char *nostage = staged ? "" : "#define KP_NO_STAGING 1\n";
    int w = g->tw, h = g->th;
    g->tx = (g->gx - (g->xshare ? 2 : 0)) * g->cx;   /* a flux group's tile */
    g->ty = g->gy * g->cy;
    g->tnx = (w + g->tx - 1) / g->tx;
    g->tny = (h + g->ty - 1) / g->ty;
    /* the step on kernels (kp_tiles.glsl: RK2's stage 1 takes stage 0's skips, which needs
     * tiles 2 or more cells a side); the integration kernel's work group: the tile, or
     * its rows in turns where it holds more than 1024 cells */
    g->kstep = g->fused && !flux_only && g->tx >= 2 && g->ty >= 2;
    g->max_groups = KT_MAX_GROUPS;
    const char *mg = getenv("SWGL_KP_MAX_GROUPS");
    if (mg && *mg) {
        char *e;
        long v = strtol(mg, &e, 10);
        if (*e || v < 2 || v > KT_MAX_GROUPS) {
            kp_gpu_destroy(g);
            return swgl_fail(SWGL_ERR_ARG, "SWGL_KP_MAX_GROUPS=%s: expected 2 to %d", mg, KT_MAX_GROUPS);
        }
        g->max_groups = (int)v;
    }
    int ix = g->tx < 1024 ? g->tx : 1024, iy = g->ty;
    while (ix * iy > 1024) iy = (iy + 1) / 2;
    snprintf(grp, sizeof grp, "#define KP_GX %d\n#define KP_GY %d\n#define KP_CX %d\n#define KP_CY %d\n%s", g->gx, g->gy,
             g->cx, g->cy, g->xshare ? "#define KP_XSHARE 1\n" : "");
    snprintf(tdefs, sizeof tdefs, "#define KP_TILES 1\n#define KP_TILES_X %d\n#define KP_TILES_Y %d\n#define KP_MAX_GROUPS %d\n",
             g->tnx, g->tny, g->max_groups);
    snprintf(di_flux, sizeof di_flux, "%s%s%s", g->defs, nostage, grp);
    snprintf(di_kflux, sizeof di_kflux, "%s%s", di_flux, tdefs);
    snprintf(di_kfused1, sizeof di_kfused1, "%s#define KP_STAGE1 1\n#define KP_FUSE_STAGE1 1\n%s", di_flux, tdefs);
    snprintf(di_kint, sizeof di_kint, "%s%s#define KP_TX %d\n#define KP_TY %d\n#define KP_IX %d\n#define KP_IY %d\n%s", g->defs,
             tdefs, g->tx, g->ty, ix, iy, g->rk2 ? "" : "#define KP_TILES_WRITE 1\n");
    for (int s = 0; s < 2; s++)
        for (int c = 0; c < 2; c++)
            snprintf(di[2 * s + c], sizeof di[0], "%s%s%s", g->defs, s ? "#define KP_STAGE1 1\n" : "",
                     c ? "#define KP_DT_ON_GPU 1\n" : "");
    gpu_array2d_desc wd = {g->ntx, g->nty, GPU_RGBA32F, "kp wet tiles"};
    static const float zero[4] = {0, 0, 0, 0};
    if ((st = arr_create(g, w, h, 1, 0, "kp state 0", &g->state[0])) ||
        (st = arr_create(g, w, h, 1, 0, "kp state 1", &g->state[1])) ||
        (g->rk2 && (st = arr_create(g, w, h, 1, 0, "kp Q*", &g->qstar))) ||
        (st = arr_create(g, w, h, 1, 0, "kp bed (B_E, B_N, B_ij, code)", &g->bed)) ||
        (st = arr_create(g, w, h, 1, 1, "kp R", &g->R)) || (ee_depth(g) && (st = gpu_mrt_depth_create(g->R, &g->dR))) ||
        (st = gpu_array2d_create(&wd, &g->wet[0])) ||
        (st = gpu_array2d_create(&wd, &g->wet[1])) ||
        (g->manning == MAN_TEXTURE && (st = arr_create(g, w, h, 1, 0, "kp manning g n^2", &g->man))) ||
        (st = gpu_clock_create(3, &g->clock)) ||
        (st = gpu_array2d_fill(g->wet[0], zero)) || (st = gpu_array2d_fill(g->wet[1], zero)) ||
        (st = gpu_reductor_create(&g->red)) || (st = build_flux(g, g->flux)) ||
        (st = gpu_program_create("kp_wet", g->defs, &g->p_wet)) ||
        (g->fused && (st = gpu_array2d_create(&(gpu_array2d_desc){g->tnx, g->tny, GPU_RGBA32F, "kp cfl r per work group"},
                                              &g->part))) ||
        (g->fused && (st = gpu_program_create_kernel("kp_flux_cs", di_flux, &g->p_fused))) ||
        (g->kstep && (st = gpu_program_create_kernel("kp_flux_cs", di_kflux, &g->p_kflux))) ||
        (g->kstep && g->rk2 && (st = gpu_program_create_kernel("kp_flux_cs", di_kfused1, &g->p_kfused1))) ||
        (g->kstep && (st = gpu_program_create_kernel("kp_integrate_cs", di_kint, &g->p_kint))) ||
        (g->kstep &&
         (st = gpu_buffer_create((KT_HEAD + 3 * (size_t)g->tnx * g->tny) * sizeof(unsigned), "kp tiles", &g->tiles))) ||
        (st = gpu_program_create("kp_integrate", di[0], &g->p_int[0][0])) ||
        (st = gpu_program_create("kp_integrate", di[1], &g->p_int[0][1])) ||
        (g->rk2 && (st = gpu_program_create("kp_integrate", di[2], &g->p_int[1][0]))) ||
        (g->rk2 && (st = gpu_program_create("kp_integrate", di[3], &g->p_int[1][1]))) ||
        (st = upload_constants(g, p)) || (g->forcing && (st = forcing_create(g, p)))) {
        kp_gpu_destroy(g);
        return st;
    }
    gpu_program *flux_kernels[3] = {g->p_fused, g->p_kflux, g->p_kfused1};
    for (int k = 0; k < 3; k++) {
        if (!flux_kernels[k]) continue;
        gpu_program_set_cells(flux_kernels[k], g->cx, g->cy);
        if (g->xshare) gpu_program_set_helpers(flux_kernels[k], 2);
    }
    g->tiles_stale = 1;
    if (gpu_timer_create(KP_TIMER_SLOTS, &g->timer) != SWGL_OK) g->timer = NULL;   /* auto then stays on */
    swgl_clear_error();
    /* early exit would skip the dry tiles that rain, a source or an inflow wets, and so
     * would a ghost of a value code without boundary data (through the API only: a level
     * above a dry edge's bed gives it water; cpu_ref/kp_fast.c does the same) */
    int value_ghost = 0;
    for (size_t k = 0; k < n && !value_ghost; k++)
        value_ghost = g->code[k] == CELL_LEVEL || g->code[k] == CELL_DEPTH || g->code[k] == CELL_DISCHARGE;
    g->ee_forbidden = g->forcing || value_ghost;
    kp_gpu_set_early_exit(g, p->early_exit);
    *out = g;
    return SWGL_OK;
}

/* ---- state --------------------------------------------------------------------------- */

swgl_status kp_gpu_set_state(kp_gpu *g, const double *h, const double *qx, const double *qy)
{
    size_t n = grid_size(g->nx, g->ny);
    double *s = malloc(4 * n * sizeof(double));
    if (!s) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    for (size_t k = 0; k < n; k++) {
        if (g->code[k] != CELL_ACTIVE) {
            s[4 * k] = g->bij[k];
            if (g->forcing) {   /* a ghost's .y: its segment, -1 for none (kp_recon.glsl kp_bv) */
                size_t r;
                int i = (int)(k % (size_t)g->tw), j = (int)(k / (size_t)g->tw);
                s[4 * k + 1] = swe_ring_of(g->forc, g->nx, g->ny, g->M, i, j, &r);
            } else
                s[4 * k + 1] = 0.0;
            s[4 * k + 2] = 0.0;
            s[4 * k + 3] = -1.0 - g->code[k];
            continue;
        }
        /* as on the CPU: w = B_ij + h; a dry cell has no momentum; x = w - B_ij as the
         * passes compute it, in their precision (a NaN stays: the wet map counts it) */
        /* h < 0 reads as 0 as on the CPU; dry is decided on the stored depth, in the
         * passes' precision, as the wet map and the flux passes decide it */
        double hd = h[k] > 0.0 || isnan(h[k]) ? h[k] : 0.0;
        double w = g->bij[k] + hd, x;
        if (g->dbl) x = w - g->bij[k];
        else {
            float wf = (float)w;
            w = wf;
            x = wf - (float)g->bij[k];
        }
        int wet = !(x <= (g->dbl ? g->eps : (double)(float)g->eps));
        s[4 * k] = w;
        s[4 * k + 1] = wet ? qx[k] : 0.0;
        s[4 * k + 2] = wet ? qy[k] : 0.0;
        s[4 * k + 3] = x < 0.0 ? 0.0 : x;
    }
    g->cur = 0;
    g->tiles_stale = 1;
    /* float keeps w in float: the rain comes in pulses (cpu_ref/swe.h swe_clock_rain) */
    if (g->forcing && !g->dbl) swe_clock_rain_quantum(&g->fclk, g->sw, FLT_EPSILON, h);
    swgl_status st = arr_upload(g, g->state[0], s);
    if (st == SWGL_OK) st = arr_upload(g, g->state[1], s);
    free(s);
    return st;
}

swgl_status kp_gpu_get_state(kp_gpu *g, double *h, double *qx, double *qy)
{
    size_t n = grid_size(g->nx, g->ny);
    double *s = malloc(4 * n * sizeof(double));
    if (!s) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    swgl_status st = arr_download(g, g->state[g->cur], s);
    for (size_t k = 0; st == SWGL_OK && k < n; k++) {
        int a = g->code[k] == CELL_ACTIVE;
        /* the depth the GPU's own w and B_ij hold, exactly */
        double bij = g->dbl ? g->bij[k] : (double)(float)g->bij[k];
        h[k] = a ? s[4 * k] - bij : 0.0;
        qx[k] = a ? s[4 * k + 1] : 0.0;
        qy[k] = a ? s[4 * k + 2] : 0.0;
    }
    free(s);
    return st;
}

/* ---- the passes ---------------------------------------------------------------------- */

static void set_dxy(kp_gpu *g, gpu_pass *p)
{
    if (g->dbl) gpu_pass_dvec2(p, "u_dxy", g->dx, g->dy);
    else gpu_pass_vec2(p, "u_dxy", (float)g->dx, (float)g->dy);
}

static void recon_uniforms(kp_gpu *g, gpu_pass *p)
{
    set_real(g, p, "u_theta", g->theta);
    set_real(g, p, "u_eps", g->eps);
    set_real(g, p, "u_kappa4", kappa4(g));
    set_real(g, p, "u_g", g->g);
    set_dxy(g, p);
}

/* One draw of a flux-side pass: the whole output; or (early exit) one quad per tile (per
 * group of tiles) that is wet or has a wet neighbour in the wet map just made; or (depth
 * methods) the full-screen quad at depth 0.5 with GL_LESS, the skipped tiles marked 0. */
static swgl_status draw_tiles(kp_gpu *g, gpu_pass *p, int ee, gpu_mrt *out, gpu_mrt_depth *dout)
{
    static const gpu_depth_test test = {GPU_DEPTH_LESS, 0, 0};   /* no depth write, no discard: early-Z */
    if (!ee) return gpu_pass_draw_mrt(p, out, NULL);
    if (ee_depth(g)) return gpu_pass_draw_mrt_depth(p, dout, &test, 4, 0);
    gpu_pass_array(p, "u_wet", g->wet[g->wi]);
    return gpu_pass_draw_mrt_instanced(p, out, 4, g->ngx * g->ngy);
}

/* Early exit: writes what a skipped tile computes (kp_fill.glsl) into the tiles skipped
 * now that the last early-exit evaluation did not skip (all skipped tiles after a
 * full evaluation): the other skipped tiles hold it already, so no clear is needed. */
static swgl_status fill_skipped(kp_gpu *g, int faces)
{
    /* depth: the fill also writes the marks of the tiles whose mark changes (GL_ALWAYS);
     * depthclear: a clear to 1 and the skipped tiles at 0, depth only (GL_LESS) */
    static const gpu_depth_test fill_mark = {GPU_DEPTH_ALWAYS, 1, 0}, mark = {GPU_DEPTH_LESS, 1, 1};
    swgl_status st = SWGL_OK;
    for (int f = 0; f <= faces && st == SWGL_OK; f++) {
        gpu_pass p;
        gpu_mrt_depth *d = f ? g->dfaces : g->dR;
        gpu_pass_begin(&p, g->p_fill[f]);
        gpu_pass_array(&p, "u_wet", g->wet[g->wi]);
        gpu_pass_array(&p, "u_wet_prev", g->wet[1 - g->wi]);
        gpu_pass_int(&p, "u_prev_valid", g->prev_valid);
        if (g->ee_method == KP_GPU_EE_DEPTH) {
            gpu_pass_int(&p, "u_depth_valid", g->depth_valid);
            st = gpu_pass_draw_mrt_depth(&p, d, &fill_mark, 4, g->ntx * g->nty);
            continue;
        }
        st = gpu_pass_draw_mrt_instanced(&p, f ? g->faces : g->R, 4, g->ntx * g->nty);
        if (st == SWGL_OK && g->ee_method == KP_GPU_EE_DEPTHCLEAR && (st = gpu_mrt_depth_clear(d, 1.0f)) == SWGL_OK) {
            gpu_pass_begin(&p, g->p_mark);
            gpu_pass_array(&p, "u_wet", g->wet[g->wi]);
            st = gpu_pass_draw_mrt_depth(&p, d, &mark, 4, g->ntx * g->nty);
        }
    }
    if (st == SWGL_OK && g->ee_method == KP_GPU_EE_DEPTH) g->depth_valid = 1;
    return st;
}

/* A step's early-exit variant (and whether auto samples it), fixed at its stage 0. */
static void choose_early_exit(kp_gpu *g)
{
    drain(g, 0);
    if (g->ee_mode == KP_EARLY_EXIT_AUTO && g->timer) {
        /* phase 0: the current choice, timed; 1: the other one, untimed (its first
         * early-exit evaluation fills every skipped tile); 2: the other one, timed */
        long phase = g->step_n % KP_AUTO_PERIOD;
        g->step_ee = phase == 1 || phase == 2 ? !g->ee_cur : g->ee_cur;
        g->step_sample = phase == 0 || phase == 2;
    } else {
        g->step_ee = kp_gpu_early_exit_active(g);
        g->step_sample = 0;
    }
    g->step_n++;
}

/* Stage k's flux evaluation: [wet map], flux pass(es) -> R.  Stage 0 fixes the step's
 * early-exit variant (and whether auto samples it). */
static swgl_status flux_eval(kp_gpu *g, int k)
{
    swgl_status st;
    gpu_pass p;
    gpu_mrt *src = k == 0 || !g->rk2 ? g->state[g->cur] : g->qstar;
    if (k == 0) choose_early_exit(g);
    int ee = g->step_ee, faces = g->flux == KP_GPU_FLUX_FACES, sec;
    if (g->fused) {   /* one kernel: R, and each work group's min of cfl r in g->part */
        sec = section_begin(g, KP_PASS_FLUX, 1);
        gpu_pass_begin(&p, g->p_fused);
        BIND(g, &p, "u_state", src, 0);
        BIND(g, &p, "u_bed", g->bed, 0);
        recon_uniforms(g, &p);
        set_real(g, &p, "u_cfl", g->cfl);
        gpu_pass_int(&p, "u_skip_dry", ee);
        gpu_pass_image(&p, 1, g->part);
        st = gpu_pass_draw_mrt(&p, g->R, NULL);
        section_end(g, sec);
        g->last_ee = ee;   /* kp_gpu_tiles: unknown (-1) then */
        return st;
    }
    g->last_ee = ee;
    if (ee) {
        sec = section_begin(g, KP_PASS_WET, 0);
        gpu_pass_begin(&p, g->p_wet);
        BIND(g, &p, "u_state", src, 0);
        set_real(g, &p, "u_eps", g->eps);
        st = gpu_pass_draw(&p, g->wet[g->wi], NULL);
        section_end(g, sec);
        if (st != SWGL_OK) return st;
    }
    sec = section_begin(g, KP_PASS_FLUX, !faces);
    st = ee ? fill_skipped(g, faces) : SWGL_OK;
    unsigned q = g->count_frags ? gpu_samples_begin() : 0;
    gpu_pass_begin(&p, g->p_flux[g->flux][ee && !ee_depth(g)]);
    BIND(g, &p, "u_state", src, 0);
    BIND(g, &p, "u_bed", g->bed, 0);
    if (g->forcing && g->forc->n_seg) BIND(g, &p, "u_bvals", g->bvals, 0);
    recon_uniforms(g, &p);
    if (!faces) set_real(g, &p, "u_cfl", g->cfl);
    if (st == SWGL_OK) st = draw_tiles(g, &p, ee, faces ? g->faces : g->R, faces ? g->dfaces : g->dR);
    if (g->count_frags) g->frags = gpu_samples_end(q);
    section_end(g, sec);
    if (st == SWGL_OK && faces) {
        sec = section_begin(g, KP_PASS_GATHER, 1);
        q = g->count_frags ? gpu_samples_begin() : 0;
        gpu_pass_begin(&p, g->p_gather[ee && !ee_depth(g)]);
        BIND(g, &p, "u_fe", g->faces, 0);
        BIND(g, &p, "u_fn", g->faces, 1);
        BIND(g, &p, "u_src", g->faces, 2);
        set_dxy(g, &p);
        set_real(g, &p, "u_cfl", g->cfl);
        st = draw_tiles(g, &p, ee, g->R, g->dR);
        if (g->count_frags) g->frags += gpu_samples_end(q);
        section_end(g, sec);
    }
    if (st != SWGL_OK) return st;
    /* the wet map just made describes R (and the faces) until the next evaluation */
    if (ee) g->wi = 1 - g->wi;
    g->prev_valid = ee;
    return SWGL_OK;
}

/* Stage k's boundary values at its time (the host clock's), up to the GPU. */
static swgl_status forcing_values(kp_gpu *g, int k)
{
    swe_clock_stage(&g->fclk, k);
    if (!g->forc->n_seg) return SWGL_OK;
    for (int s = 0; s < g->forc->n_seg; s++) {
        g->bvbuf[4 * s] = g->fclk.seg_val[s];
        g->bvbuf[4 * s + 1] = g->forc->seg[s].vmax;
    }
    return arr_upload(g, g->bvals, g->bvbuf);
}

/* The boundary faces' volume rates of stage k's state (kp_ring.glsl) into the clock's
 * ring_rate, each the sum of the two floats the pass writes. */
static swgl_status ring_rates(kp_gpu *g, int k)
{
    gpu_pass p;
    gpu_mrt *src = k == 0 || !g->rk2 ? g->state[g->cur] : g->qstar;
    gpu_pass_begin(&p, g->p_ring);
    BIND(g, &p, "u_state", src, 0);
    BIND(g, &p, "u_bed", g->bed, 0);
    BIND(g, &p, "u_bvals", g->bvals, 0);
    recon_uniforms(g, &p);
    gpu_pass_int(&p, "u_nx", g->nx);
    gpu_pass_int(&p, "u_ny", g->ny);
    swgl_status st = gpu_pass_draw(&p, g->ring, NULL);
    if (st == SWGL_OK) st = gpu_array2d_download(g->ring, g->ringbuf);
    for (size_t r = 0; st == SWGL_OK && r < 4 * (size_t)g->M; r++)
        g->fclk.ring_rate[r] = (double)g->ringbuf[4 * r] + (double)g->ringbuf[4 * r + 1];
    return st;
}

swgl_status kp_gpu_rates(kp_gpu *g, int k, double *dt_stable)
{
    *dt_stable = INFINITY;
    if (k < 0 || k >= kp_gpu_stages(g)) return swgl_fail(SWGL_ERR_ARG, "kp gpu: no stage %d", k);
    swgl_status st = g->forcing ? forcing_values(g, k) : SWGL_OK;
    if (st == SWGL_OK) st = flux_eval(g, k);
    if (st == SWGL_OK && g->forcing && g->forc->n_seg) st = ring_rates(g, k);
    if (st != SWGL_OK || k > 0) return st;
    float mn[4];
    int sec = section_begin(g, KP_PASS_REDUCE, 0);
    st = gpu_reductor_run(g->red, bound_array(g), GPU_REDUCE_MIN, mn);
    section_end(g, sec);
    if (st != SWGL_OK) return st;
    *dt_stable = isinf(mn[3]) && mn[3] > 0 ? INFINITY : (double)mn[3];
    if (g->forcing && !isnan(*dt_stable)) *dt_stable = fmin(*dt_stable, g->fclk.dt_cap);   /* swe.h dt_cap */
    return SWGL_OK;
}

/* ---- over MPI ranks: stage 0 in parts, the halo read back without waiting ------------- */

int kp_gpu_overlap(const kp_gpu *g)
{
    /* float (the read-back ring holds floats), no boundary data (its accounts read every
     * face of the stage at once), and a flux that draws over a rectangle: the kernel, or
     * the cell pass without the early exit's tiles */
    return !g->dbl && !g->forcing && (g->fused || g->flux == KP_GPU_FLUX_CELL) ? 2 : 0;
}

swgl_status kp_gpu_rates_rects(kp_gpu *g, int k, const int (*r)[4], int n, double *bound)
{
    if (k < 0 || k >= kp_gpu_stages(g)) return swgl_fail(SWGL_ERR_ARG, "kp gpu: no stage %d", k);
    if (!kp_gpu_overlap(g)) return swgl_fail(SWGL_ERR_ARG, "kp gpu: this instance evaluates its stages whole");
    if (!g->parts_open) {   /* the step's early exit: in the kernel, or off for the passes */
        if (k == 0) choose_early_exit(g);
        if (!g->fused) g->step_ee = 0;
        g->last_ee = g->step_ee;
        g->prev_valid = 0;   /* (no wet map describes R now) */
        g->parts_open = 1;
    }
    gpu_mrt *src = k == 0 || !g->rk2 ? g->state[g->cur] : g->qstar;
    swgl_status st = SWGL_OK;
    for (int i = 0; i < n && st == SWGL_OK; i++) {
        gpu_rect rect = {r[i][0], r[i][1], r[i][2], r[i][3]};
        if (rect.w < 1 || rect.h < 1) continue;
        gpu_pass p;
        gpu_pass_begin(&p, g->fused ? g->p_fused : g->p_flux[KP_GPU_FLUX_CELL][0]);
        BIND(g, &p, "u_state", src, 0);
        BIND(g, &p, "u_bed", g->bed, 0);
        recon_uniforms(g, &p);
        set_real(g, &p, "u_cfl", g->cfl);
        if (g->fused) {   /* (its groups' minima are not used: the bound is R's below) */
            gpu_pass_int(&p, "u_skip_dry", g->step_ee);
            gpu_pass_image(&p, 1, g->part);
        }
        int sec = section_begin(g, KP_PASS_FLUX, i == n - 1 && bound);
        st = gpu_pass_draw_mrt(&p, g->R, &rect);
        section_end(g, sec);
    }
    *(bound ? bound : &(double){0}) = INFINITY;
    if (st != SWGL_OK || !bound) return st;
    g->parts_open = 0;
    if (k > 0) return SWGL_OK;
    float mn[4];
    int sec = section_begin(g, KP_PASS_REDUCE, 0);
    st = gpu_reductor_run(g->red, gpu_mrt_member(g->R, 0), GPU_REDUCE_MIN, mn);   /* cfl r in R's w */
    section_end(g, sec);
    if (st == SWGL_OK) *bound = isinf(mn[3]) && mn[3] > 0 ? INFINITY : (double)mn[3];
    return st;
}

swgl_status kp_gpu_halo_room(kp_gpu *g, long max_cells)
{
    if (g->halo_rb && max_cells <= g->halo_max) return SWGL_OK;
    if (g->halo_rb && gpu_readback_pending(g->halo_rb))
        return swgl_fail(SWGL_ERR_ARG, "kp gpu: the halo's read-backs grow while some are in flight");
    gpu_readback_destroy(g->halo_rb);
    g->halo_rb = NULL;
    free(g->halo_tmp);
    g->halo_max = max_cells > 0 ? max_cells : 1;
    g->halo_tmp = g->halo_max <= 1L << 26 ? malloc((size_t)g->halo_max * 4 * sizeof(float)) : NULL;
    if (!g->halo_tmp) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory for the halo's read-backs");
    return gpu_readback_create(GPU_READBACK_MAX, (int)g->halo_max, &g->halo_rb);
}

swgl_status kp_gpu_halo_request(kp_gpu *g, int x, int y, int w, int h)
{
    swgl_status st = kp_gpu_halo_room(g, (long)w * h);
    return st == SWGL_OK ? gpu_readback_request(g->halo_rb, gpu_mrt_member(g->state[g->cur], 0), x, y, w, h) : st;
}

swgl_status kp_gpu_halo_fetch(kp_gpu *g, double *buf)
{
    int ready = 0, n = g->halo_rb ? gpu_readback_next(g->halo_rb) : 0;
    if (n == 0) return swgl_fail(SWGL_ERR_ARG, "kp gpu: no halo read-back queued");
    swgl_status st = gpu_readback_fetch(g->halo_rb, 1, g->halo_tmp, &ready);
    if (st == SWGL_OK && !ready) st = swgl_fail(SWGL_ERR_GL, "kp gpu: a halo read-back did not come back");
    for (int i = 0; st == SWGL_OK && i < 4 * n; i++) buf[i] = g->halo_tmp[i];   /* as halo_get widens them */
    return st;
}

/* The integration pass's inputs for stage k; dt from the uniform, or from the clock
 * texel when clock is not NULL; src_add a point source's rise (m) for its one-texel draw. */
static void integrate_pass(kp_gpu *g, gpu_pass *p, int k, double dt, const gpu_array2d *clock, double rain_s,
                           double src_add)
{
    gpu_pass_begin(p, g->p_int[k][clock != NULL]);
    BIND(g, p, "u_state", g->state[g->cur], 0);
    if (k == 1) BIND(g, p, "u_qstar", g->qstar, 0);
    BIND(g, p, "u_R", g->R, 0);
    BIND(g, p, "u_bed", g->bed, 0);
    if (g->manning == MAN_TEXTURE) BIND(g, p, "u_manning", g->man, 0);
    if (g->manning == MAN_UNIFORM) set_real(g, p, "u_gn2", g->gn2);
    if (clock) gpu_pass_array(p, "u_clock", clock);
    else set_real(g, p, "u_dt", dt);
    set_real(g, p, "u_eps", g->eps);
    set_real(g, p, "u_kappa", g->kappa);
    set_real(g, p, "u_kappa4", kappa4(g));
    if (g->forcing && g->forc->rain) {
        BIND(g, p, "u_rain", g->rainf, 0);
        set_real(g, p, "u_rain_dt", rain_s);
    }
    if (g->forcing && g->forc->n_src) set_real(g, p, "u_src_add", src_add);
}

/* The flood maps' pass after a step (gpu_maps.h): the state after it, at time t (host
 * clock) or from the step's clock (run_to; t_known the CPU's time it counts from). */
static swgl_status maps_pass(kp_gpu *g, double t, const gpu_array2d *clock, double t_known)
{
    gpu_pass p;
    if (!gpu_maps_begin(&g->maps, &p, t, clock, t_known)) return SWGL_OK;
    BIND(g, &p, "u_state", g->state[g->cur], 0);
    return gpu_maps_end(&g->maps, &p);
}

swgl_status kp_gpu_maps_start(kp_gpu *g, const swe_maps *m)
{
    return gpu_maps_start(&g->maps, g->tw, g->th, "kp_maps", g->defs, m);
}

swgl_status kp_gpu_maps_read(kp_gpu *g, swe_maps *m) { return gpu_maps_read(&g->maps, g->code, m); }

/* w of cell k of an array (its first element), as the GPU holds it */
static swgl_status read_w(kp_gpu *g, gpu_mrt *m, size_t k, double *w)
{
    int x = (int)(k % (size_t)g->tw), y = (int)(k / (size_t)g->tw);
    if (g->dbl) {
        double v[2];
        swgl_status st = gpu_array2d_download_rect(gpu_mrt_member(m, 0), x, y, 1, 1, v);
        *w = v[0];
        return st;
    }
    float v[4];
    swgl_status st = gpu_array2d_download_rect(gpu_mrt_member(m, 0), x, y, 1, 1, v);
    *w = v[0];
    return st;
}

/* Stage k's integration pass; then (host clock only) each point source's cell drawn
 * again with its rise, what it added or took read back for the accounts. */
static swgl_status integrate(kp_gpu *g, int k, double dt, const gpu_array2d *clock)
{
    g->tiles_stale = 1;   /* (a pass wrote the state: step_kernels sets the tiles afresh) */
    gpu_pass p;
    int last = k == 1 || !g->rk2;
    gpu_mrt *out = last ? g->state[1 - g->cur] : g->qstar;
    double rain_s = g->forcing && !clock ? swe_clock_rain(&g->fclk, k, kp_gpu_stages(g), dt) : 0.0;
    integrate_pass(g, &p, k, dt, clock, rain_s, 0.0);
    int sec = section_begin(g, KP_PASS_INTEGRATE, 0);
    swgl_status st = gpu_pass_draw_mrt(&p, out, NULL);
    section_end(g, sec);
    const swe_forcing *f = g->forc;
    const double area = g->dx * g->dy, cw = k == 1 ? 0.5 : 1.0, wsrc = g->rk2 && k == 0 ? 0.5 : 1.0;
    /* the sources of a cell in one draw, their rises summed (swe.h swe_sources_at_cell) */
    for (int q = 0; st == SWGL_OK && !clock && g->forcing && q < f->n_src; q++) {
        double add[SWE_SOURCES_PER_CELL], total, before = 0, after = 0;
        int members[SWE_SOURCES_PER_CELL];
        int n = swe_sources_at_cell(f, q, g->fclk.src_q, cw * dt / area, members, add, &total);
        if (n == 0) continue;   /* an earlier source of the same cell drew it */
        size_t c = f->src_cell[q];
        gpu_rect r = {(int)(c % (size_t)g->tw), (int)(c / (size_t)g->tw), 1, 1};
        if ((st = read_w(g, out, c, &before)) != SWGL_OK) break;
        integrate_pass(g, &p, k, dt, NULL, rain_s, total);
        if ((st = gpu_pass_draw_mrt(&p, out, &r)) != SWGL_OK || (st = read_w(g, out, c, &after)) != SWGL_OK) break;
        swe_sources_account(&g->fclk.acc, members, add, n, (after - before) * area, area, wsrc);
    }
    if (st == SWGL_OK && g->forcing && !clock) swe_clock_applied(&g->fclk, k, kp_gpu_stages(g), dt);
    if (st == SWGL_OK && last) g->cur = 1 - g->cur;
    if (st == SWGL_OK && last && !clock) {
        g->t_now += dt;
        st = maps_pass(g, g->t_now, NULL, 0);
    }
    return st;
}

swgl_status kp_gpu_apply(kp_gpu *g, int k, double dt)
{
    if (k < 0 || k >= kp_gpu_stages(g)) return swgl_fail(SWGL_ERR_ARG, "kp gpu: no stage %d", k);
    if (!(dt >= 0) || isinf(dt)) return swgl_fail(SWGL_ERR_ARG, "kp gpu: dt = %g", dt);
    return integrate(g, k, dt, NULL);
}

void kp_gpu_set_time(kp_gpu *g, double t, double stop)
{
    g->t_now = t;
    if (g->forcing) swe_clock_set_time(&g->fclk, t, stop);
}

int kp_gpu_host_clock(const kp_gpu *g) { return g->forcing; }

void kp_gpu_account(const kp_gpu *g, swe_account *a)
{
    if (g->forcing) swe_account_copy(&g->fclk.acc, a);
}

void kp_gpu_count_fragments(kp_gpu *g, int on)
{
    g->count_frags = on != 0;
    g->frags = -1;
}

long kp_gpu_fragments(const kp_gpu *g) { return g->frags; }

/* The step on kernels: the tiles on the list the last step ran (kp_tiles.glsl), of all
 * its tiles; after steps on the host clock, unknown (-1) as for the flux kernel alone. */
static swgl_status kstep_tiles(kp_gpu *g, long *computed, long *total)
{
    long all = (long)g->tnx * g->tny;
    unsigned x = 0;
    *total = all;
    *computed = g->last_ee && g->tiles_stale ? -1 : all;
    if (!g->last_ee || g->tiles_stale) return SWGL_OK;
    swgl_status st = gpu_buffer_download(g->tiles, KT_COUNT(1 - g->tpar), sizeof x, &x);
    if (st == SWGL_OK) *computed = (long)x;
    return st;
}

swgl_status kp_gpu_tiles(kp_gpu *g, long *computed, long *total)
{
    if (g->kstep) return kstep_tiles(g, computed, total);
    long all = (long)g->ntx * g->nty;
    *total = all;
    *computed = g->fused && g->last_ee ? -1 : all;   /* the kernel's skips are not counted */
    if (!g->last_ee || g->fused) return SWGL_OK;
    float *w = malloc((size_t)all * 4 * sizeof(float));
    if (!w) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    swgl_status st = gpu_array2d_download(g->wet[1 - g->wi], w);   /* the last one made */
    if (st == SWGL_OK) {
        long c = 0;
        /* a tile is computed when one of its group (quads32, quads64) is not skipped */
        int G = g->group;
        for (int j = 0; j < g->nty; j++)
            for (int i = 0; i < g->ntx; i++) {
                int run = 0;
                for (int jj = j / G * G; jj < j / G * G + G && jj < g->nty && !run; jj++)
                    for (int ii = i / G * G; ii < i / G * G + G && ii < g->ntx && !run; ii++) {
                        static const int d[5][2] = {{0, 0}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}};
                        for (int m = 0; m < 5 && !run; m++) {
                            int a = ii + d[m][0], b = jj + d[m][1];
                            run = a >= 0 && b >= 0 && a < g->ntx && b < g->nty &&
                                  w[4 * ((size_t)b * g->ntx + a)] != 0.0f;
                        }
                    }
                c += run;
            }
        *computed = c;
    }
    free(w);
    return st;
}

/* ---- the step chosen on the GPU (run_to) --------------------------------------------- */

/* integrate_pass's friction and thin-film uniforms (kernels) */
static void integrate_uniforms(kp_gpu *g, gpu_pass *p)
{
    if (g->manning == MAN_TEXTURE) BIND(g, p, "u_manning", g->man, 0);
    if (g->manning == MAN_UNIFORM) set_real(g, p, "u_gn2", g->gn2);
    set_real(g, p, "u_kappa", g->kappa);
}

/* The buffer afresh, when anything but these kernels changed the state: both bound
 * words +inf (group_min.glsl's key), no stamp, and every tile on the first list (each is
 * computed once before the lists say more). */
static swgl_status tiles_reset(kp_gpu *g)
{
    size_t nt = (size_t)g->tnx * g->tny, n = KT_HEAD + 3 * nt;
    unsigned *w = calloc(n, sizeof *w);
    if (!w) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    w[0] = w[1] = 0xFFFFFFFFu;
    w[4] = (unsigned)(nt + 1 < (size_t)g->max_groups ? nt + 1 : (size_t)g->max_groups);   /* list 0: every tile, */
    w[10] = (unsigned)nt;                                                  /* and the control group */
    w[5] = w[6] = w[7] = w[8] = w[9] = 1;
    for (size_t k = 0; k < nt; k++) w[KT_HEAD + nt + k] = (unsigned)k;
    swgl_status st = gpu_buffer_upload(g->tiles, 0, n * sizeof *w, w);
    free(w);
    if (st == SWGL_OK) {
        g->tpar = 0;
        g->tstamp = 0;
        g->tiles_stale = 0;
    }
    return st;
}

/* A dispatch of a step on kernels: this step's list of tiles (indirect), or every tile
 * (early exit off), each with the control group */
static swgl_status kdispatch(kp_gpu *g, gpu_pass *p, int all)
{
    long groups = (long)g->tnx * g->tny + 1;
    if (all) return gpu_pass_dispatch_groups(p, groups < g->max_groups ? (int)groups : g->max_groups, 1, g->tw, g->th);
    return gpu_pass_dispatch_indirect(p, g->tiles, KT_CMD(g->tpar), g->tw, g->th);
}

/* A step on kernels (g->kstep; kp_tiles.glsl): stage 0's flux (kp_flux_cs under KP_TILES:
 * R of the listed tiles, the bound's min by atomicMin, the time left), the clock with
 * stage 0's integration (kp_integrate_cs: Q* or, Euler, Q^{n+1} and the next list) and,
 * RK2, stage 1's flux and integration (kp_flux_cs under KP_FUSE_STAGE1: Q^{n+1} and the
 * next list): two dispatches a step (Euler) or three (RK2), each of the tiles on the list
 * only, and no reduction pass. */
static swgl_status step_kernels(kp_gpu *g, const gpu_clock_args *a)
{
    swgl_status st = g->tiles_stale || g->tstamp == 0xFFFFFFFFu ? tiles_reset(g) : SWGL_OK;
    if (st != SWGL_OK) return st;
    choose_early_exit(g);
    g->last_ee = g->step_ee;
    g->tstamp++;
    int all = !g->step_ee;
    gpu_pass p;
    int sec = section_begin(g, KP_PASS_FLUX, 1);
    gpu_pass_begin(&p, g->p_kflux);
    BIND(g, &p, "u_state", g->state[g->cur], 0);
    BIND(g, &p, "u_bed", g->bed, 0);
    recon_uniforms(g, &p);
    set_real(g, &p, "u_cfl", g->cfl);
    gpu_clock_bind_unknown(g->clock, &p, a);
    gpu_pass_int(&p, "u_par", g->tpar);
    gpu_pass_int(&p, "u_all", all);
    gpu_pass_buffer(&p, 0, g->tiles);
    gpu_pass_image(&p, 0, gpu_mrt_member(g->R, 0));
    st = kdispatch(g, &p, all);
    section_end(g, sec);
    if (st != SWGL_OK) return st;
    gpu_pass_begin(&p, g->p_kint);
    BIND(g, &p, "u_state", g->state[g->cur], 0);
    BIND(g, &p, "u_R", g->R, 0);
    BIND(g, &p, "u_bed", g->bed, 0);
    gpu_clock_bind_texel(g->clock, &p, a);
    set_real(g, &p, "u_eps", g->eps);
    set_real(g, &p, "u_kappa4", kappa4(g));
    integrate_uniforms(g, &p);
    gpu_pass_int(&p, "u_par", g->tpar);
    gpu_pass_int(&p, "u_all", all);
    if (!g->rk2) gpu_pass_uint(&p, "u_stamp", g->tstamp);
    gpu_pass_buffer(&p, 0, g->tiles);
    gpu_pass_image(&p, 0, gpu_mrt_member(g->rk2 ? g->qstar : g->state[1 - g->cur], 0));
    gpu_pass_image(&p, 1, gpu_clock_next(g->clock));
    sec = section_begin(g, KP_PASS_INTEGRATE, 0);
    st = kdispatch(g, &p, all);
    section_end(g, sec);
    if (st != SWGL_OK) return st;
    gpu_clock_flip(g->clock);
    const gpu_array2d *clock = gpu_clock_now(g->clock);
    if (g->rk2) {
        gpu_pass_begin(&p, g->p_kfused1);
        BIND(g, &p, "u_state", g->qstar, 0);
        BIND(g, &p, "u_qn", g->state[g->cur], 0);
        BIND(g, &p, "u_bed", g->bed, 0);
        gpu_pass_array(&p, "u_clock", clock);
        recon_uniforms(g, &p);   /* (no u_cfl: the bound of stage 1 is not used) */
        integrate_uniforms(g, &p);
        gpu_pass_int(&p, "u_par", g->tpar);
        gpu_pass_int(&p, "u_all", all);
        gpu_pass_uint(&p, "u_stamp", g->tstamp);
        gpu_pass_buffer(&p, 0, g->tiles);
        gpu_pass_image(&p, 0, gpu_mrt_member(g->state[1 - g->cur], 0));
        sec = section_begin(g, KP_PASS_FLUX, 1);
        st = kdispatch(g, &p, all);
        section_end(g, sec);
        if (st != SWGL_OK) return st;
    }
    g->cur = 1 - g->cur;
    g->tpar = 1 - g->tpar;
    return maps_pass(g, 0, clock, g->stop_now - a->left);
}

/* The clock pass (gpgpu's clock.glsl) from the bound's 1x1 array, then stage 0's
 * integration reading it, and for RK2 stage 1's flux and integration with the same
 * clock: the step on passes, after stage 0's flux and the bound's reduction. */
static swgl_status step_on_gpu(kp_gpu *g, const gpu_clock_args *a)
{
    if (g->kstep) return step_kernels(g, a);
    swgl_status st = flux_eval(g, 0);
    const gpu_array2d *bound;
    if (st != SWGL_OK) return st;
    int sec = section_begin(g, KP_PASS_REDUCE, 0);
    st = gpu_reductor_run_gpu(g->red, bound_array(g), GPU_REDUCE_MIN, &bound);
    section_end(g, sec);
    if (st != SWGL_OK) return st;
    sec = section_begin(g, KP_PASS_CLOCK, 0);
    st = gpu_clock_pass(g->clock, bound, a);
    section_end(g, sec);
    if (st != SWGL_OK) return st;
    const gpu_array2d *clock = gpu_clock_now(g->clock);
    if ((st = integrate(g, 0, 0, clock)) != SWGL_OK) return st;
    if (g->rk2 && ((st = flux_eval(g, 1)) != SWGL_OK || (st = integrate(g, 1, 0, clock)) != SWGL_OK)) return st;
    return maps_pass(g, 0, clock, g->stop_now - a->left);
}

static swgl_status step_fn(void *self, const gpu_clock_args *a) { return step_on_gpu(self, a); }

swgl_status kp_gpu_run_to(kp_gpu *g, double t, double stop, int stop_index, double dt_floor, timeloop_span *sp)
{
    g->stop_now = stop;
    return gpu_steps_run_to(g->clock, &g->dt_recent, step_fn, g, t, stop, stop_index, dt_floor, sp);
}

/* ---- the backend (scheme.h) ---------------------------------------------------------- */

static swgl_status be_create(const scheme_setup *s, const scheme_config *cfg, void **self)
{
    const kp_setup_problem *sp = s->problem;
    int dbl = cfg && cfg->precision == PRECISION_DOUBLE;   /* kp's default is single */
    if (dbl && !cfg->has_fp64)
        return swgl_fail(SWGL_ERR_ARG,
                         "--precision double: the renderer '%s' lacks GL_ARB_gpu_shader_fp64 (no doubles in "
                         "shaders); use --precision single",
                         cfg->renderer ? cfg->renderer : "?");
    kp_gpu *g;
    swgl_status st = kp_gpu_create_prec(&sp->p, dbl, &g);
    if (st != SWGL_OK) return st;
    snprintf(g->renderer, sizeof g->renderer, "%s", cfg && cfg->renderer ? cfg->renderer : "?");
    *self = g;
    return SWGL_OK;
}

static void be_destroy(void *self) { kp_gpu_destroy(self); }
static swgl_status be_set(void *self, double *const *f) { return kp_gpu_set_state(self, f[0], f[1], f[2]); }
/* the halo of a run over MPI ranks: the state texels (w, hu, hv, h or code) as stored */
static swgl_status be_halo_get(void *self, int x, int y, int w, int h, double *buf)
{
    kp_gpu *g = self;
    return arr_download_rect(g, g->state[g->cur], x, y, w, h, buf);
}
static swgl_status be_halo_set(void *self, int x, int y, int w, int h, const double *buf)
{
    kp_gpu *g = self;
    g->tiles_stale = 1;
    return arr_upload_rect(g, g->state[g->cur], x, y, w, h, buf);
}
static swgl_status be_get(void *self, double *const *f) { return kp_gpu_get_state(self, f[0], f[1], f[2]); }
static int be_overlap(void *self, long max_cells)
{
    int reach = kp_gpu_overlap(self);
    return reach && kp_gpu_halo_room(self, max_cells) == SWGL_OK ? reach : 0;
}
static swgl_status be_halo_request(void *self, int x, int y, int w, int h) { return kp_gpu_halo_request(self, x, y, w, h); }
static swgl_status be_halo_fetch(void *self, double *buf) { return kp_gpu_halo_fetch(self, buf); }
static swgl_status be_stage_rects(void *self, int k, const int (*r)[4], int n, double *bound)
{
    return kp_gpu_rates_rects(self, k, r, n, bound);
}
static swgl_status be_stage(void *self, int k, double *dt) { return kp_gpu_rates(self, k, dt); }
static swgl_status be_advance(void *self, int k, double dt) { return kp_gpu_apply(self, k, dt); }
static int be_stages(const void *self) { return kp_gpu_stages(self); }

static void be_describe(const void *self, char *name, size_t len)
{
    const kp_gpu *g = self;
    static const char *ee[3] = {"auto", "on", "off"};
    if (g->fused)
        snprintf(name, len, "gpu-compute (float, %s, fused flux kernel (groups %dx%d, %dx%d cells an invocation%s)%s, "
                 "early exit %s (in the kernel%s))", g->renderer, g->gx, g->gy, g->cx, g->cy,
                 g->xshare ? ", rows shared" : "",
                 !g->kstep ? "" : g->rk2 ? ", clock in the integration, stage 1 flux and integration fused"
                                          : ", clock in the integration",
                 ee[g->ee_mode], g->kstep ? ": tile lists" : "");
    else
        snprintf(name, len, "%s (%s, %s, flux %s, early exit %s (%s))", g->compute ? "gpu-compute" : "gpu",
                 g->dbl ? "double" : "float", g->renderer,
                 kp_gpu_flux_name(g->flux), ee[g->ee_mode], kp_gpu_ee_name(g->ee_method));
}

static const char *be_precision(const void *self) { return ((const kp_gpu *)self)->dbl ? "double" : "single"; }

static void be_finish(void *self)
{
    (void)self;
    gpu_finish();
}

static swgl_status be_run_to(void *self, double t, double stop, int stop_index, double dt_floor, timeloop_span *sp)
{
    return kp_gpu_run_to(self, t, stop, stop_index, dt_floor, sp);
}

/* The state at n cells (gauges): one texel each, read back */
static swgl_status be_sample(void *self, const size_t *cells, int n, double *const *out)
{
    kp_gpu *g = self;
    swgl_status st = SWGL_OK;
    for (int m = 0; m < n && st == SWGL_OK; m++) {
        int x = (int)(cells[m] % (size_t)g->tw), y = (int)(cells[m] / (size_t)g->tw);
        double v[4];
        if (g->dbl) {
            st = gpu_array2d_download_rect(gpu_mrt_member(g->state[g->cur], 0), x, y, 1, 1, v);
            if (st == SWGL_OK) st = gpu_array2d_download_rect(gpu_mrt_member(g->state[g->cur], 1), x, y, 1, 1, v + 2);
        } else {
            float f[4];
            st = gpu_array2d_download_rect(gpu_mrt_member(g->state[g->cur], 0), x, y, 1, 1, f);
            for (int c = 0; c < 4; c++) v[c] = f[c];
        }
        double bij = g->dbl ? g->bij[cells[m]] : (double)(float)g->bij[cells[m]];   /* as get_state */
        out[0][m] = v[0] - bij;
        out[1][m] = v[1];
        out[2][m] = v[2];
    }
    return st;
}

static void be_set_time(void *self, double t, double stop) { kp_gpu_set_time(self, t, stop); }
static swgl_status be_maps_start(void *self, const swe_maps *m) { return kp_gpu_maps_start(self, m); }
static swgl_status be_maps_read(void *self, swe_maps *m) { return kp_gpu_maps_read(self, m); }
static int be_host_clock(const void *self) { return kp_gpu_host_clock(self); }
static swgl_status be_account(void *self, swe_account *a)
{
    kp_gpu_account(self, a);
    return SWGL_OK;
}

/* state (w, hu, hv, code), bed (B_E, B_N, B_ij, code): h = w - B_ij, eta = w */
static swgl_status be_device_field(void *self, const char *name, scheme_device_field *f)
{
    kp_gpu *g = self;
    if (g->dbl) return swgl_fail(SWGL_ERR_ARG, "kp gpu: no device field in double precision (packed texels)");
    memset(f, 0, sizeof *f);
    const gpu_array2d *st = gpu_mrt_member(g->state[g->cur], 0), *bed = gpu_mrt_member(g->bed, 0);
    f->width = gpu_array2d_width(st);
    f->height = gpu_array2d_height(st);
    f->texture = gpu_array2d_texture(st);
    if (strcmp(name, "h") == 0) *f = (scheme_device_field){f->texture, gpu_array2d_texture(bed), 0, 2, -1.0, f->width, f->height};
    else if (strcmp(name, "eta") == 0) f->component = 0;
    else if (strcmp(name, "qx") == 0) f->component = 1;
    else if (strcmp(name, "qy") == 0) f->component = 2;
    else if (strcmp(name, "bed") == 0) f->texture = gpu_array2d_texture(bed), f->component = 2;
    else return swgl_fail(SWGL_ERR_ARG, "kp gpu: no field '%s' (h, eta, qx, qy, bed)", name);
    return SWGL_OK;
}
static void be_profile(void *self, int on) { kp_gpu_profile(self, on); }
static swgl_status be_profile_pass(void *self, int k, const char **name, double *seconds, long *count)
{
    kp_gpu *g = self;
    if (k < 0 || k >= KP_PASS_COUNT || !g->profile) return SWGL_ERR_ARG;
    double sec[KP_PASS_COUNT];
    long n[KP_PASS_COUNT];
    swgl_status st = kp_gpu_profile_read(g, sec, n);
    if (st != SWGL_OK) return st;
    *name = kp_gpu_pass_name(k);
    *seconds = sec[k];
    *count = n[k];
    return SWGL_OK;
}
static void be_tiles(void *self, long *computed, long *total)
{
    if (kp_gpu_tiles(self, computed, total) != SWGL_OK || *computed < 0) *computed = *total = 0;
}

const scheme_backend kp_backend_gpu = {.backend = BACKEND_GPU, .create = be_create, .destroy = be_destroy,
                                       .set_state = be_set, .get_state = be_get, .stage = be_stage,
                                       .advance = be_advance, .stages = be_stages, .describe = be_describe,
                                       .precision = be_precision, .finish = be_finish, .run_to = be_run_to,
                                       .set_time = be_set_time, .account = be_account, .host_clock = be_host_clock,
                                       .sample = be_sample, .maps_start = be_maps_start, .maps_read = be_maps_read,
                                       .halo_values = 4, .halo_get = be_halo_get, .halo_set = be_halo_set,
                                       .overlap = be_overlap, .halo_request = be_halo_request,
                                       .halo_fetch = be_halo_fetch, .stage_rects = be_stage_rects,
                                       .device_field = be_device_field, .profile = be_profile,
                                       .profile_pass = be_profile_pass, .tiles = be_tiles};
