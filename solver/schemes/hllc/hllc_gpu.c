/* hllc_gpu.c — the HLLC scheme's GPU backend behind scheme.h (hllc_backend_gpu, hllc.h):
 * gpu (fragment passes) and gpu-compute (the same backend on compute passes, scheme.c),
 * float or, with --precision double, double.  HLLC's update is roe's: the draining mass
 * update (H6) is roe's (M2)-(M4) and its bound (H5) roe's (8), so it runs on the
 * first-order edge engine (roe_gpu*.c: edge pass, local dt, min reduction, update,
 * boundaries in the face, boundary data, rain, sources, maps, the clock on the GPU, the MPI
 * halo) with its own face, shaders/hllc/hllc_face.glsl (the C one's transliteration,
 * cpu_ref/hllc_face.h and hllc_flux.c, in the shared signature of
 * shaders/swe/swe_face.glsl), and Manning's n for the update's semi-implicit friction
 * (H7) where the scenario has [friction] manning (roe_update.glsl ROE_MANNING). */
#include "hllc.h"
#include "roe_gpu_internal.h"

static swgl_status create(const scheme_setup *s, const scheme_config *cfg, void **self)
{
    const hllc_setup_problem *hp = s->problem;
    const roe_gpu_face face = {.face_define = "SWGL_FACE_HLLC", .manning = hp->manning, .scheme = "hllc"};
    return rog_backend_create(&hp->p, &face, cfg, self);
}

const scheme_backend hllc_backend_gpu = ROG_BACKEND(create);
