/* sediment_cpu.c — the sediment scheme's CPU backends behind scheme.h: cpu (SSE2 +
 * OpenMP) and cpu-scalar, both double (cpu_ref/sediment.h).  One stage; the bound is
 * the problem's fixed dt. */
#include <math.h>
#include <stdio.h>

#include "sediment_scheme.h"

static swgl_status create(const scheme_setup *s, const scheme_config *cfg, void **self)
{
    const sed_setup *ss = s->problem;
    sed_cpu *c = sed_cpu_create(&ss->p, cfg->backend == BACKEND_CPU ? SED_CPU_FAST : SED_CPU_SCALAR);
    if (!c) return SWGL_ERR_ARG;   /* the message is set */
    sed_cpu_set_threads(c, tuning_or_default(cfg->tune)->cpu_threads);
    *self = c;
    return SWGL_OK;
}

static void destroy(void *self) { sed_cpu_destroy(self); }

static swgl_status set_state(void *self, double *const *f)
{
    sed_cpu_set_state(self, f[0], f[1]);
    return SWGL_OK;
}

static swgl_status get_state(void *self, double *const *f)
{
    sed_cpu_get_state(self, f[0], f[1]);
    return SWGL_OK;
}

/* the bound is the problem's fixed step; a state holding NaN or infinity reports NaN,
 * which the time loop calls a blow-up at the time of the last good state */
static swgl_status halo_get(void *self, int x, int y, int w, int h, void *buf)
{
    sed_cpu_halo(self, 0, x, y, w, h, buf);
    return SWGL_OK;
}

static swgl_status halo_set(void *self, int x, int y, int w, int h, const void *buf)
{
    sed_cpu_halo(self, 1, x, y, w, h, (double *)buf);
    return SWGL_OK;
}

static swgl_status stage(void *self, int k, double *dt_stable)
{
    (void)k;
    *dt_stable = sed_cpu_blown(self) ? NAN : sed_cpu_problem(self)->dt;
    return SWGL_OK;
}

static swgl_status advance(void *self, int k, double dt)
{
    (void)k;
    sed_cpu_step(self, dt);
    return SWGL_OK;
}

static void describe(const void *self, char *name, size_t len)
{
    if (sed_cpu_is_fast(self)) snprintf(name, len, "%s, up to %d threads", sed_cpu_name(self), sed_cpu_threads(self));
    else snprintf(name, len, "%s", sed_cpu_name(self));
}

static const char *precision(const void *self)
{
    (void)self;
    return "double";
}

static const scheme_halo_ops halo = {.cell_bytes = scheme_2_doubles, .get = halo_get, .set = halo_set};

const scheme_backend sediment_backend_cpu = {.backend = BACKEND_CPU, .create = create, .destroy = destroy,
    .set_state = set_state, .get_state = get_state, .stage = stage, .advance = advance, .stages = scheme_one_stage,
    .describe = describe, .precision = precision, .halo = &halo};
const scheme_backend sediment_backend_cpu_scalar = {.backend = BACKEND_CPU_SCALAR, .create = create, .destroy = destroy,
    .set_state = set_state, .get_state = get_state, .stage = stage, .advance = advance, .stages = scheme_one_stage,
    .describe = describe, .precision = precision, .halo = &halo};
