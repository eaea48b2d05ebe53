/* test_gl_kp_double.c — the Kurganov-Petrova scheme on the GPU in double precision (skipped,
 * 77, where the renderer lacks GL_ARB_gpu_shader_fp64), on small grids built by hand
 * (gl_kp_util.h): against the CPU double solver to double rounding (with friction), the
 * lake at rest, early exit on vs off bit for bit (the faces flux variant it also compared
 * was removed, issue 25). */
#include "gl_kp_util.h"

/* ---------- 8. double precision (GL_ARB_gpu_shader_fp64) ---------- */
/* The same passes in double: against the CPU scalar solver (double) with the same steps
 * they agree to double rounding; early exit as in float. */
static void double_precision(void)
{
    g_double = 1;
    enum { STEPS = 120 };
    for (int fr = 0; fr < 2; fr++) {
        prob r;
        prob_init(&r, 48, 40, 1.0, 1.0, bed_bump, CELL_WALL);
        dambreak_init(&r, 0.5, 0.0);
        if (fr) {
            size_t n = grid_size(r.nx, r.ny);
            r.manning = malloc(n * sizeof(double));
            for (size_t k = 0; k < n; k++) r.manning[k] = 0.02 + 0.02 * (double)(k % 7) / 6.0;
            r.p.manning = r.manning;
        }
        r.p.early_exit = KP_EARLY_EXIT_ON;
        double dts[STEPS];
        state g, c, f;
        if (gpu_run(&r, STEPS, dts, 0, &g, NULL) == SWGL_OK && cpu_replay(&r, STEPS, dts, &c) == 0) {
            double dh, dq;
            rel_l1(&r, &g, &c, &dh, &dq);
            /* double on both sides, the same operations in the same order (no fused
             * multiply-add on llvmpipe; a GPU may fuse: a few ulps per step); friction's
             * h^(1/3) by Newton steps: measured ~1e-15; bound 1e-11 */
            CHECK_LE(dh, 1e-11, "double: GPU vs CPU scalar, dam break over a bump%s, %d RK2 steps of the same dt: "
                                "relative L1 of h", fr ? " with Manning n varying" : "", STEPS);
            CHECK_LE(dq, 1e-10, "double: GPU vs CPU scalar%s: relative L1 of q", fr ? " (friction)" : "");
            r.p.early_exit = KP_EARLY_EXIT_OFF;
            if (gpu_run(&r, STEPS, dts, 1, &f, NULL) == SWGL_OK) {
                rel_l1(&r, &f, &g, &dh, &dq);
                /* the same passes on the same tiles (early exit skips only dry tiles, whose
                 * state it fills with zeros as computing them gives): was 1e-12 when the
                 * other side was the faces variant; the same bound here */
                CHECK_LE(dh, 1e-12, "double%s: without early exit vs with it, relative L1 of h (identical bits: %s)",
                         fr ? " (friction)" : "", same_bits(&f, &g) ? "yes" : "no");
                state_free(&f);
            } else CHECK(0, "double run without early exit: %s", swgl_last_error());
            state_free(&g);
            state_free(&c);
        } else CHECK(0, "double runs: %s", swgl_last_error());
        prob_free(&r);
    }
    /* early exit on vs off, bit for bit, and the lake at rest */
    {
        prob r;
        prob_init(&r, 48, 40, 1.0, 1.0, bed_rough, CELL_WALL);
        for (int j = 1; j <= r.ny; j++)
            for (int i = 1; i <= r.nx; i++) r.h[grid_at(r.nx, i, j)] = fmax(0.2 - bij(&r, i, j), 0.0);
        state s;
        double dev, q;
        if (gpu_run(&r, 100, NULL, 0, &s, NULL) == SWGL_OK) {
            rest_dev(&r, &s, 0.2, &dev, &q);
            /* double rounding (w ~ 0.5 m: 6e-17 m) through 100 steps: measured ~1e-16; bound 1e-12 */
            CHECK_LE(dev, 1e-12, "double: lake at rest over a rough bed, 100 RK2 steps: max |w - w0| (m)");
            CHECK_LE(q, 1e-12, "double: lake at rest: max |q| (m^2/s)");
            state_free(&s);
        } else CHECK(0, "double lake: %s", swgl_last_error());
        prob_free(&r);
        prob_init(&r, 80, 72, 1.0, 1.0, bed_bump, CELL_WALL);
        for (int j = 1; j <= r.ny; j++)
            for (int i = 1; i <= r.nx; i++) {
                double x = i - 0.5 - 30, y = j - 0.5 - 33;
                r.h[grid_at(r.nx, i, j)] = x * x + y * y < 36 ? 1.0 : 0.0;
            }
        state e[2];
        r.p.early_exit = KP_EARLY_EXIT_OFF;
        int ok = gpu_run(&r, 60, NULL, 0, &e[0], NULL) == SWGL_OK;
        r.p.early_exit = KP_EARLY_EXIT_ON;
        {
            int ok1 = ok && gpu_run(&r, 60, NULL, 0, &e[1], NULL) == SWGL_OK;
            CHECK(ok1 && same_bits(&e[0], &e[1]), "double: early exit on vs off, 60 RK2 steps: identical bits");
            if (ok1) state_free(&e[1]);
        }
        if (ok) state_free(&e[0]);
        prob_free(&r);
    }
    g_double = 0;
}

int main(void)
{
    gpu_context *ctx = kp_test_begin();
    if (!gpu_context_info(ctx)->has_fp64) {
        gpu_context_destroy(ctx);
        check_skip("double precision: the renderer lacks GL_ARB_gpu_shader_fp64");
    }
    double_precision();
    gpu_context_destroy(ctx);
    return check_done();
}
