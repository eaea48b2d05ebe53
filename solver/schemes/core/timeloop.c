/* timeloop.c — the one time loop of every scheme and backend (scheme.h).
 *
 * For each stop (output times, then t_end):
 *     while t < stop:
 *         bound = stage(0)                   largest dt the state's CFL condition allows
 *         blow-up if bound is NaN, <= 0, or < TIMELOOP_COLLAPSE * t_end
 *         dt = min(bound, stop - t)          (dt = bound, landing on the stop, when stop - t
 *                                             is within a relative 1e-9 of the bound: that
 *                                             difference is the rounding of t)
 *         advance(0, dt); for k = 1..stages-1: stage(k), advance(k, dt)
 *         t = t + dt, or exactly stop on the step that reaches it
 * The step never exceeds the bound of the state it advances (the 1e-9 slack aside).
 * The rule (blown, lands, dt) is shaders/gpgpu/step_rule.glsl's, shared with the device.
 * A backend with run_to (roe and kp on the GPU; all its stages per step) does the same on
 * the device, with the bound
 * kept there and read back a few steps late (no stall per step); tune host_clock=on
 * makes it read the bound back every step instead (to measure the difference).  The
 * device computes the time left in float and has no 1e-9 slack (below float's
 * resolution), so where stop - t exceeds the bound by less than that it takes the bound
 * and then a sliver of a step: the two paths can then differ by one step. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_info.h"
#include "scheme.h"
#include "step_rule.glsl"   /* the rule, once for the host and the device (shaders/gpgpu) */

#include <signal.h>

#define TIMELOOP_LAND_SLACK 1e-9   /* step_rule.glsl's slack on the host */

static volatile sig_atomic_t stop_signal;

void timeloop_request_stop(int signal_number) { stop_signal = signal_number; }
int timeloop_stop_requested(void) { return stop_signal; }
int timeloop_span_stopped(const timeloop_span *sp) { return stop_signal || (sp->stop_flag && *sp->stop_flag); }

static swgl_status interrupted(const scheme_inst *in, double t, long n)
{
    if (!stop_signal)
        return swgl_fail(SWGL_ERR_INTERRUPTED, "%s: stopped on request at t = %.9g s after %ld steps", in->name, t, n);
    return swgl_fail(SWGL_ERR_INTERRUPTED, "%s: stopped by signal %d at t = %.9g s after %ld steps", in->name,
                     (int)stop_signal, t, n);
}

static int stopped(const scheme_inst *in) { return stop_signal || (in->stop_flag && *in->stop_flag); }

static swgl_status blowup(const scheme_inst *in, double t, long n, double bound)
{
    if (isnan(bound) || bound < 0)   /* a GPU reports a cell holding NaN as a bound of -1 */
        return swgl_fail(SWGL_ERR_BLOWUP,
                         "%s: the solution blew up (a NaN or an infinity in the state) after t = %.9g s (step %ld)",
                         in->name, t, n + 1);
    char speed[96] = "";
    if (in->speed_scale > 0)
        snprintf(speed, sizeof speed, ", a wave speed of at least %.3g m/s", in->speed_scale / bound);
    return swgl_fail(SWGL_ERR_BLOWUP,
                     "%s: the solution blew up after t = %.9g s (step %ld): the time step collapsed to %.3g s%s "
                     "(a velocity or depth far beyond the scenario's)",
                     in->name, t, n + 1, bound, speed);
}

typedef struct progress_line {
    const scheme_inst *in;
    int mode;                /* TIMELOOP_PROGRESS_TTY or _LINES */
    double t_start, t_end, shown, t0;
    int tenth;               /* _LINES: the last tenth of t_end reported */
    long base;
    timeloop_result *r;      /* its samples */
    const double *paused;    /* s spent in the stop callbacks so far */
    int next_sample;
} progress_line;

static void show(progress_line *p, double t, long n, double dt)
{
    double now = cpu_seconds(), el = now - p->t0, span = p->t_end - p->t_start;
    double frac = span > 0 ? (t - p->t_start) / span : 1;   /* of this run (from a restart's time) */
    int k = (int)(frac * TIMELOOP_SAMPLES + 1e-9);
    if (k >= p->next_sample && p->r->n_samples < TIMELOOP_SAMPLES + 2) {
        p->r->samples[p->r->n_samples++] = (timeloop_sample){t, el - *p->paused, n};
        p->next_sample = k + 1;
    }
    if (!p->mode) return;
    int tenth = (int)(frac * 10 + 1e-9);
    if (p->mode == TIMELOOP_PROGRESS_TTY ? now - p->shown < 0.25 : tenth <= p->tenth) return;
    p->shown = now;
    p->tenth = tenth;
    double sps = el > 0 ? n / el : 0, left = frac > 0 && frac < 1 ? el * (1 - frac) / frac : 0;
    char eta[32];
    if (left >= 3600) snprintf(eta, sizeof eta, "%dh%02dm", (int)(left / 3600), (int)(left / 60) % 60);
    else if (left >= 60) snprintf(eta, sizeof eta, "%dm%02ds", (int)(left / 60), (int)left % 60);
    else snprintf(eta, sizeof eta, "%.0fs", left);
    fprintf(stderr, "%s  %s: t = %.6g / %.6g s (%3.0f%%), step %ld, dt = %.3g s, %.3g steps/s, %.3g Mcells/s, %s left%s",
            p->mode == TIMELOOP_PROGRESS_TTY ? "\r" : "", p->in->name, t, p->t_end, 100 * (t / p->t_end), n, dt, sps,
            sps * (double)p->in->cells / 1e6, eta, p->mode == TIMELOOP_PROGRESS_TTY ? "   " : "\n");
}

static void tick(void *user, double t, long steps, double dt)
{
    progress_line *p = user;
    show(p, t, p->base + steps, dt);
}

swgl_status timeloop_run(scheme_inst *in, const double *stops, int n_stops, int progress, timeloop_stop_fn fn,
                         void *user, timeloop_result *r)
{
    timeloop_opts o = {stops[n_stops - 1], 0, 0};
    return timeloop_run_opts(in, stops, n_stops, progress, fn, user, r, &o);
}

swgl_status timeloop_run_opts(scheme_inst *in, const double *stops, int n_stops, int progress, timeloop_stop_fn fn,
                              void *user, timeloop_result *r, const timeloop_opts *o)
{
    const scheme_backend *be = in->be;
    const double t_end = o->t_end > 0 ? o->t_end : stops[n_stops - 1];
    const double dt_floor = TIMELOOP_COLLAPSE * t_end;
    const int stages = be->stages(in->self);
    double t = in->t_start, t0 = cpu_seconds(), paused = 0;
    progress_line pl = {in, progress, in->t_start, t_end, t0, t0, 0, 0, r, &paused, 1};
    long n = 0;
    swgl_status st = SWGL_OK;
    r->n_samples = 1;
    r->samples[0] = (timeloop_sample){t, 0, 0};
    r->dt_min = INFINITY;
    r->dt_max = 0;
    in->steps_run = 0;
    const int on_device = be->device && be->device->run_to &&
                          !(be->device->host_clock && be->device->host_clock(in->self)) && !in->after_step && !(o->max_steps > 0) &&
                          !in->host_clock;
    for (int s = 0; s < n_stops && st == SWGL_OK; s++) {
        const double stop = stops[s];
        if (on_device && t < stop) {
            timeloop_span sp = {0, t, INFINITY, 0, NAN, tick, &pl, in->stop_flag, in->clock_every};
            pl.base = n;
            st = be->device->run_to(in->self, t, stop, o->stop_base + s, dt_floor, &sp);
            if (st == SWGL_ERR_BLOWUP) blowup(in, sp.t, n + sp.steps, sp.bound);
            n += sp.steps;
            in->steps_run = n;
            t = sp.t;
            r->dt_min = fmin(r->dt_min, sp.dt_min);
            r->dt_max = fmax(r->dt_max, sp.dt_max);
            if (st == SWGL_ERR_INTERRUPTED) st = interrupted(in, t, n);
            if (st != SWGL_OK) goto done;
        }
        while (t < stop) {
            double bound, dt;
            if (o->max_steps > 0 && n >= o->max_steps) goto done;
            if (stopped(in)) {
                st = interrupted(in, t, n);
                goto done;
            }
            if (be->forcing) be->forcing->set_time(in->self, t, stop);
            if ((st = be->stage(in->self, 0, &bound)) != SWGL_OK) goto done;
            if (swgl_step_blown(bound, dt_floor)) {
                st = blowup(in, t, n, bound);
                goto done;
            }
            double left = stop - t;
            /* within a relative 1e-9 of the bound, the bound itself lands on the stop (the
             * rest is rounding of t): the step never exceeds the bound */
            int last = swgl_step_lands(bound, left, TIMELOOP_LAND_SLACK);
            dt = swgl_step_dt(bound, left, TIMELOOP_LAND_SLACK);
            if ((st = be->advance(in->self, 0, dt)) != SWGL_OK) goto done;
            for (int k = 1; k < stages; k++) {
                double b2;
                if ((st = be->stage(in->self, k, &b2)) != SWGL_OK) goto done;
                if (isnan(b2)) {
                    st = blowup(in, t, n, b2);
                    goto done;
                }
                if ((st = be->advance(in->self, k, dt)) != SWGL_OK) goto done;
            }
            t = last ? stop : t + dt;
            n++;
            in->steps_run = n;
            if (in->after_step && (st = in->after_step(in->after_step_user, t, in)) != SWGL_OK) goto done;
            if (dt < r->dt_min) r->dt_min = dt;
            if (dt > r->dt_max) r->dt_max = dt;
            show(&pl, t, n, dt);
        }
        if (fn && s < n_stops - 1) {
            if (be->finish) be->finish(in->self);
            double p0 = cpu_seconds();
            st = fn(user, t, in);
            paused += cpu_seconds() - p0;
        }
    }
done:
    if (be->finish) be->finish(in->self);
    if (progress == TIMELOOP_PROGRESS_TTY) fprintf(stderr, "\r%*s\r", 140, "");
    r->steps = n;
    r->t = t;
    r->wall = cpu_seconds() - t0 - paused;
    if (r->samples[r->n_samples - 1].t < t || r->samples[r->n_samples - 1].steps < n) {
        if (r->n_samples == TIMELOOP_SAMPLES + 2) r->n_samples--;
        r->samples[r->n_samples++] = (timeloop_sample){t, r->wall, n};
    }
    return st;
}
