/* kp_gpu_backend.c — kp's GPU backend behind scheme.h (kp_backend_gpu, kp.h): adapters
 * from the scheme_backend calls to kp_gpu.h's, and what only the backend asks: its
 * description, the gauges' samples, the device fields, the profile's passes. */
#include "kp_gpu_internal.h"

#include <stdlib.h>

#include <stdio.h>
#include <string.h>

#include "gpu_context.h"
#include "kp.h"

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
    swgl_status st = kp_gpu_create_tuned(&sp->p, dbl, cfg ? cfg->tune : NULL, &g);
    if (st != SWGL_OK) return st;
    snprintf(g->renderer, sizeof g->renderer, "%s", cfg && cfg->renderer ? cfg->renderer : "?");
    *self = g;
    return SWGL_OK;
}

static void be_destroy(void *self) { kp_gpu_destroy(self); }
static swgl_status be_set(void *self, double *const *f) { return kp_gpu_set_state(self, f[0], f[1], f[2]); }
/* the halo of a run over MPI ranks (kp_gpu_mpi.c) */
static swgl_status be_halo_get(void *self, int x, int y, int w, int h, void *buf)
{
    return kpg_halo_get(self, x, y, w, h, buf);
}
static swgl_status be_halo_set(void *self, int x, int y, int w, int h, const void *buf)
{
    return kpg_halo_set(self, x, y, w, h, buf);
}
static swgl_status be_get(void *self, double *const *f) { return kp_gpu_get_state(self, f[0], f[1], f[2]); }
static int be_overlap(void *self, int strips, long max_cells, int forced)
{
    const kp_gpu *g = self;
    /* unless forced, the fragment path only, where it was measured to gain (kp RK2 at 2048^2
     * a GPU, 93.0%): on gpu-compute over ranks (the host's clock) the whole stage and the stage
     * in parts run the same flux kernel with its groups' minima (the parts on its tiling), but
     * on two H200s with the strips mapped it did not gain: 4096^2 a GPU 72.8% overlapped
     * against 75.1% not (medians of three), 8192^2 over two 1.609-1.638 s against 1.529-1.544
     * s, Malpasset 10.84 s against 10.15 s; its other compute variants (double,
     * kp.fused=off|flux) are not measured (docs/mpi.md) */
    if (g->compute && !forced) return 0;
    int reach = kp_gpu_overlap(self);
    return reach && kp_gpu_halo_room(self, strips, max_cells) == SWGL_OK ? reach : 0;
}
static swgl_status be_halo_request(void *self, int x, int y, int w, int h) { return kp_gpu_halo_request(self, x, y, w, h); }
static swgl_status be_halo_room(void *self, int strips, long max_cells) { return kp_gpu_halo_room(self, strips, max_cells); }
/* a float4 texel a cell, two uint4 members in double */
static int be_cell_bytes(const void *self) { return kp_gpu_halo_members(self) * 16; }
static swgl_status be_halo_fetch(void *self, void *buf) { return kp_gpu_halo_fetch(self, buf); }
static swgl_status be_halo_view(void *self, void *fallback, const void **p) { return kp_gpu_halo_view(self, fallback, p); }
static swgl_status be_halo_area(void *self, long bytes, void **p) { return kp_gpu_halo_area(self, bytes, p); }
static swgl_status be_stage_rects(void *self, int k, const int (*r)[4], int n, double *bound)
{
    return kp_gpu_rates_rects(self, k, r, n, bound);
}
static void be_tiling(const void *self, int tile[2]) { kp_gpu_tiling(self, tile); }
static swgl_status be_stage(void *self, int k, double *dt) { return kp_gpu_rates(self, k, dt); }
static swgl_status be_advance(void *self, int k, double dt) { return kp_gpu_apply(self, k, dt); }
static int be_stages(const void *self) { return kp_gpu_stages(self); }

static void be_describe(const void *self, char *name, size_t len)
{
    const kp_gpu *g = self;
    static const char *ee[3] = {"auto", "on", "off"};
    if (g->fused)
        snprintf(name, len, "gpu-compute (float, %s, fused flux kernel (groups %dx%d, %dx%d cells an invocation%s)%s%s, "
                 "early exit %s (in the kernel%s))", g->renderer, g->gx, g->gy, g->cx, g->cy,
                 g->xshare ? ", rows shared" : "",
                 !g->kstep ? "" : g->rk2 ? ", clock in the integration, stage 1 flux and integration fused"
                                          : ", clock in the integration",
                 g->devb ? ", boundary faces summed on the GPU" : "", ee[g->ee_mode],
                 !g->kstep                          ? ""
                 : g->ee_mode == KP_EARLY_EXIT_OFF ? ": tile lists"
                 : g->rest_ok && !g->bvary         ? ": tile lists, dry and resting tiles skipped"
                                                    : ": tile lists, dry tiles skipped");
    else
        snprintf(name, len, "%s (%s, %s, flux cell, early exit %s (depth%s))", g->compute ? "gpu-compute" : "gpu",
                 g->dbl ? "double" : "float", g->renderer, ee[g->ee_mode],
                 g->rest_frag && g->ee_mode != KP_EARLY_EXIT_OFF ? ": dry and resting tiles skipped" : "");
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

static swgl_status be_run_stops(void *self, double t, const double *stops, int n, int stop_index, double dt_floor,
                                const size_t *cells, int n_cells, timeloop_span *sp)
{
    return kp_gpu_run_stops(self, t, stops, n, stop_index, dt_floor, cells, n_cells, sp);
}

static int be_can_run_stops(const void *self)
{
    const kp_gpu *g = self;
    return g->compute && !g->dbl;
}

/* The state at n cells from texels gv (4 floats a cell; float) or, in double, read one
 * texel pair each */
static swgl_status sample_from(kp_gpu *g, const float *gv, const size_t *cells, int n, double *const *out)
{
    swgl_status st = SWGL_OK;
    for (int m = 0; m < n && st == SWGL_OK; m++) {
        int x = (int)(cells[m] % (size_t)g->tw), y = (int)(cells[m] / (size_t)g->tw);
        double v[4];
        if (g->dbl) {
            st = gpu_array2d_download_rect(gpu_mrt_member(g->state[g->cur], 0), x, y, 1, 1, v);
            if (st == SWGL_OK) st = gpu_array2d_download_rect(gpu_mrt_member(g->state[g->cur], 1), x, y, 1, 1, v + 2);
        } else {
            for (int c = 0; c < 4; c++) v[c] = gv[4 * m + c];
        }
        double bij = g->dbl ? g->bij[cells[m]] : (double)(float)g->bij[cells[m]];   /* as get_state */
        out[0][m] = (v[0] - bij) + (v[3] > -0.5 ? v[3] : 0.0);   /* (an active cell's low word; 0 in double) */
        out[1][m] = v[1];
        out[2][m] = v[2];
    }
    return st;
}

/* The state at n cells (gauges): in float the n texels gathered and read back at once
 * (gpu_gather.h), in double one texel pair each */
static swgl_status be_sample(void *self, const size_t *cells, int n, double *const *out)
{
    kp_gpu *g = self;
    swgl_status st = SWGL_OK;
    float *gv = NULL;
    if (!g->dbl && n > 0) {
        if (!(gv = malloc(4 * (size_t)n * sizeof *gv))) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
        st = gpu_gather_texels(&g->gauges, gpu_mrt_member(g->state[g->cur], 0), cells, n, gv);
    }
    if (st == SWGL_OK) st = sample_from(g, gv, cells, n, out);
    free(gv);
    return st;
}

/* Stop k of the last run_stops: its captured texels (read back once a span) */
static swgl_status be_sample_stop(void *self, int k, const size_t *cells, int n, double *const *out)
{
    kp_gpu *g = self;
    const float *v;
    swgl_status st = gpu_gather_capture_row(g->gauges, k, n, &v);
    return st == SWGL_OK ? sample_from(g, v, cells, n, out) : st;
}

static void be_set_time(void *self, double t, double stop) { kp_gpu_set_time(self, t, stop); }
static swgl_status be_maps_start(void *self, swe_maps *m) { return kp_gpu_maps_start(self, m); }
static swgl_status be_maps_read(void *self, swe_maps *m) { return kp_gpu_maps_read(self, m); }
static int be_host_clock(const void *self) { return kp_gpu_host_clock(self); }
static swgl_status be_account(void *self, swe_account *a)
{
    return kp_gpu_account(self, a);
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

static const scheme_forcing_ops forcing = {.set_time = be_set_time, .account = be_account};
static const scheme_device_ops device = {.run_to = be_run_to, .run_stops = be_run_stops, .sample_stop = be_sample_stop,
                                         .can_run_stops = be_can_run_stops, .host_clock = be_host_clock, .maps_start = be_maps_start,
                                         .maps_read = be_maps_read, .device_field = be_device_field};
static const scheme_probe_ops probe = {.sample = be_sample, .profile = be_profile, .profile_pass = be_profile_pass,
                                       .tiles = be_tiles};
static const scheme_halo_ops halo = {.cell_bytes = be_cell_bytes, .get = be_halo_get, .set = be_halo_set, .overlap = be_overlap,
                                     .request = be_halo_request, .fetch = be_halo_fetch, .room = be_halo_room,
                                     .stage_rects = be_stage_rects, .tiling = be_tiling, .view = be_halo_view,
                                     .area = be_halo_area};
static const scheme_hold_ops hold = {.able = kpg_hold_able, .stage_quiet = kpg_stage_quiet, .bounds = kpg_bounds,
                                     .save = kpg_save, .restore = kpg_restore};

const scheme_backend kp_backend_gpu = {.backend = BACKEND_GPU, .create = be_create, .destroy = be_destroy,
                                       .set_state = be_set, .get_state = be_get, .stage = be_stage,
                                       .advance = be_advance, .stages = be_stages, .describe = be_describe,
                                       .precision = be_precision, .finish = be_finish, .forcing = &forcing,
                                       .device = &device, .probe = &probe, .halo = &halo, .hold = &hold};
