/* hllc_cpu.c — the HLLC scheme's CPU backends behind scheme.h: cpu (plain C + OpenMP over
 * rows: float, or with --precision double, double) and cpu-scalar (double, the reference;
 * --precision changes nothing there), both cpu_ref/hllc_cpu.h.  One stage (Euler): stage
 * = the face sweep and the bound (H5), advance = the update (H6)-(H7).  Boundary data,
 * rain and sources: the solver's clock (set_time at each step) and its accounts. */
#include <math.h>
#include <stdio.h>

#include "hllc.h"

static swgl_status create(const scheme_setup *s, const scheme_config *cfg, void **self)
{
    const hllc_setup_problem *hp = s->problem;
    enum hllc_cpu_kind kind = HLLC_CPU_SCALAR;
    if (cfg->backend == BACKEND_CPU) kind = cfg->precision == PRECISION_DOUBLE ? HLLC_CPU_FAST_DOUBLE : HLLC_CPU_FAST;
    hllc_cpu *c = hllc_cpu_create(&hp->p, kind);
    if (!c) return SWGL_ERR_ARG;   /* the message is set */
    *self = c;
    return SWGL_OK;
}

static void destroy(void *self) { hllc_cpu_destroy(self); }

static swgl_status set_state(void *self, double *const *f)
{
    hllc_cpu_set_state(self, f[0], f[1], f[2]);
    return SWGL_OK;
}

static swgl_status get_state(void *self, double *const *f)
{
    hllc_cpu_get_state(self, f[0], f[1], f[2]);
    return SWGL_OK;
}

static swgl_status stage(void *self, int k, double *dt_stable)
{
    (void)k;
    *dt_stable = hllc_cpu_rates(self);
    return SWGL_OK;
}

static swgl_status advance(void *self, int k, double dt)
{
    (void)k;
    if (hllc_cpu_apply(self, dt))
        return swgl_fail(SWGL_ERR_BLOWUP, "%s: the solution blew up (NaN) in a step of %g s", hllc_cpu_name(self), dt);
    return SWGL_OK;
}

static void set_time(void *self, double t, double stop) { hllc_cpu_set_time(self, t, stop); }

static swgl_status halo_get(void *self, int x, int y, int w, int h, double *buf)
{
    hllc_cpu_halo(self, 0, x, y, w, h, buf);
    return SWGL_OK;
}

static swgl_status halo_set(void *self, int x, int y, int w, int h, const double *buf)
{
    hllc_cpu_halo(self, 1, x, y, w, h, (double *)buf);
    return SWGL_OK;
}

static swgl_status account(void *self, swe_account *a)
{
    hllc_cpu_account(self, a);
    return SWGL_OK;
}

static void describe(const void *self, char *name, size_t len) { snprintf(name, len, "%s", hllc_cpu_name(self)); }

static const char *precision(const void *self) { return hllc_cpu_precision(self); }

static const scheme_forcing_ops forcing = {.set_time = set_time, .account = account};
static const scheme_halo_ops halo = {.values = 3, .get = halo_get, .set = halo_set};

const scheme_backend hllc_backend_cpu = {.backend = BACKEND_CPU, .create = create, .destroy = destroy,
    .set_state = set_state, .get_state = get_state, .stage = stage, .advance = advance, .stages = scheme_one_stage,
    .describe = describe, .precision = precision, .forcing = &forcing, .halo = &halo};
const scheme_backend hllc_backend_cpu_scalar = {.backend = BACKEND_CPU_SCALAR, .create = create, .destroy = destroy,
    .set_state = set_state, .get_state = get_state, .stage = stage, .advance = advance, .stages = scheme_one_stage,
    .describe = describe, .precision = precision, .forcing = &forcing, .halo = &halo};
