/* test_roe_dambreak.c — 1-D dam breaks on a 1-row channel (10 m, dam at x = 5 m,
 * walls all round, flat bed) against the exact solutions of cpu_ref/swe_exact.h:
 * Stoker (wet bed, h_L = 1, h_R = 0.5, t = 0.8 s) and Ritter (dry bed, h_L = 1,
 * h_R = 0, t = 0.5 s), at 200, 400 and 800 cells, both solvers.  The L1 error of h
 * must fall with refinement at an observed order in a stated range; Ritter keeps
 * h >= 0 with mass conserved (no depth was clipped). */
#include "check.h"
#include "roe_cpu.h"
#include "swe_exact.h"

#include <math.h>
#include <stdlib.h>

static const double G = 9.81, L = 10.0, X0 = 5.0;

/* L1 error of h (m^2) at t_end; min depth over all steps; relative mass change */
static int dambreak(enum roe_cpu_kind kind, int nx, double hl, double hr, double t_end,
                    double *l1, double *min_h, double *dmass)
{
    const size_t w = (size_t)grid_stride(nx), n = 3 * w;
    double *H = calloc(n, sizeof(double)), *h = calloc(n, sizeof(double));
    double *qx = calloc(n, sizeof(double)), *qy = calloc(n, sizeof(double));
    unsigned char *code = calloc(n, 1);
    const double dx = L / nx;
    for (size_t k = 0; k < n; k++) {
        size_t i = k % w, j = k / w;
        int ring = i == 0 || i == w - 1 || j != 1;
        code[k] = ring ? CELL_WALL : CELL_ACTIVE;
        double x = ((double)i - 0.5) * dx;
        h[k] = ring ? 0.0 : (x < X0 ? hl : hr);
    }
    swe_problem p = {.nx = nx, .ny = 1, .dx = dx, .dy = 1.0, .g = G, .cfl = 0.9, .h_dry = 1e-8,
                     .H = H, .code = code};
    roe_cpu *s = roe_cpu_create(&p, kind);
    int steps = 0;
    double m0 = 0.0, m1 = 0.0;
    for (size_t i = 1; i <= (size_t)nx; i++) m0 += h[w + i];
    *min_h = INFINITY;
    if (s) {
        roe_cpu_set_state(s, h, qx, qy);
        double t = 0.0;
        while (t < t_end) {
            double dt = roe_cpu_step(s, t_end - t);
            if (!(dt > 0.0)) { steps = -1; break; }
            t += dt;
            steps++;
            roe_cpu_get_state(s, h, qx, qy);
            for (size_t i = 1; i <= (size_t)nx; i++) *min_h = fmin(*min_h, h[w + i]);
        }
        roe_cpu_destroy(s);
    } else {
        printf("create: %s\n", swgl_last_error());
        steps = -1;
    }
    *l1 = 0.0;
    for (size_t i = 1; i <= (size_t)nx; i++) {
        double x = ((double)i - 0.5) * dx, he, ue;
        swe_exact_dambreak(hl, hr, G, X0, x, t_end, &he, &ue);
        *l1 += fabs(h[w + i] - he) * dx;
        m1 += h[w + i];
    }
    *dmass = fabs(m1 - m0) / m0;
    free(H); free(h); free(qx); free(qy); free(code);
    return steps;
}

int main(void)
{
    static const char *kname[2] = {"scalar", "fast"};
    static const int res[3] = {200, 400, 800};

    /* the exact solutions themselves */
    double hm = swe_exact_stoker_hm(1.0, 0.5, G);
    double cl = sqrt(G), cm = sqrt(G * hm), um = 2.0 * (cl - cm);
    double s = swe_exact_stoker_shock_speed(1.0, 0.5, G);
    CHECK_NEAR(um, (hm - 0.5) * sqrt(0.5 * G * (hm + 0.5) / (hm * 0.5)), 1e-12,
               "Stoker middle state: rarefaction and shock give the same velocity (bisection to 1e-12)");
    CHECK_NEAR(s * (hm - 0.5), hm * um, 1e-12, "Stoker shock: mass jump condition s [h] = [h u] (rounding)");
    CHECK_NEAR(s * (hm * um), hm * um * um + 0.5 * G * (hm * hm - 0.25), 1e-11,
               "Stoker shock: momentum jump condition s [hu] = [h u^2 + g h^2/2] (rounding)");
    printf("       Stoker h_L = 1, h_R = 0.5: h_m = %.6f, u_m = %.6f, shock speed %.6f\n", hm, um, s);

    for (int kind = 0; kind < 2; kind++) {
        double e[3], order[2], mh, dm;
        /* Stoker: L1 error of h at t = 0.8 s */
        for (int r = 0; r < 3; r++) {
            int n = dambreak((enum roe_cpu_kind)kind, res[r], 1.0, 0.5, 0.8, &e[r], &mh, &dm);
            CHECK(n > 0, "%s Stoker nx = %d: %d steps, no NaN", kname[kind], res[r], n);
        }
        for (int r = 0; r < 2; r++) order[r] = log2(e[r] / e[r + 1]);
        printf("       %s Stoker L1(h): %.4g %.4g %.4g, observed orders %.3f %.3f\n", kname[kind], e[0], e[1],
               e[2], order[0], order[1]);
        CHECK(e[1] < e[0] && e[2] < e[1], "%s Stoker: L1 error falls with refinement", kname[kind]);
        for (int r = 0; r < 2; r++)
            CHECK(order[r] > 0.6 && order[r] < 1.2, "%s Stoker: observed order %.3f in (0.6, 1.2) (first order, "
                  "shock + rarefaction: ~0.8 expected)", kname[kind], order[r]);
        CHECK_LE(e[2], 0.02, "%s Stoker: L1(h) at 800 cells below 0.02 m^2 (0.2%% of the 10 m^2 of water)",
                 kname[kind]);

        /* Ritter: L1 error, positivity, mass */
        for (int r = 0; r < 3; r++) {
            int n = dambreak((enum roe_cpu_kind)kind, res[r], 1.0, 0.0, 0.5, &e[r], &mh, &dm);
            CHECK(n > 0, "%s Ritter nx = %d: %d steps, no NaN", kname[kind], res[r], n);
            CHECK(mh >= 0.0, "%s Ritter nx = %d: h >= 0 at every step (min %g)", kname[kind], res[r], mh);
            CHECK_LE(dm, kind == 0 ? 1e-13 : 1e-5, "%s Ritter nx = %d: relative mass change at rounding "
                     "(double 1e-13, float 1e-5), so no negative depth was clipped", kname[kind], res[r]);
        }
        for (int r = 0; r < 2; r++) order[r] = log2(e[r] / e[r + 1]);
        printf("       %s Ritter L1(h): %.4g %.4g %.4g, observed orders %.3f %.3f\n", kname[kind], e[0], e[1],
               e[2], order[0], order[1]);
        CHECK(e[1] < e[0] && e[2] < e[1], "%s Ritter: L1 error falls with refinement", kname[kind]);
        for (int r = 0; r < 2; r++)
            CHECK(order[r] > 0.4 && order[r] < 1.2, "%s Ritter: observed order %.3f in (0.4, 1.2) (first order "
                  "at a dry front: 0.5-1)", kname[kind], order[r]);
    }
    return check_done();
}
