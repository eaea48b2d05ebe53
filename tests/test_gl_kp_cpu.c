/* test_gl_kp_cpu.c — the Kurganov-Petrova scheme on the GPU (float) against the scalar
 * CPU solver (double) with the same steps, on small grids built by hand (gl_kp_util.h):
 *  - a dam break over a bump, without friction, with one Manning n and with n varying:
 *    the bound of each step and the states;
 *  - a masked domain (an inactive block inside) with free outlets. */
#include "gl_kp_util.h"

/* ---------- 6. GPU vs CPU ---------- */
static void gpu_vs_cpu(void)
{
    for (int fr = 0; fr < 3; fr++) {   /* no friction, one n, n varying (texture) */
        prob r;
        prob_init(&r, 64, 48, 1.0, 1.0, bed_bump, CELL_WALL);
        dambreak_init(&r, 0.5, 0.0);
        size_t n = grid_size(r.nx, r.ny);
        if (fr) {
            r.manning = malloc(n * sizeof(double));
            for (size_t k = 0; k < n; k++) r.manning[k] = fr == 1 ? 0.03 : 0.02 + 0.02 * (double)(k % 7) / 6.0;
            r.p.manning = r.manning;
        }
        enum { STEPS = 150 };
        double dts[STEPS];
        state g;
        if (gpu_run(&r, STEPS, dts, 0, &g, NULL) != SWGL_OK) {
            CHECK(0, "gpu run");
            prob_free(&r);
            continue;
        }
        kp_cpu *c = kp_cpu_create(&r.p, KP_CPU_SCALAR);
        CHECK(c != NULL, "kp_cpu_create: %s", swgl_last_error());
        if (c) {
            state s;
            state_alloc(&s, &r);
            kp_cpu_set_state(c, r.h, r.qx, r.qy);
            int bad = 0;
            double bmax = 0;
            for (int k = 0; k < STEPS && !bad; k++) {
                double b = kp_cpu_rates(c, 0);
                bmax = fmax(bmax, fabs(b - dts[k]) / dts[k]);
                bad |= kp_cpu_apply(c, 0, dts[k]);
                for (int st = 1; st < kp_cpu_stages(c) && !bad; st++) {
                    kp_cpu_rates(c, st);
                    bad |= kp_cpu_apply(c, st, dts[k]);
                }
            }
            kp_cpu_get_state(c, s.h, s.qx, s.qy);
            double dh, dq;
            rel_l1(&r, &g, &s, &dh, &dq);
            const char *what[3] = {"no friction", "Manning n = 0.03", "n varying (texture)"};
            CHECK(!bad, "cpu run");
            /* the GPU's own bounds against the CPU's on the CPU's states: float vs double */
            CHECK_LE(bmax, 1e-4, "GPU vs CPU (%s): the stability bound of each step, max relative difference",
                     what[fr]);
            /* float vs double through 150 RK2 steps of a dam break over a bump with a wet /
             * dry front: rounding starts at 1e-7 and grows at the front and the bore;
             * measured 1.8e-7 (h) and 5e-7 (q) on llvmpipe; bounds 1e-4 and 1e-3 */
            CHECK_LE(dh, 1e-4, "GPU (float) vs CPU scalar (double), dam break over a bump, %s, 150 RK2 steps of the "
                               "same dt: relative L1 of h", what[fr]);
            CHECK_LE(dq, 1e-3, "GPU vs CPU (%s): relative L1 of q", what[fr]);
            state_free(&s);
        }
        kp_cpu_destroy(c);
        state_free(&g);
        prob_free(&r);
    }
}

/* ---------- 6b. a masked domain, free outlets ---------- */
/* An inactive block inside the domain (walls of any shape come from cell codes) and a free
 * east side: GPU vs CPU double with the same steps. */
static void masked(void)
{
    prob r;
    prob_init(&r, 56, 48, 1.0, 1.0, bed_bump, CELL_WALL);
    unsigned char *active = malloc((size_t)r.nx * r.ny), *side[4], *wall = malloc(56), *freev = malloc(56);
    memset(wall, CELL_WALL, 56);
    memset(freev, CELL_FREE, 56);
    side[0] = wall, side[1] = freev, side[2] = wall, side[3] = freev;
    for (int j = 0; j < r.ny; j++)
        for (int i = 0; i < r.nx; i++) active[(size_t)j * r.nx + i] = !(i >= 25 && i < 31 && j >= 10 && j < 30);
    grid_codes(r.nx, r.ny, active, side, r.code);
    free(active);
    free(wall);
    free(freev);
    dambreak_init(&r, 0.6, 0.0);
    for (size_t k = 0; k < grid_size(r.nx, r.ny); k++)
        if (r.code[k] != CELL_ACTIVE) r.h[k] = 0;
    enum { STEPS = 150 };
    double dts[STEPS];
    state g, c;
    if (gpu_run(&r, STEPS, dts, 0, &g, NULL) == SWGL_OK && cpu_replay(&r, STEPS, dts, &c) == 0) {
        double dh, dq, mass = volume(&r, g.h), out = 0;
        rel_l1(&r, &g, &c, &dh, &dq);
        out = fabs(mass - volume(&r, c.h)) / volume(&r, c.h);
        /* as gpu_vs_cpu: float vs double through a dam break around an obstacle */
        CHECK_LE(dh, 1e-4, "masked domain (an inactive block inside, free north and east), 150 RK2 steps: GPU vs "
                           "CPU double, relative L1 of h");
        CHECK_LE(dq, 1e-3, "masked domain: GPU vs CPU double, relative L1 of q");
        CHECK_LE(out, 1e-6, "masked domain: the volumes agree (what left through the free sides)");
        state_free(&g);
        state_free(&c);
    } else CHECK(0, "masked runs: %s", swgl_last_error());
    prob_free(&r);
}

int main(void)
{
    gpu_context *ctx = kp_test_begin();
    gpu_vs_cpu();
    masked();
    gpu_context_destroy(ctx);
    return check_done();
}
