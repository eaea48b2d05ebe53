/* hllc_cpu.c — the HLLC scheme's CPU backends behind scheme.h: cpu (plain C + OpenMP over
 * rows: float, or with --precision double, double) and cpu-scalar (double, the reference;
 * --precision changes nothing there), both cpu_ref/hllc_cpu.h, with the adapters every
 * first-order CPU solver shares (swe_cpu_backend.h).  One stage (Euler): stage = the face
 * sweep and the bound (H5), advance = the update (H6)-(H7). */
#include "hllc.h"
#include "swe_cpu_backend.h"

static swgl_status create(const scheme_setup *s, const scheme_config *cfg, void **self)
{
    const hllc_setup_problem *fv = s->problem;
    enum hllc_cpu_kind kind = HLLC_CPU_SCALAR;
    if (cfg->backend == BACKEND_CPU) kind = cfg->precision == PRECISION_DOUBLE ? HLLC_CPU_FAST_DOUBLE : HLLC_CPU_FAST;
    hllc_problem p = {.sw = fv->p, .manning = fv->manning};   /* the solver copies what it keeps */
    p.sw.threads = tuning_or_default(cfg->tune)->cpu_threads;
    hllc_cpu *c = hllc_cpu_create(&p, kind);
    if (!c) return SWGL_ERR_ARG;   /* the message is set */
    *self = c;
    return SWGL_OK;
}

SWE_CPU_BACKENDS(hllc_cpu, create, hllc);
