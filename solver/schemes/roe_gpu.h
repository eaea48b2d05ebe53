/* roe_gpu.h — the Lastra et al. (2009) Roe scheme as fragment passes (Lastra 4.3):
 * edge pass (MRT) -> local dt per volume -> min reduction -> volume update; boundary
 * edges build the ghost state themselves (see shaders/roe_edge.glsl). */
#ifndef SWGL_ROE_GPU_H
#define SWGL_ROE_GPU_H

#include "gpu_error.h"
#include "swe.h"

typedef struct roe_gpu roe_gpu;

swgl_status roe_gpu_create(const swe_problem *p, roe_gpu **out);
void roe_gpu_destroy(roe_gpu *r);
/* arrays of (nx+2)*(ny+2) doubles laid out as in swe.h */
swgl_status roe_gpu_set_state(roe_gpu *r, const double *h, const double *qx, const double *qy);
swgl_status roe_gpu_get_state(roe_gpu *r, double *h, double *qx, double *qy);
/* One step: dt from (8) (the reduction's 1x1 result is the only thing read back),
 * dt = min(dt, dt_max), then the update.  *dt_taken is dt_max when no wave moves. */
swgl_status roe_gpu_step(roe_gpu *r, double dt_max, double *dt_taken);

#endif
