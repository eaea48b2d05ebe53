/* roe_cpu.c — the Roe scheme's CPU backends behind scheme.h: cpu (SIMD + OpenMP: float,
 * SSE x4, or with --precision double, SSE2 x2) and cpu-scalar (double, the reference:
 * --precision changes nothing there: it is the reference, so that --compare cpu-scalar
 * works with either precision; summary.json says "double"), both
 * cpu_ref/roe_cpu.h.  One stage (Euler, Lastra (4)): stage = the edge sweep and the
 * bound (8), advance = the update.  Boundary data, rain and sources: the solver's clock
 * (set_time at each step) and its accounts (account). */
#include <math.h>
#include <stdio.h>

#include "roe.h"

static swgl_status create(const scheme_setup *s, const scheme_config *cfg, void **self)
{
    const roe_problem *rp = s->problem;
    enum roe_cpu_kind kind = ROE_CPU_SCALAR;
    if (cfg->backend == BACKEND_CPU) kind = cfg->precision == PRECISION_DOUBLE ? ROE_CPU_FAST_DOUBLE : ROE_CPU_FAST;
    roe_cpu *c = roe_cpu_create(&rp->p, kind);
    if (!c) return SWGL_ERR_ARG;   /* the message is set */
    *self = c;
    return SWGL_OK;
}

static void destroy(void *self) { roe_cpu_destroy(self); }

static swgl_status set_state(void *self, double *const *f)
{
    roe_cpu_set_state(self, f[0], f[1], f[2]);
    return SWGL_OK;
}

static swgl_status get_state(void *self, double *const *f)
{
    roe_cpu_get_state(self, f[0], f[1], f[2]);
    return SWGL_OK;
}

static swgl_status stage(void *self, int k, double *dt_stable)
{
    (void)k;
    *dt_stable = roe_cpu_rates(self);
    return SWGL_OK;
}

static swgl_status advance(void *self, int k, double dt)
{
    (void)k;
    if (roe_cpu_apply(self, dt))
        return swgl_fail(SWGL_ERR_BLOWUP, "%s: the solution blew up (NaN) in a step of %g s", roe_cpu_name(self), dt);
    return SWGL_OK;
}

static void set_time(void *self, double t, double stop) { roe_cpu_set_time(self, t, stop); }

static swgl_status halo_get(void *self, int x, int y, int w, int h, double *buf)
{
    roe_cpu_halo(self, 0, x, y, w, h, buf);
    return SWGL_OK;
}

static swgl_status halo_set(void *self, int x, int y, int w, int h, const double *buf)
{
    roe_cpu_halo(self, 1, x, y, w, h, (double *)buf);
    return SWGL_OK;
}

static swgl_status account(void *self, swe_account *a)
{
    roe_cpu_account(self, a);
    return SWGL_OK;
}

static void describe(const void *self, char *name, size_t len) { snprintf(name, len, "%s", roe_cpu_name(self)); }

static const char *precision(const void *self) { return roe_cpu_precision(self); }

static const scheme_forcing_ops forcing = {.set_time = set_time, .account = account};
static const scheme_halo_ops halo = {.values = 3, .get = halo_get, .set = halo_set};

const scheme_backend roe_backend_cpu = {.backend = BACKEND_CPU, .create = create, .destroy = destroy,
    .set_state = set_state, .get_state = get_state, .stage = stage, .advance = advance, .stages = scheme_one_stage,
    .describe = describe, .precision = precision, .forcing = &forcing, .halo = &halo};
const scheme_backend roe_backend_cpu_scalar = {.backend = BACKEND_CPU_SCALAR, .create = create, .destroy = destroy,
    .set_state = set_state, .get_state = get_state, .stage = stage, .advance = advance, .stages = scheme_one_stage,
    .describe = describe, .precision = precision, .forcing = &forcing, .halo = &halo};
