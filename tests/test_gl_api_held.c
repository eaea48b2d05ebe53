/* test_gl_api_held.c — issue 26: the held time step ([run] step_hold; timeloop.c) through
 * the public API.  Its window (its step, the steps left) is the sim's, whatever the calls:
 * steps one at a time (swgl_sim_step: the rule step by step on the host clock) and then
 * run_to (on the GPU the window's bounds stay on the device and it goes back where one falls
 * short) take the same steps as one run_to, to the bit, with the same windows and cuts; the
 * counts through swgl_sim_stat.  kp's dam break, whose bound dips near its drying fronts, on
 * gpu and gpu-compute (skips, 77, without an EGL device) and cpu-scalar. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "swgl.h"

static double stat(const swgl_sim *sim, const char *name)
{
    double v = NAN;
    if (swgl_sim_stat(sim, name, &v) != SWGL_OK) printf("stat %s: %s\n", name, swgl_last_error());
    return v;
}

/* one run of kp's dam break held 8 on b: `steps` steps one at a time first (0: none), then
 * run_to(t_end); its h, qx, qy (malloc'ed, *f), steps and counts (windows, cuts, steps taken
 * again); 0 where the backend has no device (skip), -1 on a failure */
typedef struct held_run {
    double *f[3];
    long steps;
    double windows, cut, again;
} held_run;

static int one(const char *b, int steps, held_run *r)
{
    const char *set[] = {"run.scheme=kp", "run.t_end=6", "run.step_hold=8", "output.maps=false", NULL};
    swgl_sim_desc d = {.case_name = "dambreak", .backend = b, .set = set, .tune = "gl_check=on"};
    swgl_sim *s = NULL;
    swgl_status st = swgl_sim_create(&d, &s);   /* (one GPU sim at a time in a process) */
    if (st == SWGL_ERR_NO_CONTEXT) return 0;
    if (!CHECK(st == SWGL_OK, "%s: create (%s)", b, swgl_last_error())) return -1;
    int ok = 1;
    for (int k = 0; k < steps && ok; k++) ok = swgl_sim_step(s) == SWGL_OK;
    ok = ok && swgl_sim_steps(s) == steps && swgl_sim_run_to(s, swgl_sim_t_end(s)) == SWGL_OK;
    CHECK(ok, "%s: %d steps one at a time, then run_to(t_end) (%s)", b, steps, swgl_last_error());
    int nx, ny;
    double dx, dy;
    swgl_sim_size(s, &nx, &ny, &dx, &dy);
    static const char *const names[3] = {"h", "qx", "qy"};
    for (int k = 0; k < 3; k++) {
        r->f[k] = malloc((size_t)nx * (size_t)ny * sizeof(double));
        ok = ok && r->f[k] && swgl_sim_field(s, names[k], r->f[k]) == SWGL_OK;
    }
    r->steps = swgl_sim_steps(s);
    r->windows = stat(s, "held_windows");
    r->cut = stat(s, "held_cut");
    r->again = stat(s, "held_retaken");
    swgl_sim_destroy(s);
    return ok ? 1 : -1;
}

/* returns 0 where the backend has no device (skip) */
static int backend(const char *b, size_t n)
{
    held_run a = {0}, s = {0};
    int ra = one(b, 0, &a);
    if (ra == 0) return 0;
    int rs = one(b, 101, &s);   /* (101: not a multiple of 8) */
    if (ra > 0 && rs > 0) {
        static const char *const names[3] = {"h", "qx", "qy"};
        for (int k = 0; k < 3; k++)
            CHECK(memcmp(a.f[k], s.f[k], n * sizeof(double)) == 0,
                  "%s: %s after 101 steps and run_to is one run_to's, bit for bit", b, names[k]);
        CHECK(a.steps == s.steps, "%s: the same steps (%ld, %ld)", b, a.steps, s.steps);
        CHECK(a.windows == s.windows && a.cut == s.cut && a.cut > 0 && a.windows * 8 >= (double)a.steps,
              "%s: the same windows (%g, %g) and cuts (%g, %g), windows of at most 8 steps", b, a.windows, s.windows,
              a.cut, s.cut);
        if (strncmp(b, "gpu", 3) == 0)
            CHECK(a.again > 0, "%s: run_to kept the bounds on the device and went back where one fell short (%g steps "
                  "again)", b, a.again);
        else
            CHECK(a.again == 0, "%s: the CPU reads every bound: no step taken again (%g)", b, a.again);
    }
    for (int k = 0; k < 3; k++) {
        free(a.f[k]);
        free(s.f[k]);
    }
    return 1;
}

int main(void)
{
    const size_t n = 200 * 200;   /* (the dam break's cells) */
    backend("cpu-scalar", n);
    if (!backend("gpu", n)) check_skip("no EGL device (the cpu-scalar part passed)");
    backend("gpu-compute", n);
    return check_done();
}
