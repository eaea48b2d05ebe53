/* kp_cpu.c — the kp scheme's CPU backends behind scheme.h: cpu (fast: float, or double
 * with --precision double; SIMD + OpenMP, early exit) and cpu-scalar (double), both
 * cpu_ref/kp_cpu.h.  RK2 is two stages: stage k = R of the stage state and the bound
 * (8), advance k = the stage's update (7), (10). */
#include <math.h>
#include <stdio.h>

#include "kp.h"

static swgl_status create(const scheme_setup *s, const scheme_config *cfg, void **self)
{
    const kp_setup_problem *kp = s->problem;
    enum kp_cpu_kind kind = KP_CPU_SCALAR;
    if (cfg->backend == BACKEND_CPU) kind = cfg->precision == PRECISION_DOUBLE ? KP_CPU_FAST_DOUBLE : KP_CPU_FAST;
    kp_problem p = kp->p;
    p.sw.threads = tuning_or_default(cfg->tune)->cpu_threads;
    p.rest_off = !tuning_or_default(cfg->tune)->kp_rest;
    kp_cpu *c = kp_cpu_create(&p, kind);
    if (!c) return SWGL_ERR_ARG;   /* the message is set */
    *self = c;
    return SWGL_OK;
}

static void destroy(void *self) { kp_cpu_destroy(self); }

static swgl_status set_state(void *self, double *const *f)
{
    kp_cpu_set_state(self, f[0], f[1], f[2]);
    return SWGL_OK;
}

static swgl_status get_state(void *self, double *const *f)
{
    kp_cpu_get_state(self, f[0], f[1], f[2]);
    return SWGL_OK;
}

static swgl_status stage(void *self, int k, double *dt_stable)
{
    *dt_stable = kp_cpu_rates(self, k);
    return SWGL_OK;
}

static swgl_status advance(void *self, int k, double dt)
{
    if (kp_cpu_apply(self, k, dt))
        return swgl_fail(SWGL_ERR_BLOWUP, "%s: the solution blew up (NaN) in a step of %g s", kp_cpu_name(self), dt);
    return SWGL_OK;
}

static int stages(const void *self) { return kp_cpu_stages(self); }
static swgl_status get_native(void *self, double *w)
{
    kp_cpu_get_surface(self, w);
    return SWGL_OK;
}
static swgl_status set_native(void *self, const double *w)
{
    kp_cpu_set_surface(self, w);
    return SWGL_OK;
}
static swgl_status halo_get(void *self, int x, int y, int w, int h, void *buf)
{
    kp_cpu_halo(self, 0, x, y, w, h, buf);
    return SWGL_OK;
}
static swgl_status halo_set(void *self, int x, int y, int w, int h, const void *buf)
{
    kp_cpu_halo(self, 1, x, y, w, h, (double *)buf);
    return SWGL_OK;
}
static void set_time(void *self, double t, double stop) { kp_cpu_set_time(self, t, stop); }
static swgl_status account(void *self, swe_account *a)
{
    kp_cpu_account(self, a);
    return SWGL_OK;
}
static void describe(const void *self, char *name, size_t len) { snprintf(name, len, "%s", kp_cpu_name(self)); }
static const char *precision(const void *self) { return kp_cpu_precision(self); }

static void tiles(void *self, long *computed, long *total) { kp_cpu_tiles(self, computed, total); }

static const scheme_forcing_ops forcing = {.set_time = set_time, .account = account};
static const scheme_probe_ops probe = {.get_native = get_native, .set_native = set_native, .tiles = tiles};
static const scheme_halo_ops halo = {.cell_bytes = scheme_3_doubles, .get = halo_get, .set = halo_set};

const scheme_backend kp_backend_cpu = {.backend = BACKEND_CPU, .create = create, .destroy = destroy,
    .set_state = set_state, .get_state = get_state, .stage = stage, .advance = advance, .stages = stages,
    .describe = describe, .precision = precision, .forcing = &forcing, .probe = &probe, .halo = &halo};
const scheme_backend kp_backend_cpu_scalar = {.backend = BACKEND_CPU_SCALAR, .create = create, .destroy = destroy,
    .set_state = set_state, .get_state = get_state, .stage = stage, .advance = advance, .stages = stages,
    .describe = describe, .precision = precision, .forcing = &forcing, .probe = &probe, .halo = &halo};
