/* test_gl_hllc_volume.c — the HLLC scheme on the GPU conserves the water volume to
 * rounding while the shoreline dries and wets: Thacker's planar oscillation in a
 * paraboloid (the thacker-swashes case, 100^2 here at 50^2: domain.level=-1), one period,
 * float and (with fp64) double.  The draining update (H6) moves +-theta_donor G_e between
 * the two cells of each face, so the volume changes only by the rounding of the cell sums,
 * and no clip adds water. */
#include "gl_hllc_util.h"

static void bowl(const gpu_info *info, int dbl)
{
    const char *sets[] = {"domain.nx=50", "domain.ny=50", "domain.dx=0.08", "domain.dy=0.08"};
    enum { STEPS = 400 };   /* about one period (4.49 s) at 50^2 */
    enum backend b = BACKEND_GPU;
    scheme_config cfg = hllc_gpu_cfg(info, dbl);
    result r;
    if (hllc_steps("thacker-swashes", sets, 4, STEPS, 1, &b, &cfg, &r, NULL, NULL)) {
        CHECK(0, "bowl run (%s)", dbl ? "double" : "float");
        return;
    }
    double hmin = 0;
    int dry = 0;
    for (size_t k = 0; k < grid_size(r.nx, r.ny); k++)
        if (r.code[k] == CELL_ACTIVE) {
            hmin = fmin(hmin, r.h[k]);
            dry += !(r.h[k] > 0);
        }
    /* each step changes a cell's h by rounding of h - dt/|V| sum theta P: at most ~4 ulp of
       h, in sum over the wet cells (the volume's sum: the mass of_() sum in double of the
       stored values) a relative change <= 4 eps per step: STEPS x 4 x 2^-24 = 9.5e-5 in
       float, STEPS x 4 x 2^-53 = 1.8e-13 in double (the rounding errors are of either sign,
       so the measured change is far below) */
    double eps = dbl ? 0x1p-53 : 0x1p-24, bound = STEPS * 4 * eps;
    double rel = fabs(r.mass1 - r.mass0) / r.mass0;
    CHECK_LE(rel, bound, "GPU (%s) hllc drying bowl 50^2, %d steps: relative volume change %.3g, bound steps x 4 "
                         "eps = %.3g", dbl ? "double" : "float", STEPS, rel, bound);
    CHECK(hmin >= 0, "... h >= 0 everywhere (min %g)", hmin);
    CHECK(dry > 0, "... the bowl's rim is dry (%d dry cells)", dry);
    result_free(&r);
}

int main(void)
{
    gpu_context *ctx = test_gl_context();
    const gpu_info *info = gpu_context_info(ctx);
    bowl(info, 0);
    if (info->has_fp64) bowl(info, 1);
    else printf("skip  double: the renderer '%s' lacks GL_ARB_gpu_shader_fp64\n", info->renderer);
    gpu_context_destroy(ctx);
    return check_done();
}
