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
 * and then a sliver of a step: the two paths can then differ by one step.
 * A run of stops at which the stop callback only samples the gauges (timeloop_opts
 * sample_only) goes to such a backend at once where it offers run_stops: the device's clock
 * lands on each in turn by itself and keeps the gauges' values there, and the callback is
 * called for each stop after the span, scheme_sample giving what the device kept.
 * With [run] step_hold > 1 the step is held over windows of steps (below: held_step,
 * held_window); run_to is then not used (the device clock has a bound a step). */
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
#define TIMELOOP_SPAN_STOPS 4096   /* the most stops of a span of run_stops (the device keeps a row each) */

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

/* a device span's steps into the loop's count, time and step range (the blow-up's message
 * worded, with the run's step) */
static void span_taken(scheme_inst *in, swgl_status st, const timeloop_span *sp, long *n, double *t, timeloop_result *r)
{
    if (st == SWGL_ERR_BLOWUP) blowup(in, sp->t, *n + sp->steps, sp->bound);
    *n += sp->steps;
    in->steps_run = *n;
    *t = sp->t;
    r->dt_min = fmin(r->dt_min, sp->dt_min);
    r->dt_max = fmax(r->dt_max, sp->dt_max);
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

/* ---- the held step ([run] step_hold > 1) ------------------------------------------------
 *
 * A window of up to `hold` steps takes one step, dt_w = margin x the bound of the state it
 * begins from, for every step of it while that step's own bound allows it (dt <= bound);
 * a step whose bound does not cuts the window short and begins one, as does the step after
 * a stop.  Every step thus keeps within its own bound, as with a bound a step, and only a
 * window's first bound is needed before its steps are taken.  On the host clock (every
 * bound read back: the CPU backends, step observers, tune host_clock) the rule goes step
 * by step (held_step); with the backend's hold ops (held_window) a window's steps are
 * taken with their bounds left on the device, read back together at its end, and where
 * one falls short the backend goes back to the state saved at the window's start and the
 * steps before that one are taken again: the same steps, bit for bit, as step by step.
 * The window (its step, the steps left in it) is the instance's, across calls and paths.
 * Over MPI ranks every bound is the ranks' least, so one rank and P ranks take the same
 * steps. */

/* the step's held dt (in->held_dt) before a step whose bound is known: the window's while
 * it has steps left and the bound allows it, else a window begins */
static double held_step(scheme_inst *in, double bound, double left)
{
    if (in->held_n > 0) {
        if (!(swgl_step_dt(in->held_dt, left, TIMELOOP_LAND_SLACK) > bound)) {
            in->held_n--;
            return in->held_dt;
        }
        in->held_cut++;
    }
    in->held_windows++;
    in->held_dt = in->margin * bound;
    in->held_n = in->hold - 1;
    return in->held_dt;
}

/* a step of a window on the device: set_time (unless stage 0 has run: first), its stages
 * (quiet: bound into slot j x stages + k), its advances */
static swgl_status held_take(scheme_inst *in, int j, int stages, int first, double t, double stop, double dt)
{
    const scheme_backend *be = in->be;
    swgl_status st = SWGL_OK;
    if (!first) {
        if (be->forcing) be->forcing->set_time(in->self, t, stop);
        st = be->hold->stage_quiet(in->self, 0, j * stages);
    }
    if (st == SWGL_OK) st = be->advance(in->self, 0, dt);
    for (int k = 1; k < stages && st == SWGL_OK; k++) {
        st = be->hold->stage_quiet(in->self, k, j * stages + k);
        if (st == SWGL_OK) st = be->advance(in->self, k, dt);
    }
    return st;
}

/* The steps of a window (or the rest of one) from *tp towards stop, on the device. */
static swgl_status held_window(scheme_inst *in, double stop, double dt_floor, int stages, double *tp, long *np,
                               timeloop_result *r, progress_line *pl)
{
    const scheme_backend *be = in->be;
    const double t0 = *tp;
    const long n0 = *np;
    double t = t0, bound, dts[SCENARIO_STEP_HOLD_MAX], b[SCHEME_HOLD_SLOTS];
    int left_before[SCENARIO_STEP_HOLD_MAX];   /* in->held_n before step j */
    swgl_status st = be->hold->save(in->self);
    if (st != SWGL_OK) return st;
    if (be->forcing) be->forcing->set_time(in->self, t, stop);
    if ((st = be->stage(in->self, 0, &bound)) != SWGL_OK) return st;
    if (swgl_step_blown(bound, dt_floor)) return blowup(in, t, n0, bound);
    int taken = 0, last = 0;
    for (int j = 0; j < SCENARIO_STEP_HOLD_MAX && !last; j++) {
        if (j > 0 && in->held_n == 0) break;   /* (the window is over: the next begins with its bound known) */
        left_before[j] = in->held_n;
        double hb = j == 0 ? held_step(in, bound, stop - t) : (in->held_n--, in->held_dt);
        last = swgl_step_lands(hb, stop - t, TIMELOOP_LAND_SLACK);
        dts[j] = swgl_step_dt(hb, stop - t, TIMELOOP_LAND_SLACK);
        if ((st = held_take(in, j, stages, j == 0, t, stop, dts[j])) != SWGL_OK) return st;
        t = last ? stop : t + dts[j];
        taken++;
    }
    if (last) in->held_n = 0;   /* (a window ends on a stop) */
    if ((st = be->hold->bounds(in->self, taken * stages, b)) != SWGL_OK) return st;
    /* the first step its own bound does not allow (a NaN: none does), or whose later stage
     * met a NaN (a blow-up within it) */
    int v = taken, blown = 0;
    for (int j = 0; j < taken && v == taken; j++) {
        if (j > 0 && (!(dts[j] <= b[j * stages]) || b[j * stages] < dt_floor)) v = j;   /* (a collapse: the next
                                                                                          * window's first step says so) */
        for (int k = 1; k < stages && v == taken; k++)
            if (isnan(b[j * stages + k])) v = j, blown = 1;
    }
    if (v < taken) {   /* back to the window's start, and its steps before v again */
        if ((st = be->hold->restore(in->self)) != SWGL_OK) return st;
        in->held_redone += v;
        t = t0;
        for (int j = 0; j < v && st == SWGL_OK; j++) {
            st = held_take(in, j, stages, 0, t, stop, dts[j]);
            t = t + dts[j];
        }
        /* as the rule step by step stands before step v (which its bound will cut short,
         * or a blow-up ends) */
        in->held_n = left_before[v];
        taken = v;
        /* (over ranks: an error of a retaken step agreed now, as bounds agrees a window's) */
        if (st == SWGL_OK) st = be->hold->bounds(in->self, 0, b);
        if (st == SWGL_OK && blown) st = blowup(in, t, n0 + v, NAN);
    }
    for (int j = 0; j < taken; j++) {
        if (dts[j] < r->dt_min) r->dt_min = dts[j];
        if (dts[j] > r->dt_max) r->dt_max = dts[j];
    }
    *np = n0 + taken;
    in->steps_run = *np;
    *tp = t;
    if (taken) show(pl, t, *np, dts[taken - 1]);
    return st;
}

swgl_status timeloop_run(scheme_inst *in, const double *stops, int n_stops, int progress, timeloop_stop_fn fn,
                         void *user, timeloop_result *r)
{
    timeloop_opts o = {stops[n_stops - 1], 0, 0, NULL, NULL, 0};
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
    const int hold = in->hold > 1 ? in->hold : 1;
    /* the held step without a read-back a step (the backend's hold ops, no step observer) */
    const int quiet = hold > 1 && be->hold && be->hold->able(in->self) && !in->after_step && !(o->max_steps > 0) &&
                      !in->host_clock && stages * hold <= SCHEME_HOLD_SLOTS;
    const int on_device = hold == 1 && be->device && be->device->run_to &&
                          !(be->device->host_clock && be->device->host_clock(in->self)) && !in->after_step && !(o->max_steps > 0) &&
                          !in->host_clock;
    /* runs of stops where the callback only samples the gauges, landed on by the device by
     * itself (run_stops; its tune clock_gauges), the callback called for each after */
    const scheme_device_ops *dv = be->device;
    const int by_stops = on_device && fn && o->sample_only && o->n_cells > 0 && in->clock_gauges && dv->run_stops &&
                         dv->sample_stop && dv->can_run_stops && dv->can_run_stops(in->self);
    for (int s = 0; s < n_stops && st == SWGL_OK; s++) {
        if (by_stops && t < stops[s] && s < n_stops - 1 && o->sample_only[s]) {
            /* stops s .. e - 1 sample the gauges only; e ends the span (any stop) */
            int e = s + 1;
            while (e < n_stops - 1 && o->sample_only[e] && e - s < TIMELOOP_SPAN_STOPS - 1) e++;
            timeloop_span sp = {0, t, INFINITY, 0, NAN, tick, &pl, in->stop_flag, in->clock_every, 0};
            pl.base = n;
            st = dv->run_stops(in->self, t, stops + s, e - s + 1, o->stop_base + s, dt_floor, o->cells, o->n_cells, &sp);
            span_taken(in, st, &sp, &n, &t, r);
            /* the stops landed on before the span's end, in turn, with what the device kept
             * there (scheme_sample gives it while in->replay names the stop) */
            swgl_status sc = SWGL_OK;
            double p0 = cpu_seconds();
            for (int k = s; k < e && k - s < sp.landed && sc == SWGL_OK; k++) {
                in->replay = k - s + 1;
                sc = fn(user, stops[k], in);
                in->replay = 0;
            }
            paused += cpu_seconds() - p0;
            if (st == SWGL_ERR_INTERRUPTED) st = interrupted(in, t, n);
            if (st == SWGL_OK) st = sc;
            if (st != SWGL_OK) goto done;
            s = e;   /* (the span's end: landed on; its callback below) */
        }
        const double stop = stops[s];
        if (on_device && t < stop) {
            timeloop_span sp = {0, t, INFINITY, 0, NAN, tick, &pl, in->stop_flag, in->clock_every, 0};
            pl.base = n;
            st = be->device->run_to(in->self, t, stop, o->stop_base + s, dt_floor, &sp);
            span_taken(in, st, &sp, &n, &t, r);
            if (st == SWGL_ERR_INTERRUPTED) st = interrupted(in, t, n);
            if (st != SWGL_OK) goto done;
        }
        while (quiet && t < stop && st == SWGL_OK) {
            if (stopped(in)) {
                st = interrupted(in, t, n);
                goto done;
            }
            st = held_window(in, stop, dt_floor, stages, &t, &n, r, &pl);
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
            /* the held step while it is within this step's bound, else a window begins */
            double hb = hold > 1 ? held_step(in, bound, left) : bound;
            /* within a relative 1e-9 of the bound, the bound itself lands on the stop (the
             * rest is rounding of t): the step never exceeds the bound */
            int last = swgl_step_lands(hb, left, TIMELOOP_LAND_SLACK);
            dt = swgl_step_dt(hb, left, TIMELOOP_LAND_SLACK);
            if (last) in->held_n = 0;   /* (a window ends on a stop) */
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
