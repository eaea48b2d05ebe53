/* gpu_steps.h — the read-back loop of a GPU backend's run_to (scheme.h), shared by the
 * roe and kp backends: the backend issues whole steps with the step chosen on the GPU
 * (gpgpu's gpu_clock: clock.glsl, or a kernel with its rule, writes dt, the steps before it
 * and the landing and blow-up flags into a clock each step), and this loop reads a clock
 * back every so many steps, which gives it every step since the last it read, so that no
 * step waits for the CPU and a read-back's cost is shared by many steps. */
#ifndef SWGL_GPU_STEPS_H
#define SWGL_GPU_STEPS_H

#include "gpu_clock.h"
#include "scheme.h"

/* How often a clock is read back, in steps (more often near a stop: gpu_steps.c);
 * the span's clock_every (tune clock_every, 1 to GPU_STEPS_READ_MAX) sets it, to measure the choice. */
#define GPU_STEPS_READ_EVERY 32
#define GPU_STEPS_READ_MAX (GPU_CLOCK_STEPS / 2)

/* One step with dt chosen on the GPU into the clock's next texels (a->left = stop - t as
 * the CPU knows t, a->unknown = steps issued whose clock has not come back yet: the rule
 * subtracts their steps from left). */
typedef swgl_status (*gpu_step_fn)(void *self, const gpu_clock_args *a);

/* run_to of scheme.h over the backend's step and clock (zeroed here: no flag of an earlier
 * span carries over); *dt_recent the largest step seen so far (kept by the backend across
 * spans). */
swgl_status gpu_steps_run_to(gpu_clock *clock, double *dt_recent, gpu_step_fn step, void *self, double t, double stop,
                             int stop_index, double dt_floor, timeloop_span *sp);
/* The same over the stops stops[0..n_stops-1] (increasing, numbered from stop_base), each
 * landed on in turn by the GPU's clock without the CPU (gpu_clock.h "a span of many
 * stops"; the step's args say multi when n_stops > 1, the backend then keeps what it must
 * of each landing, such as the gauges: gpu_gather_capture); sp->t is each stop exactly
 * once its landing is read. */
swgl_status gpu_steps_run_stops(gpu_clock *clock, double *dt_recent, gpu_step_fn step, void *self, double t,
                                const double *stops, int n_stops, int stop_base, double dt_floor, timeloop_span *sp);

#endif
