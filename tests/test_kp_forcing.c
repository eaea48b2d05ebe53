/* test_kp_forcing.c — the forcing of cpu_ref/swe.h ("Boundary data, rain and point
 * sources": level, depth and discharge segments, free outlets, rain, point sources, the
 * mass accounts) in the fast CPU solvers of the Kurganov-Petrova scheme (kp_fast.c,
 * KP_CPU_FAST_DOUBLE and KP_CPU_FAST) against the scalar reference (kp_scalar.c), all
 * three stepped in lockstep with the scalar solver's dt, on ~40 x 20 grids (dx != dy so
 * that a face length or an axis mixed up shows):
 *   1. discharge inflow into a closed basin (west and north segments, hydrographs);
 *   2. a level boundary (a sinusoid of several rows) on the east of a sloping beach;
 *   3. a depth boundary on the south and a free outlet on the north;
 *   4. rain (a mm/h hydrograph) on a dry tilted plane with friction and a free outlet;
 *   5. a source with Q > 0 and one with Q < 0 that drains its cell dry, round a walled
 *      island (mask-interior ghosts), RK2 and Euler.
 * Each case checks:
 *   - fast double vs scalar, max |h_f - h_s| / max h_s <= 1e-10: the same operations in
 *     double; they differ only in rounding (the SIMD kernels' Newton sqrt, 1 / (a+ - a-)
 *     and 1 / dx factors, the desingularization as one factor): ~1e-15 a step;
 *   - fast float vs scalar, the same norm <= 1e-4 (float's 6e-8 a step over ~10^2 steps,
 *     and fronts that move a cell's wet/dry decision by a rounding);
 *   - the mass balance of each solver: V_end - V_0 - (sum seg_in - sum seg_out + rain +
 *     sum src + clip) within 1e-12 relative (double: the telescoping update and the
 *     accounts add the same face fluxes, rounding only) and 1e-5 (float: w = B + h kept in
 *     float, each update rounds w);
 *   - the accounts of fast double equal the scalar's (1e-10 relative);
 *   - depths never < 0; the name says "early exit off" (asked for on).
 * Every solver is created with early exit ON: the fast solver must turn it off (rain on
 * dry tiles, inflow at a dry edge), or it would not match the scalar. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kp_cpu.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define MAXS 8

typedef double (*bed_fn)(double x, double y);

typedef struct {
    kp_problem p;
    int nx, ny, M;
    unsigned char *code;
    double *H, *Bc, *manning, *rain;
    double *h, *qx, *qy;
    int *seg_of;
    swe_series ser[MAXS];
    double st[MAXS][32], sv[MAXS][32];
    int nser;
    swe_segment seg[MAXS];
    int nseg;
    size_t src_cell[MAXS];
    int src_series[MAXS], nsrc;
    swe_forcing fo;
} setup;

/* nx x ny cells of dx x dy, walls on the ring, bed from its corners, Manning's n */
static void setup_init(setup *s, int nx, int ny, double dx, double dy, bed_fn B, double n)
{
    memset(s, 0, sizeof *s);
    s->nx = nx, s->ny = ny, s->M = nx > ny ? nx : ny;
    size_t N = grid_size(nx, ny), nc = (size_t)(nx + 1) * (size_t)(ny + 1);
    s->code = malloc(N);
    s->H = calloc(N, sizeof(double));
    s->Bc = malloc(nc * sizeof(double));
    s->h = calloc(N, sizeof(double));
    s->qx = calloc(N, sizeof(double));
    s->qy = calloc(N, sizeof(double));
    s->seg_of = malloc(4 * (size_t)s->M * sizeof(int));
    for (int r = 0; r < 4 * s->M; r++) s->seg_of[r] = -1;
    if (n > 0.0) s->manning = malloc(N * sizeof(double));
    for (int j = 0; j <= ny + 1; j++)
        for (int i = 0; i <= nx + 1; i++) {
            size_t k = grid_at(nx, i, j);
            int ring = i == 0 || j == 0 || i == nx + 1 || j == ny + 1;
            int corner = (i == 0 || i == nx + 1) && (j == 0 || j == ny + 1);
            s->code[k] = corner ? CELL_OFF : ring ? CELL_WALL : CELL_ACTIVE;
            if (s->manning) s->manning[k] = n;
        }
    for (int j = 0; j <= ny; j++)
        for (int i = 0; i <= nx; i++) s->Bc[(size_t)j * (nx + 1) + i] = B(i * dx, j * dy);
    kp_problem *p = &s->p;
    p->sw.nx = nx;
    p->sw.ny = ny;
    p->sw.dx = dx;
    p->sw.dy = dy;
    p->sw.g = 9.81;
    p->sw.cfl = 0.25;
    p->sw.h_dry = 1e-5;
    p->sw.kappa = 1e-2;
    p->sw.H = s->H;
    p->sw.code = s->code;
    p->Bc = s->Bc;
    p->manning = s->manning;
    p->theta = 1.3;
    p->rk2 = 1;
    p->early_exit = KP_EARLY_EXIT_ON;
    for (int j = 0; j <= ny + 1; j++)
        for (int i = 0; i <= nx + 1; i++) {
            double be, bw, bn, bs, bij;
            kp_cell_bed(p, i, j, &be, &bw, &bn, &bs, &bij);
            s->H[grid_at(nx, i, j)] = -bij;
        }
    s->fo.rain_series = -1;
}

static void setup_free(setup *s)
{
    free(s->code);
    free(s->H);
    free(s->Bc);
    free(s->manning);
    free(s->rain);
    free(s->h);
    free(s->qx);
    free(s->qy);
    free(s->seg_of);
}

static double bij(const setup *s, int i, int j) { return -s->H[grid_at(s->nx, i, j)]; }

static int add_series(setup *s, int n, const double *t, const double *v)
{
    int q = s->nser++;
    for (int m = 0; m < n; m++) s->st[q][m] = t[m], s->sv[q][m] = v[m];
    s->ser[q] = (swe_series){n, s->st[q], s->sv[q]};
    return q;
}

/* a segment of the ring ghosts m0 .. m1-1 of side (0 W, 1 E, 2 S, 3 N) */
static void add_segment(setup *s, unsigned char code, int series, int side, int m0, int m1)
{
    int q = s->nseg++;
    swe_segment *g = &s->seg[q];
    g->code = code;
    g->series = series;
    for (int m = m0; m < m1; m++) {
        int i = side == 0 ? 0 : side == 1 ? s->nx + 1 : m + 1;
        int j = side == 2 ? 0 : side == 3 ? s->ny + 1 : m + 1;
        s->code[grid_at(s->nx, i, j)] = code;
        s->seg_of[SWE_RING(side, m, s->M)] = q;
        g->length += side < 2 ? s->p.sw.dy : s->p.sw.dx;
    }
    double vmax = 0.0;
    for (int m = 0; series >= 0 && m < s->ser[series].n; m++) vmax = fmax(vmax, s->ser[series].v[m]);
    g->vmax = code == CELL_DISCHARGE ? vmax / g->length : code == CELL_FREE ? 0.0 : vmax;
}

static void add_source(setup *s, int i, int j, int series)
{
    s->src_cell[s->nsrc] = grid_at(s->nx, i, j);
    s->src_series[s->nsrc++] = series;
}

static void finalize(setup *s)
{
    s->fo.n_series = s->nser;
    s->fo.series = s->ser;
    s->fo.n_seg = s->nseg;
    s->fo.seg = s->seg;
    s->fo.seg_of = s->seg_of;
    s->fo.rain = s->rain;
    s->fo.n_src = s->nsrc;
    s->fo.src_cell = s->src_cell;
    s->fo.src_series = s->src_series;
    s->p.sw.forcing = &s->fo;
}

/* h = max(w0 - B_ij, 0) */
static void set_level(setup *s, double w0)
{
    for (int j = 1; j <= s->ny; j++)
        for (int i = 1; i <= s->nx; i++) {
            size_t k = grid_at(s->nx, i, j);
            double h = w0 - bij(s, i, j);
            s->h[k] = s->code[k] == CELL_ACTIVE && h > 0.0 ? h : 0.0;
        }
}

static double volume(const setup *s, const double *h)
{
    return grid_volume(h, s->code, s->nx, s->ny, s->p.sw.dx * s->p.sw.dy);
}

/* what came in, by the accounts */
static double acc_in(const swe_account *a)
{
    double v = a->rain + a->clip;
    for (int q = 0; q < a->n_seg; q++) v += a->seg_in[q] - a->seg_out[q];
    for (int q = 0; q < a->n_src; q++) v += a->src[q];
    return v;
}

static double acc_scale(const swe_account *a)
{
    double v = fabs(a->rain) + fabs(a->clip);
    for (int q = 0; q < a->n_seg; q++) v += a->seg_in[q] + a->seg_out[q];
    for (int q = 0; q < a->n_src; q++) v += fabs(a->src[q]);
    return v;
}

/* the largest relative difference of two accounts (scale: b's) */
static double acc_diff(const swe_account *a, const swe_account *b)
{
    double d = fabs(a->rain - b->rain) + fabs(a->clip - b->clip);
    for (int q = 0; q < a->n_seg; q++) d += fabs(a->seg_in[q] - b->seg_in[q]) + fabs(a->seg_out[q] - b->seg_out[q]);
    for (int q = 0; q < a->n_src; q++) d += fabs(a->src[q] - b->src[q]);
    double sc = acc_scale(b);
    return sc > 0.0 ? d / sc : d;
}

/* Runs the three solvers nsteps in lockstep (dt: the scalar's bound, at most dtmax) and
 * checks them.  dry_cell: a grid_at index that must end dry (0: none). */
static void run_case(setup *s, const char *name, int rk2, int nsteps, double dtmax, size_t dry_cell)
{
    static const enum kp_cpu_kind kinds[3] = {KP_CPU_SCALAR, KP_CPU_FAST_DOUBLE, KP_CPU_FAST};
    static const char *kn[3] = {"scalar", "fast double", "fast float"};
    finalize(s);
    kp_problem p = s->p;
    p.rk2 = rk2;
    size_t N = grid_size(s->nx, s->ny);
    kp_cpu *c[3];
    double V0[3], *h = malloc(N * sizeof(double)), *qx = malloc(N * sizeof(double)), *qy = malloc(N * sizeof(double));
    double *hs = malloc(N * sizeof(double));
    for (int m = 0; m < 3; m++) {
        c[m] = kp_cpu_create(&p, kinds[m]);
        if (!c[m]) {
            printf("kp_cpu_create (%s): %s\n", kn[m], swgl_last_error());
            exit(1);
        }
        kp_cpu_set_state(c[m], s->h, s->qx, s->qy);
        kp_cpu_get_state(c[m], h, qx, qy);
        V0[m] = volume(s, h);
    }
    CHECK(strstr(kp_cpu_name(c[1]), "early exit off") && strstr(kp_cpu_name(c[2]), "early exit off"),
          "%s: forcing turns early exit off (%s)", name, kp_cpu_name(c[2]));
    double t = 0.0, hmin = INFINITY;
    int fails = 0, stages = rk2 ? 2 : 1;
    for (int n = 0; n < nsteps && !fails; n++) {
        double dt = dtmax;
        for (int st = 0; st < stages; st++) {
            for (int m = 0; m < 3; m++) {
                if (st == 0) kp_cpu_set_time(c[m], t, INFINITY);
                double b = kp_cpu_rates(c[m], st);
                if (isnan(b)) fails = 1;
                if (st == 0 && m == 0 && b < dt) dt = b;
            }
            for (int m = 0; m < 3; m++)
                if (kp_cpu_apply(c[m], st, dt) != 0) fails = 1;
        }
        t += dt;
        for (int m = 0; m < 3; m++) {
            kp_cpu_get_state(c[m], h, qx, qy);
            for (size_t k = 0; k < N; k++)
                if (s->code[k] == CELL_ACTIVE) hmin = fmin(hmin, h[k]);
        }
    }
    CHECK(!fails, "%s: %d steps without a NaN or a failed apply (t = %.3g s)", name, nsteps, t);
    CHECK(hmin >= 0.0, "%s: no depth below 0 in any solver at any step (min %.3g)", name, hmin);

    swe_account acc[3];
    kp_cpu_get_state(c[0], hs, qx, qy);
    double hmax = 0.0;
    for (size_t k = 0; k < N; k++)
        if (s->code[k] == CELL_ACTIVE) hmax = fmax(hmax, hs[k]);
    for (int m = 0; m < 3; m++) {
        swe_account_init(&acc[m], &s->fo);
        kp_cpu_account(c[m], &acc[m]);
        kp_cpu_get_state(c[m], h, qx, qy);
        double V = volume(s, h), in = acc_in(&acc[m]);
        double sc = fmax(fmax(fabs(V0[m]), fabs(V)), acc_scale(&acc[m]));
        double tol = m == 2 ? 1e-5 : 1e-12;
        CHECK_LE(fabs(V - V0[m] - in) / sc, tol,
                 "%s, %s: mass balance V_end - V_0 = %.9g m^3, accounts %.9g m^3 (%s)", name, kn[m], V - V0[m], in,
                 m == 2 ? "float state" : "double, rounding only");
        if (m > 0) {
            double d = 0.0;
            for (size_t k = 0; k < N; k++)
                if (s->code[k] == CELL_ACTIVE) d = fmax(d, fabs(h[k] - hs[k]));
            CHECK_LE(d / hmax, m == 1 ? 1e-10 : 1e-4, "%s: %s vs scalar, max |dh| / max h (%s)", name, kn[m],
                     m == 1 ? "same double operations, SIMD rounding" : "float");
            if (m == 1)
                CHECK_LE(acc_diff(&acc[1], &acc[0]), 1e-10, "%s: fast double's accounts equal the scalar's", name);
        }
        if (dry_cell) CHECK(h[dry_cell] == 0.0, "%s, %s: the sink's cell is dry (h = %.3g)", name, kn[m], h[dry_cell]);
    }
    printf("      %s: t = %.3g s, V0 = %.6g, V = %.6g, in %.6g (scalar)\n", name, t, V0[0], volume(s, hs), acc_in(&acc[0]));
    for (int m = 0; m < 3; m++) {
        swe_account_free(&acc[m]);
        kp_cpu_destroy(c[m]);
    }
    free(h), free(qx), free(qy), free(hs);
}

/* ---- 1. discharge into a closed basin ------------------------------------------------- */

static double bed_flat(double x, double y) { return 0.0 * x * y; }

static void test_discharge(void)
{
    setup s;
    setup_init(&s, 40, 20, 1.0, 0.8, bed_flat, 0.0);
    set_level(&s, 0.1);
    const double t1[] = {0.0, 3.0, 8.0}, q1[] = {0.0, 1.5, 0.5};   /* m^3/s */
    const double t2[] = {0.0}, q2[] = {0.4};
    add_segment(&s, CELL_DISCHARGE, add_series(&s, 3, t1, q1), 0, 6, 14);   /* west, rows 7..14 */
    add_segment(&s, CELL_DISCHARGE, add_series(&s, 1, t2, q2), 3, 25, 31);  /* north */
    run_case(&s, "discharge into a closed basin", 1, 120, 1.0, 0);
    setup_free(&s);
}

/* ---- 2. a level boundary on a sloping beach ------------------------------------------- */

static double bed_beach(double x, double y) { return 0.5 - 0.03 * x + 0.002 * y; }   /* deep at the east */

static void test_level(void)
{
    setup s;
    setup_init(&s, 40, 20, 1.0, 0.8, bed_beach, 0.0);
    set_level(&s, 0.0);
    double t[12], v[12];
    for (int m = 0; m < 12; m++) t[m] = m * 1.5, v[m] = 0.15 * sin(2.0 * M_PI * t[m] / 9.0);
    add_segment(&s, CELL_LEVEL, add_series(&s, 12, t, v), 1, 0, 20);   /* the whole east side */
    run_case(&s, "level (sinusoid) on a sloping beach", 1, 150, 1.0, 0);
    setup_free(&s);
}

/* ---- 3. depth inflow, free outlet ----------------------------------------------------- */

static double bed_gentle(double x, double y) { return 0.01 * x - 0.005 * y; }

static void test_depth(void)
{
    setup s;
    setup_init(&s, 40, 20, 1.0, 0.8, bed_gentle, 0.0);
    set_level(&s, 0.2);
    const double t[] = {0.0, 4.0}, v[] = {0.3, 0.5};
    add_segment(&s, CELL_DEPTH, add_series(&s, 2, t, v), 2, 10, 30);   /* south */
    add_segment(&s, CELL_FREE, -1, 3, 0, 40);                           /* the whole north */
    run_case(&s, "depth boundary and free outlet", 1, 120, 1.0, 0);
    setup_free(&s);
}

/* ---- 4. rain on a tilted plane -------------------------------------------------------- */

/* about -0.4 .. 0.56 m: the float state keeps w = B + h, so a thin film over a high bed
 * loses the rain increments below half an ulp of B (2e-6 of the volume here, 4e-6 at
 * 0 .. 0.96 m, 5e-5 at 5 .. 6 m) */
static double bed_tilt(double x, double y) { return 0.02 * x + 0.01 * y - 0.4; }

static void test_rain(void)
{
    setup s;
    setup_init(&s, 40, 20, 1.0, 0.8, bed_tilt, 0.03);
    set_level(&s, -1.0);   /* dry */
    size_t N = grid_size(s.nx, s.ny);
    s.rain = calloc(N, sizeof(double));
    for (int j = 1; j <= s.ny; j++)
        for (int i = 1; i <= s.nx; i++) s.rain[grid_at(s.nx, i, j)] = (1.0 + 0.5 * (i > 20)) / 3.6e6;   /* per mm/h */
    const double t[] = {0.0, 5.0, 20.0, 30.0}, v[] = {0.0, 3000.0, 3000.0, 0.0};   /* mm/h: a cloudburst */
    s.fo.rain_series = add_series(&s, 4, t, v);
    add_segment(&s, CELL_FREE, -1, 0, 0, 20);   /* the low west side */
    run_case(&s, "rain on a tilted plane", 1, 150, 0.5, 0);
    setup_free(&s);
}

/* ---- 5. sources ----------------------------------------------------------------------- */

static void test_sources(int rk2)
{
    setup s;
    setup_init(&s, 40, 20, 1.0, 0.8, bed_flat, 0.0);
    for (int j = 8; j <= 11; j++)   /* a walled island: mask-interior ghosts */
        for (int i = 18; i <= 21; i++) s.code[grid_at(s.nx, i, j)] = CELL_WALL;
    set_level(&s, 0.05);
    const double t1[] = {0.0, 2.0}, q1[] = {0.5, 0.2}, t2[] = {0.0}, q2[] = {-3.0};
    add_source(&s, 6, 5, add_series(&s, 2, t1, q1));
    add_source(&s, 6, 5, 0);   /* two sources in one cell */
    add_source(&s, 30, 15, add_series(&s, 1, t2, q2));
    run_case(&s, rk2 ? "sources (RK2)" : "sources (Euler)", rk2, 100, 1.0, grid_at(s.nx, 30, 15));
    setup_free(&s);
}

int main(void)
{
    test_discharge();
    test_level();
    test_depth();
    test_rain();
    test_sources(1);
    test_sources(0);
    return check_done();
}
