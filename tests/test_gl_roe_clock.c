/* test_gl_roe_clock.c — the Roe scheme's time step kept on the GPU (run_to, clock.glsl)
 * against the step read back every step (tune host_clock=on): the same steps, exact
 * landings on the stops (also dense ones), the same volume and states to float rounding;
 * a NaN cell and initial.qx = 1e30 are blow-ups at t = 0. */
#include "gl_roe_util.h"
#include "keys.h"

/* The step kept on the GPU (run_to, clock.glsl) against the step read back every step:
 * both land exactly on the output times and t_end, take the same steps, and agree to
 * float rounding; a blow-up is reported with its time. */
static void dt_on_gpu(const char *renderer)
{
    scenario sc;
    scheme_setup s;
    const scheme_desc *d = scheme_find("roe");
    const char *sets[] = {"run.t_end=1.0"};
    memset(&sc, 0, sizeof sc);
    if (scenario_load_case(&sc, "lastra-test1", sets, 1) || d->setup(&sc, &s)) {
        CHECK(0, "load: %s", swgl_last_error());
        return;
    }
    scheme_config cfg = {.renderer = renderer};
    swgl_tuning host;   /* the step read back every step */
    tuning_defaults(&host);
    host.host_clock = 1;
    double stops[2] = {0.3, 1.0}, *h[2];
    timeloop_result tr[2];
    size_t n = grid_size(s.nx, s.ny);
    for (int m = 0; m < 2; m++) {
        cfg.tune = m == 1 ? &host : NULL;
        scheme_inst e;
        h[m] = calloc(3 * n, sizeof(double));
        double *f[3] = {h[m], h[m] + n, h[m] + 2 * n};
        swgl_status st = scheme_open(&e, d, BACKEND_GPU, &s, &cfg);
        if (st == SWGL_OK) st = timeloop_run(&e, stops, 2, 0, NULL, NULL, &tr[m]);
        if (st == SWGL_OK) st = e.be->get_state(e.self, f);
        CHECK(st == SWGL_OK, "%s: %s", m ? "sync" : "on the GPU", swgl_last_error());
        scheme_close(&e);
    }
    cfg.tune = NULL;
    double dmax = 0, hmax = 0;
    for (size_t k = 0; k < n; k++) {
        dmax = fmax(dmax, fabs(h[0][k] - h[1][k]));
        hmax = fmax(hmax, fabs(h[1][k]));
    }
    CHECK(tr[0].t == 1.0 && tr[1].t == 1.0, "both land exactly on t_end (%.17g, %.17g)", tr[0].t, tr[1].t);
    CHECK(tr[0].steps == tr[1].steps, "the same steps with dt on the GPU (%ld) and read back (%ld)", tr[0].steps,
          tr[1].steps);
    /* the two differ only in how the last step before each stop is rounded (float
     * remaining time on the GPU, double on the CPU) */
    CHECK_LE(dmax / hmax, 1e-5, "dt on the GPU vs read back: max |h difference| / max h");
    free(h[0]);
    free(h[1]);

    /* dense output times (a stop every 2-3 steps, where the GPU queues steps past the
     * landing): the same steps as reading dt back, the same volume, and states that
     * agree to float rounding */
    {
        double dense[40];
        for (int k = 0; k < 40; k++) dense[k] = 0.025 * (k + 1);
        double *hv[2], mass[2];
        long nsteps[2];
        swgl_clear_error();
        for (int m = 0; m < 2; m++) {
            cfg.tune = m == 1 ? &host : NULL;
            scheme_inst e;
            timeloop_result r2;
            hv[m] = calloc(3 * n, sizeof(double));
            double *f[3] = {hv[m], hv[m] + n, hv[m] + 2 * n};
            swgl_status st = scheme_open(&e, d, BACKEND_GPU, &s, &cfg);
            if (st == SWGL_OK) st = timeloop_run(&e, dense, 40, 0, NULL, NULL, &r2);
            if (st == SWGL_OK) st = e.be->get_state(e.self, f);
            CHECK(st == SWGL_OK && r2.t == 1.0, "dense stops, %s: %s", m ? "sync" : "on the GPU", swgl_last_error());
            nsteps[m] = r2.steps;
            mass[m] = grid_volume(hv[m], s.code, s.nx, s.ny, s.dx * s.dy);
            scheme_close(&e);
        }
        cfg.tune = NULL;
        double dm = 0, hm = 0;
        for (size_t k = 0; k < n; k++) {
            dm = fmax(dm, fabs(hv[0][k] - hv[1][k]));
            hm = fmax(hm, fabs(hv[1][k]));
        }
        CHECK(nsteps[0] == nsteps[1], "dense stops: the same steps (%ld, %ld)", nsteps[0], nsteps[1]);
        CHECK_LE(fabs(mass[0] - mass[1]) / mass[1], 1e-6, "dense stops: the same volume to float rounding");
        /* the short steps before the stops are rounded differently (float vs double):
         * measured ~1e-7 of max h */
        CHECK_LE(dm / hm, 1e-5, "dense stops: dt on the GPU vs read back, max |h difference| / max h");
        free(hv[0]);
        free(hv[1]);
    }

    /* a NaN in the state is a blow-up on both paths, at the time it appeared */
    for (int m = 0; m < 2; m++) {
        cfg.tune = m == 1 ? &host : NULL;
        scheme_inst e;
        timeloop_result r2;
        double *f[3];
        for (int k = 0; k < 3; k++) f[k] = calloc(n, sizeof(double));
        memcpy(f[0], s.init[0], n * sizeof(double));
        f[0][grid_in(s.nx, s.nx / 2, s.ny / 2)] = NAN;
        swgl_status st = scheme_open(&e, d, BACKEND_GPU, &s, &cfg);
        if (st == SWGL_OK) st = e.be->set_state(e.self, f);
        if (st == SWGL_OK) st = timeloop_run(&e, &s.t_end, 1, 0, NULL, NULL, &r2);
        CHECK(st == SWGL_ERR_BLOWUP && r2.t == 0.0 && strstr(swgl_last_error(), "t = 0"),
              "a NaN cell, %s: SWGL_ERR_BLOWUP at t = 0: \"%s\"", m ? "sync" : "on the GPU", swgl_last_error());
        scheme_close(&e);
        for (int k = 0; k < 3; k++) free(f[k]);
    }
    cfg.tune = NULL;
    d->setup_free(&s);
    scenario_free(&sc);

    /* a blow-up: the GPU freezes the last good state and says so */
    const char *bad[] = {"initial.qx=1e30"};
    memset(&sc, 0, sizeof sc);
    if (scenario_load_case(&sc, "lastra-test1", bad, 1) || d->setup(&sc, &s)) return;
    scheme_inst e;
    timeloop_result r;
    swgl_status st = scheme_open(&e, d, BACKEND_GPU, &s, &cfg);
    if (st == SWGL_OK) st = timeloop_run(&e, &s.t_end, 1, 0, NULL, NULL, &r);
    CHECK(st == SWGL_ERR_BLOWUP && r.t == 0.0 && strstr(swgl_last_error(), "t = 0"),
          "initial.qx = 1e30 on the GPU: SWGL_ERR_BLOWUP at t = 0: \"%s\"", swgl_last_error());
    scheme_close(&e);
    d->setup_free(&s);
    scenario_free(&sc);
}

int main(void)
{
    scheme_keys_install();   /* the schemes' keys, before a scenario is read */
    gpu_context *ctx = test_gl_context();
    const char *renderer = gpu_context_info(ctx)->renderer;
    dt_on_gpu(renderer);
    gpu_context_destroy(ctx);
    return check_done();
}
