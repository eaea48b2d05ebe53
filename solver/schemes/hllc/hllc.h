/* hllc.h — the first-order HLLC scheme with hydrostatic reconstruction (Audusse et al.
 * 2004) and Manning friction behind scheme.h (docs/hllc.md): its problem built from a
 * scenario, and its backends (hllc_cpu.c: cpu_ref/hllc_cpu.h; hllc_gpu.c: gpu and
 * gpu-compute on the first-order edge engine, roe_gpu.h). */
#ifndef SWGL_HLLC_H
#define SWGL_HLLC_H

#include "hllc_cpu.h"
#include "scheme.h"
#include "swe_fv1.h"

/* What scheme_setup.problem points to for scheme = hllc: the first-order problem on cells
 * with Manning's n (swe_fv1.h); its CPU solvers take it as an hllc_problem {p, manning}. */
typedef swe_fv1 hllc_setup_problem;

extern const scheme_backend hllc_backend_gpu, hllc_backend_cpu, hllc_backend_cpu_scalar;

#endif
