/* test_gl_kp_rest.c — the Kurganov-Petrova scheme on the GPU (Brodtkorb et al. 2011; the
 * equations of cpu_ref/kp_cpu.h), what it conserves, on small grids built by hand
 * (gl_kp_util.h):
 *  - lake at rest over a rough bed with an emerged island (RK2 and Euler) stays at rest
 *    (the island's shore waves as the CPU double solver makes them);
 *  - mass is conserved by a dam break with walls over a bump (wet / dry), h >= 0;
 *  - a step made too long on purpose drives cells below their bed, beyond h_dry: the clip
 *    is booked in the accounts (boundary data's runs) to the volume it made, in double and
 *    in float (issue 27; a float deficit within h_dry is carried instead, unbooked);
 *  - over a bed at 1000 m (its float not its double) a dry cell is set and read back as a
 *    depth of exactly 0, and stays so until water comes. */
#include "gl_kp_util.h"

/* ---------- lake at rest ---------- */
static double bed_island(double x, double y)
{
    double r2 = (x - 24) * (x - 24) + (y - 20) * (y - 20);
    return bed_rough(x, y) + 1.4 * exp(-r2 / 40.0);
}

static void lake_at_rest(void)
{
    const double w0 = 0.2;
    enum { STEPS = 200 };
    for (int island = 0; island < 2; island++)
        for (int rk2 = 1; rk2 >= 0; rk2--) {
            prob r;
            prob_init(&r, 48, 40, 1.0, 1.0, island ? bed_island : bed_rough, CELL_WALL);
            r.p.rk2 = rk2;
            int dry = 0;
            for (int j = 1; j <= r.ny; j++)
                for (int i = 1; i <= r.nx; i++) {
                    size_t k = grid_at(r.nx, i, j);
                    r.h[k] = fmax(w0 - bij(&r, i, j), 0.0);
                    dry += r.h[k] == 0;
                }
            state s, c;
            double dts[STEPS], dev, q, cdev, cq, dh, dq;
            const char *name = rk2 ? "RK2" : "Euler";
            if (gpu_run(&r, STEPS, dts, 0, &s, NULL) != SWGL_OK) {
                CHECK(0, "lake at rest run");
                prob_free(&r);
                continue;
            }
            rest_dev(&r, &s, w0, &dev, &q);
            if (!island) {
                /* every face under water: KP is well balanced, the flux and the source cancel
                 * up to float rounding ((a+ F - a- F)/(a+ - a-) and g h^2/2 round): w ~ 0.5 m
                 * carries 3e-8 m, a few ulps per step that the scheme damps: measured ~1e-7 m
                 * and ~1e-7 m^2/s after 200 steps; bound 1e-5 */
                CHECK(dry == 0, "the rough bed is under water everywhere");
                CHECK_LE(dev, 1e-5, "lake at rest over a rough bed (%s, %d steps): max |w - w0| (m)", name, STEPS);
                CHECK_LE(q, 1e-5, "lake at rest over a rough bed (%s): max |q| (m^2/s)", name);
            } else if (cpu_replay(&r, STEPS, dts, &c) == 0) {
                /* an emerged island: along the shore KP is not well balanced (Brodtkorb 2.1:
                 * the positivity fix "violates the well-balancedness ... along the wet-dry
                 * interface, causing small initial waves"; a wet cell also feeds its dry
                 * neighbour through the face), so the lake moves by the scheme itself: the
                 * GPU must move it as the CPU double reference does (same steps) */
                rest_dev(&r, &c, w0, &cdev, &cq);
                rel_l1(&r, &s, &c, &dh, &dq);
                CHECK_LE(dev, 1.5 * cdev + 1e-5, "lake at rest with an emerged island (%s, %d steps): max |w - w0| "
                                                 "(m) within 1.5 x the CPU double's (%.3g m: the shore waves)",
                         name, STEPS, cdev);
                CHECK_LE(q, 1.5 * cq + 1e-5, "island (%s): max |q| within 1.5 x the CPU's (%.3g m^2/s)", name, cq);
                /* float vs double on a flow of cm-high waves (h ~ 0.8 m): the differences sit
                 * in q, whose size is the waves'; measured 3-6e-8 (h) and 2-4e-5 (q) on
                 * llvmpipe; bounds 1e-5 and 1e-3 */
                CHECK_LE(dh, 1e-5, "island (%s): GPU vs CPU double, relative L1 of h", name);
                CHECK_LE(dq, 1e-3, "island (%s): GPU vs CPU double, relative L1 of q", name);
                /* and the waves stay small: measured ~3 cm of w at most, at the shore */
                CHECK_LE(dev, 0.05, "island (%s): max |w - w0| (m) below 5 cm", name);
                state_free(&c);
            } else {
                CHECK(0, "cpu replay: %s", swgl_last_error());
            }
            state_free(&s);
            prob_free(&r);
        }
}

/* ---------- mass with walls ---------- */
static void mass(void)
{
    {
        prob r;
        prob_init(&r, 64, 56, 1.0, 1.0, bed_bump, CELL_WALL);
        dambreak_init(&r, 0.0, 0.0);   /* water 1 m deep on the west third, dry beyond */
        state s;
        double m0 = volume(&r, r.h);
        if (gpu_run(&r, 300, NULL, 0, &s, NULL) != SWGL_OK) {
            CHECK(0, "dam break run");
        } else {
            double m1 = volume(&r, s.h), hmin = INFINITY;
            for (size_t k = 0; k < s.n; k++)
                if (r.code[k] == CELL_ACTIVE) hmin = fmin(hmin, s.h[k]);
            /* each face's mass flux is added to one cell and taken from the other (each face
             * computed with the same bits on both sides); walls carry none;
             * what is left is the rounding of w + dt R_w per cell and step (~2^-24 w, random
             * sign: sqrt(cells x steps) x 6e-8 ~ 1e-4 of a cell's w, ~1e-7 of the volume)
             * and the clip of h < 0; measured 4.7e-8; bound 1e-6 relative */
            CHECK_LE(fabs(m1 - m0) / m0, 1e-6,
                     "dam break with walls, 300 RK2 steps: relative change of the volume");
            CHECK(hmin >= 0.0, "dam break: h >= 0 everywhere (min %g)", hmin);
            state_free(&s);
        }
        prob_free(&r);
    }
}

/* ---------- the clip, forced ---------- */
/* A film of 5 cm on a flat bed with walls, flowing away from the middle at 2 m/s both
 * ways, and a zero rain (so that the solver keeps its accounts, as with boundary data): one
 * Euler step of 6 times the bound empties the middle columns past their bed, far deeper than
 * h_dry (1e-5 m).  The clip books what it adds, so V_after - V_before = clip_added: in double
 * to float's rounding of the clip (each cell's clip is written to a float array and summed in
 * float: 1e-6 of it) and double's of the volume (1e-12); in float to the rounding of the rates
 * (each cell's R is float's and its rounding does not cancel over the cells: 1e-7 of the
 * volume, the bar, where the clip makes 1e-2), and no depth is left below -h_dry (a
 * deficit within h_dry, a rounding's, is carried in float: kp_integrate_fn.glsl; the Thacker
 * bowls of test_gpu_compute.sh measure it).  The step did clip: clip_added > 1e-3 m^3.  With
 * RK2 the same step's two stages: Q*'s clip counts half in Q^{n+1} and is booked half. */
static void clip_booked(int dbl, int rk2)
{
    prob r;
    const int nx = 24, ny = 8;
    prob_init(&r, nx, ny, 1.0, 1.0, bed_flat, CELL_WALL);
    r.p.rk2 = rk2;
    size_t n = grid_size(nx, ny);
    double *rain = calloc(n, sizeof(double));
    swe_forcing fo = {.rain = rain, .rain_series = -1};
    r.p.sw.forcing = &fo;
    for (int j = 1; j <= ny; j++)
        for (int i = 1; i <= nx; i++) {
            size_t k = grid_at(nx, i, j);
            r.h[k] = 0.05;
            r.qx[k] = 0.1 * (i <= nx / 2 ? -1.0 : 1.0);
        }
    kp_gpu *g = NULL;
    swe_account a;
    memset(&a, 0, sizeof a);
    state s;
    state_alloc(&s, &r);
    double b = 0, v0 = volume(&r, r.h);
    swgl_status st = kp_gpu_create_prec(&r.p, dbl, &g);
    if (st == SWGL_OK) st = kp_gpu_set_state(g, r.h, r.qx, r.qy);
    if (st == SWGL_OK) {
        kp_gpu_set_time(g, 0.0, 100.0);
        st = kp_gpu_rates(g, 0, &b);
    }
    if (st == SWGL_OK) st = kp_gpu_apply(g, 0, 6 * b);
    if (st == SWGL_OK && rk2) {   /* (RK2: Q* counts half in Q^{n+1}, so its clip is booked half) */
        double b1;
        if ((st = kp_gpu_rates(g, 1, &b1)) == SWGL_OK) st = kp_gpu_apply(g, 1, 6 * b);
    }
    if (st == SWGL_OK) st = kp_gpu_get_state(g, s.h, s.qx, s.qy);
    if (st == SWGL_OK && (st = swe_account_init(&a, &fo)) == SWGL_OK) kp_gpu_account(g, &a);
    double v1 = volume(&r, s.h), hmin = INFINITY;
    for (int j = 1; j <= ny; j++)
        for (int i = 1; i <= nx; i++) hmin = fmin(hmin, s.h[grid_at(nx, i, j)]);
    if (!CHECK(st == SWGL_OK, "%s%s: a step of 6 x the bound (%g s): %s", dbl ? "double" : "float", rk2 ? ", RK2" : "", 6 * b,
               st ? swgl_last_error() : "ok")) {
    } else {
        const char *pr = dbl ? (rk2 ? "double, RK2" : "double") : (rk2 ? "float, RK2" : "float");
        CHECK(a.clip > 1e-3, "%s: the step clipped, and the clip is booked: clip_added %.6g m^3", pr, a.clip);
        CHECK_LE(fabs((v1 - v0) - a.clip), dbl ? 1e-6 * a.clip + 1e-12 * v0 : 1e-7 * v0,
                 "%s: the volume made (%.6g m^3) is the clip booked (%.6g m^3)", pr, v1 - v0, a.clip);
        CHECK(hmin >= -1e-5, "%s: no depth below -h_dry (least %.3g m)", pr, hmin);
    }
    swe_account_free(&a);
    kp_gpu_destroy(g);
    state_free(&s);
    free(rain);
    prob_free(&r);
}

/* A bed at 1000.3 m + 0.013 x (its float not its double: |B| > 256 m, where half an ulp of
 * B is above h_dry), half of it under 0.1 m of water, half dry: set_state splits the surface
 * over the float bed the passes hold, so a dry cell reads back a depth of exactly 0 (split
 * over the double bed it read back B - float(B), up to 3e-5 m: water, or a deficit past
 * h_dry, out of nothing), and after 20 steps the cells the wave has not reached (a quarter of
 * the width away) are still exactly 0. */
static double bed_high(double x, double y)
{
    (void)y;
    return 1000.3 + 0.013 * x;
}

static void dry_high_bed(int dbl)
{
    prob r;
    const int nx = 32, ny = 6;
    prob_init(&r, nx, ny, 1.0, 1.0, bed_high, CELL_WALL);
    for (int j = 1; j <= ny; j++)
        for (int i = 1; i <= nx / 4; i++) r.h[grid_at(nx, i, j)] = 0.1;
    state s;
    state_alloc(&s, &r);
    kp_gpu *g = NULL;
    swgl_status st = kp_gpu_create_prec(&r.p, dbl, &g);
    if (st == SWGL_OK) st = kp_gpu_set_state(g, r.h, r.qx, r.qy);
    if (st == SWGL_OK) st = kp_gpu_get_state(g, s.h, s.qx, s.qy);
    double dry0 = 0, wet0 = 0, dry1 = 0;
    for (int j = 1; j <= ny; j++)
        for (int i = 1; i <= nx; i++) {
            size_t k = grid_at(nx, i, j);
            if (i <= nx / 4) wet0 = fmax(wet0, fabs(s.h[k] - 0.1));
            else dry0 = fmax(dry0, fabs(s.h[k]));
        }
    if (st == SWGL_OK) st = gpu_steps(g, 20, NULL, 0);
    if (st == SWGL_OK) st = kp_gpu_get_state(g, s.h, s.qx, s.qy);
    for (int j = 1; j <= ny; j++)
        for (int i = nx / 2; i <= nx; i++) dry1 = fmax(dry1, fabs(s.h[grid_at(nx, i, j)]));
    const char *pr = dbl ? "double" : "float";
    CHECK(st == SWGL_OK, "%s, bed at 1000 m: set, read back, 20 steps: %s", pr, st ? swgl_last_error() : "ok");
    CHECK(dry0 == 0, "%s: the dry cells read back a depth of exactly 0 (largest |h| %g m)", pr, dry0);
    CHECK_LE(wet0, 1e-12, "%s: the wet cells read back 0.1 m (to the pair's rounding)", pr);
    CHECK(dry1 == 0, "%s: after 20 steps the cells the wave has not reached are still dry (largest |h| %g m)", pr, dry1);
    kp_gpu_destroy(g);
    state_free(&s);
    prob_free(&r);
}

int main(void)
{
    gpu_context *ctx = kp_test_begin();
    lake_at_rest();
    mass();
    clip_booked(0, 0);
    clip_booked(0, 1);
    dry_high_bed(0);
    if (gpu_context_info(ctx)->has_fp64) clip_booked(1, 0), clip_booked(1, 1), dry_high_bed(1);
    gpu_context_destroy(ctx);
    return check_done();
}
