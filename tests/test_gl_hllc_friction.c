/* test_gl_hllc_friction.c — the HLLC scheme's Manning friction on the GPU (hllc_cpu.h (H7),
 * roe_update.glsl ROE_MANNING): a uniform flow (flat bed, h = 1 m, qx = 2 m^2/s, free
 * boundaries all round, so every face's fluxes cancel and only friction acts) slows down
 * as the semi-implicit recurrence q <- q / (1 + dt g n^2 |u| / h^(4/3)) says, on the GPU
 * (float and, with fp64, double) and on cpu-scalar, stepped together with cpu-scalar's dt;
 * h stays 1 and qy 0. */
#include "gl_hllc_util.h"

enum { STEPS = 100 };

static void uniform_flow(const gpu_info *info, int dbl)
{
    const char *sets[] = {"domain.nx=20", "domain.ny=10", "domain.dx=1", "domain.dy=1", "domain.bed=0",
                          "domain.mask=1", "initial.eta=1", "initial.qx=2", "boundary.west=free",
                          "boundary.east=free", "boundary.south=free", "boundary.north=free",
                          "friction.manning=0.05"};
    enum backend bs[2] = {BACKEND_GPU, BACKEND_CPU_SCALAR};
    scheme_config cfg[2] = {hllc_gpu_cfg(info, dbl), {0}};
    result r[2];
    static double dts[STEPS];
    if (hllc_steps("dambreak", sets, 13, STEPS, 2, bs, cfg, r, NULL, dts)) {
        CHECK(0, "uniform flow run (%s)", dbl ? "double" : "float");
        return;
    }
    /* the recurrence (hllc_solver_body.h friction): h = 1 m > kappa = 0.01 m, so the
       desingularized velocity is q sqrt(2) h / sqrt(2 h^4) = q / h */
    double q = 2.0, g = 9.81, n = 0.05, h = 1.0, kap = 0.01;
    for (int k = 0; k < STEPS; k++) {
        double h4 = h * h * h * h, k4 = kap * kap * kap * kap;
        double u = 1.4142135623730951 * h / sqrt(h4 + fmax(h4, k4)) * q;
        q = q / (1.0 + dts[k] * g * n * n * fabs(u) / (h * cbrt(h)));
    }
    double eq[2] = {0, 0}, eh[2] = {0, 0}, ey[2] = {0, 0};
    for (int m = 0; m < 2; m++)
        for (size_t k = 0; k < grid_size(r[m].nx, r[m].ny); k++) {
            if (r[m].code[k] != CELL_ACTIVE) continue;
            eq[m] = fmax(eq[m], fabs(r[m].qx[k] - q) / q);
            eh[m] = fmax(eh[m], fabs(r[m].h[k] - 1.0));
            ey[m] = fmax(ey[m], fabs(r[m].qy[k]));
        }
    printf("      uniform flow, %d steps (t = %.3g s): qx 2 -> %.6f m^2/s\n", STEPS, STEPS * dts[0], q);
    CHECK(q < 1.9, "the flow slows down (qx %.4f < 1.9 m^2/s): friction acts", q);
    /* cpu-scalar runs the recurrence's operations in the same order: a few ulp over 100
       steps (the face terms cancel to rounding), bound 1e-13 */
    CHECK_LE(eq[1], 1e-13, "cpu-scalar: max relative |qx - recurrence|, bound 1e-13");
    /* GPU float: each step rounds q, the sum of the faces' terms (each ~ g h^2 / 2 = 4.9,
       cancelling to rounding: ~1e-6 / q) and the friction factor: ~3 ulp a step, 100 steps
       -> 100 x 3 x 2^-24 = 1.8e-5; bound 5e-5.  double: the same in double, bound 1e-12 */
    double b = dbl ? 1e-12 : 5e-5, bh = dbl ? 1e-12 : 1e-5;
    const char *p = dbl ? "double" : "float";
    CHECK_LE(eq[0], b, "GPU (%s): max relative |qx - recurrence| over the cells, bound %g", p, b);
    CHECK_LE(eh[0], bh, "GPU (%s): max |h - 1| (m), bound %g (the faces' mass fluxes cancel)", p, bh);
    CHECK_LE(ey[0], bh, "GPU (%s): max |qy| (m^2/s), bound %g", p, bh);
    for (int m = 0; m < 2; m++) result_free(&r[m]);
}

int main(void)
{
    gpu_context *ctx = test_gl_context();
    const gpu_info *info = gpu_context_info(ctx);
    uniform_flow(info, 0);
    if (info->has_fp64) uniform_flow(info, 1);
    else printf("skip  double: the renderer '%s' lacks GL_ARB_gpu_shader_fp64\n", info->renderer);
    gpu_context_destroy(ctx);
    return check_done();
}
