/* test_roe_double.c — the fast CPU Roe solver in double precision (ROE_CPU_FAST_DOUBLE,
 * `--backend cpu --precision double`: the SSE2 x2 instance of the kernels the float
 * solver runs as SSE x4, cpu_ref/roe_fast_body.h) against the scalar double solver, the
 * reference, on small cases with wet/dry fronts:
 *  - a dam break over a dry bed with an island (walls, obstacle cells);
 *  - Thacker's planar oscillation in a paraboloid (walls, the shoreline dries and wets),
 *    with the thin-film velocity desingularization (kappa > 0);
 * each solver choosing its own steps (the same rule (8), the same sums: the steps must
 * agree to rounding).  Checked: the step count, the relative L1 difference of h, qx, qy
 * (what the float solver gives is printed beside it), the volume with walls, the name
 * and precision, the result independent of the thread count and of the instruction set
 * (SSE2, AVX2, AVX-512: the same bits), and a NaN reported. */
#include "check.h"
#include "roe_cpu.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int nx, ny;
    size_t n;
    double dx;
    swe_problem p;
    double *H, *h, *qx, *qy;
    unsigned char *code;
} prob;

static void prob_alloc(prob *b, int nx, int ny, double dx)
{
    b->nx = nx;
    b->ny = ny;
    b->dx = dx;
    b->n = grid_size(nx, ny);
    b->H = calloc(b->n, sizeof(double));
    b->h = calloc(b->n, sizeof(double));
    b->qx = calloc(b->n, sizeof(double));
    b->qy = calloc(b->n, sizeof(double));
    b->code = calloc(b->n, 1);
}

static void prob_free(prob *b)
{
    free(b->H);
    free(b->h);
    free(b->qx);
    free(b->qy);
    free(b->code);
}

/* 60 x 40 cells of 0.25 m: a 1.5 m reservoir behind x = 4 m over a dry bed that rises
 * to the east, an island of wall cells, walls round it */
static void dambreak(prob *b)
{
    const int nx = 60, ny = 40;
    prob_alloc(b, nx, ny, 0.25);
    for (int j = 0; j < ny + 2; j++)
        for (int i = 0; i < nx + 2; i++) {
            size_t k = grid_at(nx, i, j);
            int rx = i == 0 || i == nx + 1, ry = j == 0 || j == ny + 1;
            double x = (i - 0.5) * b->dx, y = (j - 0.5) * b->dx;
            int island = (x - 9.0) * (x - 9.0) + (y - 5.0) * (y - 5.0) < 1.0;
            int c = rx && ry ? CELL_OFF : (rx || ry ? CELL_WALL : CELL_ACTIVE);
            if (c == CELL_ACTIVE && island) c = CELL_WALL;
            b->code[k] = (unsigned char)c;
            double z = 0.02 * x + 0.05 * sin(0.7 * y);   /* bed elevation */
            b->H[k] = -z;
            if (c == CELL_ACTIVE && x < 4.0) b->h[k] = 1.5 - z;
        }
    b->p = (swe_problem){.nx = nx, .ny = ny, .dx = b->dx, .dy = b->dx, .g = 9.81, .cfl = 0.9, .h_dry = 1e-5,
                         .kappa = 0.0, .H = b->H, .code = b->code};
}

/* Thacker (as tests/test_roe_thacker.c, SWASHES 4.2.2) on 50 x 50 cells of [0, 4]^2 */
static void thacker(prob *b)
{
    const int n = 50;
    const double a = 1.0, h0 = 0.1, sig = 0.5, g = 9.81;
    prob_alloc(b, n, n, 4.0 / n);
    double om = sqrt(2.0 * g * h0) / a;
    for (int j = 0; j < n + 2; j++)
        for (int i = 0; i < n + 2; i++) {
            size_t k = grid_at(n, i, j);
            int rx = i == 0 || i == n + 1, ry = j == 0 || j == n + 1;
            b->code[k] = rx && ry ? CELL_OFF : (rx || ry ? CELL_WALL : CELL_ACTIVE);
            double X = (i - 0.5) * b->dx - 2.0, Y = (j - 0.5) * b->dx - 2.0;
            double z = h0 * ((X * X + Y * Y) / (a * a) - 1.0);
            b->H[k] = -z;
            double eta = sig * h0 / (a * a) * (2.0 * X - sig);
            if (b->code[k] == CELL_ACTIVE && eta > z) {
                b->h[k] = eta - z;
                b->qy[k] = b->h[k] * sig * om;
            }
        }
    b->p = (swe_problem){.nx = n, .ny = n, .dx = b->dx, .dy = b->dx, .g = g, .cfl = 0.9, .h_dry = 1e-5,
                         .kappa = 1e-2 * b->dx, .H = b->H, .code = b->code};
}

typedef struct {
    int steps;
    double t, v0, v1, dt_first, dt_last;
    double *h, *qx, *qy;
    char name[64], prec[16];
} run_result;

static double volume(const prob *b, const double *h)
{
    double s = 0.0, c = 0.0;   /* compensated: the measurement's own rounding stays below 1e-16 */
    for (size_t k = 0; k < b->n; k++) {
        if (b->code[k] != CELL_ACTIVE) continue;
        double y = h[k] - c, t = s + y;
        c = (t - s) - y;
        s = t;
    }
    return s * b->dx * b->dx;
}

/* to t_end with dt = min(bound, what is left), as the time loop chooses it */
static int run(const prob *b, enum roe_cpu_kind kind, double t_end, run_result *r)
{
    memset(r, 0, sizeof *r);
    roe_cpu *s = roe_cpu_create(&b->p, kind);
    if (!s) {
        CHECK(0, "create: %s", swgl_last_error());
        return -1;
    }
    snprintf(r->name, sizeof r->name, "%s", roe_cpu_name(s));
    snprintf(r->prec, sizeof r->prec, "%s", roe_cpu_precision(s));
    r->h = calloc(b->n, sizeof(double));
    r->qx = calloc(b->n, sizeof(double));
    r->qy = calloc(b->n, sizeof(double));
    roe_cpu_set_state(s, b->h, b->qx, b->qy);
    roe_cpu_get_state(s, r->h, r->qx, r->qy);
    r->v0 = volume(b, r->h);
    int rc = 0;
    while (r->t < t_end && r->steps < 100000) {
        double d = roe_cpu_rates(s);
        if (isnan(d)) {
            rc = -1;
            break;
        }
        double dt = fmin(d, t_end - r->t);
        if (roe_cpu_apply(s, dt)) {
            rc = -1;
            break;
        }
        if (r->steps == 0) r->dt_first = dt;
        r->dt_last = d;
        r->t = dt == t_end - r->t ? t_end : r->t + dt;
        r->steps++;
    }
    roe_cpu_get_state(s, r->h, r->qx, r->qy);
    r->v1 = volume(b, r->h);
    roe_cpu_destroy(s);
    return rc;
}

static void run_free(run_result *r)
{
    free(r->h);
    free(r->qx);
    free(r->qy);
}

/* relative L1 difference of field a vs the reference c over the active cells */
static double rel_l1(const prob *b, const double *a, const double *c)
{
    double d = 0, n = 0;
    for (size_t k = 0; k < b->n; k++) {
        if (b->code[k] != CELL_ACTIVE) continue;
        d += fabs(a[k] - c[k]);
        n += fabs(c[k]);
    }
    return n > 0 ? d / n : d;
}

static void compare(const char *what, const prob *b, double t_end)
{
    run_result sc, fd, ff;
    if (run(b, ROE_CPU_SCALAR, t_end, &sc) || run(b, ROE_CPU_FAST_DOUBLE, t_end, &fd) ||
        run(b, ROE_CPU_FAST, t_end, &ff)) {
        CHECK(0, "%s: the three solvers run to t = %g", what, t_end);
        return;
    }
    CHECK(strncmp(fd.name, "cpu (double, ", 13) == 0 && strcmp(fd.prec, "double") == 0,
          "%s: the fast double solver is \"%s\", precision %s", what, fd.name, fd.prec);
    CHECK(strcmp(ff.prec, "single") == 0 && strcmp(sc.prec, "double") == 0,
          "%s: fast float says %s, scalar says %s", what, ff.prec, sc.prec);
    CHECK(fd.steps == sc.steps, "%s: fast double takes the scalar's steps (%d, %d; float %d)", what, fd.steps,
          sc.steps, ff.steps);
    CHECK_LE(fabs(fd.dt_last - sc.dt_last) / sc.dt_last, 1e-12,
             "%s: the last bound (8), fast double vs scalar, relative", what);
    double dh = rel_l1(b, fd.h, sc.h), dqx = rel_l1(b, fd.qx, sc.qx), dqy = rel_l1(b, fd.qy, sc.qy);
    double fh = rel_l1(b, ff.h, sc.h), fqx = rel_l1(b, ff.qx, sc.qx), fqy = rel_l1(b, ff.qy, sc.qy);
    printf("      %s, %d steps: fast double vs scalar, relative L1 h %.2e qx %.2e qy %.2e;"
           " fast float: h %.2e qx %.2e qy %.2e\n", what, sc.steps, dh, dqx, dqy, fh, fqx, fqy);
    /* the same scheme, a few operations written differently (blends for branches,
     * max(x, tiny) guards; FMA contraction of the scalar code where the build targets
     * it) round differently in the last bit now and then; the wet/dry
     * thresholds (h <= h_dry, the limiter's theta, the film's (M5)) amplify it.
     * Measured on x86-64 (GCC, SSE2): dam break 0 (bit for bit), Thacker over one
     * period h 7e-13, qx 1.0e-11 (qx is ~0 at t = T: a small norm), qy 1.2e-12; the
     * float solver 2e-7 .. 6e-6.  Bounds: 10x the measured. */
    CHECK_LE(dh, 1e-11, "%s: fast double vs scalar, relative L1 of h (float: %.1e)", what, fh);
    CHECK_LE(dqx, 1e-10, "%s: fast double vs scalar, relative L1 of qx (float: %.1e)", what, fqx);
    CHECK_LE(dqy, 1e-10, "%s: fast double vs scalar, relative L1 of qy (float: %.1e)", what, fqy);
    /* walls: the volume changes only by the rounding of the updates, ~ eps sqrt(steps) */
    CHECK_LE(fabs(fd.v1 - fd.v0) / fd.v0, 1e-14, "%s: fast double, relative volume change (scalar %.1e, float %.1e)",
             what, fabs(sc.v1 - sc.v0) / sc.v0, fabs(ff.v1 - ff.v0) / ff.v0);
    run_free(&sc);
    run_free(&fd);
    run_free(&ff);
}

/* the rows are cut into blocks per thread; every edge is computed from the same values
 * whatever the cut, so the state is bit-identical on 1 and 3 threads */
static void threads(const prob *b)
{
    int saved = omp_get_max_threads();
    run_result r[2];
    for (int m = 0; m < 2; m++) {
        omp_set_num_threads(m == 0 ? 1 : 3);
        if (run(b, ROE_CPU_FAST_DOUBLE, 2.0, &r[m])) {
            CHECK(0, "thread runs");
            omp_set_num_threads(saved);
            return;
        }
    }
    omp_set_num_threads(saved);
    int same = r[0].steps == r[1].steps;
    for (size_t k = 0; same && k < b->n; k++)
        same = r[0].h[k] == r[1].h[k] && r[0].qx[k] == r[1].qx[k] && r[0].qy[k] == r[1].qy[k];
    CHECK(same, "fast double: the same state, bit for bit, on 1 and 3 threads (%d steps)", r[0].steps);
    run_free(&r[0]);
    run_free(&r[1]);
}

/* The kernels on each instruction set the CPU has (--tune cpu.isa; SSE2, AVX2 x8 / x4,
 * AVX-512 x16 / x8): every lane does the SSE lane's operations, so the state is the same
 * bits, float and double, on 1 and 3 threads.  nx = 60 and 50: the rows end inside a
 * vector on each width (the lanes past the row are not active).  Asking for one the CPU
 * lacks is an error that names it. */
static void isa(const char *what, const prob *b0, double t_end)
{
    static const char *const isa_name[] = {"", "sse2", "avx2", "avx512"};
    int saved = omp_get_max_threads();
    for (int dbl = 0; dbl < 2; dbl++) {
        enum roe_cpu_kind kind = dbl ? ROE_CPU_FAST_DOUBLE : ROE_CPU_FAST;
        prob b = *b0;
        b.p.isa = SWE_ISA_SSE2;
        run_result ref;
        omp_set_num_threads(1);
        if (run(&b, kind, t_end, &ref)) {
            CHECK(0, "%s: the SSE run", what);
            break;
        }
        CHECK(strstr(ref.name, dbl ? "SSE2 x2" : "SSE x4") != NULL, "%s: cpu.isa=sse2 runs \"%s\"", what, ref.name);
        for (int q = SWE_ISA_AVX2; q <= SWE_ISA_AVX512; q++) {
            b.p.isa = q;
            roe_cpu *probe = roe_cpu_create(&b.p, kind);
            if (!probe) {   /* the CPU lacks it: an error that says so */
                CHECK(strstr(swgl_last_error(), "has no") != NULL, "%s: cpu.isa=%s on a CPU without it: \"%s\"",
                      what, isa_name[q], swgl_last_error());
                printf("      %s: no %s here\n", what, isa_name[q]);
                continue;
            }
            roe_cpu_destroy(probe);
            for (int th = 1; th <= 3; th += 2) {
                omp_set_num_threads(th);
                run_result r;
                if (run(&b, kind, t_end, &r)) {
                    CHECK(0, "%s: the %s run", what, isa_name[q]);
                    continue;
                }
                int same = r.steps == ref.steps && r.dt_last == ref.dt_last;
                size_t diff = 0;
                for (size_t k = 0; k < b.n; k++)
                    diff += !(r.h[k] == ref.h[k] && r.qx[k] == ref.qx[k] && r.qy[k] == ref.qy[k]);
                CHECK(same && diff == 0,
                      "%s, %s: \"%s\" on %d thread(s) gives SSE's bits (%d / %d steps, %zu cells differ)", what,
                      dbl ? "double" : "float", r.name, th, r.steps, ref.steps, diff);
                run_free(&r);
            }
        }
        run_free(&ref);
    }
    omp_set_num_threads(saved);
}

static void nan_and_dry(const prob *b)
{
    roe_cpu *s = roe_cpu_create(&b->p, ROE_CPU_FAST_DOUBLE);
    if (!s) {
        CHECK(0, "create: %s", swgl_last_error());
        return;
    }
    double *z = calloc(b->n, sizeof(double));
    roe_cpu_set_state(s, z, z, z);
    CHECK(roe_cpu_step(s, 0.125) == 0.125, "fast double: all cells dry -> dt = dt_max");
    double *h = malloc(b->n * sizeof(double));
    memcpy(h, b->h, b->n * sizeof(double));
    h[grid_in(b->nx, 3, 3)] = NAN;
    roe_cpu_set_state(s, h, b->qx, b->qy);
    CHECK(roe_cpu_step(s, 1e30) < 0.0, "fast double: a NaN in the state makes step return < 0");
    free(h);
    free(z);
    roe_cpu_destroy(s);
}

int main(void)
{
    prob d, t;
    dambreak(&d);
    thacker(&t);
    compare("dam break over a dry rising bed with an island, 60x40, to 8 s", &d, 8.0);
    compare("Thacker, 50x50, kappa = 1e-2 dx, one period (4.49 s)", &t, 2.0 * 3.14159265358979323846 / sqrt(2.0 * 9.81 * 0.1));
    threads(&d);
    isa("dam break", &d, 8.0);
    isa("Thacker", &t, 2.0);
    /* the east side free (an outflow): boundary lanes of both kinds in one vector */
    for (int j = 1; j <= d.ny; j++) d.code[grid_at(d.nx, d.nx + 1, j)] = CELL_FREE;
    isa("dam break, east side free", &d, 8.0);
    nan_and_dry(&d);
    prob_free(&d);
    prob_free(&t);
    return check_done();
}
