/* test_gl_hllc_rest.c — the HLLC scheme on the GPU keeps a lake at rest (hydrostatic
 * reconstruction, Audusse et al. 2004, hllc_cpu.h (H1)-(H4)): the lake-at-rest case (a
 * bumpy bed with an emerged island, walls), 200 steps of the bound, float and (with fp64)
 * double. */
#include "gl_hllc_util.h"

static void lake(const gpu_info *info, int dbl)
{
    const char *sets[] = {"run.t_end=100"};
    enum backend b = BACKEND_GPU;
    scheme_config cfg = hllc_gpu_cfg(info, dbl);
    result r;
    if (hllc_steps("lake-at-rest", sets, 1, 200, 1, &b, &cfg, &r, NULL, NULL)) {
        CHECK(0, "lake at rest run (%s)", dbl ? "double" : "float");
        return;
    }
    double umax = 0, qmax = 0, dev = 0;
    int dry = 0, bad = 0;
    for (size_t k = 0; k < grid_size(r.nx, r.ny); k++) {
        if (r.code[k] != CELL_ACTIVE) continue;
        bad += !isfinite(r.h[k]) || !isfinite(r.qx[k]) || !isfinite(r.qy[k]);   /* fmax would skip a NaN */
        qmax = fmax(qmax, fmax(fabs(r.qx[k]), fabs(r.qy[k])));
        if (r.h[k] > 1e-3) umax = fmax(umax, hypot(r.qx[k], r.qy[k]) / r.h[k]);
        if (r.h[k] > 0) dev = fmax(dev, fabs(r.h[k] - r.H[k]));   /* eta = h + z = h - H, at rest 0 */
        else dry++;
    }
    /* the faces' residual cancels term by term (each side its own (H4) correction): what
       remains is rounding of g h^2 / 2 (h <= 1.4 m: 9.6 m^3/s^2, float ulp 1e-6) per step,
       which the scheme does not amplify; bounds as the CPU's float solver (test_hllc_cpu.c:
       |u| <= 1e-4 m/s float, 1e-12 double) */
    double ub = dbl ? 1e-12 : 1e-4, qb = dbl ? 1e-12 : 1e-5, eb = dbl ? 1e-12 : 1e-5;
    const char *p = dbl ? "double" : "float";
    CHECK_LE(umax, ub, "GPU (%s) hllc lake at rest over a bumpy bed with an emerged island, 200 steps: max |u| (m/s) "
                       "where h > 1 mm, bound %g", p, ub);
    CHECK_LE(qmax, qb, "... max |q| (m^2/s) over every cell, bound %g", qb);
    CHECK_LE(dev, eb, "... max |eta - 0| (m) over the wet cells: the surface unchanged, bound %g", eb);
    CHECK(dry > 0, "... the island stays dry (%d dry cells)", dry);
    CHECK(bad == 0, "... every active cell finite (%d not: a NaN would hide from the maxima above)", bad);
    result_free(&r);
}

int main(void)
{
    gpu_context *ctx = test_gl_context();
    const gpu_info *info = gpu_context_info(ctx);
    lake(info, 0);
    if (info->has_fp64) lake(info, 1);
    else printf("skip  double: the renderer '%s' lacks GL_ARB_gpu_shader_fp64\n", info->renderer);
    gpu_context_destroy(ctx);
    return check_done();
}
