/* swe_cpu_backend.h — the CPU backends of a first-order shallow-water scheme behind
 * scheme.h, written once for every CPU solver with the same calls: P##_destroy,
 * _set_state, _get_state, _rates (stage 0's bound), _apply (the update; nonzero on a NaN),
 * _set_time, _halo, _account, _name, _precision (cpu_ref/roe_cpu.h and hllc_cpu.h have
 * them, P = roe_cpu and hllc_cpu).  One stage (Euler): stage = the face sweep and the
 * bound, advance = the update; boundary data, rain and sources through the solver's clock
 * (set_time at each step) and its accounts; the MPI halo as the solver stores its state.
 *
 *   SWE_CPU_BACKENDS(P, create, NAME)
 *
 * defines NAME_backend_cpu and NAME_backend_cpu_scalar over the scheme's own create (which
 * picks the solver kind from cfg: scalar, fast float or fast double). */
#ifndef SWGL_SWE_CPU_BACKEND_H
#define SWGL_SWE_CPU_BACKEND_H

#include <stdio.h>

#include "scheme.h"

#define SWE_CPU_BACKENDS(P, create_fn, NAME)                                                                        \
    static void P##_be_destroy(void *self) { P##_destroy(self); }                                                  \
    static swgl_status P##_be_set_state(void *self, double *const *f)                                              \
    {                                                                                                               \
        P##_set_state(self, f[0], f[1], f[2]);                                                                      \
        return SWGL_OK;                                                                                             \
    }                                                                                                               \
    static swgl_status P##_be_get_state(void *self, double *const *f)                                              \
    {                                                                                                               \
        P##_get_state(self, f[0], f[1], f[2]);                                                                      \
        return SWGL_OK;                                                                                             \
    }                                                                                                               \
    static swgl_status P##_be_stage(void *self, int k, double *dt_stable)                                          \
    {                                                                                                               \
        (void)k;                                                                                                    \
        *dt_stable = P##_rates(self);                                                                               \
        return SWGL_OK;                                                                                             \
    }                                                                                                               \
    static swgl_status P##_be_advance(void *self, int k, double dt)                                                \
    {                                                                                                               \
        (void)k;                                                                                                    \
        if (P##_apply(self, dt))                                                                                    \
            return swgl_fail(SWGL_ERR_BLOWUP, "%s: the solution blew up (NaN) in a step of %g s", P##_name(self),  \
                             dt);                                                                                   \
        return SWGL_OK;                                                                                             \
    }                                                                                                               \
    static void P##_be_set_time(void *self, double t, double stop) { P##_set_time(self, t, stop); }                \
    static swgl_status P##_be_halo_get(void *self, int x, int y, int w, int h, void *buf)                          \
    {                                                                                                               \
        P##_halo(self, 0, x, y, w, h, buf);                                                                         \
        return SWGL_OK;                                                                                             \
    }                                                                                                               \
    static swgl_status P##_be_halo_set(void *self, int x, int y, int w, int h, const void *buf)                    \
    {                                                                                                               \
        P##_halo(self, 1, x, y, w, h, (double *)buf);                                                               \
        return SWGL_OK;                                                                                             \
    }                                                                                                               \
    static swgl_status P##_be_account(void *self, swe_account *a)                                                  \
    {                                                                                                               \
        P##_account(self, a);                                                                                       \
        return SWGL_OK;                                                                                             \
    }                                                                                                               \
    static void P##_be_describe(const void *self, char *name, size_t len)                                          \
    {                                                                                                               \
        snprintf(name, len, "%s", P##_name(self));                                                                  \
    }                                                                                                               \
    static const char *P##_be_precision(const void *self) { return P##_precision(self); }                          \
    static const scheme_forcing_ops P##_be_forcing = {.set_time = P##_be_set_time, .account = P##_be_account};     \
    static const scheme_halo_ops P##_be_halo = {.cell_bytes = scheme_3_doubles, .get = P##_be_halo_get,          \
                                                .set = P##_be_halo_set};                                           \
    const scheme_backend NAME##_backend_cpu = {                                                                     \
        .backend = BACKEND_CPU, .create = create_fn, .destroy = P##_be_destroy, .set_state = P##_be_set_state,     \
        .get_state = P##_be_get_state, .stage = P##_be_stage, .advance = P##_be_advance,                            \
        .stages = scheme_one_stage, .describe = P##_be_describe, .precision = P##_be_precision,                     \
        .forcing = &P##_be_forcing, .halo = &P##_be_halo};                                                          \
    const scheme_backend NAME##_backend_cpu_scalar = {                                                              \
        .backend = BACKEND_CPU_SCALAR, .create = create_fn, .destroy = P##_be_destroy,                              \
        .set_state = P##_be_set_state, .get_state = P##_be_get_state, .stage = P##_be_stage,                        \
        .advance = P##_be_advance, .stages = scheme_one_stage, .describe = P##_be_describe,                         \
        .precision = P##_be_precision, .forcing = &P##_be_forcing, .halo = &P##_be_halo}

#endif
