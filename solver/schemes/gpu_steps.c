/* gpu_steps.c — the read-back loop of a GPU backend's run_to (gpu_steps.h). */
#include "gpu_steps.h"

#include <math.h>
#include <stdlib.h>

#include "gpu_readback.h"

/* The steps between two clocks read back: GPU_STEPS_READ_EVERY, or SWGL_CLOCK_EVERY */
static swgl_status read_every(int *every)
{
    const char *e = getenv("SWGL_CLOCK_EVERY");
    *every = GPU_STEPS_READ_EVERY;
    if (!e || !*e) return SWGL_OK;
    char *end;
    long v = strtol(e, &end, 10);
    if (*end || v < 1 || v > GPU_STEPS_READ_MAX)
        return swgl_fail(SWGL_ERR_ARG, "SWGL_CLOCK_EVERY=%s: expected a number of steps from 1 to %d", e,
                         GPU_STEPS_READ_MAX);
    *every = (int)v;
    return SWGL_OK;
}

/* What the clock of step n, read back, says of steps known + 1 .. n; 1 when the stop is
 * reached or the run blew up. */
static int take_clock(const float *c, int n, int known, int stop_index, double stop, double *dt_recent,
                      timeloop_span *sp, int *blown)
{
    for (int s = known + 1; s <= n; s++) {
        double dt = gpu_clock_dt(c, n - s);
        if (dt > 0) {   /* (a step after the landing or the blow-up took none) */
            sp->steps++;
            sp->dt_min = fmin(sp->dt_min, dt);
            sp->dt_max = fmax(sp->dt_max, dt);
            sp->t += dt;
        }
        *dt_recent = fmax(*dt_recent, dt);
        if (sp->tick) sp->tick(sp->user, sp->t, sp->steps, dt);
    }
    int flags = (int)c[3], landed = (flags & 1) && flags / 4 == stop_index;
    *blown = (flags & 2) != 0;
    if (*blown) {
        sp->bound = c[4 * GPU_CLOCK_WINDOW + 1];
        return 1;
    }
    if (landed) sp->t = stop;   /* also when rounding left the landing step no time */
    return landed;
}

swgl_status gpu_steps_run_to(gpu_clock *clock, double *dt_recent, gpu_step_fn step, void *self, double t, double stop,
                             int stop_index, double dt_floor, timeloop_span *sp)
{
    /* at most max_unknown steps unknown when a step is issued, so that every clock read
     * back still holds every step since the last one read (GPU_CLOCK_STEPS), with a clock
     * requested every `every` steps */
    int every, issued = 0, known = 0, done = 0, blown = 0;
    swgl_status st = read_every(&every);
    if (st != SWGL_OK) return st;
    const int max_unknown = GPU_CLOCK_STEPS - every;
    int req[GPU_READBACK_MAX], rh = 0, rn = 0;   /* the steps of the clocks requested, oldest first */
    float c[4 * GPU_CLOCK_TEXELS];
    sp->t = t;
    /* a fresh clock: no step before this span is unknown, and no flag of an earlier run
     * or stop may carry over (the requests were drained at the end of the last span) */
    st = gpu_clock_reset(clock);
#define REQUEST()                                                                                                    \
    do {                                                                                                             \
        if ((st = gpu_clock_request(clock)) == SWGL_OK) req[(rh + rn++) % GPU_READBACK_MAX] = issued;               \
    } while (0)
    while (!done && st == SWGL_OK) {
        /* take what has come back; wait when one more step would leave too many unknown,
         * or when the stop may be within the next step (dt_recent: the largest step seen,
         * also in earlier spans), so that few steps run after the landing */
        while (st == SWGL_OK && !done && known < issued) {
            int m = issued - known, ready = 1;
            int wait = m >= max_unknown || sp->t + (m + 1) * *dt_recent * 1.5 >= stop;
            if (wait && rn < GPU_READBACK_MAX && (rn == 0 || req[(rh + rn - 1) % GPU_READBACK_MAX] < issued)) {
                REQUEST();
                if (st != SWGL_OK) break;
            }
            if (rn == 0) break;
            if ((st = gpu_clock_fetch(clock, wait, c, &ready)) != SWGL_OK) break;
            if (!ready) {
                if (wait) st = swgl_fail(SWGL_ERR_GL, "gpu: no time step came back from the GPU within 60 s");
                break;
            }
            int n = req[rh];
            rh = (rh + 1) % GPU_READBACK_MAX;
            rn--;
            done = take_clock(c, n, known, stop_index, stop, dt_recent, sp, &blown);
            known = n;
        }
        if (st != SWGL_OK || done) break;
        if (timeloop_stop_requested()) {
            st = SWGL_ERR_INTERRUPTED;   /* the time loop words the message */
            break;
        }
        gpu_clock_args a = {stop - sp->t, issued - known, dt_floor, stop_index};
        if ((st = step(self, &a)) != SWGL_OK) break;
        issued++;
        if (issued % every == 0 && rn < GPU_READBACK_MAX) REQUEST();
    }
    /* steps issued after the landing (or the blow-up) took dt = 0 and left the state as
     * it was; after an interrupt they did advance it, so their steps count (the time
     * reached is then the state's): read the last step's clock too.  Drain the requests
     * (keeping the first error's message). */
    if (st == SWGL_ERR_INTERRUPTED && known < issued && rn < GPU_READBACK_MAX &&
        (rn == 0 || req[(rh + rn - 1) % GPU_READBACK_MAX] < issued) && gpu_clock_request(clock) == SWGL_OK)
        req[(rh + rn++) % GPU_READBACK_MAX] = issued;
#undef REQUEST
    while (rn > 0) {
        int ready = 0;
        if (gpu_clock_fetch(clock, 1, c, &ready) != SWGL_OK || !ready) {
            if (st == SWGL_OK) st = swgl_fail(SWGL_ERR_GL, "gpu: a time step did not come back from the GPU");
            break;
        }
        int n = req[rh];
        rh = (rh + 1) % GPU_READBACK_MAX;
        rn--;
        if (!done && !blown && st == SWGL_ERR_INTERRUPTED && n > known) {
            done = take_clock(c, n, known, stop_index, stop, dt_recent, sp, &blown);
            known = n;
        }
    }
    if (st == SWGL_OK && blown)   /* the time loop words the message, with the run's step */
        st = swgl_fail(SWGL_ERR_BLOWUP, "blown");
    return st;
}
