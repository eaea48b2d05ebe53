/* hllc_fast.c — the fast CPU solver of the HLLC scheme: hllc_solver_body.h with OpenMP
 * over rows, in float (--backend cpu) or double (--precision double).  Plain C, no SIMD
 * intrinsics (issue 25: "its fast CPU backend may be plain C with OpenMP").  The double
 * instance performs the scalar reference's operations in the same order on every cell
 * and face, so it gives its bits whatever the number of threads. */
#include "cpu_info.h"
#include "hllc_internal.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

int hllc_fast_threads(void)
{
    int n = omp_get_max_threads();
    return n < 1 ? 1 : n;
}

#define HLLC_OMP 1

#define T float
#define FN(x) x##_ff
#define T_SQRT sqrtf
#define CORE_OPS hllc_core_fast_float
#define CORE_PREC "single"
#include "hllc_solver_body.h"
#undef T
#undef FN
#undef T_SQRT
#undef CORE_OPS
#undef CORE_PREC

#define T double
#define FN(x) x##_fd
#define T_SQRT sqrt
#define CORE_OPS hllc_core_fast_double
#define CORE_PREC "double"
#include "hllc_solver_body.h"
