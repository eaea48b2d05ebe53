/* test_gl_hllc_cpu.c — the HLLC scheme on the GPU against the reference, cpu-scalar: a dam
 * break over a bump (the dambreak case: a breached dam, an island that emerges, walls) at
 * 50^2 with Manning friction, the GPU and the CPU stepped together with the CPU's dt; float
 * and (with fp64) double. */
#include "gl_hllc_util.h"

static void dambreak(const gpu_info *info, int dbl)
{
    const char *sets[] = {"domain.nx=50", "domain.ny=50", "domain.dx=4", "domain.dy=4", "friction.manning=0.03"};
    enum { STEPS = 100 };   /* t ~ 10 s: the wave has passed the island and reached the walls */
    enum backend bs[2] = {BACKEND_GPU, BACKEND_CPU_SCALAR};
    scheme_config cfg[2] = {hllc_gpu_cfg(info, dbl), {0}};
    result r[2];
    double bound_diff;
    if (hllc_steps("dambreak", sets, 5, STEPS, 2, bs, cfg, r, &bound_diff, NULL)) {
        CHECK(0, "dam break run (%s)", dbl ? "double" : "float");
        return;
    }
    double d[3];
    rel_l1(&r[0], &r[1], d);
    /* float: the face in float (test_gl_hllc_face: ~1e-7 of its scale) through 100 steps
       of a flow with a front, a dry island's shore and friction; the float CPU solver is
       within 1e-5 of cpu-scalar in h on such runs (test_hllc_cpu.c; the program's
       --compare measured 6.8e-9 at 200^2): bounds 1e-5 (h) and 1e-4 (q, relatively larger
       where the flow is slow).  double: the same operations; sqrt, division and the cube
       root rounded by the driver, amplified where the shore's wet/dry tests flip: bound
       1e-9.  The bound (H5) goes through a float image in either precision (gpgpu's
       reduction and clock are float4; roe_gpu.c): 2^-24 = 6e-8 relative, bound 1.2e-7 in
       double (two float roundings), 1e-5 in float */
    double bh = dbl ? 1e-9 : 1e-5, bq = dbl ? 1e-9 : 1e-4, bb = dbl ? 1.2e-7 : 1e-5;
    const char *p = dbl ? "double" : "float";
    CHECK_LE(d[0], bh, "GPU (%s) vs cpu-scalar, hllc dam break over a bump with friction, 50^2, %d steps: relative "
                       "L1 of h, bound %g", p, STEPS, bh);
    CHECK_LE(fmax(d[1], d[2]), bq, "... relative L1 of qx %.3g, qy %.3g, bound %g", d[1], d[2], bq);
    CHECK_LE(bound_diff, bb, "... the bound (H5): largest relative difference over the steps, bound %g", bb);
    for (int m = 0; m < 2; m++) result_free(&r[m]);
}

int main(void)
{
    gpu_context *ctx = test_gl_context();
    const gpu_info *info = gpu_context_info(ctx);
    dambreak(info, 0);
    if (info->has_fp64) dambreak(info, 1);
    else printf("skip  double: the renderer '%s' lacks GL_ARB_gpu_shader_fp64\n", info->renderer);
    gpu_context_destroy(ctx);
    return check_done();
}
