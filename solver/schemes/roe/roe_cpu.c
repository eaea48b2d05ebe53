/* roe_cpu.c — the Roe scheme's CPU backends behind scheme.h: cpu (SIMD + OpenMP: float
 * or with --precision double, on SSE2, AVX2 or AVX-512 as the CPU has them) and cpu-scalar (double, the reference:
 * --precision changes nothing there: it is the reference, so that --compare cpu-scalar
 * works with either precision; summary.json says "double"), both cpu_ref/roe_cpu.h, with
 * the adapters every first-order CPU solver shares (swe_cpu_backend.h).  One stage (Euler,
 * Lastra (4)): stage = the edge sweep and the bound (8), advance = the update. */
#include "roe.h"
#include "swe_cpu_backend.h"

static swgl_status create(const scheme_setup *s, const scheme_config *cfg, void **self)
{
    const roe_problem *rp = s->problem;
    enum roe_cpu_kind kind = ROE_CPU_SCALAR;
    if (cfg->backend == BACKEND_CPU) kind = cfg->precision == PRECISION_DOUBLE ? ROE_CPU_FAST_DOUBLE : ROE_CPU_FAST;
    swe_problem p = rp->p;
    p.threads = tuning_or_default(cfg->tune)->cpu_threads;
    p.isa = tuning_or_default(cfg->tune)->cpu_isa;
    roe_cpu *c = roe_cpu_create(&p, kind);
    if (!c) return SWGL_ERR_ARG;   /* the message is set */
    *self = c;
    return SWGL_OK;
}

SWE_CPU_BACKENDS(roe_cpu, create, roe);
