/* roe.c — scheme = roe (Lastra et al. 2009; docs/roe.md): the first-order shallow-water
 * problem on cells from a scenario (swe_fv1.c, hllc's too), with [roe] kappa, the thin-film
 * depth of the velocity desingularization (cpu_ref/roe_cpu.h (M5)); what a run of it writes
 * is every shallow-water scheme's (swe_output.c).  Its halo over MPI ranks: an edge reads
 * the two cells beside it, its positivity limit (M3) the donor's drain time tau (2); its
 * bound (8): dt = 2 cfl dx dy / S, S = sum over the 4 edges of |Gamma| (|u_n| + c). */
#include "roe.h"
#include "roe_keys.h"
#include "swe_output.h"

static swgl_status setup(const scenario *sc, scheme_setup *s)
{
    const roe_params *keys = sc->params;
    return swe_fv1_setup(sc, s, keys->kappa, 0);
}

const scheme_desc scheme_roe = SWE_FV1_DESC("roe", setup, &roe_backend_gpu, &roe_backend_cpu, &roe_backend_cpu_scalar);
