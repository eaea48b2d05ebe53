/* test_api_sim.c — the public API's simulation (include/swgl.h) on the CPU backends: what
 * run_to, step, the fields, the observers, stop requests, finish and destroy promise.  It
 * includes swgl.h alone, as a user's program does. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "swgl.h"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) n = 0;
    if (s) s[n] = '\0';
    fclose(f);
    return s;
}

/* a number of summary.json ("key": value) */
static double json_number(const char *json, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = json ? strstr(json, pat) : NULL;
    return p ? strtod(p + strlen(pat), NULL) : NAN;
}

static swgl_sim *make(const char *casename, const char *backend, const char *const *set, const char *out)
{
    swgl_sim_desc d = {.case_name = casename, .backend = backend, .set = set, .out = out};
    swgl_sim *sim = NULL;
    if (swgl_sim_create(&d, &sim) != SWGL_OK) printf("create %s: %s\n", casename, swgl_last_error());
    return sim;
}

/* run_to lands on t exactly; t now returns at once; earlier is an error; past t_end runs on */
static void landing(void)
{
    swgl_sim *sim = make("dambreak", "cpu-scalar", NULL, NULL);
    if (!CHECK(sim != NULL, "create the dam break on cpu-scalar")) return;
    double t_end = swgl_sim_t_end(sim);
    CHECK(swgl_sim_time(sim) == 0 && swgl_sim_steps(sim) == 0, "a new sim is at t = 0 with no steps");
    CHECK(swgl_sim_run_to(sim, 0.3 * t_end) == SWGL_OK, "run_to(0.3 t_end)");
    CHECK(swgl_sim_time(sim) == 0.3 * t_end, "the time is exactly 0.3 t_end (%.17g)", swgl_sim_time(sim));
    long n = swgl_sim_steps(sim);
    CHECK(n > 0, "it took steps (%ld)", n);
    CHECK(swgl_sim_run_to(sim, 0.3 * t_end) == SWGL_OK && swgl_sim_steps(sim) == n,
          "run_to the current time returns at once, no step");
    CHECK(swgl_sim_run_to(sim, 0.1 * t_end) == SWGL_ERR_ARG && strstr(swgl_last_error(), "no stepping back"),
          "run_to an earlier time is an error: %s", swgl_last_error());
    CHECK(swgl_sim_run_to(sim, NAN) == SWGL_ERR_ARG, "run_to(NaN) is an error");
    CHECK(swgl_sim_run_to(sim, 1.5 * t_end) == SWGL_OK && swgl_sim_time(sim) == 1.5 * t_end,
          "run_to past t_end is allowed and lands (t = %.17g)", swgl_sim_time(sim));
    long before = swgl_sim_steps(sim);
    CHECK(swgl_sim_step(sim) == SWGL_ERR_ARG, "step past t_end is refused (run_to goes further)");
    CHECK(swgl_sim_steps(sim) == before, "and takes no step");
    swgl_sim_destroy(sim);
    swgl_sim_destroy(NULL);   /* NULL-safe */
}

/* A run in one call and one in pieces through the same stops take the same steps, to the bit
 * (the stops are where the steps land); a step at a time ends at the same state as run_to
 * through the times it reached. */
static void pieces(void)
{
    const char *set[] = {"run.output_times=0.5 1", NULL};
    swgl_sim *a = make("dambreak", "cpu-scalar", set, NULL), *b = make("dambreak", "cpu-scalar", set, NULL);
    if (!CHECK(a && b, "two dam breaks")) goto done;
    double t_end = swgl_sim_t_end(a);
    CHECK(swgl_sim_run_to(a, t_end) == SWGL_OK, "a: run_to(t_end) in one call");
    CHECK(swgl_sim_run_to(b, 0.5) == SWGL_OK && swgl_sim_run_to(b, 1.0) == SWGL_OK &&
          swgl_sim_run_to(b, t_end) == SWGL_OK, "b: run_to the output times, then t_end");
    CHECK(swgl_sim_steps(a) == swgl_sim_steps(b), "the same steps (%ld, %ld)", swgl_sim_steps(a), swgl_sim_steps(b));
    int nx, ny;
    swgl_sim_size(a, &nx, &ny, NULL, NULL);
    double *fa = malloc((size_t)nx * ny * sizeof(double)), *fb = malloc((size_t)nx * ny * sizeof(double));
    int same = fa && fb && swgl_sim_field(a, "h", fa) == SWGL_OK && swgl_sim_field(b, "h", fb) == SWGL_OK &&
               memcmp(fa, fb, (size_t)nx * ny * sizeof(double)) == 0;
    CHECK(same, "the same depths to the bit (tolerance 0: the same arithmetic in the same order)");
    free(fa);
    free(fb);
done:
    swgl_sim_destroy(a);
    swgl_sim_destroy(b);
}

/* fields: layout (row 0 the south), eta = bed + h, NaN outside the domain; set_field */
static void fields(void)
{
    /* a lake at rest over a bed rising to the east, with cells masked out in the north-west */
    const char *set[] = {"domain.nx=12", "domain.ny=8", "domain.dx=1", "domain.dy=1", "domain.bed=0.1*x",
                         "initial.eta=1", "domain.mask=x < 3 && y > 6 ? 0 : 1", NULL};
    swgl_sim_desc d = {.scenario = NULL, .case_name = "lake-at-rest", .backend = "cpu-scalar", .set = set};
    swgl_sim *sim = NULL;
    swgl_status st = swgl_sim_create(&d, &sim);
    if (!CHECK(st == SWGL_OK, "create a masked lake: %s", swgl_last_error())) return;
    int nx, ny;
    double dx, dy;
    swgl_sim_size(sim, &nx, &ny, &dx, &dy);
    CHECK(nx == 12 && ny == 8 && dx == 1 && dy == 1, "size %dx%d, %g x %g m", nx, ny, dx, dy);
    double *h = calloc((size_t)nx * ny, sizeof(double)), *eta = calloc((size_t)nx * ny, sizeof(double)),
           *bed = calloc((size_t)nx * ny, sizeof(double));
    CHECK(swgl_sim_field(sim, "h", h) == SWGL_OK && swgl_sim_field(sim, "eta", eta) == SWGL_OK &&
          swgl_sim_field(sim, "bed", bed) == SWGL_OK, "h, eta, bed");
    double worst = 0, vol = 0;
    int nan_ok = 1, layout_ok = 1;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            size_t k = (size_t)j * nx + i;
            double x = (i + 0.5) * dx, y = (j + 0.5) * dy;
            int out = x < 3 && y > 6;
            if (out) {
                nan_ok &= isnan(h[k]) && isnan(eta[k]) && isnan(bed[k]);
                continue;
            }
            layout_ok &= fabs(bed[k] - 0.1 * x) < 1e-12;   /* i eastward */
            worst = fmax(worst, fabs(eta[k] - (bed[k] + h[k])));
            vol += h[k] * dx * dy;
        }
    CHECK(nan_ok, "NaN in every field outside the domain (the north-west corner, j = 0 the south)");
    CHECK(layout_ok, "out[j*nx + i] is cell (i, j): the bed 0.1 x rises with i");
    CHECK_LE(worst, 1e-12, "eta = bed + h (rounding of one addition)");
    CHECK_NEAR(swgl_sim_volume(sim), vol, 1e-12 * vol, "the volume is sum h dx dy over the domain (rounding)");
    /* set_field: twice the depth, the volume doubles */
    for (size_t k = 0; k < (size_t)nx * ny; k++) h[k] = isnan(h[k]) ? NAN : 2 * h[k];
    CHECK(swgl_sim_set_field(sim, "h", h) == SWGL_OK, "set_field(h)");
    CHECK_NEAR(swgl_sim_volume(sim), 2 * vol, 1e-12 * vol, "the volume of the depths set (rounding)");
    h[3] = -1;
    CHECK(swgl_sim_set_field(sim, "h", h) == SWGL_ERR_ARG && strstr(swgl_last_error(), "depth"),
          "a negative depth is refused: %s", swgl_last_error());
    CHECK_NEAR(swgl_sim_volume(sim), 2 * vol, 1e-12 * vol, "and nothing changed");
    /* (a depth within run.h_dry below 0 is one kp's float GPU state carries and gives back:
     * taken; beyond it, refused naming the key) */
    h[3] = -0.5e-5;
    CHECK(swgl_sim_set_field(sim, "h", h) == SWGL_OK, "a depth 0.5 h_dry below 0 is taken: %s",
          swgl_last_error());
    h[3] = -2e-5;
    CHECK(swgl_sim_set_field(sim, "h", h) == SWGL_ERR_ARG && strstr(swgl_last_error(), "h_dry"),
          "a depth 2 h_dry below 0 is refused, naming run.h_dry: %s", swgl_last_error());
    CHECK(swgl_sim_field(sim, "speed", h) == SWGL_ERR_ARG && strstr(swgl_last_error(), "speed"),
          "an unknown field is refused by name: %s", swgl_last_error());
    CHECK(swgl_sim_set_field(sim, "bed", bed) == SWGL_ERR_ARG, "the bed is not set through set_field");
    free(h);
    free(eta);
    free(bed);
    swgl_sim_destroy(sim);
}

typedef struct counts {
    long steps, outputs, finishes, steps_seen_wrong;
    double last_output;
    swgl_sim *stop_at_step;   /* request a stop at step 5 */
} counts;

static swgl_status observer(swgl_sim *sim, swgl_event ev, double t, void *user)
{
    counts *c = user;
    if (ev == SWGL_EVENT_STEP && ++c->steps == 5 && c->stop_at_step) swgl_sim_request_stop(c->stop_at_step);
    if (ev == SWGL_EVENT_STEP && swgl_sim_steps(sim) != c->steps) c->steps_seen_wrong++;
    if (ev == SWGL_EVENT_STEP && swgl_sim_time(sim) != t) c->steps_seen_wrong++;
    if (ev == SWGL_EVENT_OUTPUT) c->outputs++, c->last_output = t;
    if (ev == SWGL_EVENT_FINISH) c->finishes++;
    return SWGL_OK;
}

/* fails once, at the first step past 0.2 s */
static swgl_status failing(swgl_sim *sim, swgl_event ev, double t, void *user)
{
    int *failed = user;
    (void)sim, (void)ev;
    if (t > 0.2 && !*failed) return *failed = 1, SWGL_ERR_IO;
    return SWGL_OK;
}

static void observers(void)
{
    const char *set[] = {"run.output_times=0.5 1 1.5", NULL};
    swgl_sim *sim = make("dambreak", "cpu", set, NULL);
    if (!CHECK(sim != NULL, "create on cpu")) return;
    counts c = {0};
    CHECK(swgl_sim_observe(sim, SWGL_EVENT_STEP | SWGL_EVENT_OUTPUT | SWGL_EVENT_FINISH, observer, &c) == SWGL_OK,
          "observe steps, outputs, finish");
    CHECK(swgl_sim_observe(sim, 0, observer, &c) == SWGL_ERR_ARG, "no events: refused");
    CHECK(swgl_sim_run_to(sim, 1.2) == SWGL_OK, "run_to(1.2)");
    CHECK(c.steps == swgl_sim_steps(sim), "one call a step (%ld, %ld steps)", c.steps, swgl_sim_steps(sim));
    CHECK(c.steps_seen_wrong == 0, "inside an observer, swgl_sim_steps and swgl_sim_time are the step's (%ld wrong)",
          c.steps_seen_wrong);
    CHECK(c.outputs == 2 && c.last_output == 1.0, "the output times 0.5 and 1 on the way (%ld, last %g)", c.outputs,
          c.last_output);
    CHECK(swgl_sim_finish(sim) == SWGL_OK && c.finishes == 1, "finish without a folder: the finish event once");
    CHECK(swgl_sim_run_to(sim, 2) == SWGL_ERR_ARG, "no stepping after finish: %s", swgl_last_error());
    swgl_sim_destroy(sim);

    sim = make("dambreak", "cpu-scalar", NULL, NULL);
    if (!sim) return;
    int failed = 0;
    CHECK(swgl_sim_observe(sim, SWGL_EVENT_STEP, failing, &failed) == SWGL_OK, "an observer that fails once after 0.2 s");
    CHECK(swgl_sim_run_to(sim, 1) == SWGL_ERR_IO, "its status stops the run: %s", swgl_last_error());
    CHECK(swgl_sim_time(sim) > 0.2 && swgl_sim_time(sim) < 1, "at the step it failed (t = %g)", swgl_sim_time(sim));
    CHECK(swgl_sim_run_to(sim, 1) == SWGL_OK && swgl_sim_time(sim) == 1,
          "the sim goes on from there: the step the observer saw was whole");
    swgl_sim_destroy(sim);
}

/* a stop request: run_to returns INTERRUPTED after the step; finish writes the state reached */
static void stop_request(const char *dir)
{
    char out[1024];
    snprintf(out, sizeof out, "%s/stopped", dir);
    swgl_sim *sim = make("dambreak", "cpu-scalar", NULL, out);
    if (!CHECK(sim != NULL, "create with a folder")) return;
    counts c = {0};
    c.stop_at_step = sim;
    swgl_sim_observe(sim, SWGL_EVENT_STEP, observer, &c);
    CHECK(swgl_sim_run_to(sim, swgl_sim_t_end(sim)) == SWGL_ERR_INTERRUPTED, "run_to stops on the request");
    CHECK(swgl_sim_steps(sim) == 5, "after the step that asked (%ld steps)", swgl_sim_steps(sim));
    double t = swgl_sim_time(sim), flag = 0;
    CHECK(swgl_sim_run_to(sim, swgl_sim_t_end(sim)) == SWGL_ERR_INTERRUPTED && swgl_sim_time(sim) == t,
          "a later run_to returns at once");
    CHECK(swgl_sim_stat(sim, "interrupted", &flag) == SWGL_OK && flag == 1, "stat interrupted = 1");
    CHECK(swgl_sim_finish(sim) == SWGL_OK, "finish writes the state reached: %s", swgl_last_error());
    char path[1100];
    snprintf(path, sizeof path, "%s/summary.json", out);
    char *js = slurp(path);
    CHECK(js && strstr(js, "\"interrupted\": true"), "summary.json says interrupted");
    CHECK_NEAR(json_number(js, "t_end"), t, 0, "and its t_end is the time reached (written as %%.17g)");
    CHECK(json_number(js, "steps") == 5, "5 steps");
    free(js);
    swgl_sim_destroy(sim);
}

/* destroy without finish leaves the folder as it was; a failed create leaves *sim NULL */
static void folder(const char *dir)
{
    char out[1024], path[1100];
    snprintf(out, sizeof out, "%s/kept", dir);
    snprintf(path, sizeof path, "%s/summary.json", out);
    swgl_sim *sim = make("dambreak", "cpu-scalar", NULL, out);
    if (!sim) return;
    CHECK(swgl_sim_run_to(sim, 0.5) == SWGL_OK && swgl_sim_finish(sim) == SWGL_OK, "a first run, finished at 0.5 s");
    swgl_sim_destroy(sim);
    char *first = slurp(path);
    CHECK(first && json_number(first, "t_end") == 0.5, "its summary.json (t_end 0.5)");
    sim = make("dambreak", "cpu-scalar", NULL, out);
    CHECK(sim && swgl_sim_run_to(sim, 1.0) == SWGL_OK, "a second run to 1 s");
    swgl_sim_destroy(sim);   /* no finish */
    char *second = slurp(path);
    CHECK(first && second && strcmp(first, second) == 0, "destroy without finish: the folder as it was");
    free(first);
    free(second);

    const char *bad[] = {"run.cfl=7", NULL};
    swgl_sim_desc d = {.case_name = "dambreak", .backend = "cpu-scalar", .set = bad, .out = out};
    sim = (swgl_sim *)&d;
    CHECK(swgl_sim_create(&d, &sim) == SWGL_ERR_INPUT && sim == NULL, "a bad key: SWGL_ERR_INPUT, *sim NULL");
    CHECK(strstr(swgl_last_error(), "cfl") != NULL, "the message names the key: %s", swgl_last_error());
    swgl_sim_desc d2 = {.case_name = "dambreak", .backend = "quantum"};
    CHECK(swgl_sim_create(&d2, &sim) == SWGL_ERR_ARG && sim == NULL && strstr(swgl_last_error(), "quantum"),
          "an unknown backend: %s", swgl_last_error());
    swgl_sim_desc d3 = {.case_name = "no-such-case", .backend = "cpu"};
    CHECK(swgl_sim_create(&d3, &sim) != SWGL_OK && sim == NULL && strstr(swgl_last_error(), "no-such-case"),
          "an unknown case: %s", swgl_last_error());
    swgl_sim_desc d4 = {.scenario = "/nonexistent/x.ini"};
    CHECK(swgl_sim_create(&d4, &sim) != SWGL_OK && sim == NULL && strstr(swgl_last_error(), "/nonexistent/x.ini"),
          "a missing file: %s", swgl_last_error());
    CHECK(swgl_sim_create(NULL, NULL) == SWGL_ERR_ARG, "no place for the sim: refused");
}

static int g_inner;   /* what the calls from inside an observer returned, or'ed */
static swgl_status reentrant(swgl_sim *sim, swgl_event ev, double t, void *user)
{
    (void)ev, (void)user;
    double *h = calloc(400 * 400, sizeof(double));
    g_inner |= swgl_sim_run_to(sim, t + 1) == SWGL_ERR_ARG ? 0 : 1;
    g_inner |= swgl_sim_step(sim) == SWGL_ERR_ARG ? 0 : 2;
    g_inner |= swgl_sim_finish(sim) == SWGL_ERR_ARG ? 0 : 4;
    g_inner |= swgl_sim_field(sim, "h", h) == SWGL_OK ? 0 : 8;   /* reading is allowed */
    g_inner |= swgl_sim_set_field(sim, "h", h) == SWGL_ERR_ARG ? 0 : 16;
    free(h);
    return SWGL_OK;
}

/* the edges: a finish with no step, a stop asked before any run_to, run_to past t_end over
 * the output time at t_end, the comparison after step(), observers that call back, the gauge
 * times with and without a folder */
static void edges(const char *dir)
{
    char out[1024], path[1100];
    const char *small[] = {"domain.nx=20", "domain.ny=20", "domain.dx=10", "domain.dy=10", "run.t_end=2",
                           "run.output_times=1 2", NULL};
    /* finish at once: the start written as the run's end */
    snprintf(out, sizeof out, "%s/nostep", dir);
    swgl_sim *sim = make("dambreak", "cpu-scalar", small, out);
    CHECK(sim && swgl_sim_finish(sim) == SWGL_OK, "finish with no step: %s", swgl_last_error());
    snprintf(path, sizeof path, "%s/summary.json", out);
    char *js = slurp(path);
    CHECK(js && json_number(js, "steps") == 0 && strstr(js, "\"precision\": \"double\""),
          "its summary.json: 0 steps, precision double");
    free(js);
    swgl_sim_destroy(sim);
    /* a stop asked before run_to: interrupted at the start */
    snprintf(out, sizeof out, "%s/stopfirst", dir);
    sim = make("dambreak", "cpu-scalar", small, out);
    if (sim) swgl_sim_request_stop(sim);
    CHECK(sim && swgl_sim_run_to(sim, 1) == SWGL_ERR_INTERRUPTED && swgl_sim_finish(sim) == SWGL_OK,
          "a stop asked before run_to: INTERRUPTED, then finish");
    snprintf(path, sizeof path, "%s/summary.json", out);
    js = slurp(path);
    CHECK(js && strstr(js, "\"interrupted\": true") && json_number(js, "t_planned") == 2,
          "summary.json: interrupted, t_planned 2");
    free(js);
    swgl_sim_destroy(sim);
    /* run_to(3) in one call over the output time at t_end = 2: its grids and run.nc step */
    snprintf(out, sizeof out, "%s/past", dir);
    sim = make("dambreak", "cpu-scalar", small, out);
    CHECK(sim && swgl_sim_run_to(sim, 3) == SWGL_OK && swgl_sim_finish(sim) == SWGL_OK, "run_to(3) past t_end = 2");
    snprintf(path, sizeof path, "%s/h_t2.asc", out);
    CHECK(access(path, F_OK) == 0, "the output time at t_end was written on the way (h_t2.asc)");
    swgl_sim_destroy(sim);
    /* the comparison runs to where the run is, after steps */
    const char *cmp[] = {"domain.nx=20", "domain.ny=20", "domain.dx=10", "domain.dy=10", NULL};
    snprintf(out, sizeof out, "%s/cmp", dir);
    swgl_sim_desc d = {.case_name = "dambreak", .backend = "cpu", .set = cmp, .out = out, .compare = "cpu-scalar"};
    sim = NULL;
    if (CHECK(swgl_sim_create(&d, &sim) == SWGL_OK, "a sim compared with cpu-scalar")) {
        for (int k = 0; k < 5; k++) swgl_sim_step(sim);
        CHECK(swgl_sim_finish(sim) == SWGL_OK, "5 steps and finish");
        snprintf(path, sizeof path, "%s/summary.json", out);
        js = slurp(path);
        const char *c = js ? strstr(js, "\"compare\"") : NULL;
        /* it lands where each step landed: 5 steps, or a few more where its double bound is
         * below the float one's step (then a sliver reaches the landing); before, it made none */
        double n = c ? json_number(c, "steps") : 0;
        CHECK(c && n >= 5 && n <= 10 && json_number(c, "l1_rel_h") < 1e-5,
              "the comparison ran to where the 5 steps ended (%g steps, l1_rel_h %g: float against double)", n,
              c ? json_number(c, "l1_rel_h") : NAN);
        free(js);
    }
    swgl_sim_destroy(sim);
    /* observers may read, not step, set or finish */
    sim = make("dambreak", "cpu-scalar", small, NULL);
    if (sim) {
        swgl_sim_observe(sim, SWGL_EVENT_OUTPUT, reentrant, NULL);
        CHECK(swgl_sim_run_to(sim, 1.5) == SWGL_OK && g_inner == 0,
              "inside an observer run_to, step, finish, set_field are refused, field is allowed (0x%x)", g_inner);
        swgl_sim_destroy(sim);
    }
    /* the gauge times are stops with or without a folder: the same steps */
    const char *gs[] = {"domain.nx=20", "domain.ny=20", "domain.dx=10", "domain.dy=10", "run.t_end=2",
                        "gauges.a=55 55", "output.gauge_interval=0.05", NULL};
    snprintf(out, sizeof out, "%s/gauges", dir);
    swgl_sim *a = make("dambreak", "cpu-scalar", gs, NULL), *b = make("dambreak", "cpu-scalar", gs, out);
    if (a && b) {
        swgl_sim_run_to(a, 2);
        swgl_sim_run_to(b, 2);
        CHECK(swgl_sim_steps(a) == swgl_sim_steps(b), "a gauge interval: the same steps without a folder (%ld, %ld)",
              swgl_sim_steps(a), swgl_sim_steps(b));
    }
    swgl_sim_destroy(a);
    swgl_sim_destroy(b);
}

/* the sediment scheme: its fields h and s */
static void sediment(void)
{
    const char *set[] = {"domain.nx=16", "domain.ny=16", "domain.dx=250", "domain.dy=250", NULL};
    swgl_sim *sim = make("sediment-basin", "cpu-scalar", set, NULL);
    if (!CHECK(sim != NULL, "create sediment-basin")) return;
    int nx, ny;
    swgl_sim_size(sim, &nx, &ny, NULL, NULL);
    double *s = malloc((size_t)nx * ny * sizeof(double));
    CHECK(swgl_sim_run_to(sim, swgl_sim_t_end(sim)) == SWGL_OK, "run to t_end");
    int ok = s && swgl_sim_field(sim, "s", s) == SWGL_OK;
    for (int k = 0; ok && k < nx * ny; k++) ok = s[k] >= -1e-12 && s[k] <= 1 + 1e-12;
    CHECK(ok, "the sand fraction in [0, 1] (rounding)");
    CHECK(swgl_sim_field(sim, "qx", s) == SWGL_ERR_ARG, "no qx in the sediment scheme");
    ok = swgl_sim_field(sim, "h", s) == SWGL_OK;
    int negative = 0;
    for (int k = 0; ok && k < nx * ny; k++) negative |= s[k] < 0;
    CHECK(ok && negative && swgl_sim_set_field(sim, "h", s) == SWGL_OK,
          "the basin's heights below 0 are set back (a height, not a depth): %s", swgl_last_error());
    free(s);
    swgl_sim_destroy(sim);
}

int main(void)
{
    char dir[] = "/tmp/swgl-test-api-XXXXXX";
    if (!mkdtemp(dir)) return 1;
    landing();
    pieces();
    fields();
    observers();
    stop_request(dir);
    folder(dir);
    edges(dir);
    sediment();
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) printf("could not remove %s\n", dir);
    return check_done();
}
