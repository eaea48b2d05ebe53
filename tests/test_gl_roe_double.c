/* test_gl_roe_double.c — the Roe scheme on the GPU in double (`--precision double`; skipped,
 * 77, where the renderer lacks GL_ARB_gpu_shader_fp64; test_gl_roe_backend checks it is
 * refused there) (gl_roe_util.h): GPU double vs the scalar CPU (double) with the same steps
 * on a dam break and on Thacker's oscillation, the bound, the volume, h >= 0; the step
 * kept on the GPU (run_to) vs read back; a blow-up.  The GLSL flux in double:
 * test_gl_roe_flux. */
#include "gl_roe_util.h"
#include "keys.h"

/* GPU double vs cpu-scalar (double) with the same steps: the differences are double
 * rounding (another order of the 4-edge sums, the driver's fused multiply-adds),
 * amplified by the wet/dry thresholds and the limiter; the float GPU on the same steps
 * is printed beside them. */
static void double_vs_scalar(const char *renderer)
{
    scheme_config dbl = {.renderer = renderer, .has_fp64 = 1, .precision = PRECISION_DOUBLE};
    scheme_config flt = {.renderer = renderer, .has_fp64 = 1};
    scheme_config ref = {0};
    /* a dam break: the built-in case on 50^2 cells of 4 m (the dam 2 cells thick), 10 m
     * of water released into 1 m around an emerged island; Thacker's oscillation
     * (thacker-swashes) on 50^2 cells, most of a period: the shoreline dries and wets */
    const char *db[] = {"domain.nx=50", "domain.ny=50", "domain.dx=4", "domain.dy=4",
                        "domain.mask=!(x > 96 && x < 104 && (y < 80 || y > 120))"};
    const char *th[] = {"domain.nx=50", "domain.ny=50", "domain.dx=0.08", "domain.dy=0.08"};
    struct {
        const char *name, *what, *const *sets;
        int nsets, steps;
        double bound[3];
    } cases[] = {
        {"dambreak", "dam break 50x50, 100 steps", db, 5, 100, {1e-12, 1e-12, 1e-12}},
        {"thacker-swashes", "Thacker 50x50, 150 steps", th, 4, 150, {1e-10, 1e-9, 1e-9}},
    };
    /* measured on llvmpipe: dam break h 7e-17, q 6e-16 (float: 4e-8, 2e-7); Thacker h
     * 1.6e-11, q 4e-11 (float: 1.2e-7, 2e-7), the largest |dh| 6e-12 m in a 1.2 cm deep
     * cell at the shore, where the limiter and the thin-film (M5) amplify the last bit */
    for (int c = 0; c < 2; c++) {
        result g, cs, gf, cf;
        double bd, bdf, d[3], df[3];
        if (lockstep(cases[c].name, cases[c].sets, cases[c].nsets, cases[c].steps, BACKEND_GPU, &dbl,
                     BACKEND_CPU_SCALAR, &ref, &g, &cs, &bd) ||
            lockstep(cases[c].name, cases[c].sets, cases[c].nsets, cases[c].steps, BACKEND_GPU, &flt,
                     BACKEND_CPU_SCALAR, &ref, &gf, &cf, &bdf)) {
            CHECK(0, "%s: lockstep runs", cases[c].what);
            continue;
        }
        rel_l1(&g, &cs, d);
        rel_l1(&gf, &cf, df);
        printf("      %s, the same dt: GPU double vs cpu-scalar relative L1 h %.2e qx %.2e qy %.2e; GPU float h "
               "%.2e qx %.2e qy %.2e\n", cases[c].what, d[0], d[1], d[2], df[0], df[1], df[2]);
        static const char *fn[3] = {"h", "qx", "qy"};
        for (int m = 0; m < 3; m++)
            CHECK_LE(d[m], cases[c].bound[m], "%s, the same dt: GPU double vs cpu-scalar, relative L1 of %s (GPU "
                                              "float: %.1e)", cases[c].what, fn[m], df[m]);
        /* the GPU's bound is the float image of its double (roe_dt.glsl): within 2^-24 */
        CHECK_LE(bd, 1.2e-7, "%s: GPU double's bound (8) vs cpu-scalar's, largest relative difference (float "
                             "image of the double)", cases[c].what);
        /* walls: the volume changes by the rounding of the updates only */
        CHECK_LE(fabs(g.mass1 - g.mass0) / g.mass0, 1e-13, "%s: GPU double, relative volume change (float %.1e)",
                 cases[c].what, fabs(gf.mass1 - gf.mass0) / gf.mass0);
        double hmin = INFINITY;
        for (size_t k = 0; k < grid_size(g.nx, g.ny); k++)
            if (g.code[k] == CELL_ACTIVE) hmin = fmin(hmin, g.h[k]);
        CHECK(hmin >= 0.0, "%s: GPU double, h >= 0 (min %g)", cases[c].what, hmin);
        result_free(&g);
        result_free(&cs);
        result_free(&gf);
        result_free(&cf);
    }
}

/* run_to in double: the step is chosen by gpgpu's float clock, the landing step is
 * recomputed in double by the update (roe_update.glsl); against the time loop reading
 * the bound back every step (tune host_clock=on): the same steps, both land exactly
 * on every stop, and the states agree to double rounding.  A NaN is a blow-up. */
static void double_run_to(const char *renderer)
{
    scenario sc;
    scheme_setup s;
    const scheme_desc *d = scheme_find("roe");
    const char *sets[] = {"domain.nx=50", "domain.ny=50", "domain.dx=0.08", "domain.dy=0.08", "run.t_end=2"};
    memset(&sc, 0, sizeof sc);
    if (scenario_load_case(&sc, "thacker-swashes", sets, 5) || d->setup(&sc, &s)) {
        CHECK(0, "load: %s", swgl_last_error());
        return;
    }
    scheme_config cfg = {.renderer = renderer, .has_fp64 = 1, .precision = PRECISION_DOUBLE};
    swgl_tuning host;   /* the step read back every step */
    tuning_defaults(&host);
    host.host_clock = 1;
    double stops[8];
    for (int k = 0; k < 8; k++) stops[k] = 0.25 * (k + 1);   /* a stop every ~10 steps */
    size_t n = grid_size(s.nx, s.ny);
    double *f[2][3], mass[2];
    swgl_clear_error();
    timeloop_result tr[2];
    for (int m = 0; m < 2; m++) {
        cfg.tune = m == 1 ? &host : NULL;
        scheme_inst e;
        for (int q = 0; q < 3; q++) f[m][q] = calloc(n, sizeof(double));
        swgl_status st = scheme_open(&e, d, BACKEND_GPU, &s, &cfg);
        if (st == SWGL_OK) st = timeloop_run(&e, stops, 8, 0, NULL, NULL, &tr[m]);
        if (st == SWGL_OK) st = e.be->get_state(e.self, f[m]);
        CHECK(st == SWGL_OK && tr[m].t == 2.0, "double, %s: reaches t = 2 exactly (%.17g): %s",
              m ? "sync" : "on the GPU", tr[m].t, swgl_last_error());
        mass[m] = grid_volume(f[m][0], s.code, s.nx, s.ny, s.dx * s.dy);
        scheme_close(&e);
    }
    cfg.tune = NULL;
    double dm = 0, hm = 0;
    for (size_t k = 0; k < n; k++) {
        dm = fmax(dm, fabs(f[0][0][k] - f[1][0][k]));
        hm = fmax(hm, fabs(f[1][0][k]));
    }
    CHECK(tr[0].steps == tr[1].steps, "double: the same steps with dt on the GPU (%ld) and read back (%ld)",
          tr[0].steps, tr[1].steps);
    /* the same float steps; each landing step computed in double from the same numbers
     * (stop - t, t summed in double): measured 0 on llvmpipe */
    CHECK_LE(dm / hm, 1e-13, "double: dt on the GPU vs read back, 8 stops, max |h difference| / max h");
    CHECK_LE(fabs(mass[0] - mass[1]) / mass[1], 1e-14, "double: dt on the GPU vs read back, the same volume");
    for (int m = 0; m < 2; m++)
        for (int q = 0; q < 3; q++) free(f[m][q]);

    /* a NaN in the state is a blow-up at t = 0 on both paths */
    for (int m = 0; m < 2; m++) {
        cfg.tune = m == 1 ? &host : NULL;
        scheme_inst e;
        timeloop_result r2;
        double *g[3];
        for (int k = 0; k < 3; k++) g[k] = calloc(n, sizeof(double));
        memcpy(g[0], s.init[0], n * sizeof(double));
        g[0][grid_in(s.nx, s.nx / 2, s.ny / 2)] = NAN;
        swgl_status st = scheme_open(&e, d, BACKEND_GPU, &s, &cfg);
        if (st == SWGL_OK) st = e.be->set_state(e.self, g);
        if (st == SWGL_OK) st = timeloop_run(&e, &s.t_end, 1, 0, NULL, NULL, &r2);
        CHECK(st == SWGL_ERR_BLOWUP && r2.t == 0.0 && strstr(swgl_last_error(), "t = 0"),
              "double, a NaN cell, %s: SWGL_ERR_BLOWUP at t = 0: \"%s\"", m ? "sync" : "on the GPU",
              swgl_last_error());
        scheme_close(&e);
        for (int k = 0; k < 3; k++) free(g[k]);
    }
    cfg.tune = NULL;
    d->setup_free(&s);
    scenario_free(&sc);
}

int main(void)
{
    scheme_keys_install();   /* the schemes' keys, before a scenario is read */
    gpu_context *ctx = test_gl_context();
    const gpu_info *info = gpu_context_info(ctx);
    if (!info->has_fp64) {
        static char why[1024];
        snprintf(why, sizeof why, "the GPU double checks: the renderer '%s' lacks GL_ARB_gpu_shader_fp64 "
                 "(--precision double is refused there: test_gl_roe_backend)", info->renderer);
        gpu_context_destroy(ctx);
        check_skip(why);
    }
    double_vs_scalar(info->renderer);
    double_run_to(info->renderer);
    gpu_context_destroy(ctx);
    return check_done();
}
