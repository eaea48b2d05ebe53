/* gpu_steps.h — the read-back loop of a GPU backend's run_to (scheme.h), shared by the
 * roe and kp backends: the backend issues whole steps with the step chosen on the GPU
 * (gpgpu's clock.glsl writes dt, the time left and the landing and blow-up flags into a
 * 1x1 clock texel and requests it back), and this loop takes the texels as they come
 * back through a ring of pixel buffers, a few steps late, so that no step waits for the
 * CPU. */
#ifndef SWGL_GPU_STEPS_H
#define SWGL_GPU_STEPS_H

#include "gpu_array2d.h"
#include "gpu_readback.h"
#include "scheme.h"

/* One step with dt chosen on the GPU, its clock texel requested back through the ring:
 * left = stop - t as the CPU knows it, unknown = steps issued whose texel has not come
 * back yet (the clock pass subtracts their steps from left). */
typedef swgl_status (*gpu_step_fn)(void *self, double left, int unknown, int stop_index, double dt_floor);

/* run_to of scheme.h over the backend's step: clock is the texel the next step's clock
 * pass reads as the previous one (zeroed here: no flag of an earlier span carries over);
 * *dt_recent the largest step seen so far (kept by the backend across spans). */
swgl_status gpu_steps_run_to(gpu_readback *rb, double *dt_recent, gpu_array2d *clock, gpu_step_fn step, void *self,
                             double t, double stop, int stop_index, double dt_floor, timeloop_span *sp);

#endif
