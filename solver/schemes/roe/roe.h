/* roe.h — the Lastra et al. (2009) Roe scheme behind scheme.h: its problem built from a
 * scenario, and its backends (roe_gpu.c: fragment passes; roe_cpu.c: cpu_ref/roe_cpu.h). */
#ifndef SWGL_ROE_H
#define SWGL_ROE_H

#include "scheme.h"
#include "roe_cpu.h"
#include "swe_fv1.h"

/* What scheme_setup.problem points to for scheme = roe: the first-order problem on cells
 * (swe_fv1.h; no friction). */
typedef swe_fv1 roe_problem;

extern const scheme_backend roe_backend_gpu, roe_backend_cpu, roe_backend_cpu_scalar;

#endif
