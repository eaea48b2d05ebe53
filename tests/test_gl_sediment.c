/* test_gl_sediment.c — the sediment scheme on the GPU (Su et al. 2013) against the
 * scalar double CPU reference (cpu_ref/sediment_scalar.c), on small grids:
 *  - GPU vs CPU scalar after 100 steps, both forms, single and (where the renderer has
 *    fp64) double, with and without the OPT-2 analog, on a problem where everything
 *    varies (dx != dy, C_s != C_m, alpha, beta, h, s varying, a river mouth);
 *  - closed basin: sum h dx dy constant to rounding on the GPU in single precision;
 *  - a sediment-basin-like problem (eroding pure-sand hill, river): s stays in [0, 1]
 *    (conservative form) in both precisions;
 *  - a user dt above the stability limit is refused with a message naming the limit;
 *  - the step in parts (over MPI ranks, overlapped with the halo's exchange): an inner
 *    rectangle, then the four around it, gives the whole step's bits. */
#include <string.h>

#include "gl_util.h"
#include "swgl.h"
#include <unistd.h>
#include "sediment_gpu.h"
#include "sediment_scheme.h"
#include "keys.h"
#include "sediment_keys.h"

typedef struct prob {
    sed_problem p;
    double *a, *b, *h, *s;
} prob;

static void prob_free(prob *q)
{
    free(q->a);
    free(q->b);
    free(q->h);
    free(q->s);
}

/* kind 0: the "everything varies" problem (river on the west side unless closed);
 * kind 1: basin with an eroding pure-sand hill and a river on the south side. */
static void prob_make(prob *q, int nx, int ny, int kind, int closed, enum sed_form form)
{
    memset(q, 0, sizeof *q);
    size_t n = grid_size(nx, ny);
    q->a = calloc(n, sizeof(double));
    q->b = calloc(n, sizeof(double));
    q->h = calloc(n, sizeof(double));
    q->s = calloc(n, sizeof(double));
    sed_problem *p = &q->p;
    p->nx = nx;
    p->ny = ny;
    p->form = form;
    p->inflow_side = SED_NONE;
    if (kind == 0) {
        p->dx = 1.3;
        p->dy = 0.9;
        p->cs = 0.8;
        p->cm = 1.25;
        p->layer = 4.0;   /* thick enough that the printed (4) (paper form) stays finite */
        for (int j = 0; j < grid_rows(ny); j++)
            for (int i = 0; i < grid_stride(nx); i++) {
                size_t k = grid_at(nx, i, j);
                double x = (i - 1) * p->dx, y = (j - 1) * p->dy;
                q->a[k] = 1.0 + 0.3 * sin(0.21 * x + 0.1 * y);
                q->b[k] = 0.5 + 0.2 * cos(0.17 * y);
                q->h[k] = 10.0 + 2.0 * exp(-((x - 30) * (x - 30) + (y - 18) * (y - 18)) / 60.0) + 0.3 * sin(0.5 * x) * cos(0.4 * y);
                q->s[k] = 0.5 + 0.3 * sin(0.13 * x) * sin(0.19 * y);
            }
        if (!closed) {
            p->inflow_side = SED_WEST;
            p->inflow_first = ny / 4;
            p->inflow_last = ny / 2;
            p->inflow_sand = 0.01;
            p->inflow_mud = 0.02;
        }
    } else {
        p->dx = p->dy = 100.0;
        p->cs = p->cm = 1.0;
        p->layer = 2.0;
        double L = (nx - 1) * p->dx;
        for (int j = 0; j < grid_rows(ny); j++)
            for (int i = 0; i < grid_stride(nx); i++) {
                size_t k = grid_at(nx, i, j);
                double x = (i - 1) * p->dx, y = (j - 1) * p->dy;
                double r2 = (x - 0.7 * L) * (x - 0.7 * L) + (y - 0.62 * L) * (y - 0.62 * L);
                q->a[k] = 1.0 + 0.5 * sin(x / 2000);
                q->b[k] = 2.0;
                q->h[k] = -10 - 30 * y / L + 8 * exp(-r2 / (2 * 0.12 * L * 0.12 * L));
                q->s[k] = r2 < (0.16 * L) * (0.16 * L) ? 1.0 : 0.2;
            }
        p->inflow_side = SED_SOUTH;
        p->inflow_first = nx / 4;
        p->inflow_last = nx / 4 + 5;
        p->inflow_sand = 0.01;
        p->inflow_mud = 0.02;
    }
    p->alpha = q->a;
    p->beta = q->b;
    p->dt = 0.9 * sed_dt_limit_state(p, q->h);
}

static double rel_linf(const double *a, const double *b, int nx, int ny)
{
    double d = 0, m = 0;
    for (int j = 1; j <= ny; j++)
        for (int i = 1; i <= nx; i++) {
            size_t k = grid_at(nx, i, j);
            d = fmax(d, fabs(a[k] - b[k]));
            m = fmax(m, fabs(b[k]));
        }
    return d / m;
}

static int run_gpu(const prob *q, int dbl, int opt2, int steps, double *h, double *s)
{
    sed_gpu *g = NULL;
    if (sed_gpu_create(&q->p, dbl, &g) != SWGL_OK) {
        printf("FAIL  sed_gpu_create: %s\n", swgl_last_error());
        return -1;
    }
    sed_gpu_set_opt2(g, opt2);
    swgl_status st = sed_gpu_set_state(g, q->h, q->s);
    if (st == SWGL_OK) st = sed_gpu_run(g, steps);
    if (st == SWGL_OK) st = sed_gpu_get_state(g, h, s);
    if (st != SWGL_OK) printf("FAIL  GPU run: %s\n", swgl_last_error());
    sed_gpu_destroy(g);
    return st == SWGL_OK ? 0 : -1;
}

static void run_cpu(const prob *q, int steps, double *h, double *s)
{
    sed_cpu *c = sed_cpu_create(&q->p, SED_CPU_SCALAR);
    if (!c) {
        printf("FAIL  sed_cpu_create: %s\n", swgl_last_error());
        exit(1);
    }
    sed_cpu_set_state(c, q->h, q->s);
    sed_cpu_run(c, steps);
    sed_cpu_get_state(c, h, s);
    sed_cpu_destroy(c);
}

/* GPU vs CPU scalar double after 100 steps. */
static void vs_cpu(int has_fp64)
{
    const int nx = 47, ny = 40, steps = 100;
    size_t n = grid_size(nx, ny);
    double *hc = malloc(n * sizeof(double)), *sc = malloc(n * sizeof(double));
    double *hg = malloc(n * sizeof(double)), *sg = malloc(n * sizeof(double));
    for (int form = 0; form < 2; form++) {
        prob q;
        prob_make(&q, nx, ny, 0, 0, (enum sed_form)form);
        run_cpu(&q, steps, hc, sc);
        for (int dbl = 0; dbl <= has_fp64; dbl++)
            for (int opt2 = 0; opt2 < 2; opt2++) {
                if (run_gpu(&q, dbl, opt2, steps, hg, sg)) {
                    check_failed_++;
                    continue;
                }
                /* single: every value is rounded to 24 bits (6e-8) at each of ~10 operations
                 * per pass; the scheme is a contraction (diffusion, dt below the limit), so
                 * errors do not grow beyond steps x a few ulp of max h: 100 x 6e-8 = 6e-6,
                 * bound 1e-5 (h) and, s being divided by A + dh, 1e-5 relative to max s too.
                 * double: same operations as the CPU; only FMA contraction and the
                 * division's rounding differ: 100 steps x a few 1e-16, bound 1e-12. */
                double tol = dbl ? 1e-12 : 1e-5;
                const char *f = form ? "conservative" : "paper";
                CHECK_LE(rel_linf(hg, hc, nx, ny), tol, "%s form, %s%s: GPU vs CPU scalar, relative Linf of h after %d steps (tolerance: %s)",
                         f, dbl ? "double" : "single", opt2 ? ", OPT-2 analog" : "", steps,
                         dbl ? "same operations, rounding of FMA/division only" : "float rounding, ~steps x ulp");
                CHECK_LE(rel_linf(sg, sc, nx, ny), tol, "%s form, %s%s: GPU vs CPU scalar, relative Linf of s after %d steps",
                         f, dbl ? "double" : "single", opt2 ? ", OPT-2 analog" : "", steps);
            }
        prob_free(&q);
    }
    free(hc);
    free(sc);
    free(hg);
    free(sg);
}

/* Closed basin: the volume sum h dx dy is constant to rounding (single precision). */
static void mass(void)
{
    const int nx = 64, ny = 48, steps = 300;
    size_t n = grid_size(nx, ny);
    double *h = malloc(n * sizeof(double)), *s = malloc(n * sizeof(double));
    for (int form = 0; form < 2; form++) {
        prob q;
        prob_make(&q, nx, ny, 0, 1, (enum sed_form)form);
        double v0 = 0, v1 = 0, hmax = 0;
        for (int j = 1; j <= ny; j++)
            for (int i = 1; i <= nx; i++) {
                v0 += q.h[grid_at(nx, i, j)];
                hmax = fmax(hmax, q.h[grid_at(nx, i, j)]);
            }
        if (run_gpu(&q, 0, 0, steps, h, s) == 0) {
            for (int j = 1; j <= ny; j++)
                for (int i = 1; i <= nx; i++) v1 += h[grid_at(nx, i, j)];
            /* interior fluxes cancel exactly (the face value and the difference are
             * computed from the same two floats at both points, negated); what remains is
             * the rounding of lap and of h + dt lap per point: at most ~2 ulp of max h,
             * half of it on average of either sign; the worst case per step relative to
             * the sum is 2 eps max h / mean h, times the steps: 300 x 2 x 6e-8 x 12/10. */
            double mean = v0 / ((double)nx * ny);
            double tol = steps * 2.0 * 5.96e-8 * hmax / mean;
            CHECK_LE(fabs(v1 - v0) / v0, tol, "%s form, single: closed basin, relative drift of sum h dx dy after %d steps "
                     "(tolerance steps x 2 eps_float x max h / mean h, the rounding of each update)",
                     form ? "conservative" : "paper", steps);
        } else {
            check_failed_++;
        }
        prob_free(&q);
    }
    free(h);
    free(s);
}

/* Eroding pure-sand hill and a river: s stays in [0, 1] (conservative form). */
static void bounds(int has_fp64)
{
    const int nx = 64, ny = 64, steps = 150;
    size_t n = grid_size(nx, ny);
    double *h = malloc(n * sizeof(double)), *s = malloc(n * sizeof(double));
    prob q;
    prob_make(&q, nx, ny, 1, 0, SED_FORM_CONSERVATIVE);
    for (int dbl = 0; dbl <= has_fp64; dbl++) {
        if (run_gpu(&q, dbl, 0, steps, h, s)) {
            check_failed_++;
            continue;
        }
        double mn = INFINITY, mx = -INFINITY;
        for (int j = 1; j <= ny; j++)
            for (int i = 1; i <= nx; i++) {
                mn = fmin(mn, s[grid_at(nx, i, j)]);
                mx = fmax(mx, s[grid_at(nx, i, j)]);
            }
        /* exact arithmetic keeps s in [0, 1] (a weighted mean, docs/sediment.md 3); on the
         * pure-sand hill s+ = (A + dt RHS)/(A + dh) where dt RHS and dh are the same sum
         * rounded differently: a few ulp per step, a rounding walk over 150 steps (150
         * steps, so that the hill top is still pure sand and max s probes 1 itself);
         * measured 1 + 3.8e-6 in single; bound 1e-5 (single), 1e-12 (double). */
        double tol = dbl ? 1e-12 : 1e-5;
        CHECK_LE(-mn, tol, "%s: basin, %d steps: min s = %.9g >= -tol (rounding only)", dbl ? "double" : "single",
                 steps, mn);
        CHECK_LE(mx - 1.0, tol, "%s: basin, %d steps: max s = %.12g <= 1 + tol (rounding only)",
                 dbl ? "double" : "single", steps, mx);
    }
    prob_free(&q);
    free(h);
    free(s);
}

/* A user dt above the limit is refused, naming the limit. */
static void dt_limit(void)
{
    scenario sc;
    memset(&sc, 0, sizeof sc);
    const char *sets[3] = {"domain.nx=32", "domain.ny=32", "sediment.dt=1e7"};
    if (scenario_load_case(&sc, "sediment-basin", sets, 3) != SWGL_OK) {
        CHECK(0, "load sediment-basin: %s", swgl_last_error());
        return;
    }
    const scheme_desc *d = scheme_find("sediment");
    scheme_setup s;
    swgl_status rc = d->setup(&sc, &s);
    CHECK(rc == SWGL_ERR_INPUT, "sediment.dt = 1e7 s is refused (the limit of this case is ~1e3 s)");
    if (rc == SWGL_OK) {
        d->setup_free(&s);
    } else {
        char err[1024];
        snprintf(err, sizeof err, "%s", swgl_last_error());
        ((sediment_params *)sc.params)->dt = 0;   /* the scheme's own key, as read */
        scheme_setup s2;
        if (d->setup(&sc, &s2) == SWGL_OK) {
            const sed_setup *q = s2.problem;
            char lim[64];
            snprintf(lim, sizeof lim, "%g s", q->dt_limit);
            CHECK(strstr(err, lim) != NULL && strstr(err, "stability limit") != NULL,
                  "the message names the limit (%s): \"%s\"", lim, err);
            CHECK_NEAR(q->p.dt, 0.9 * q->dt_limit, 1e-12 * q->dt_limit, "default dt = 0.9 x the limit");
            d->setup_free(&s2);
        }
        /* through the public API too: the create fails, nothing written */
        const char *set2[4] = {"domain.nx=32", "domain.ny=32", "sediment.dt=1e7", NULL};
        const char *dir = "/tmp/swgl-test-sed-dt-should-not-exist";
        swgl_sim_desc sd = {.case_name = "sediment-basin", .set = set2, .backend = "cpu-scalar", .out = dir};
        swgl_sim *sim = (swgl_sim *)&sd;   /* (not NULL: create must set it NULL) */
        CHECK(swgl_sim_create(&sd, &sim) == SWGL_ERR_INPUT && sim == NULL,
              "swgl_sim_create refuses dt above the limit (SWGL_ERR_INPUT, *sim NULL)");
        CHECK(strstr(swgl_last_error(), "stability limit") != NULL, "its message names the limit: \"%s\"",
              swgl_last_error());
        CHECK(access(dir, F_OK) != 0, "nothing written at %s", dir);
    }
    scenario_free(&sc);
}

/* The one validation (sed_problem_check) guards the GPU solver as it guards the CPU ones. */
static void refused(void)
{
    prob q;
    prob_make(&q, 16, 16, 0, 1, SED_FORM_CONSERVATIVE);
    q.a[grid_in(q.p.nx, 3, 4)] = -1.0;
    sed_gpu *g = NULL;
    swgl_status st = sed_gpu_create(&q.p, 0, &g);
    CHECK(st == SWGL_ERR_ARG && g == NULL && strstr(swgl_last_error(), "alpha"),
          "a negative alpha is refused by the GPU solver as by the CPU ones: \"%s\"", swgl_last_error());
    sed_gpu_destroy(g);
    CHECK(sed_cpu_create(&q.p, SED_CPU_SCALAR) == NULL && strstr(swgl_last_error(), "alpha"),
          "and by the CPU: \"%s\"", swgl_last_error());
    prob_free(&q);
}

/* The step in parts (sed_gpu_parts, the overlapped exchange's way): an inner rectangle,
 * then the four around it to the texture's edges, then sed_gpu_take, step after step, is
 * the whole step to the bit (the same passes at every point; the inner rectangle's passes
 * before the last drawn as far as the next reads), with OPT-2 and without, both forms, float
 * and double; a step cut short after the parts is drawn anew with its dt.  Bits, not a
 * tolerance: every point's operations are the same. */
static void parts(int has_fp64)
{
    const int nx = 47, ny = 40, steps = 30;
    prob q;
    size_t n = grid_size(nx, ny);
    double *h[2], *s[2];
    for (int k = 0; k < 2; k++) h[k] = malloc(n * sizeof(double)), s[k] = malloc(n * sizeof(double));
    const int in[1][4] = {{9, 7, 24, 19}};
    const int tw = nx + 2, th = ny + 2, x1 = in[0][0] + in[0][2], y1 = in[0][1] + in[0][3];
    const int out[4][4] = {{0, 0, tw, in[0][1]}, {0, y1, tw, th - y1}, {0, in[0][1], in[0][0], in[0][3]},
                           {x1, in[0][1], tw - x1, in[0][3]}};
    for (int form = 0; form < 2; form++)
        for (int dbl = 0; dbl <= has_fp64; dbl++)
            for (int opt2 = 0; opt2 < 2; opt2++) {
                prob_make(&q, nx, ny, 0, 0, form ? SED_FORM_PAPER : SED_FORM_CONSERVATIVE);
                sed_gpu *g[2] = {NULL, NULL};
                swgl_status st = SWGL_OK;
                for (int k = 0; k < 2 && st == SWGL_OK; k++) {
                    if ((st = sed_gpu_create(&q.p, dbl, &g[k])) != SWGL_OK) break;
                    sed_gpu_set_opt2(g[k], opt2);
                    st = sed_gpu_set_state(g[k], q.h, q.s);
                }
                /* the last step cut short (dt / 3) after its parts were drawn: drawn anew */
                for (int t = 0; t < steps && st == SWGL_OK; t++) {
                    double dt = t == steps - 1 ? q.p.dt / 3 : q.p.dt;
                    if ((st = sed_gpu_run_dt(g[0], 1, dt)) != SWGL_OK) break;
                    if ((st = sed_gpu_parts(g[1], in, 1, 1)) == SWGL_OK && (st = sed_gpu_parts(g[1], out, 4, 0)) == SWGL_OK)
                        st = sed_gpu_take(g[1], dt);
                }
                for (int k = 0; k < 2 && st == SWGL_OK; k++) st = sed_gpu_get_state(g[k], h[k], s[k]);
                int same = st == SWGL_OK && memcmp(h[0], h[1], n * sizeof(double)) == 0 &&
                           memcmp(s[0], s[1], n * sizeof(double)) == 0;
                CHECK(same, "%s form, %s, OPT-2 %s: %d steps in parts (inner, then the four around) = whole steps, "
                      "to the bit%s%s", form ? "paper" : "conservative", dbl ? "double" : "float", opt2 ? "on" : "off",
                      steps, st == SWGL_OK ? "" : ": ", st == SWGL_OK ? "" : swgl_last_error());
                /* and a step whose east part is left out is not (the comparison sees the parts) */
                if (st == SWGL_OK && (st = sed_gpu_run(g[0], 1)) == SWGL_OK &&
                    (st = sed_gpu_parts(g[1], in, 1, 1)) == SWGL_OK && (st = sed_gpu_parts(g[1], out, 3, 0)) == SWGL_OK &&
                    (st = sed_gpu_take(g[1], q.p.dt)) == SWGL_OK && (st = sed_gpu_get_state(g[0], h[0], s[0])) == SWGL_OK)
                    st = sed_gpu_get_state(g[1], h[1], s[1]);
                CHECK(st == SWGL_OK && (memcmp(h[0], h[1], n * sizeof(double)) || memcmp(s[0], s[1], n * sizeof(double))),
                      "  a step with one of the four left out differs (the check can fail)");
                for (int k = 0; k < 2; k++) sed_gpu_destroy(g[k]);
                prob_free(&q);
            }
    for (int k = 0; k < 2; k++) free(h[k]), free(s[k]);
}

int main(void)
{
    scheme_keys_install();   /* the schemes' keys, before a scenario is read */
    gpu_context *ctx = test_gl_context();
    int fp64 = gpu_context_info(ctx)->has_fp64;
    printf("fp64: %s\n", fp64 ? "yes (double checks run)" : "no (double checks skipped)");
    refused();
    vs_cpu(fp64);
    mass();
    bounds(fp64);
    dt_limit();
    parts(fp64);
    gpu_context_destroy(ctx);
    return check_done();
}
