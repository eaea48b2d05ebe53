/* test_timeloop.c — the one time loop (solver/schemes/core/timeloop.c) on a backend made up
 * for the test: one cell, dq/dt = -q, with a stability bound the test chooses.  No GL.
 *  - Euler (one stage) and the TVD RK2 of Brodtkorb et al. (7) (two stages) give the
 *    closed-form discrete solutions (1 - dt)^n and (1 - dt + dt^2/2)^n;
 *  - every stop (output times, t_end) is landed on exactly, the callback sees each one,
 *    and no step exceeds the bound;
 *  - a NaN bound, a zero bound and a bound that collapses are SWGL_ERR_BLOWUP with the
 *    last good time and the step in the message. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "scheme.h"

typedef struct fake {
    int stages;
    double q, q0, qs;       /* state, the state at the step's start, the stage value */
    double bound;           /* what stage(0) returns */
    double nan_at;          /* stage(0) returns NaN once t reaches this (t counted here) */
    double t, dt_biggest_over_bound;
    long calls;
} fake;

static swgl_status f_stage(void *self, int k, double *b)
{
    fake *f = self;
    *b = (k == 0 && f->t >= f->nan_at) ? NAN : f->bound;
    return SWGL_OK;
}

static swgl_status f_advance(void *self, int k, double dt)
{
    fake *f = self;
    if (dt / f->bound > f->dt_biggest_over_bound) f->dt_biggest_over_bound = dt / f->bound;
    if (k == 0) {
        f->q0 = f->q;
        f->q = f->q - dt * f->q;                     /* Q* = Q + dt L(Q) */
        if (f->stages == 1) f->t += dt;
    } else {
        f->q = 0.5 * (f->q0 + f->q - dt * f->q);     /* (Q + Q* + dt L(Q*)) / 2 */
        f->t += dt;
    }
    f->calls++;
    return SWGL_OK;
}

static int f_stages(const void *self) { return ((const fake *)self)->stages; }

static const scheme_backend fake_backend = {.backend = BACKEND_CPU_SCALAR, .stage = f_stage, .advance = f_advance,
                                            .stages = f_stages};

static int stops_seen;
static double stop_times[8];

static swgl_status on_stop(void *user, double t, scheme_inst *in)
{
    (void)user;
    (void)in;
    if (stops_seen < 8) stop_times[stops_seen] = t;
    stops_seen++;
    return SWGL_OK;
}

static void run(int stages)
{
    fake f = {.stages = stages, .q = 1.0, .bound = 0.01, .nan_at = INFINITY};
    scheme_inst in = {.be = &fake_backend, .self = &f, .name = "fake"};
    double stops[3] = {0.255, 0.5, 1.0};
    timeloop_result r;
    stops_seen = 0;
    swgl_status st = timeloop_run(&in, stops, 3, 0, on_stop, NULL, &r);
    CHECK(st == SWGL_OK, "%s: runs (%s)", stages == 1 ? "Euler" : "RK2", swgl_last_error());
    CHECK(r.t == 1.0, "%s: ends exactly at t_end (t = %.17g)", stages == 1 ? "Euler" : "RK2", r.t);
    CHECK(stops_seen == 2 && stop_times[0] == 0.255 && stop_times[1] == 0.5,
          "%s: the callback sees the output times exactly (%d: %.17g, %.17g)", stages == 1 ? "Euler" : "RK2",
          stops_seen, stop_times[0], stop_times[1]);
    /* 0.255 = 25 steps of 0.01 and one of 0.005; 0.5 = 24 steps and one of 0.005 more;
     * 1.0 = 50 steps: 101 steps, the short ones exactly where the stops need them */
    CHECK(r.steps == 101, "%s: 101 steps (25 + 1 + 24 + 1 + 50), took %ld", stages == 1 ? "Euler" : "RK2", r.steps);
    CHECK_LE(f.dt_biggest_over_bound, 1.0, "%s: no step exceeds the bound", stages == 1 ? "Euler" : "RK2");
    double a = stages == 1 ? 1 - 0.01 : 1 - 0.01 + 0.5e-4, b = stages == 1 ? 1 - 0.005 : 1 - 0.005 + 0.125e-4;
    double want = pow(a, 99) * pow(b, 2);
    /* 101 multiplications in double: a few ulps */
    CHECK_NEAR(f.q, want, 1e-13, "%s: q(1) = closed form of the discrete scheme (%.15f)", stages == 1 ? "Euler" : "RK2",
               want);
    CHECK(f.calls == (long)stages * 101, "%s: %d advance calls per step", stages == 1 ? "Euler" : "RK2", stages);
}

static void blowups(void)
{
    double stop = 1.0;
    timeloop_result r;
    fake f = {.stages = 1, .q = 1.0, .bound = 0.01, .nan_at = 0.3};
    scheme_inst in = {.be = &fake_backend, .self = &f, .name = "fake"};
    swgl_status st = timeloop_run(&in, &stop, 1, 0, NULL, NULL, &r);
    CHECK(st == SWGL_ERR_BLOWUP && fabs(r.t - 0.3) < 1e-12 && strstr(swgl_last_error(), "NaN") &&
              strstr(swgl_last_error(), "t = 0.3"),
          "a NaN bound after t = 0.3: SWGL_ERR_BLOWUP at the last good time: \"%s\"", swgl_last_error());
    fake z = {.stages = 1, .q = 1.0, .bound = 0.0, .nan_at = INFINITY};
    in.self = &z;
    st = timeloop_run(&in, &stop, 1, 0, NULL, NULL, &r);
    CHECK(st == SWGL_ERR_BLOWUP && r.t == 0.0 && r.steps == 0, "a zero bound is a blow-up at t = 0: \"%s\"",
          swgl_last_error());
    /* a bound below TIMELOOP_COLLAPSE t_end (1e-9 s here) would need a billion steps */
    fake c = {.stages = 1, .q = 1.0, .bound = 1e-10, .nan_at = INFINITY};
    in.self = &c;
    st = timeloop_run(&in, &stop, 1, 0, NULL, NULL, &r);
    CHECK(st == SWGL_ERR_BLOWUP && strstr(swgl_last_error(), "collapsed"),
          "a bound of 1e-10 s for t_end = 1 s is a collapse: \"%s\"", swgl_last_error());
    fake ok = {.stages = 1, .q = 1.0, .bound = 2e-9, .nan_at = INFINITY};
    double short_stop = 1e-6;
    in.self = &ok;
    st = timeloop_run(&in, &short_stop, 1, 0, NULL, NULL, &r);
    CHECK(st == SWGL_OK && r.steps == 500, "a bound of 2e-9 s for t_end = 1e-6 s is fine (%ld steps)", r.steps);
    /* nothing moves: +inf bound, one step to each stop */
    fake still = {.stages = 1, .q = 0.0, .bound = INFINITY, .nan_at = INFINITY};
    in.self = &still;
    st = timeloop_run(&in, &stop, 1, 0, NULL, NULL, &r);
    CHECK(st == SWGL_OK && r.steps == 1 && r.t == 1.0, "an infinite bound (nothing moves) takes one step to t_end");
}

int main(void)
{
    run(1);
    run(2);
    blowups();
    return check_done();
}
