/* gpu_steps.c — the read-back loop of a GPU backend's run_to (gpu_steps.h). */
#include "gpu_steps.h"

#include <math.h>

/* What a clock texel read back says; 1 when the stop is reached or the run blew up. */
static int take_clock(const float c[4], int stop_index, double stop, timeloop_span *sp, int *blown)
{
    double dt = c[0];
    int flags = (int)c[3], landed = (flags & 1) && flags / 4 == stop_index;
    *blown = (flags & 2) != 0;
    if (*blown) {
        sp->bound = c[1];
        return 1;
    }
    if (dt > 0) {
        sp->steps++;
        sp->dt_min = fmin(sp->dt_min, dt);
        sp->dt_max = fmax(sp->dt_max, dt);
        sp->t += dt;
    }
    if (landed) sp->t = stop;   /* also when rounding left the landing step no time */
    return landed;
}

swgl_status gpu_steps_run_to(gpu_readback *rb, double *dt_recent, gpu_array2d *clock, gpu_step_fn step, void *self,
                             double t, double stop, int stop_index, double dt_floor, timeloop_span *sp)
{
    static const float zero[4] = {0, 0, 0, 0};
    int issued = 0, known = 0, done = 0, blown = 0;
    float c[4];
    sp->t = t;
    /* a fresh clock: no step before this span is unknown, and no flag of an earlier run
     * or stop may carry over (the ring was drained at the end of the last span) */
    swgl_status st = gpu_array2d_fill(clock, zero);
    while (!done && st == SWGL_OK) {
        int ready = 1;
        /* take what has come back; wait when the clock would need more than 2 unknown
         * steps, or when the stop may be within the next step (dt_recent: the largest
         * step seen, also in earlier spans), so that few steps run after the landing */
        while (st == SWGL_OK && !done && known < issued) {
            int m = issued - known;
            int wait = m >= 3 || sp->t + (m + 1) * *dt_recent * 1.5 >= stop;
            if ((st = gpu_readback_fetch(rb, wait, c, &ready)) != SWGL_OK) break;
            if (!ready) {
                if (wait) st = swgl_fail(SWGL_ERR_GL, "gpu: no time step came back from the GPU within 60 s");
                break;
            }
            known++;
            *dt_recent = fmax(*dt_recent, (double)c[0]);
            done = take_clock(c, stop_index, stop, sp, &blown);
            if (sp->tick) sp->tick(sp->user, sp->t, sp->steps, c[0]);
        }
        if (st != SWGL_OK || done) break;
        if (timeloop_stop_requested()) {
            st = SWGL_ERR_INTERRUPTED;   /* the time loop words the message */
            break;
        }
        if ((st = step(self, stop - sp->t, issued - known, stop_index, dt_floor)) == SWGL_OK) issued++;
    }
    /* steps issued after the landing (or the blow-up) took dt = 0 and left the state as
     * it was; after an interrupt they did advance it, so their steps count (the time
     * reached is then the state's); drain their texels (keeping the first error's
     * message) */
    while (known < issued) {
        int ready = 0;
        if (gpu_readback_fetch(rb, 1, c, &ready) != SWGL_OK || !ready) {
            if (st == SWGL_OK) st = swgl_fail(SWGL_ERR_GL, "gpu: a time step did not come back from the GPU");
            break;
        }
        known++;
        if (!done && !blown && st == SWGL_ERR_INTERRUPTED) done = take_clock(c, stop_index, stop, sp, &blown);
    }
    if (st == SWGL_OK && blown)   /* the time loop words the message, with the run's step */
        st = swgl_fail(SWGL_ERR_BLOWUP, "blown");
    return st;
}
