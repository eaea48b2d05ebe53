/* sim_step.c — a sim's time (swgl.h): run_to and step through the one time loop
 * (scheme.h timeloop_run_opts), a span at a time from the current time to the target, over
 * the scenario's stops in between (sim.c make_stops); the observers at each step and stop;
 * stop requests.  What a span landed on is kept for the comparison at the finish. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"
#include "scheme_mpi.h"

/* ---- stepping ---------------------------------------------------------------------------- */

swgl_status sim_notify(swgl_sim *sim, unsigned mask, double t, int which)
{
    for (int k = 0; k < sim->n_obs; k++) {
        sim_observer *o = &sim->obs[k];
        unsigned hit = o->events & mask;
        if (!hit || (which == NOTIFY_PUBLIC && o->builtin) || (which == NOTIFY_BUILTIN && !o->builtin)) continue;
        swgl_status st = o->fn(sim, (swgl_event)(hit & (~hit + 1)), t, o->builtin ? sim : o->user);
        if (st != SWGL_OK) {
            sim->observer_stopped = !o->builtin;
            if (!swgl_last_error()[0]) swgl_fail(st, "an observer stopped the run at t = %.9g s: %s", t, swgl_strerror(st));
            return st;
        }
    }
    return SWGL_OK;
}

static int step_observers(const swgl_sim *sim)
{
    for (int k = 0; k < sim->n_obs; k++)
        if (sim->obs[k].events & SWGL_EVENT_STEP) return 1;
    return 0;
}

/* after every step (scheme_inst after_step): the gauges sampled every step, the flood maps
 * of a backend that does not keep them, and the observers of each step */
static swgl_status after_step(void *user, double t, scheme_inst *in)
{
    swgl_sim *sim = user;
    (void)in;
    sim->state_ok = 0;
    sim->t = t;
    sim->steps = sim->span_base + sim->in.steps_run;
    swgl_status st = sim_notify(sim, SWGL_EVENT_STEP, t, NOTIFY_ALL);
    return sim_agree(sim, st);   /* (a gauge line that failed on one rank stops them all) */
}

/* at the scenario's stops before a span's last: its kind's outputs; over MPI ranks every
 * rank stops here alike and agrees on the outcome */
static swgl_status at_stop(swgl_sim *sim, double t, int last)
{
    int kind = sim->next_stop < sim->n_stops ? sim->kinds[sim->next_stop] : 0;
    sim->next_stop++;
    sim->state_ok = 0;
    sim->t = t;
    sim->steps = sim->span_base + sim->in.steps_run;
    swgl_status st = SWGL_OK;
    /* an output time at t_end where a span ends: its grids are written by the finish from the
     * final state, in the order the files always had, unless the run goes on past t_end
     * first; within a span (a run_to past t_end) they are written as any stop's */
    int end = last && sim->next_stop == sim->n_stops && (kind & STOP_OUTPUT);
    if (end) sim->end_pending = 1;
    st = sim_notify(sim, (unsigned)kind, t, end ? NOTIFY_PUBLIC : NOTIFY_ALL);
    return sim_agree(sim, st);
}

static swgl_status on_stop(void *user, double t, scheme_inst *in)
{
    (void)in;
    return at_stop(user, t, 0);
}

/* The scenario's stops at the current time not yet taken (a step that landed on one and
 * whose observer ended the run before the stop's outputs): taken now; for_finish, as the
 * last stop of a span (an output time at t_end is the finish's). */
static swgl_status catch_up(swgl_sim *sim, int for_finish)
{
    swgl_status st = SWGL_OK;
    while (st == SWGL_OK && sim->next_stop < sim->n_stops && sim->stops[sim->next_stop] <= sim->t &&
           sim->t > sim->t0)
        st = at_stop(sim, sim->t, for_finish);
    return st;
}

swgl_status sim_catch_up_finish(swgl_sim *sim) { return catch_up(sim, 1); }

/* a flag every rank agrees on (its largest value) */
static int agreed_flag(const swgl_sim *sim, int v) { return sim->alone ? v : swgl_mpi_max((double)v) > 0; }

static swgl_status add_landed(swgl_sim *sim, double t)
{
    if (sim->n_landed == sim->cap_landed) {
        int cap = sim->cap_landed ? 2 * sim->cap_landed : 64;
        double *l = realloc(sim->landed, (size_t)cap * sizeof *l);
        if (!l) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
        sim->landed = l;
        sim->cap_landed = cap;
    }
    sim->landed[sim->n_landed++] = t;
    return SWGL_OK;
}

/* a span's result added to the run's */
static void add_span(swgl_sim *sim, const timeloop_result *rr)
{
    timeloop_result *r = &sim->r;
    if (sim->n_spans++ == 0) {
        *r = *rr;   /* (its first sample is the start) */
    } else {
        double w0 = r->wall;
        long s0 = r->steps;
        for (int k = 1; k < rr->n_samples; k++) {
            timeloop_sample x = {rr->samples[k].t, w0 + rr->samples[k].wall, s0 + rr->samples[k].steps};
            if (r->n_samples < TIMELOOP_SAMPLES + 2) r->samples[r->n_samples++] = x;
            else r->samples[r->n_samples - 1] = x;
        }
        r->steps += rr->steps;
        r->wall += rr->wall;
        r->dt_min = fmin(r->dt_min, rr->dt_min);
        r->dt_max = fmax(r->dt_max, rr->dt_max);
        r->t = rr->t;
    }
    r->precision = sim->precision;
    sim->steps = r->steps;
}

/* The time loop from now to t (max_steps: at most that many steps, 0 no limit). */
static swgl_status advance_to(swgl_sim *sim, double t, long max_steps)
{
    swgl_status st = sim_fail_if_finished(sim, "swgl_sim_run_to");
    if (st != SWGL_OK || sim->idle) return st;
    swgl_clear_error();
    if (sim->busy) return swgl_fail(SWGL_ERR_ARG, "swgl_sim_run_to: called from an observer of the same sim");
    if (sim->failed) return swgl_fail(SWGL_ERR_ARG, "swgl_sim_run_to: the sim stopped on an error at t = %.9g s", sim->t);
    /* (over MPI ranks a request seen by one rank is every rank's) */
    if (sim->interrupted || agreed_flag(sim, sim->stop_req)) {
        if (!sim->interrupted) sim->interrupted = timeloop_stop_requested() ? timeloop_stop_requested() : -1;
        return swgl_fail(SWGL_ERR_INTERRUPTED, "%s: stopped on request at t = %.9g s", sim->solver, sim->t);
    }
    if (!isfinite(t)) return swgl_fail(SWGL_ERR_ARG, "swgl_sim_run_to(%g): expected a finite time (s)", t);
    if (t < sim->t)
        return swgl_fail(SWGL_ERR_ARG, "swgl_sim_run_to(%.9g): the sim is at t = %.9g s already (no stepping back)", t,
                         sim->t);
    if (t == sim->t) return SWGL_OK;
    if ((st = catch_up(sim, 0)) != SWGL_OK) return st;
    if (sim->end_pending) {   /* going past t_end: the output time there written now */
        sim->end_pending = 0;
        if ((st = sim_agree(sim, sim_notify(sim, STOP_OUTPUT, sim->t, NOTIFY_BUILTIN))) != SWGL_OK) return st;
    }
    /* the scenario's stops up to t, then t */
    int first = sim->next_stop, n = 0;
    while (first + n < sim->n_stops && sim->stops[first + n] <= t) n++;
    int extra = !(n > 0 && sim->stops[first + n - 1] == t);
    double *list = malloc((size_t)(n + 1) * sizeof *list);
    unsigned char *only = calloc((size_t)(n + 1), 1);
    if (!list || !only) {
        free(list);
        free(only);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    }
    /* the stops where only the gauges are sampled (the gauges' observer alone: its event
     * is no public observer's), which the device may land on by itself (timeloop_opts) */
    for (int k = 0; k < n && sim->gauges.f && sim->gauges.n > 0; k++) only[k] = sim->kinds[first + k] == STOP_GAUGE;
    memcpy(list, sim->stops + first, (size_t)n * sizeof *list);
    if (extra) list[n] = t;
    int nl = n + extra;
    sim->in.t_start = sim->t;
    sim->in.after_step = step_observers(sim) ? after_step : NULL;
    sim->in.after_step_user = sim;
    timeloop_result rr;
    memset(&rr, 0, sizeof rr);
    /* (the stops are numbered within the span: the device's clock starts afresh each span) */
    timeloop_opts o = {fmax(sim->s.t_end, t), 0, max_steps, only, sim->gauges.cells, sim->gauges.n};
    sim->state_ok = 0;
    sim->span_base = sim->steps;
    sim->observer_stopped = 0;
    sim->busy = 1;
    st = timeloop_run_opts(&sim->in, list, nl, sim->progress, on_stop, sim, &rr, &o);
    sim->busy = 0;
    add_span(sim, &rr);
    sim->t = rr.t;
    /* the times landed on (at_stop took the stops before the last), and where the span ended
     * (a step, an observer's stop): the comparison lands on them all */
    for (int k = 0; k < nl && list[k] <= rr.t; k++)
        if (add_landed(sim, list[k]) != SWGL_OK) break;
    if (rr.t > (sim->n_landed ? sim->landed[sim->n_landed - 1] : sim->t0)) add_landed(sim, rr.t);
    /* the last stop of the span, when it is one of the scenario's and was reached */
    if (st == SWGL_OK && !extra && rr.t == list[nl - 1]) {
        sim->busy = 1;
        st = at_stop(sim, rr.t, 1);
        sim->busy = 0;
    }
    free(list);
    free(only);
    sim->observer_stopped = agreed_flag(sim, sim->observer_stopped);
    /* a stop request ends the stepping for good; an observer's status ends this run_to (the
     * state is whole: its step was done); anything else (a blow-up, a GL error) ends it all */
    if (st == SWGL_ERR_INTERRUPTED && !sim->observer_stopped)
        sim->interrupted = timeloop_stop_requested() ? timeloop_stop_requested() : -1;
    else if (st != SWGL_OK && !sim->observer_stopped) sim->failed = 1;
    return st;
}

SWGL_API swgl_status swgl_sim_run_to(swgl_sim *sim, double t) { return advance_to(sim, t, 0); }

SWGL_API swgl_status swgl_sim_step(swgl_sim *sim)
{
    swgl_status st = sim_fail_if_finished(sim, "swgl_sim_step");
    if (st != SWGL_OK || sim->idle) return st;
    if (!sim->busy && (st = catch_up(sim, 0)) != SWGL_OK) return st;
    if (!(sim->t < sim->s.t_end))
        return swgl_fail(SWGL_ERR_ARG, "swgl_sim_step: the sim is at t_end = %.9g s (run_to goes further)", sim->s.t_end);
    double target = sim->next_stop < sim->n_stops ? sim->stops[sim->next_stop] : sim->s.t_end;
    return advance_to(sim, target, 1);
}

SWGL_API void swgl_sim_request_stop(swgl_sim *sim)
{
    if (sim) sim->stop_req = 1;
}

SWGL_API swgl_status swgl_sim_observe(swgl_sim *sim, unsigned events, swgl_observer_fn fn, void *user)
{
    swgl_status st = sim_fail_if_finished(sim, "swgl_sim_observe");
    if (st != SWGL_OK) return st;
    if (!fn) return swgl_fail(SWGL_ERR_ARG, "swgl_sim_observe: no function (NULL)");
    if (!events || (events & ~(unsigned)(SWGL_EVENT_STEP | SWGL_EVENT_OUTPUT | SWGL_EVENT_FINISH)))
        return swgl_fail(SWGL_ERR_ARG, "swgl_sim_observe: events 0x%x: expected SWGL_EVENT_STEP, _OUTPUT, _FINISH or'ed",
                         events);
    if (sim->n_obs == SIM_MAX_OBSERVERS)
        return swgl_fail(SWGL_ERR_ARG, "swgl_sim_observe: at most %d observers", SIM_MAX_OBSERVERS);
    sim->obs[sim->n_obs++] = (sim_observer){events, fn, user, 0};
    return SWGL_OK;
}

swgl_status sim_observe_builtin(swgl_sim *sim, unsigned events, swgl_observer_fn fn)
{
    if (sim->n_obs == SIM_MAX_OBSERVERS) return swgl_fail(SWGL_ERR_ARG, "too many observers");
    sim->obs[sim->n_obs++] = (sim_observer){events, fn, NULL, 1};
    return SWGL_OK;
}

