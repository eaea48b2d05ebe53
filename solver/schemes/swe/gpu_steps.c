/* gpu_steps.c — the read-back loop of a GPU backend's run_to (gpu_steps.h). */
#include "gpu_steps.h"

#include <math.h>
#include <stdlib.h>

#include "gpu_readback.h"

/* the times of the recent steps kept (more than the 2 GPU_STEPS_READ_MAX a reference lags) */
#define GPU_STEPS_TIMES 256

/* The steps between two clocks read back: the span's clock_every (tune clock_every), or
 * GPU_STEPS_READ_EVERY */
static swgl_status read_every(const timeloop_span *sp, int *every)
{
    *every = sp->clock_every ? sp->clock_every : GPU_STEPS_READ_EVERY;
    if (*every < 1 || *every > GPU_STEPS_READ_MAX)
        return swgl_fail(SWGL_ERR_ARG, "tune: clock_every=%d: expected a number of steps from 1 to %d", *every,
                         GPU_STEPS_READ_MAX);
    return SWGL_OK;
}

/* What the clock of step n, read back, says of steps known + 1 .. n (stops[0..n_stops-1],
 * numbered from stop_base; *wdone the stops known landed on); 1 when the last stop is
 * reached or the run blew up.  The clock names the last landing (texel W: the steps since
 * it plus one, and its stop), and the time is set to that stop at that step, so that it is
 * the stop exactly, not the float steps' sum. */
static int take_clock(const float *c, int n, int known, const double *stops, int n_stops, int stop_base,
                      double *dt_recent, timeloop_span *sp, int *wdone, int *blown, double *times)
{
    const float *w = c + 4 * GPU_CLOCK_WINDOW;
    int since = (int)w[2], at = (int)w[3] - stop_base, land = since > 0 ? n - (since - 1) : -1;
    for (int s = known + 1; s <= n; s++) {
        double dt = gpu_clock_dt(c, n - s);
        if (dt > 0) {   /* (a step after the landing or the blow-up took none) */
            sp->steps++;
            sp->dt_min = fmin(sp->dt_min, dt);
            sp->dt_max = fmax(sp->dt_max, dt);
            sp->t += dt;
        }
        if (s == land && at >= 0 && at < n_stops) sp->t = stops[at];
        times[s % GPU_STEPS_TIMES] = sp->t;
        *dt_recent = fmax(*dt_recent, dt);
        if (sp->tick) sp->tick(sp->user, sp->t, sp->steps, dt);
    }
    int flags = (int)c[3], T = flags / 4 - stop_base, landed = (flags & 1) != 0;
    *blown = (flags & 2) != 0;
    if (T >= 0 && T < n_stops) *wdone = T + landed;
    if (*blown) {
        sp->bound = w[1];
        return 1;
    }
    landed = landed && T == n_stops - 1;
    if (landed) sp->t = stops[n_stops - 1];   /* also when rounding left the landing step no time */
    return landed;
}

/* The clocks requested and not yet taken, oldest first: the step each is of */
typedef struct requests {
    int step[GPU_READBACK_MAX], head, n;
} requests;

static int last_requested(const requests *q) { return q->n ? q->step[(q->head + q->n - 1) % GPU_READBACK_MAX] : -1; }

/* Requests the clock of step `issued` (the last one issued), unless it is requested
 * already or every slot is in flight (then the caller takes the oldest first). */
static swgl_status request(gpu_clock *clock, requests *q, int issued)
{
    if (q->n == GPU_READBACK_MAX || last_requested(q) >= issued) return SWGL_OK;
    swgl_status st = gpu_clock_request(clock);
    if (st == SWGL_OK) q->step[(q->head + q->n++) % GPU_READBACK_MAX] = issued;
    return st;
}

/* The oldest requested clock into c (waiting for it when wait): *ready, and its step */
static swgl_status fetch(gpu_clock *clock, requests *q, int wait, float *c, int *ready, int *step)
{
    swgl_status st = gpu_clock_fetch(clock, wait, c, ready);
    if (st != SWGL_OK || !*ready) return st;
    *step = q->step[q->head];
    q->head = (q->head + 1) % GPU_READBACK_MAX;
    q->n--;
    return SWGL_OK;
}

swgl_status gpu_steps_run_stops(gpu_clock *clock, double *dt_recent, gpu_step_fn step, void *self, double t,
                                const double *stops, int n_stops, int stop_base, double dt_floor, timeloop_span *sp)
{
    /* A step is issued only while fewer than max_unknown steps are unknown, so a clock
     * requested then, read back once the steps before it are known, holds every step
     * since (at most GPU_CLOCK_STEPS), and the rule never needs more than a clock holds. */
    const int max_unknown = GPU_CLOCK_STEPS - 1;
    int every, issued = 0, known = 0, done = 0, blown = 0, wdone = 0;
    double times[GPU_STEPS_TIMES];   /* the time after step s at s % GPU_STEPS_TIMES (0: the span's start) */
    requests q = {{0}, 0, 0};
    float c[4 * GPU_CLOCK_TEXELS];
    swgl_status st = read_every(sp, &every);
    if (st != SWGL_OK) return st;
    if (n_stops < 1) return swgl_fail(SWGL_ERR_ARG, "gpu_steps_run_stops: no stop");
    sp->t = times[0] = t;
    /* a fresh clock: no step before this span is unknown, and no flag of an earlier run
     * or stop may carry over (the requests were drained at the end of the last span) */
    st = gpu_clock_reset(clock);
    while (!done && st == SWGL_OK) {
        /* take what has come back; wait when one more step would leave too many unknown,
         * or when the stop may be within the next step (dt_recent: the largest step seen,
         * also in earlier spans; none seen yet: wait for the first), so that few steps run
         * after the landing and the landing step is the time left as the CPU knows it; in
         * a span of many stops, the last stop of the window the CPU gives (gpu_clock.h) */
        while (st == SWGL_OK && !done && known < issued) {
            int m = issued - known, ready = 1, n = 0;
            int wlast = wdone + GPU_CLOCK_WINDOW_STOPS - 1 < n_stops - 1 ? wdone + GPU_CLOCK_WINDOW_STOPS - 1 : n_stops - 1;
            int wait = m >= max_unknown || !(*dt_recent > 0) || sp->t + (m + 1) * *dt_recent * 1.5 >= stops[wlast];
            if (wait && (st = request(clock, &q, issued)) != SWGL_OK) break;
            if (q.n == 0) break;
            if ((st = fetch(clock, &q, wait, c, &ready, &n)) != SWGL_OK) break;
            if (!ready) {
                if (wait) st = swgl_fail(SWGL_ERR_GL, "gpu: no time step came back from the GPU within 60 s");
                break;
            }
            done = take_clock(c, n, known, stops, n_stops, stop_base, dt_recent, sp, &wdone, &blown, times);
            known = n;
        }
        if (st != SWGL_OK || done) break;
        if (timeloop_span_stopped(sp)) {
            st = SWGL_ERR_INTERRUPTED;   /* the time loop words the message */
            break;
        }
        /* the times left count from the time after step r.  One stop: r = the last step
         * read (near the stop the CPU waits for every step, above, so the landing step
         * counts from the time just before it: the landing as exact as float allows).
         * Many stops (landed on without the CPU): r a multiple of `every` that lags the
         * step issued by every to 2 every - 1 steps, whatever the CPU has read by now, so
         * that each step's rule sees the same numbers in every run (the results are the
         * same bits run after run, not the time the CPU happened to know) */
        int r = known;
        if (n_stops > 1) {
            r = issued + 1 - every;
            r = r > 0 ? r / every * every : 0;
        }
        while (st == SWGL_OK && !done && known < r) {
            int ready = 0, n = 0;
            if ((q.n == 0 && (st = request(clock, &q, issued)) != SWGL_OK) ||
                (st = fetch(clock, &q, 1, c, &ready, &n)) != SWGL_OK)
                break;
            if (!ready) {
                st = swgl_fail(SWGL_ERR_GL, "gpu: no time step came back from the GPU within 60 s");
                break;
            }
            done = take_clock(c, n, known, stops, n_stops, stop_base, dt_recent, sp, &wdone, &blown, times);
            known = n;
        }
        if (st != SWGL_OK || done) break;
        const double tr = times[r % GPU_STEPS_TIMES];
        gpu_clock_args a = {stops[wdone] - tr, issued - r, dt_floor, stop_base, n_stops > 1, stop_base + n_stops - 1,
                            stop_base + wdone, 0, {0}, tr};
        for (int k = wdone + 1; k < n_stops && a.n_more < 8; k++) a.more[a.n_more++] = stops[k] - tr;
        if ((st = step(self, &a)) != SWGL_OK) break;
        issued++;
        if (issued % every == 0) st = request(clock, &q, issued);
    }
    /* steps issued after the landing (or the blow-up) took dt = 0 and left the state as
     * it was; after an interrupt they did advance it, so their steps count (the time
     * reached is then the state's): the last step's clock is read too (once a slot is
     * free).  Drain the requests (keeping the first error's message). */
    for (;;) {
        int take = st == SWGL_ERR_INTERRUPTED && !done && !blown, ready = 0, n = 0;
        if (take && known < issued && request(clock, &q, issued) != SWGL_OK) take = 0;
        if (q.n == 0) break;
        if (fetch(clock, &q, 1, c, &ready, &n) != SWGL_OK || !ready) {
            if (st == SWGL_OK) st = swgl_fail(SWGL_ERR_GL, "gpu: a time step did not come back from the GPU");
            break;
        }
        if (take && n > known) {
            done = take_clock(c, n, known, stops, n_stops, stop_base, dt_recent, sp, &wdone, &blown, times);
            known = n;
        }
    }
    sp->landed = wdone;
    if (st == SWGL_OK && blown)   /* the time loop words the message, with the run's step */
        st = swgl_fail(SWGL_ERR_BLOWUP, "blown");
    return st;
}

swgl_status gpu_steps_run_to(gpu_clock *clock, double *dt_recent, gpu_step_fn step, void *self, double t, double stop,
                             int stop_index, double dt_floor, timeloop_span *sp)
{
    return gpu_steps_run_stops(clock, dt_recent, step, self, t, &stop, 1, stop_index, dt_floor, sp);
}
