/* hllc.c — scheme = hllc (first-order HLLC with the hydrostatic reconstruction of
 * Audusse et al. 2004 and Manning friction; docs/hllc.md): the first-order shallow-water
 * problem on cells from a scenario (swe_fv1.c, roe's too) with Manning's n and [hllc]
 * kappa (as roe's); what a run of it writes is every shallow-water scheme's
 * (swe_output.c).  Its halo (H6: the donor's drain time, 2) and bound (H5) are roe's.
 * Backends: gpu and gpu-compute (hllc_gpu.c, on roe's first-order edge engine with hllc's
 * face), cpu and cpu-scalar (hllc_cpu.c). */
#include "hllc.h"
#include "hllc_keys.h"
#include "swe_output.h"

static swgl_status setup(const scenario *sc, scheme_setup *s)
{
    const hllc_params *keys = sc->params;
    return swe_fv1_setup(sc, s, keys->kappa, 1);
}

const scheme_desc scheme_hllc =
    SWE_FV1_DESC("hllc", setup, &hllc_backend_gpu, &hllc_backend_cpu, &hllc_backend_cpu_scalar);
