/* test_hydrograph_mean.c — the exact mean of a piecewise-linear series over a step
 * (hydrograph.h hydrograph_mean, gpgpu/base/swgl_series.h) against integrals worked by
 * hand: a step inside one row interval, across a breakpoint, before the first row, past
 * the last, across a thousand rows, dt = 0, a one-row series; and the property the
 * solvers rely on: dt mean summed over any steps is the series' integral.
 * Tolerances: each mean is a sum of a few pieces, each a product and a sum of numbers
 * of the size of the result, so it is good to a few ulp: 1e-14 relative (about 45 ulp);
 * the sum over N steps rounds a few times per step, at random: sqrt(N) eps ~ 1e-14 at
 * N ~ 2000, held to 1e-12 (the sampled rule misses by 7e-7 here). */
#include "check.h"
#include "hydrograph.h"

#define REL(a, b) (fabs((a) - (b)) / fabs(b))

int main(void)
{
    double tt[] = {0, 50, 100}, tv[] = {0, 10, 0};   /* the triangle: 500 m^3 */
    hydrograph tri = {3, tt, tv};
    /* inside one interval: the value at the midpoint, 15 / 5 = 3 */
    CHECK_LE(REL(hydrograph_mean(&tri, 10, 10), 3.0), 1e-14, "[10, 20]: 3 (%.17g)", hydrograph_mean(&tri, 10, 10));
    /* across the peak: (8 + 10)/2 10 + (10 + 8)/2 10 = 180 over 20 s */
    CHECK_LE(REL(hydrograph_mean(&tri, 40, 20), 9.0), 1e-14, "[40, 60] across the peak: 9 (%.17g)",
             hydrograph_mean(&tri, 40, 20));
    /* the whole series and beyond, 0 outside: 500 over 120 s */
    CHECK_LE(REL(hydrograph_mean(&tri, -10, 120), 500.0 / 120), 1e-14, "[-10, 110]: 500 / 120 (%.17g)",
             hydrograph_mean(&tri, -10, 120));
    /* dt = 0 (and < 0): the value at t */
    CHECK_LE(REL(hydrograph_mean(&tri, 25, 0), 5.0), 1e-14, "dt = 0 at 25: 5 (%.17g)", hydrograph_mean(&tri, 25, 0));
    CHECK_LE(REL(hydrograph_mean(&tri, 75, -1), 5.0), 1e-14, "dt < 0 at 75: 5 (%.17g)",
             hydrograph_mean(&tri, 75, -1));

    /* before the first row (the first value): (10, 4), (20, 8) over [0, 15]: 10 x 4 + 5 x
     * (4 + 6)/2 = 65 over 15 */
    double bt[] = {10, 20}, bv[] = {4, 8};
    hydrograph b = {2, bt, bv};
    CHECK_LE(REL(hydrograph_mean(&b, 0, 15), 65.0 / 15), 1e-14, "before the first row: 65/15 (%.17g)",
             hydrograph_mean(&b, 0, 15));
    /* both ends outside (the first value before, the last after): [5, 25]: [5, 10] 4 x 5
     * = 20, [10, 20] 10 x (4 + 8)/2 = 60, [20, 25] 8 x 5 = 40: 120 over 20 */
    CHECK_LE(REL(hydrograph_mean(&b, 5, 20), 6.0), 1e-14, "both outside ends: 6 (%.17g)", hydrograph_mean(&b, 5, 20));
    CHECK_LE(REL(hydrograph_mean(&b, 30, 5), 8.0), 1e-14, "wholly past the end: 8 (%.17g)", hydrograph_mean(&b, 30, 5));
    CHECK_LE(REL(hydrograph_mean(&b, -30, 5), 4.0), 1e-14, "wholly before: 4 (%.17g)", hydrograph_mean(&b, -30, 5));

    /* a step across 999 rows: a zigzag v_k = k mod 2 at t_k = k, k = 0..1000; over [0.5,
     * 999.5]: 500 for [0, 1000] less 0.125 at each end, over 999 s */
    static double zt[1001], zv[1001];
    for (int k = 0; k <= 1000; k++) zt[k] = k, zv[k] = k % 2;
    hydrograph z = {1001, zt, zv};
    CHECK_LE(REL(hydrograph_mean(&z, 0.5, 999), 499.75 / 999), 1e-14, "999 rows in the step: 499.75/999 (%.17g)",
             hydrograph_mean(&z, 0.5, 999));

    /* one row: the constant */
    double ot[] = {3}, ov[] = {7};
    hydrograph one = {1, ot, ov};
    CHECK(hydrograph_mean(&one, 0, 10) == 7.0 && hydrograph_at(&one, 100) == 7.0, "one row: 7 everywhere");

    /* the solvers' sum: steps of irregular size from 0 to 120 (a run's t += dt), dt mean
     * each: the triangle's 500 to 1e-12 (N = 1000 steps, one rounding each) */
    double t = 0, sum = 0;
    int n = 0;
    for (; t < 120; n++) {
        double dt = 0.07 + 0.05 * sin(n * 1.3);
        if (t + dt > 120) dt = 120 - t;
        sum += dt * hydrograph_mean(&tri, t, dt);
        t += dt;
    }
    CHECK_LE(REL(sum, 500.0), 1e-12, "%d steps of dt mean: 500 m^3 (%.17g, %.2e)", n, sum, REL(sum, 500.0));
    /* the sampled rule it replaces (dt f(t)) misses by O(dt): it must fail the same bound,
     * or the check above could not tell the two apart */
    t = 0, sum = 0;
    for (n = 0; t < 120; n++) {
        double dt = 0.07 + 0.05 * sin(n * 1.3);
        if (t + dt > 120) dt = 120 - t;
        sum += dt * hydrograph_at(&tri, t);
        t += dt;
    }
    CHECK(REL(sum, 500.0) > 1e-8, "sampling at t misses by %.2e (> 1e-8: 1e4 x the bound above)", REL(sum, 500.0));
    return check_done();
}
