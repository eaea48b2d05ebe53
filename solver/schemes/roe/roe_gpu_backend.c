/* roe_gpu_backend.c — the edge engine's GPU backend behind scheme.h: adapters from the
 * scheme_backend calls to roe_gpu.h's, and what only the backend asks: its description,
 * the MPI halo, the gauges' samples, the device fields.  Shared by the schemes whose face
 * runs on the engine (ROG_BACKEND, roe_gpu_internal.h): roe's table (roe_backend_gpu,
 * roe.h) here, hllc's in hllc_gpu.c. */
#include "roe_gpu_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_context.h"
#include "roe.h"

/* --precision double asks for the double passes (fp64); single and the default (AUTO)
 * give the float ones: float stays the engine's default. */
swgl_status rog_backend_create(const swe_problem *p, const roe_gpu_face *face, const scheme_config *cfg,
                               void **self)
{
    roe_gpu *r;
    int dbl = cfg && cfg->precision == PRECISION_DOUBLE;
    if (dbl && !cfg->has_fp64)
        return swgl_fail(SWGL_ERR_ARG,
                         "--precision double: the renderer '%s' lacks GL_ARB_gpu_shader_fp64 (no doubles in "
                         "shaders); use --precision single (the default on the gpu) or --backend cpu",
                         cfg->renderer ? cfg->renderer : "?");
    swgl_status st = roe_gpu_create_face(p, dbl, face, cfg ? cfg->tune : NULL, &r);
    if (st != SWGL_OK) return st;
    snprintf(r->renderer, sizeof r->renderer, "%s", cfg && cfg->renderer ? cfg->renderer : "?");
    *self = r;
    return SWGL_OK;
}

static swgl_status be_create(const scheme_setup *s, const scheme_config *cfg, void **self)
{
    const roe_problem *rp = s->problem;
    return rog_backend_create(&rp->p, NULL, cfg, self);
}

void rog_be_destroy(void *self) { roe_gpu_destroy(self); }
swgl_status rog_be_set(void *self, double *const *f) { return roe_gpu_set_state(self, f[0], f[1], f[2]); }
swgl_status rog_be_get(void *self, double *const *f) { return roe_gpu_get_state(self, f[0], f[1], f[2]); }

/* The halo of a run over MPI ranks: the state texels of the w x h cells from (x, y), as
 * stored: float (h, qx, qy, code), 16 bytes a cell, or double (h, qx) then (qy, code), the
 * two members' uint4 texels one after the other, 32 */
static swgl_status halo_io(roe_gpu *r, int set, int x, int y, int w, int h, void *buf)
{
    if (!r->dbl) return gpu_strips_rect_raw(r->strips, r->state[r->cur], set, x, y, w, h, buf);
    return gpu_strips_rect_mrt_raw(r->strips, r->state_d[r->cur], 2, set, x, y, w, h, buf);
}
int rog_be_cell_bytes(const void *self) { return ((const roe_gpu *)self)->dbl ? 32 : 16; }
swgl_status rog_be_halo_get(void *self, int x, int y, int w, int h, void *buf)
{
    return halo_io(self, 0, x, y, w, h, buf);
}
swgl_status rog_be_halo_set(void *self, int x, int y, int w, int h, const void *buf)
{
    return halo_io(self, 1, x, y, w, h, (void *)buf);
}

swgl_status rog_be_stage(void *self, int k, double *dt_stable)
{
    (void)k;
    return roe_gpu_rates(self, dt_stable);
}

swgl_status rog_be_advance(void *self, int k, double dt)
{
    (void)k;
    return roe_gpu_apply(self, dt);
}

void rog_be_describe(const void *self, char *name, size_t len)
{
    const roe_gpu *r = self;
    snprintf(name, len, "%s (%s%s, %s)", r->compute ? "gpu-compute" : "gpu", r->dbl ? "double" : "float",
             r->devb ? ", fused kernel, boundary faces summed on the GPU" : r->fused ? ", fused kernel" : "", r->renderer);
}

const char *rog_be_precision(const void *self) { return ((const roe_gpu *)self)->dbl ? "double" : "single"; }

void rog_be_finish(void *self)
{
    (void)self;
    gpu_finish();
}

swgl_status rog_be_run_to(void *self, double t, double stop, int stop_index, double dt_floor, timeloop_span *sp)
{
    return roe_gpu_run_to(self, t, stop, stop_index, dt_floor, sp);
}

static swgl_status rog_be_run_stops(void *self, double t, const double *stops, int n, int stop_index, double dt_floor,
                                    const size_t *cells, int n_cells, timeloop_span *sp)
{
    return roe_gpu_run_stops(self, t, stops, n, stop_index, dt_floor, cells, n_cells, sp);
}

static int rog_be_can_run_stops(const void *self)
{
    const roe_gpu *r = self;
    return r->compute && !r->dbl;
}

/* Stop k of the last run_stops: its captured texels (read back once a span) */
static swgl_status rog_be_sample_stop(void *self, int k, const size_t *cells, int n, double *const *out)
{
    roe_gpu *r = self;
    const float *v;
    swgl_status st = gpu_gather_capture_row(r->gauges, k, n, &v);
    (void)cells;
    for (int m = 0; st == SWGL_OK && m < n; m++) {
        out[0][m] = v[4 * m];
        out[1][m] = v[4 * m + 1];
        out[2][m] = v[4 * m + 2];
    }
    return st;
}

/* The state at n cells (gauges): one texel each, read back */
swgl_status rog_be_sample(void *self, const size_t *cells, int n, double *const *out)
{
    roe_gpu *r = self;
    swgl_status st = SWGL_OK;
    float *gv = NULL;
    if (!r->dbl && n > 0) {   /* (float: the n texels gathered and read back at once, gpu_gather.h) */
        if (!(gv = malloc(4 * (size_t)n * sizeof *gv))) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
        st = gpu_gather_texels(&r->gauges, r->state[r->cur], cells, n, gv);
    }
    for (int m = 0; m < n && st == SWGL_OK; m++) {
        int x = (int)(cells[m] % (size_t)r->tex_w), y = (int)(cells[m] / (size_t)r->tex_w);
        double v[4];
        if (r->dbl) {
            st = gpu_array2d_download_rect(gpu_mrt_member(r->state_d[r->cur], 0), x, y, 1, 1, v);
            if (st == SWGL_OK) st = gpu_array2d_download_rect(gpu_mrt_member(r->state_d[r->cur], 1), x, y, 1, 1, v + 2);
        } else {
            for (int c = 0; c < 4; c++) v[c] = gv[4 * m + c];
        }
        out[0][m] = v[0];
        out[1][m] = v[1];
        out[2][m] = v[2];
    }
    free(gv);
    return st;
}

void rog_be_set_time(void *self, double t, double stop) { roe_gpu_set_time(self, t, stop); }
swgl_status rog_be_maps_start(void *self, swe_maps *m) { return roe_gpu_maps_start(self, m); }
swgl_status rog_be_maps_read(void *self, swe_maps *m) { return roe_gpu_maps_read(self, m); }
int rog_be_host_clock(const void *self) { return roe_gpu_host_clock(self); }
swgl_status rog_be_account(void *self, swe_account *a)
{
    return roe_gpu_account(self, a);
}

/* state (h, qx, qy, code), bed (H, 0, 0, 0) with H = -z_b: eta = h - H, z_b = 0 - H */
swgl_status rog_be_device_field(void *self, const char *name, scheme_device_field *f)
{
    roe_gpu *r = self;
    if (r->dbl) return swgl_fail(SWGL_ERR_ARG, "%s gpu: no device field in double precision (packed texels)", r->scheme);
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
    else return swgl_fail(SWGL_ERR_ARG, "%s gpu: no field '%s' (h, eta, qx, qy, bed)", r->scheme, name);
    return SWGL_OK;
}

const scheme_forcing_ops rog_forcing = {.set_time = rog_be_set_time, .account = rog_be_account};
const scheme_device_ops rog_device = {.run_to = rog_be_run_to, .run_stops = rog_be_run_stops,
                                      .sample_stop = rog_be_sample_stop, .can_run_stops = rog_be_can_run_stops,
                                      .host_clock = rog_be_host_clock,
                                      .maps_start = rog_be_maps_start, .maps_read = rog_be_maps_read,
                                      .device_field = rog_be_device_field};
const scheme_probe_ops rog_probe = {.sample = rog_be_sample};
const scheme_halo_ops rog_halo = {.cell_bytes = rog_be_cell_bytes, .get = rog_be_halo_get, .set = rog_be_halo_set, .overlap = rog_be_overlap,
                                   .request = rog_be_halo_request, .fetch = rog_be_halo_fetch,
                                   .room = rog_be_halo_room, .stage_rects = rog_be_stage_rects,
                                   .tiling = rog_be_tiling, .view = rog_be_halo_view, .area = rog_be_halo_area};

const scheme_backend roe_backend_gpu = ROG_BACKEND(be_create);
