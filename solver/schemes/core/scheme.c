/* scheme.c — backends by name, instances, and the state fields (scheme.h); the schemes
 * themselves are listed in registry.c. */
#include "scheme.h"

#include "gpu_compute.h"
#include "gpu_program.h"
#include "scheme_mpi.h"

#include <stdlib.h>
#include <string.h>

const char *backend_name(enum backend b)
{
    switch (b) {
    case BACKEND_GPU: return "gpu";
    case BACKEND_CPU: return "cpu";
    case BACKEND_CPU_SCALAR: return "cpu-scalar";
    case BACKEND_GPU_COMPUTE: return "gpu-compute";
    default: return "none";
    }
}

int backend_parse(const char *s, enum backend *b)
{
    for (int k = 0; k < BACKEND_COUNT; k++)
        if (strcmp(s, backend_name((enum backend)k)) == 0) {
            *b = (enum backend)k;
            return 0;
        }
    return -1;
}

/* the scenario's time-step rule (timeloop.c), on one rank and over ranks alike */
static void scheme_hold_from(scheme_inst *in, const scheme_setup *s)
{
    in->hold = s->sc && s->sc->step_hold > 1 ? s->sc->step_hold : 1;
    in->margin = s->sc && s->sc->step_margin > 0 ? s->sc->step_margin : 0.9;
}

/* GPU instances open in each pass mode (0 fragment, 1 compute), and the mode before the first */
static int g_gpu_open[2], g_mode_base;

swgl_status scheme_open(scheme_inst *in, const scheme_desc *d, enum backend b, const scheme_setup *s,
                        const scheme_config *cfg)
{
    if (swgl_mpi_size() <= 1) return scheme_open_block(in, d, b, s, cfg);
    swgl_status st = scheme_mpi_open(in, d, b, s, cfg);   /* the blocks over the ranks */
    if (st == SWGL_OK) {
        in->host_clock = tuning_or_default(cfg->tune)->host_clock;
        in->clock_every = tuning_or_default(cfg->tune)->clock_every;
        in->clock_gauges = tuning_or_default(cfg->tune)->clock_gauges;
        scheme_hold_from(in, s);
    }
    return st;
}

swgl_status scheme_open_block(scheme_inst *in, const scheme_desc *d, enum backend b, const scheme_setup *s,
                              const scheme_config *cfg)
{
    memset(in, 0, sizeof *in);
    enum backend impl = b == BACKEND_GPU_COMPUTE ? BACKEND_GPU : b;   /* the same backend, compute passes */
    if (b < 0 || b >= BACKEND_COUNT || !d->backends[impl]) {
        char have[96] = "";   /* the backends it has, for the message */
        for (int k = 0; k < BACKEND_COUNT; k++) {
            enum backend kb = k == BACKEND_GPU_COMPUTE ? BACKEND_GPU : (enum backend)k;
            if (!d->backends[kb]) continue;
            size_t l = strlen(have);
            snprintf(have + l, sizeof have - l, "%s%s", l ? ", " : "", backend_name((enum backend)k));
        }
        return swgl_fail(SWGL_ERR_ARG, "scheme %s has no %s backend (it runs on: %s)", d->name, backend_name(b),
                         have[0] ? have : "none");
    }
    in->desc = d;
    in->be = d->backends[impl];
    if (b == BACKEND_GPU_COMPUTE && !gpu_compute_available())
        return swgl_fail(SWGL_ERR_NO_CONTEXT, "the gpu-compute backend needs a GL 4.3 core context (compute shaders); "
                         "this device's context is older ('swgl info' says what it offers)");
    if (b == BACKEND_GPU || b == BACKEND_GPU_COMPUTE) {
        /* the pass mode is the process's (gpgpu builds every program in it, also the ones
         * built later): it holds while GPU instances are open, so instances of the two
         * modes cannot be open at once; a GL test run with --compute makes gpu compute too */
        if (!g_gpu_open[0] && !g_gpu_open[1]) g_mode_base = gpu_compute_passes();
        int m = b == BACKEND_GPU_COMPUTE ? 1 : g_mode_base;
        if (g_gpu_open[!m])
            return swgl_fail(SWGL_ERR_ARG, "a %s instance cannot be opened while a %s one is open (the pass mode is "
                             "the process's)", m ? "gpu-compute" : "gpu", m ? "gpu" : "gpu-compute");
        gpu_set_compute_passes(m);
        g_gpu_open[m]++;
        in->compute_prev = 1 + m;
    }
    scheme_config c = *cfg;
    c.backend = b;
    in->host_clock = tuning_or_default(cfg->tune)->host_clock;
    in->clock_every = tuning_or_default(cfg->tune)->clock_every;
    in->clock_gauges = tuning_or_default(cfg->tune)->clock_gauges;
    swgl_status st = in->be->create(s, &c, &in->self);
    if (st == SWGL_OK) st = in->be->set_state(in->self, s->init);
    if (st != SWGL_OK) {
        scheme_close(in);
        return st;
    }
    in->be->describe(in->self, in->name, sizeof in->name);
    scheme_hold_from(in, s);
    in->speed_scale = d->speed_scale ? d->speed_scale(s) : 0;
    in->cells = 0;
    for (size_t k = 0; k < grid_size(s->nx, s->ny); k++) in->cells += !s->code || s->code[k] == CELL_ACTIVE;
    if (!s->code) in->cells = (long)s->nx * s->ny;
    return SWGL_OK;
}

void scheme_close(scheme_inst *in)
{
    if (in->be && in->self) in->be->destroy(in->self);
    in->self = NULL;
    if (in->compute_prev) {
        g_gpu_open[in->compute_prev - 1]--;
        if (!g_gpu_open[0] && !g_gpu_open[1]) gpu_set_compute_passes(g_mode_base);
    }
    in->compute_prev = 0;
}

swgl_status scheme_setup_begin(scheme_setup *s, const scenario *sc, size_t problem_size, int n_fields,
                               int with_code)
{
    size_t n = grid_size(sc->nx, sc->ny);
    memset(s, 0, sizeof *s);
    s->sc = sc;
    s->nx = sc->nx;
    s->ny = sc->ny;
    s->dx = sc->dx;
    s->dy = sc->dy;
    int ok = (s->problem = calloc(1, problem_size)) != NULL && (!with_code || (s->code = malloc(n)) != NULL);
    for (int k = 0; k < n_fields && ok; k++) ok = (s->init[k] = calloc(n, sizeof(double))) != NULL;
    if (!ok) {
        scheme_setup_release(s);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory for a %dx%d grid", sc->nx, sc->ny);
    }
    if (with_code) grid_codes(sc->nx, sc->ny, sc->active, sc->bc, s->code);
    return SWGL_OK;
}

void scheme_window_field(const double *src, int gnx, const int win[4], double *dst)
{
    int nx = win[2] - win[0], ny = win[3] - win[1];
    for (int j = 0; j <= ny + 1; j++)
        for (int i = 0; i <= nx + 1; i++) dst[grid_at(nx, i, j)] = src[grid_at(gnx, win[0] + i, win[1] + j)];
}

swgl_status scheme_window_begin(const scheme_setup *g, const int win[4], size_t problem_size, int n_fields,
                                scheme_setup *l)
{
    int nx = win[2] - win[0], ny = win[3] - win[1];
    size_t n = grid_size(nx, ny);
    memset(l, 0, sizeof *l);
    l->sc = g->sc;
    l->nx = nx;
    l->ny = ny;
    l->dx = g->dx;
    l->dy = g->dy;
    l->t_end = g->t_end;
    int ok = (l->problem = calloc(1, problem_size)) != NULL && (!g->code || (l->code = malloc(n)) != NULL);
    for (int k = 0; k < n_fields && ok; k++) ok = (l->init[k] = calloc(n, sizeof(double))) != NULL;
    if (!ok) {
        scheme_setup_release(l);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory for a %dx%d block", nx, ny);
    }
    for (int k = 0; k < n_fields; k++) scheme_window_field(g->init[k], g->nx, win, l->init[k]);
    for (int j = 0; g->code && j <= ny + 1; j++)
        for (int i = 0; i <= nx + 1; i++) {
            unsigned char c = g->code[grid_at(g->nx, win[0] + i, win[1] + j)];
            int ring = i == 0 || j == 0 || i == nx + 1 || j == ny + 1;
            l->code[grid_at(nx, i, j)] = ring && c == CELL_ACTIVE ? CELL_WALL : c;
        }
    return SWGL_OK;
}

void scheme_setup_release(scheme_setup *s)
{
    free(s->problem);
    free(s->code);
    for (int k = 0; k < SCHEME_MAX_FIELDS; k++) free(s->init[k]);
    memset(s, 0, sizeof *s);
}

int scheme_one_stage(const void *self)
{
    (void)self;
    return 1;
}

int scheme_2_doubles(const void *self)
{
    (void)self;
    return 2 * (int)sizeof(double);
}
int scheme_3_doubles(const void *self)
{
    (void)self;
    return 3 * (int)sizeof(double);
}
int scheme_16_bytes(const void *self)
{
    (void)self;
    return 16;
}

swgl_status scheme_fields_alloc(scheme_fields *f, const scheme_desc *d, int nx, int ny)
{
    memset(f, 0, sizeof *f);
    f->n = d->n_fields;
    for (int k = 0; k < f->n; k++)
        if (!(f->f[k] = calloc(grid_size(nx, ny), sizeof(double)))) {
            scheme_fields_free(f);
            return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory for a %dx%d grid", nx, ny);
        }
    return SWGL_OK;
}

void scheme_fields_free(scheme_fields *f)
{
    for (int k = 0; k < SCHEME_MAX_FIELDS; k++) free(f->f[k]);
    memset(f, 0, sizeof *f);
}

swgl_status scheme_sample(scheme_inst *in, const size_t *cells, int n, double *const *scratch, double *const *out)
{
    if (in->replay > 0) return in->be->device->sample_stop(in->self, in->replay - 1, cells, n, out);   /* (timeloop.c) */
    if (in->be->probe && in->be->probe->sample) return in->be->probe->sample(in->self, cells, n, out);
    swgl_status st = in->be->get_state(in->self, scratch);
    for (int q = 0; st == SWGL_OK && q < in->desc->n_fields; q++)
        for (int m = 0; m < n; m++) out[q][m] = scratch[q][cells[m]];
    return st;
}
