/* roe.h — the Lastra et al. (2009) Roe scheme behind scheme.h: its problem built from a
 * scenario, and its backends (roe_gpu.c: fragment passes; roe_cpu.c: cpu_ref/roe_cpu.h). */
#ifndef SWGL_ROE_H
#define SWGL_ROE_H

#include "scheme.h"
#include "roe_cpu.h"
#include "swe_forcing.h"

/* What scheme_setup.problem points to for scheme = roe. */
typedef struct roe_problem {
    swe_problem p;           /* H and code on the ghost-ring grid */
    double *H;               /* grid_size: H = -z_b */
    swe_forcing_store forcing;   /* boundary data, rain, sources (p.forcing) */
} roe_problem;

extern const scheme_backend roe_backend_gpu, roe_backend_cpu, roe_backend_cpu_scalar;

#endif
