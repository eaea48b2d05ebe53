/* roe_gpu.c — the Roe scheme of Lastra et al. (2009) as fragment passes (Lastra 4.3,
 * 4.4, Figure 8), with the mass-conservative positivity limiter of cpu_ref/roe_cpu.h, and
 * its backend behind scheme.h.
 *
 * Arrays, (nx+2) x (ny+2) volumes with the ghost ring (swgl_grid.h):
 *   state[2]  (h, qx, qy, cell code), ping-pong; the code rides along in w, so the
 *             passes that need it read no constant texture
 *   bed       (H, 0, 0, 0): Lastra's depth function H = -z_b
 *   flux      MRT of two edge arrays (2(nx+2)) x (ny+2): what each edge gives the cell
 *             on its low side and on its high side (shaders/roe/roe_edge.glsl)
 *   cell      (sum F-[qx, qy], dt_i, tau_i) per volume (roe_dt.glsl), which the update
 *             reads instead of re-gathering the momentum from the four edges; the mass
 *             fluxes it re-reads from the edges' x channels (SWGL_ROE_MASS=cell: the dt
 *             pass writes them as a second target instead, fewer bytes but one more
 *             render target, measured slower on an H100 at 0.8-1M cells:
 *             docs/performance.md)
 * One step (one stage: Euler, Lastra (4)):
 *   stage    edge pass -> dt pass -> min reduction of dt_i (its 1x1 result is the only
 *            value read back) -> the bound (8)
 *   advance  update pass with the dt the time loop chose (roe_update.glsl)
 *   run_to   the same, with the step chosen on the GPU (gpgpu's clock.glsl) and read back
 *            a few steps late through a ring of pixel buffers: no stall per step
 * Bytes a step must move per cell, at the fewest (float4 = 16 B): edge pass reads the
 * state and bed of the cell (32) and writes 2 edges x 2 targets (64); dt pass reads 4
 * edge texels (64) and the state (16) and writes 16; the reduction reads 16; update
 * reads state, sums and 4 edge texels (96) and writes 16: 320 B (288 B with
 * SWGL_ROE_MASS=cell; 352 B before the limiter, when the update re-read all four edges
 * and a constant texture, and the edge pass read an edge texture).
 *
 * Double (`--precision double`, roe_gpu_create_ex; GL_ARB_gpu_shader_fp64, refused
 * without it): the same passes from the same sources (shaders/roe/roe_real.glsl: real =
 * double), each float4 array two RGBA32UI arrays of packed doubles, as the sediment
 * passes store theirs:
 *   state[2]  MRT (h, qx) + (qy, code);  bed (H, 0)
 *   flux      MRT of 4: low (Phi, F-[qx]) + (F-[qy], ||D||), high the same
 *   cell      MRT of 3: (sum F-[qx], sum F-[qy]), (tau_i, dt_i), and a float4 (-, -,
 *             dt_i, -) that gpgpu's min reduction and clock read (float4 only): the
 *             step is chosen from a float image of the bound (any step up to the bound
 *             is a step; the state does not depend on how dt is rounded), the update
 *             takes the chosen dt as a double (two int uniforms), and run_to's landing
 *             step is recomputed in double by the update (roe_update.glsl), so a stop
 *             is reached as exactly as by the time loop on the CPU
 *   mass fluxes always from the edges (SWGL_ROE_MASS=cell is a float variant)
 *   the problem's constants compiled in as exact decimal images (%.17e LF)
 * Bytes per cell and step: edge reads 48 and writes 128, dt reads 160 and writes 48,
 * the reduction 16, the update reads 128 and writes 32: 560 B (float: 320). */
#include "roe_gpu.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_context.h"
#include "gpu_maps.h"
#include "gpu_pass.h"
#include "gpu_reductor.h"
#include "gpu_steps.h"
#include "roe.h"
#include "scheme_shaders.h"

struct roe_gpu {
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
    char renderer[128];
    int compute;                /* built as compute passes (gpu-compute) */
    int fused;                  /* gpu-compute: edge and dt passes as one kernel (roe_step_cs) */
    int gx, gy;                 /* its work group */
    gpu_program *p_step;        /* that kernel */
    gpu_array2d *part;          /* its per-work-group minima of dt_i: the reduction's input */
    /* boundary data, rain and point sources (cpu_ref/swe.h; docs/boundaries.md): the
     * host clock runs the steps, the segment values go up per step, the boundary edges'
     * volume rates come back per step (roe_ring.glsl) */
    int forcing, M;
    const swe_forcing *forc;
    swe_clock fclk;
    gpu_array2d *bvals, *rainf, *ring;
    gpu_program *p_ring;
    float *ringbuf;
    /* flood maps (swe_maps.h; shaders/roe/roe_maps.glsl), as kp_gpu_forcing.c keeps them */
    gpu_maps maps;
    double t_now, stop_now;
    char maps_defs[1200];
};

void roe_gpu_destroy(roe_gpu *r)
{
    if (!r) return;
    gpu_array2d_destroy(r->state[0]);
    gpu_array2d_destroy(r->state[1]);
    gpu_mrt_destroy(r->state_d[0]);
    gpu_mrt_destroy(r->state_d[1]);
    gpu_array2d_destroy(r->bed);
    gpu_mrt_destroy(r->flux);
    gpu_mrt_destroy(r->cell);
    gpu_reductor_destroy(r->red);
    gpu_program_destroy(r->p_edge);
    gpu_program_destroy(r->p_dt);
    gpu_program_destroy(r->p_update);
    gpu_program_destroy(r->p_step);
    gpu_array2d_destroy(r->part);
    gpu_clock_destroy(r->clock);
    gpu_program_destroy(r->p_update_clock);
    gpu_maps_destroy(&r->maps);
    gpu_array2d_destroy(r->bvals);
    gpu_array2d_destroy(r->rainf);
    gpu_array2d_destroy(r->ring);
    gpu_program_destroy(r->p_ring);
    swe_clock_free(&r->fclk);
    free(r->ringbuf);
    free(r);
}

static swgl_status upload_bed(roe_gpu *r, const swe_problem *p)
{
    size_t n = grid_size(p->nx, p->ny);
    if (r->dbl) {   /* (H, 0) as two doubles a texel */
        double *b = calloc(2 * n, sizeof(double));
        if (!b) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
        for (size_t k = 0; k < n; k++) b[2 * k] = p->H[k];
        swgl_status st = gpu_array2d_upload(r->bed, b);
        free(b);
        return st;
    }
    float *b = calloc(4 * n, sizeof(float));
    if (!b) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    for (size_t k = 0; k < n; k++) b[4 * k] = (float)p->H[k];
    swgl_status st = gpu_array2d_upload(r->bed, b);
    free(b);
    return st;
}

/* Walls and free outlets only, no boundary segments (whose values the passes would read):
 * the passes are built with SWGL_PLAIN_BOUNDARIES (swgl_grid.h) */
static int roe_plain(const roe_gpu *r)
{
    return !(r->forc && r->forc->n_seg) && !grid_has_value_codes(r->code, (size_t)r->tex_w * (size_t)r->tex_h);
}

/* The double passes' defines: fp64, ROE_DOUBLE, the codes, and the problem's constants
 * in place of the float uniforms, as exact decimal images of the doubles. */
static swgl_status double_defines(const roe_gpu *r, char *defs, size_t len)
{
    int n = snprintf(defs, len,
                     "#extension GL_ARB_gpu_shader_fp64 : require\n#define ROE_DOUBLE 1\n%s"
                     "#define ROE_MASS_FROM_EDGES 1\n"
                     "#define u_len dvec2(%.17eLF, %.17eLF)\n#define u_g %.17eLF\n#define u_hdry %.17eLF\n"
                     "#define u_cfl %.17eLF\n#define u_area %.17eLF\n#define u_kappa %.17eLF\n",
                     CELL_CODE_GLSL, r->dy, r->dx, r->g, r->h_dry, r->cfl, r->dx * r->dy, r->kappa);
    if (n >= 0 && (size_t)n < len && roe_plain(r))
        n += snprintf(defs + n, len - (size_t)n, "%s", GRID_PLAIN_GLSL);
    if (n < 0 || (size_t)n >= len) return swgl_fail(SWGL_ERR_ARG, "roe: defines too long");
    return SWGL_OK;
}

/* An array of n doubles per texel (1 or 2) from v: RGBA32F (x of 4 floats) in single, RGBA32UI
 * (two doubles) in double; the passes read its first value (roe_bv, roe_rain). */
static swgl_status put_pairs(roe_gpu *r, gpu_array2d *a, const double *v2, size_t n)
{
    if (r->dbl) return gpu_array2d_upload(a, v2);
    float *f = calloc(4 * n, sizeof(float));
    if (!f) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    for (size_t k = 0; k < n; k++) f[4 * k] = (float)v2[2 * k], f[4 * k + 1] = (float)v2[2 * k + 1];
    swgl_status st = gpu_array2d_upload(a, f);
    free(f);
    return st;
}

/* The boundary data's arrays and pass (r->forcing). */
static swgl_status forcing_create(roe_gpu *r, const swe_problem *p, const char *defs)
{
    const swe_forcing *f = r->forc;
    swgl_status st = swe_clock_init(&r->fclk, p);
    if (st != SWGL_OK) return st;
    enum gpu_format fmt = r->dbl ? GPU_RGBA32UI : GPU_RGBA32F;
    gpu_array2d_desc bd = {f->n_seg > 0 ? f->n_seg : 1, 1, fmt, "roe boundary values"};
    gpu_array2d_desc rd = {r->M, 4, GPU_RGBA32F, "roe boundary edges' rates"};
    gpu_array2d_desc wd = {r->tex_w, r->tex_h, fmt, "roe rain"};
    if (!(r->ringbuf = malloc(16 * (size_t)r->M * sizeof(float)))) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    if ((st = gpu_array2d_create(&bd, &r->bvals)) != SWGL_OK || (st = gpu_array2d_create(&rd, &r->ring)) != SWGL_OK ||
        (st = gpu_program_create("roe_ring", defs, &r->p_ring)) != SWGL_OK)
        return st;
    if (f->rain) {
        size_t n = (size_t)r->tex_w * r->tex_h;
        double *v = calloc(2 * n, sizeof(double));
        if (!v) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
        for (size_t k = 0; k < n; k++) v[2 * k] = r->code[k] == CELL_ACTIVE ? f->rain[k] : 0.0;
        if ((st = gpu_array2d_create(&wd, &r->rainf)) == SWGL_OK) st = put_pairs(r, r->rainf, v, n);
        free(v);
    }
    return st;
}

/* What a ghost's state texel holds in h: its segment with boundary data (-1 for none),
 * else 0. */
static double ghost_h(const roe_gpu *r, size_t k)
{
    if (!r->forcing) return 0.0;
    int i = (int)(k % (size_t)r->tex_w), j = (int)(k / (size_t)r->tex_w);
    size_t ring;
    return swe_ring_of(r->forc, r->nx, r->ny, r->M, i, j, &ring);
}

swgl_status roe_gpu_create(const swe_problem *p, roe_gpu **out) { return roe_gpu_create_ex(p, 0, out); }

swgl_status roe_gpu_create_ex(const swe_problem *p, int use_double, roe_gpu **out)
{
    swgl_status st;
    *out = NULL;
    if ((st = swe_problem_check(p)) != SWGL_OK) return st;
    scheme_register_shaders();
    roe_gpu *r = calloc(1, sizeof *r);
    if (!r) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    r->compute = gpu_compute_passes();
    r->nx = p->nx;
    r->ny = p->ny;
    r->tex_w = grid_stride(p->nx);
    r->tex_h = grid_rows(p->ny);
    r->dbl = use_double != 0;
    r->g = p->g;
    r->cfl = p->cfl;
    r->h_dry = p->h_dry;
    r->kappa = p->kappa;
    r->dx = p->dx;
    r->dy = p->dy;
    /* The state arrays hold the codes, which set_state writes; the programs get the
     * codes' numbers as #defines from the one enum (swgl_grid.h). */
    r->code = p->code;
    const char *variant = getenv("SWGL_ROE_MASS"), *fuse = getenv("SWGL_ROE_FUSED");
    r->forc = p->forcing;
    r->forcing = swe_forcing_any(r->forc);
    /* the fused kernel: gpu-compute, float, no boundary data (whose rates come from the
     * edge arrays); SWGL_ROE_FUSED=0 keeps the passes (to measure the choice) */
    r->fused = r->compute && !r->dbl && !r->forcing && !(fuse && strcmp(fuse, "0") == 0);
    r->mass_from_edges = r->dbl || (!r->fused && !(variant && strcmp(variant, "cell") == 0));
    char defs[1024];
    if (r->dbl) {
        if ((st = double_defines(r, defs, sizeof defs)) != SWGL_OK) {
            roe_gpu_destroy(r);
            return st;
        }
    } else {
        snprintf(defs, sizeof defs, "%s%s%s", CELL_CODE_GLSL,
                 r->mass_from_edges ? "#define ROE_MASS_FROM_EDGES 1\n" : "",
                 roe_plain(r) ? GRID_PLAIN_GLSL : "");
    }
    r->M = r->nx > r->ny ? r->nx : r->ny;
    if (p->own[2]) {   /* a rank's block over MPI: the bound of its own cells only (roe_cell.glsl) */
        size_t l = strlen(defs);
        snprintf(defs + l, sizeof defs - l, "#define ROE_OWN ivec4(%d, %d, %d, %d)\n", p->own[0] + 1, p->own[1] + 1,
                 p->own[2] + 1, p->own[3] + 1);
    }
    if (r->forcing) {
        size_t l = strlen(defs);
        if (r->forc->n_seg) l += (size_t)snprintf(defs + l, sizeof defs - l, "#define ROE_NSEG %d\n", r->forc->n_seg);
        if (r->forc->rain) l += (size_t)snprintf(defs + l, sizeof defs - l, "#define ROE_RAIN 1\n");
        if (r->forc->n_src) snprintf(defs + l, sizeof defs - l, "#define ROE_SOURCES 1\n");
    }
    char defs_clock[1200], defs_step[1300];
    /* SWGL_ROE_STAGE=1: the fused kernel reads its group's copy of the texels in shared
     * memory (roe_step_cs.glsl; measured slower, so not the default); SWGL_ROE_GROUP=AxB:
     * its work group (default 8x16, the fastest measured on the H200: docs/performance.md):
     * to measure the choices */
    const char *stg = getenv("SWGL_ROE_STAGE"), *gv = getenv("SWGL_ROE_GROUP");
    r->gx = 8;
    r->gy = 16;
    /* shared memory: the border edges' two vec4 arrays and, staged, the texel copies */
    if (r->fused && (st = group_from_env("SWGL_ROE_GROUP", gv, 2, &r->gx, &r->gy)) != SWGL_OK) {
        roe_gpu_destroy(r);
        return st;
    }
    snprintf(defs_step, sizeof defs_step, "%s%s#define ROE_GX %d\n#define ROE_GY %d\n", defs,
             stg && strcmp(stg, "1") == 0 ? "#define ROE_STAGING 1\n" : "", r->gx, r->gy);
    snprintf(defs_clock, sizeof defs_clock, "%s#define ROE_DT_ON_GPU 1\n", defs);
    snprintf(r->maps_defs, sizeof r->maps_defs, "%s", defs);
    if (r->dbl) {
        gpu_mrt_desc s0 = {r->tex_w, r->tex_h, 2, {GPU_RGBA32UI, GPU_RGBA32UI}, "roe state 0 (double)"};
        gpu_mrt_desc s1 = {r->tex_w, r->tex_h, 2, {GPU_RGBA32UI, GPU_RGBA32UI}, "roe state 1 (double)"};
        gpu_array2d_desc bd = {r->tex_w, r->tex_h, GPU_RGBA32UI, "roe bed H (double)"};
        gpu_mrt_desc fd = {2 * r->tex_w, r->tex_h, 4, {GPU_RGBA32UI, GPU_RGBA32UI, GPU_RGBA32UI, GPU_RGBA32UI},
                           "roe edge fluxes (double)"};
        gpu_mrt_desc cd = {r->tex_w, r->tex_h, 3, {GPU_RGBA32UI, GPU_RGBA32UI, GPU_RGBA32F}, "roe cell sums (double)"};
        if ((st = gpu_mrt_create(&s0, &r->state_d[0])) || (st = gpu_mrt_create(&s1, &r->state_d[1])) ||
            (st = gpu_array2d_create(&bd, &r->bed)) || (st = gpu_mrt_create(&fd, &r->flux)) ||
            (st = gpu_mrt_create(&cd, &r->cell))) {
            roe_gpu_destroy(r);
            return st;
        }
    } else {
        gpu_array2d_desc s0 = {r->tex_w, r->tex_h, GPU_RGBA32F, "roe state 0"};
        gpu_array2d_desc s1 = {r->tex_w, r->tex_h, GPU_RGBA32F, "roe state 1"};
        gpu_array2d_desc bd = {r->tex_w, r->tex_h, GPU_RGBA32F, "roe bed H"};
        gpu_mrt_desc fd = {2 * r->tex_w, r->tex_h, 2, {0}, "roe edge fluxes"};
        gpu_mrt_desc cd = {r->tex_w, r->tex_h, r->mass_from_edges ? 1 : 2, {0}, "roe cell sums"};
        gpu_array2d_desc pd = {(r->tex_w + r->gx - 1) / r->gx, (r->tex_h + r->gy - 1) / r->gy, GPU_RGBA32F,
                               "roe dt_i per work group"};
        if ((st = gpu_array2d_create(&s0, &r->state[0])) || (st = gpu_array2d_create(&s1, &r->state[1])) ||
            (st = gpu_array2d_create(&bd, &r->bed)) || (!r->fused && (st = gpu_mrt_create(&fd, &r->flux))) ||
            (st = gpu_mrt_create(&cd, &r->cell)) || (r->fused && (st = gpu_array2d_create(&pd, &r->part))) ||
            (r->fused && (st = gpu_program_create_kernel("roe_step_cs", defs_step, &r->p_step)))) {
            roe_gpu_destroy(r);
            return st;
        }
    }
    if ((st = gpu_reductor_create(&r->red)) || (!r->fused && (st = gpu_program_create("roe_edge", defs, &r->p_edge))) ||
        (!r->fused && (st = gpu_program_create("roe_dt", defs, &r->p_dt))) ||
        (st = gpu_program_create("roe_update", defs, &r->p_update)) || (st = upload_bed(r, p))) {
        roe_gpu_destroy(r);
        return st;
    }
    if ((st = gpu_clock_create(2, &r->clock)) ||
        (st = gpu_program_create("roe_update", defs_clock, &r->p_update_clock)) ||
        (r->forcing && (st = forcing_create(r, p, defs)))) {
        roe_gpu_destroy(r);
        return st;
    }
    *out = r;
    return SWGL_OK;
}

int roe_gpu_is_double(const roe_gpu *r) { return r->dbl; }

swgl_status roe_gpu_set_state(roe_gpu *r, const double *h, const double *qx, const double *qy)
{
    size_t n = (size_t)r->tex_w * r->tex_h;
    swgl_status st;
    r->cur = 0;
    if (r->dbl) {   /* (h, qx) and (qy, code), two doubles a texel */
        double *a = malloc(2 * n * sizeof(double)), *b = malloc(2 * n * sizeof(double));
        if (!a || !b) {
            free(a);
            free(b);
            return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
        }
        for (size_t k = 0; k < n; k++) {
            int act = r->code[k] == CELL_ACTIVE, wet = act && h[k] > r->h_dry;
            a[2 * k] = act ? h[k] : ghost_h(r, k);
            a[2 * k + 1] = wet ? qx[k] : 0.0;
            b[2 * k] = wet ? qy[k] : 0.0;
            b[2 * k + 1] = (double)r->code[k];
        }
        st = SWGL_OK;
        for (int q = 0; q < 2 && st == SWGL_OK; q++)
            if ((st = gpu_array2d_upload(gpu_mrt_member(r->state_d[q], 0), a)) == SWGL_OK)
                st = gpu_array2d_upload(gpu_mrt_member(r->state_d[q], 1), b);
        free(a);
        free(b);
        return st;
    }
    float *s = malloc(4 * n * sizeof(float));
    if (!s) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    for (size_t k = 0; k < n; k++) {
        /* as on the CPU: a dry cell (h <= h_dry) has no velocity, and the mass flux of its
         * edges relies on q = 0 there */
        int a = r->code[k] == CELL_ACTIVE, wet = a && h[k] > r->h_dry;
        s[4 * k] = a ? (float)h[k] : (float)ghost_h(r, k);
        s[4 * k + 1] = wet ? (float)qx[k] : 0.0f;
        s[4 * k + 2] = wet ? (float)qy[k] : 0.0f;
        s[4 * k + 3] = (float)r->code[k];
    }
    st = gpu_array2d_upload(r->state[0], s);
    if (st == SWGL_OK) st = gpu_array2d_upload(r->state[1], s);
    free(s);
    return st;
}

swgl_status roe_gpu_get_state(roe_gpu *r, double *h, double *qx, double *qy)
{
    size_t n = (size_t)r->tex_w * r->tex_h;
    swgl_status st;
    if (r->dbl) {
        double *a = malloc(2 * n * sizeof(double)), *b = malloc(2 * n * sizeof(double));
        if (!a || !b) {
            free(a);
            free(b);
            return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
        }
        if ((st = gpu_array2d_download(gpu_mrt_member(r->state_d[r->cur], 0), a)) == SWGL_OK)
            st = gpu_array2d_download(gpu_mrt_member(r->state_d[r->cur], 1), b);
        for (size_t k = 0; st == SWGL_OK && k < n; k++) {
            int act = r->code[k] == CELL_ACTIVE;   /* a ghost's h holds its segment */
            h[k] = act ? a[2 * k] : 0.0;
            qx[k] = act ? a[2 * k + 1] : 0.0;
            qy[k] = act ? b[2 * k] : 0.0;
        }
        free(a);
        free(b);
        return st;
    }
    float *s = malloc(4 * n * sizeof(float));
    if (!s) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    st = gpu_array2d_download(r->state[r->cur], s);
    for (size_t k = 0; st == SWGL_OK && k < n; k++) {
        int act = r->code[k] == CELL_ACTIVE;   /* a ghost's h holds its segment */
        h[k] = act ? s[4 * k] : 0.0;
        qx[k] = act ? s[4 * k + 1] : 0.0;
        qy[k] = act ? s[4 * k + 2] : 0.0;
    }
    free(s);
    return st;
}

/* the state arrays of ping-pong side `side` as a pass's inputs */
static void bind_state(roe_gpu *r, gpu_pass *p, int side)
{
    if (r->dbl) {
        gpu_pass_array(p, "u_state_a", gpu_mrt_member(r->state_d[side], 0));
        gpu_pass_array(p, "u_state_b", gpu_mrt_member(r->state_d[side], 1));
    } else {
        gpu_pass_array(p, "u_state", r->state[side]);
    }
}

/* a double for the double passes: its low and high 32 bits as two int uniforms */
static void pass_double(gpu_pass *p, const char *lo, const char *hi, double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    gpu_pass_int(p, lo, (int)(int32_t)(uint32_t)(b & 0xffffffffu));
    gpu_pass_int(p, hi, (int)(int32_t)(uint32_t)(b >> 32));
}

/* the array whose channel 2 is the per-cell bound dt_i (float): the reduction's input */
static gpu_array2d *bound_array(roe_gpu *r)
{
    return r->fused ? r->part : gpu_mrt_member(r->cell, r->dbl ? 2 : 0);
}

/* edge pass and dt pass of the current state (fused: the one kernel roe_step_cs, which
 * also leaves each work group's min of dt_i in r->part) */
static swgl_status edge_and_cell(roe_gpu *r)
{
    swgl_status st;
    gpu_pass p;
    if (r->fused) {
        gpu_pass_begin(&p, r->p_step);
        bind_state(r, &p, r->cur);
        gpu_pass_array(&p, "u_bed", r->bed);
        gpu_pass_vec2(&p, "u_len", (float)r->dy, (float)r->dx);
        gpu_pass_float(&p, "u_g", (float)r->g);
        gpu_pass_float(&p, "u_hdry", (float)r->h_dry);
        gpu_pass_float(&p, "u_cfl", (float)r->cfl);
        gpu_pass_float(&p, "u_area", (float)(r->dx * r->dy));
        gpu_pass_image(&p, 2, r->part);
        return gpu_pass_draw_mrt(&p, r->cell, NULL);
    }

    /* 1. edges: what each edge gives the cells on its two sides, through two targets
     *    (four in double); the double passes have the constants compiled in */
    gpu_pass_begin(&p, r->p_edge);
    bind_state(r, &p, r->cur);
    gpu_pass_array(&p, "u_bed", r->bed);
    if (r->forcing && r->forc->n_seg) gpu_pass_array(&p, "u_bvals", r->bvals);
    if (!r->dbl) {
        gpu_pass_vec2(&p, "u_len", (float)r->dy, (float)r->dx);
        gpu_pass_float(&p, "u_g", (float)r->g);
        gpu_pass_float(&p, "u_hdry", (float)r->h_dry);
    }
    if ((st = gpu_pass_draw_mrt(&p, r->flux, NULL)) != SWGL_OK) return st;

    /* 2. per cell: the gathered sums, the local dt (8) and the drain time */
    gpu_pass_begin(&p, r->p_dt);
    if (r->dbl) {
        gpu_pass_array(&p, "u_low_a", gpu_mrt_member(r->flux, 0));
        gpu_pass_array(&p, "u_low_b", gpu_mrt_member(r->flux, 1));
        gpu_pass_array(&p, "u_high_a", gpu_mrt_member(r->flux, 2));
        gpu_pass_array(&p, "u_high_b", gpu_mrt_member(r->flux, 3));
    } else {
        gpu_pass_array(&p, "u_low", gpu_mrt_member(r->flux, 0));
        gpu_pass_array(&p, "u_high", gpu_mrt_member(r->flux, 1));
    }
    bind_state(r, &p, r->cur);
    if (!r->dbl) {
        gpu_pass_float(&p, "u_cfl", (float)r->cfl);
        gpu_pass_float(&p, "u_area", (float)(r->dx * r->dy));
    }
    return gpu_pass_draw_mrt(&p, r->cell, NULL);
}

/* the update's mass fluxes: the dt pass's second target, or the edges themselves */
static void bind_mass(roe_gpu *r, gpu_pass *p)
{
    if (r->dbl) {   /* the mass fluxes' halves of the edge arrays */
        gpu_pass_array(p, "u_low_a", gpu_mrt_member(r->flux, 0));
        gpu_pass_array(p, "u_high_a", gpu_mrt_member(r->flux, 2));
    } else if (r->mass_from_edges) {
        gpu_pass_array(p, "u_low", gpu_mrt_member(r->flux, 0));
        gpu_pass_array(p, "u_high", gpu_mrt_member(r->flux, 1));
    } else {
        gpu_pass_array(p, "u_mass", gpu_mrt_member(r->cell, 1));
    }
}

/* The step's segment values at its time (the host clock's), up to the GPU. */
static swgl_status forcing_values(roe_gpu *r)
{
    swe_clock_stage(&r->fclk, 0);
    int n = r->forc->n_seg;
    if (!n) return SWGL_OK;
    double *v = malloc(2 * (size_t)n * sizeof(double));
    if (!v) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    for (int q = 0; q < n; q++) v[2 * q] = r->fclk.seg_val[q], v[2 * q + 1] = r->forc->seg[q].vmax;
    swgl_status st = put_pairs(r, r->bvals, v, (size_t)n);
    free(v);
    return st;
}

swgl_status roe_gpu_rates(roe_gpu *r, double *dt_stable)
{
    swgl_status st = r->forcing ? forcing_values(r) : SWGL_OK;
    if (st == SWGL_OK) st = edge_and_cell(r);
    if (st != SWGL_OK) return st;
    /* 3. dt = min over volumes (channel z): the only value that comes back to the CPU */
    float mn[4];
    if ((st = gpu_reductor_run(r->red, bound_array(r), GPU_REDUCE_MIN, mn)) != SWGL_OK) return st;
    *dt_stable = isinf(mn[2]) ? INFINITY : (double)mn[2];
    if (r->forcing && !isnan(*dt_stable)) *dt_stable = fmin(*dt_stable, r->fclk.dt_cap);   /* swe.h dt_cap */
    return SWGL_OK;
}

/* The update pass (roe_update.glsl); dt from the uniform, or, when clock is not NULL,
 * from the clock texel (the program built with ROE_DT_ON_GPU; in double the landing
 * step is recomputed from left, the previous clock prev and unknown, as the clock pass
 * got them).  With boundary data: the rain rain_s (swe_clock_rain: s x rain[]), and a
 * point source's rise src_add drawn into
 * the one texel rect (NULL: the whole array, no source).  Leaves the new state in
 * 1 - r->cur (the caller flips r->cur). */
static swgl_status update_pass(roe_gpu *r, double dt, const gpu_array2d *clock, const gpu_array2d *prev, double left,
                               int unknown, const gpu_rect *rect, double rain_s, double src_add)
{
    gpu_pass p;
    gpu_pass_begin(&p, clock ? r->p_update_clock : r->p_update);
    bind_state(r, &p, r->cur);
    if (r->forcing && r->forc->rain) gpu_pass_array(&p, "u_rain", r->rainf);
    if (r->dbl) {
        gpu_pass_array(&p, "u_sums_d", gpu_mrt_member(r->cell, 0));
        gpu_pass_array(&p, "u_tau", gpu_mrt_member(r->cell, 1));
        bind_mass(r, &p);
        if (clock) {
            gpu_pass_array(&p, "u_clock", clock);
            gpu_pass_array(&p, "u_prev", prev);
            pass_double(&p, "u_left_lo", "u_left_hi", left);
            gpu_pass_int(&p, "u_unknown", unknown);
        } else {
            pass_double(&p, "u_dt_lo", "u_dt_hi", dt);
        }
        if (r->forcing && r->forc->rain) pass_double(&p, "u_rain_dt_lo", "u_rain_dt_hi", rain_s);
        if (r->forcing && r->forc->n_src) pass_double(&p, "u_src_add_lo", "u_src_add_hi", src_add);
        return gpu_pass_draw_mrt(&p, r->state_d[1 - r->cur], rect);
    }
    gpu_pass_array(&p, "u_sums", gpu_mrt_member(r->cell, 0));
    bind_mass(r, &p);
    if (clock) gpu_pass_array(&p, "u_clock", clock);
    else gpu_pass_float(&p, "u_dt", (float)dt);
    gpu_pass_float(&p, "u_area", (float)(r->dx * r->dy));
    gpu_pass_float(&p, "u_hdry", (float)r->h_dry);
    gpu_pass_float(&p, "u_kappa", (float)r->kappa);
    if (r->forcing && r->forc->rain) gpu_pass_float(&p, "u_rain_dt", (float)rain_s);
    if (r->forcing && r->forc->n_src) gpu_pass_float(&p, "u_src_add", (float)src_add);
    return gpu_pass_draw(&p, r->state[1 - r->cur], rect);
}

static swgl_status update(roe_gpu *r, double dt, const gpu_array2d *clock, const gpu_array2d *prev, double left,
                          int unknown)
{
    swgl_status st = update_pass(r, dt, clock, prev, left, unknown, NULL, 0.0, 0.0);
    if (st == SWGL_OK) r->cur = 1 - r->cur;
    return st;
}

/* The boundary edges' volume rates of the step with dt (roe_ring.glsl) into the clock's
 * ring_rate, each the sum of the two floats the pass writes. */
static swgl_status ring_rates(roe_gpu *r, double dt)
{
    gpu_pass p;
    gpu_pass_begin(&p, r->p_ring);
    bind_state(r, &p, r->cur);
    if (r->dbl) {
        gpu_pass_array(&p, "u_low_a", gpu_mrt_member(r->flux, 0));
        gpu_pass_array(&p, "u_high_a", gpu_mrt_member(r->flux, 2));
        gpu_pass_array(&p, "u_tau", gpu_mrt_member(r->cell, 1));
        pass_double(&p, "u_dt_lo", "u_dt_hi", dt);
    } else {
        gpu_pass_array(&p, "u_low", gpu_mrt_member(r->flux, 0));
        gpu_pass_array(&p, "u_high", gpu_mrt_member(r->flux, 1));
        gpu_pass_array(&p, "u_sums", gpu_mrt_member(r->cell, 0));
        gpu_pass_float(&p, "u_dt", (float)dt);
    }
    gpu_pass_int(&p, "u_nx", r->nx);
    gpu_pass_int(&p, "u_ny", r->ny);
    swgl_status st = gpu_pass_draw(&p, r->ring, NULL);
    if (st == SWGL_OK) st = gpu_array2d_download(r->ring, r->ringbuf);
    for (size_t k = 0; st == SWGL_OK && k < 4 * (size_t)r->M; k++)
        r->fclk.ring_rate[k] = (double)r->ringbuf[4 * k] + (double)r->ringbuf[4 * k + 1];
    return st;
}

/* The flood maps' pass after a step (gpu_maps.h): the state after it, at time t (host
 * clock) or from the clock texels (run_to). */
static swgl_status maps_pass(roe_gpu *r, double t, const gpu_array2d *clock, double t_known)
{
    gpu_pass p;
    if (!gpu_maps_begin(&r->maps, &p, t, clock, t_known)) return SWGL_OK;
    bind_state(r, &p, r->cur);
    return gpu_maps_end(&r->maps, &p);
}

swgl_status roe_gpu_maps_start(roe_gpu *r, const swe_maps *m)
{
    return gpu_maps_start(&r->maps, r->tex_w, r->tex_h, "roe_maps", r->maps_defs, m);
}

swgl_status roe_gpu_maps_read(roe_gpu *r, swe_maps *m) { return gpu_maps_read(&r->maps, r->code, m); }

/* h of cell k of the state array side, as the GPU holds it */
static swgl_status read_h(roe_gpu *r, int side, size_t k, double *h)
{
    int x = (int)(k % (size_t)r->tex_w), y = (int)(k / (size_t)r->tex_w);
    if (r->dbl) {
        double v[2];
        swgl_status st = gpu_array2d_download_rect(gpu_mrt_member(r->state_d[side], 0), x, y, 1, 1, v);
        *h = v[0];
        return st;
    }
    float v[4];
    swgl_status st = gpu_array2d_download_rect(r->state[side], x, y, 1, 1, v);
    *h = v[0];
    return st;
}

/* The step's update on the host clock: the boundary edges' accounts, the update, then
 * each cell with point sources drawn again with their summed rise (what a taking source
 * took read back), the step on the clock. */
static swgl_status forcing_update(roe_gpu *r, double dt)
{
    const swe_forcing *f = r->forc;
    const double area = r->dx * r->dy;
    swgl_status st = f->n_seg ? ring_rates(r, dt) : SWGL_OK;
    double rain_s = swe_clock_rain(&r->fclk, 0, 1, dt);
    if (st == SWGL_OK) st = update_pass(r, dt, NULL, NULL, 0, 0, NULL, rain_s, 0.0);
    for (int q = 0; st == SWGL_OK && q < f->n_src; q++) {
        double add[SWE_SOURCES_PER_CELL], total, before = 0, after = 0;
        int members[SWE_SOURCES_PER_CELL];
        int n = swe_sources_at_cell(f, q, r->fclk.src_q, dt / area, members, add, &total);
        if (n == 0) continue;   /* an earlier source of the same cell drew it */
        size_t c = f->src_cell[q];
        gpu_rect rc = {(int)(c % (size_t)r->tex_w), (int)(c / (size_t)r->tex_w), 1, 1};
        if ((st = read_h(r, 1 - r->cur, c, &before)) != SWGL_OK ||
            (st = update_pass(r, dt, NULL, NULL, 0, 0, &rc, rain_s, total)) != SWGL_OK ||
            (st = read_h(r, 1 - r->cur, c, &after)) != SWGL_OK)
            break;
        swe_sources_account(&r->fclk.acc, members, add, n, (after - before) * area, area, 1.0);
    }
    if (st == SWGL_OK) {
        r->cur = 1 - r->cur;
        swe_clock_applied(&r->fclk, 0, 1, dt);
    }
    return st;
}

swgl_status roe_gpu_apply(roe_gpu *r, double dt)
{
    swgl_status st = r->forcing ? forcing_update(r, dt) : update(r, dt, NULL, NULL, 0, 0);
    r->t_now += dt;
    return st == SWGL_OK ? maps_pass(r, r->t_now, NULL, 0) : st;
}

void roe_gpu_set_time(roe_gpu *r, double t, double stop)
{
    r->t_now = t;
    if (r->forcing) swe_clock_set_time(&r->fclk, t, stop);
}

int roe_gpu_host_clock(const roe_gpu *r) { return r->forcing; }

void roe_gpu_account(const roe_gpu *r, swe_account *a)
{
    if (r->forcing) swe_account_copy(&r->fclk.acc, a);
}

/* One step with dt chosen on the GPU: edge, dt, reduction (left on the GPU), clock
 * (clock.glsl), update reading the clock (gpu_steps.c reads the clocks back). */
static swgl_status step_fn(void *self, const gpu_clock_args *a)
{
    roe_gpu *r = self;
    swgl_status st = edge_and_cell(r);
    const gpu_array2d *bound;
    if (st != SWGL_OK || (st = gpu_reductor_run_gpu(r->red, bound_array(r), GPU_REDUCE_MIN, &bound)) != SWGL_OK ||
        (st = gpu_clock_pass(r->clock, bound, a)) != SWGL_OK)
        return st;
    const gpu_array2d *now = gpu_clock_now(r->clock);
    if ((st = update(r, 0, now, gpu_clock_next(r->clock), a->left, a->unknown)) != SWGL_OK) return st;
    return maps_pass(r, 0, now, r->stop_now - a->left);
}

swgl_status roe_gpu_run_to(roe_gpu *r, double t, double stop, int stop_index, double dt_floor, timeloop_span *sp)
{
    r->stop_now = stop;
    return gpu_steps_run_to(r->clock, &r->dt_recent, step_fn, r, t, stop, stop_index, dt_floor, sp);
}

/* ---- the backend (scheme.h) ---------------------------------------------------------- */

/* --precision double asks for the double passes (fp64); single and the default (AUTO)
 * give the float ones: float stays roe's default. */
static swgl_status be_create(const scheme_setup *s, const scheme_config *cfg, void **self)
{
    const roe_problem *rp = s->problem;
    roe_gpu *r;
    int dbl = cfg && cfg->precision == PRECISION_DOUBLE;
    if (dbl && !cfg->has_fp64)
        return swgl_fail(SWGL_ERR_ARG,
                         "--precision double: the renderer '%s' lacks GL_ARB_gpu_shader_fp64 (no doubles in "
                         "shaders); use --precision single (roe's default on the gpu) or --backend cpu",
                         cfg->renderer ? cfg->renderer : "?");
    swgl_status st = roe_gpu_create_ex(&rp->p, dbl, &r);
    if (st != SWGL_OK) return st;
    snprintf(r->renderer, sizeof r->renderer, "%s", cfg && cfg->renderer ? cfg->renderer : "?");
    *self = r;
    return SWGL_OK;
}

static void be_destroy(void *self) { roe_gpu_destroy(self); }
static swgl_status be_set(void *self, double *const *f) { return roe_gpu_set_state(self, f[0], f[1], f[2]); }
static swgl_status be_get(void *self, double *const *f) { return roe_gpu_get_state(self, f[0], f[1], f[2]); }

/* The halo of a run over MPI ranks: the state texels of the w x h cells from (x, y), as
 * stored, 4 doubles a cell: float (h, qx, qy, code), or double (h, qx) + (qy, code) */
static swgl_status halo_io(roe_gpu *r, int set, int x, int y, int w, int h, double *buf)
{
    if (!r->dbl) return gpu_array2d_rect_doubles(r->state[r->cur], set, x, y, w, h, buf, 4, 0);
    swgl_status st = SWGL_OK;
    for (int half = 0; half < 2 && st == SWGL_OK; half++)
        st = gpu_array2d_rect_doubles(gpu_mrt_member(r->state_d[r->cur], half), set, x, y, w, h, buf, 4, 2 * half);
    return st;
}
static swgl_status be_halo_get(void *self, int x, int y, int w, int h, double *buf)
{
    return halo_io(self, 0, x, y, w, h, buf);
}
static swgl_status be_halo_set(void *self, int x, int y, int w, int h, const double *buf)
{
    return halo_io(self, 1, x, y, w, h, (double *)buf);
}

static swgl_status be_stage(void *self, int k, double *dt_stable)
{
    (void)k;
    return roe_gpu_rates(self, dt_stable);
}

static swgl_status be_advance(void *self, int k, double dt)
{
    (void)k;
    return roe_gpu_apply(self, dt);
}

static void be_describe(const void *self, char *name, size_t len)
{
    const roe_gpu *r = self;
    snprintf(name, len, "%s (%s%s, %s)", r->compute ? "gpu-compute" : "gpu", r->dbl ? "double" : "float",
             r->fused ? ", fused kernel" : "", r->renderer);
}

static const char *be_precision(const void *self) { return ((const roe_gpu *)self)->dbl ? "double" : "single"; }

static void be_finish(void *self)
{
    (void)self;
    gpu_finish();
}

static swgl_status be_run_to(void *self, double t, double stop, int stop_index, double dt_floor, timeloop_span *sp)
{
    return roe_gpu_run_to(self, t, stop, stop_index, dt_floor, sp);
}

/* The state at n cells (gauges): one texel each, read back */
static swgl_status be_sample(void *self, const size_t *cells, int n, double *const *out)
{
    roe_gpu *r = self;
    swgl_status st = SWGL_OK;
    for (int m = 0; m < n && st == SWGL_OK; m++) {
        int x = (int)(cells[m] % (size_t)r->tex_w), y = (int)(cells[m] / (size_t)r->tex_w);
        double v[4];
        if (r->dbl) {
            st = gpu_array2d_download_rect(gpu_mrt_member(r->state_d[r->cur], 0), x, y, 1, 1, v);
            if (st == SWGL_OK) st = gpu_array2d_download_rect(gpu_mrt_member(r->state_d[r->cur], 1), x, y, 1, 1, v + 2);
        } else {
            float f[4];
            st = gpu_array2d_download_rect(r->state[r->cur], x, y, 1, 1, f);
            for (int c = 0; c < 4; c++) v[c] = f[c];
        }
        out[0][m] = v[0];
        out[1][m] = v[1];
        out[2][m] = v[2];
    }
    return st;
}

static void be_set_time(void *self, double t, double stop) { roe_gpu_set_time(self, t, stop); }
static swgl_status be_maps_start(void *self, const swe_maps *m) { return roe_gpu_maps_start(self, m); }
static swgl_status be_maps_read(void *self, swe_maps *m) { return roe_gpu_maps_read(self, m); }
static int be_host_clock(const void *self) { return roe_gpu_host_clock(self); }
static swgl_status be_account(void *self, swe_account *a)
{
    roe_gpu_account(self, a);
    return SWGL_OK;
}

/* state (h, qx, qy, code), bed (H, 0, 0, 0) with H = -z_b: eta = h - H, z_b = 0 - H */
static swgl_status be_device_field(void *self, const char *name, scheme_device_field *f)
{
    roe_gpu *r = self;
    if (r->dbl) return swgl_fail(SWGL_ERR_ARG, "roe gpu: no device field in double precision (packed texels)");
    memset(f, 0, sizeof *f);
    f->width = gpu_array2d_width(r->state[r->cur]);
    f->height = gpu_array2d_height(r->state[r->cur]);
    f->texture = gpu_array2d_texture(r->state[r->cur]);
    if (strcmp(name, "h") == 0) f->component = 0;
    else if (strcmp(name, "qx") == 0) f->component = 1;
    else if (strcmp(name, "qy") == 0) f->component = 2;
    else if (strcmp(name, "eta") == 0) f->texture2 = gpu_array2d_texture(r->bed), f->scale2 = -1.0;
    else if (strcmp(name, "bed") == 0)   /* 0 + (-1) H: the bed's second component is 0 */
        f->texture = f->texture2 = gpu_array2d_texture(r->bed), f->component = 1, f->scale2 = -1.0;
    else return swgl_fail(SWGL_ERR_ARG, "roe gpu: no field '%s' (h, eta, qx, qy, bed)", name);
    return SWGL_OK;
}

const scheme_backend roe_backend_gpu = {.backend = BACKEND_GPU, .create = be_create, .destroy = be_destroy,
                                        .set_state = be_set, .get_state = be_get, .stage = be_stage,
                                        .advance = be_advance, .stages = scheme_one_stage, .describe = be_describe,
                                        .precision = be_precision, .finish = be_finish, .run_to = be_run_to,
                                        .set_time = be_set_time, .account = be_account, .host_clock = be_host_clock,
                                        .sample = be_sample, .maps_start = be_maps_start, .maps_read = be_maps_read,
                                        .halo_values = 4, .halo_get = be_halo_get, .halo_set = be_halo_set,
                                        .device_field = be_device_field};
