/* test_gl_kp_clock.c — the time step of the Kurganov-Petrova scheme on the GPU, on small
 * grids built by hand (gl_kp_util.h):
 *  - the step chosen on the GPU (run_to) equals the step read back (stage / advance):
 *    the same steps, exact landings, the same state; a NaN is a blow-up on both paths;
 *  - the per-pass profile a bench reads: every pass of a run_to is timed. */
#include "gl_kp_util.h"

/* ---------- 5. dt on the GPU ---------- */
/* the time loop's rule on stage / advance (timeloop.c), for one stop */
static swgl_status loop_to(kp_gpu *g, double stop, long *steps)
{
    double t = 0;
    *steps = 0;
    while (t < stop) {
        double bound, b2;
        swgl_status st = kp_gpu_rates(g, 0, &bound);
        if (st != SWGL_OK) return st;
        if (!(bound > 0)) return swgl_fail(SWGL_ERR_BLOWUP, "blown");
        double left = stop - t;
        int last = left <= bound * (1 + 1e-9);
        double dt = !last ? bound : left < bound * (1 - 1e-9) ? left : bound;
        if ((st = kp_gpu_apply(g, 0, dt)) != SWGL_OK) return st;
        for (int k = 1; k < kp_gpu_stages(g); k++)
            if ((st = kp_gpu_rates(g, k, &b2)) != SWGL_OK || (st = kp_gpu_apply(g, k, dt)) != SWGL_OK) return st;
        t = last ? stop : t + dt;
        ++*steps;
    }
    return SWGL_OK;
}

static void dt_on_gpu(void)
{
    for (int rk2 = 0; rk2 < 2; rk2++) {
        prob r;
        prob_init(&r, 48, 40, 1.0, 1.0, bed_bump, CELL_WALL);
        r.p.rk2 = rk2;
        r.p.early_exit = KP_EARLY_EXIT_AUTO;
        dambreak_init(&r, 0.3, 0.0);
        state s[2];
        long steps[2] = {0, 0};
        const double stops[2] = {0.7, 2.0};
        int ok = 1;
        for (int m = 0; m < 2; m++) {
            kp_gpu *g = NULL;
            swgl_status st = kp_gpu_create(&r.p, &g);
            if (st == SWGL_OK) st = kp_gpu_set_state(g, r.h, r.qx, r.qy);
            for (int k = 0; k < 2 && st == SWGL_OK; k++) {
                if (m == 0) {
                    timeloop_span sp = {0, k ? stops[0] : 0, INFINITY, 0, NAN, NULL, NULL, NULL, 0, 0};
                    st = kp_gpu_run_to(g, k ? stops[0] : 0, stops[k], k, 1e-9 * stops[1], &sp);
                    steps[m] += sp.steps;
                    CHECK(st != SWGL_OK || sp.t == stops[k], "run_to lands exactly on %g (%.17g)", stops[k], sp.t);
                } else {
                    long n;
                    st = loop_to(g, stops[k] - (k ? stops[0] : 0), &n);
                    steps[m] += n;
                }
            }
            state_alloc(&s[m], &r);
            if (st == SWGL_OK) st = kp_gpu_get_state(g, s[m].h, s[m].qx, s[m].qy);
            CHECK(st == SWGL_OK, "%s, %s: %s", m ? "stage/advance" : "run_to", rk2 ? "RK2" : "Euler",
                  swgl_last_error());
            ok = ok && st == SWGL_OK;
            kp_gpu_destroy(g);
        }
        if (ok) {
            double dh, dq;
            rel_l1(&r, &s[0], &s[1], &dh, &dq);
            CHECK(steps[0] == steps[1], "run_to and stage/advance take the same steps (%ld, %ld; %s)", steps[0],
                  steps[1], rk2 ? "RK2" : "Euler");
            /* the same bounds (the same float reduction); the steps landing on the stops
             * are rounded differently (float time left on the GPU, double on the CPU):
             * measured 0 here; bounds 1e-5 (h) and 1e-4 (q) */
            CHECK_LE(dh, 1e-5, "dt on the GPU vs read back (%s, 2 stops): relative L1 of h", rk2 ? "RK2" : "Euler");
            CHECK_LE(dq, 1e-4, "dt on the GPU vs read back (%s): relative L1 of q", rk2 ? "RK2" : "Euler");
        }
        state_free(&s[0]);
        state_free(&s[1]);

        /* a NaN cell is a blow-up on both paths, before any step */
        r.h[grid_in(r.nx, 20, 20)] = NAN;
        for (int m = 0; m < 2; m++) {
            kp_gpu *g = NULL;
            swgl_status st = kp_gpu_create(&r.p, &g);
            if (st == SWGL_OK) st = kp_gpu_set_state(g, r.h, r.qx, r.qy);
            timeloop_span sp = {0, 0, INFINITY, 0, NAN, NULL, NULL, NULL, 0, 0};
            double bound = 0;
            if (st == SWGL_OK && m == 0) st = kp_gpu_run_to(g, 0, 1.0, 0, 1e-9, &sp);
            if (st == SWGL_OK && m == 1) st = kp_gpu_rates(g, 0, &bound);
            if (m == 0)
                CHECK(st == SWGL_ERR_BLOWUP && sp.t == 0 && sp.steps == 0,
                      "a NaN cell, run_to (%s): a blow-up at t = 0 (%s, t = %g, %ld steps)", rk2 ? "RK2" : "Euler",
                      swgl_strerror(st), sp.t, sp.steps);
            else
                CHECK(st == SWGL_OK && bound == -1.0, "a NaN cell, stage 0 (%s): bound -1 (%g)", rk2 ? "RK2" : "Euler",
                      bound);
            kp_gpu_destroy(g);
        }
        prob_free(&r);
    }
}

/* ---------- the per-pass profile ---------- */
/* The per-pass profile a bench reads: every pass of a run_to with early exit is timed. */
static void profile(void)
{
    prob r;
    prob_init(&r, 48, 40, 1.0, 1.0, bed_bump, CELL_WALL);
    dambreak_init(&r, 0.3, 0.0);
    r.p.early_exit = KP_EARLY_EXIT_ON;
    kp_gpu *g = NULL;
    swgl_status st = kp_gpu_create(&r.p, &g);
    double sec[KP_PASS_COUNT] = {0};
    long n[KP_PASS_COUNT] = {0}, steps = 0;
    if (st == SWGL_OK) st = kp_gpu_set_state(g, r.h, r.qx, r.qy);
    if (st == SWGL_OK) {
        kp_gpu_profile(g, 1);
        timeloop_span sp = {0, 0, INFINITY, 0, NAN, NULL, NULL, NULL, 0, 0};
        st = kp_gpu_run_to(g, 0, 0.5, 0, 1e-9, &sp);
        steps = sp.steps;
    }
    if (st == SWGL_OK) st = kp_gpu_profile_read(g, sec, n);
    CHECK(st == SWGL_OK, "profiled run: %s", swgl_last_error());
    int all = 1;
    double total = 0;
    for (int k = 0; k < KP_PASS_COUNT; k++) {
        /* compute passes: no wet map; the kernels (kp_gpu_fused): no clock pass
         * (the clock is chosen in the integration kernel), and the reduction of the groups'
         * minima may take no dispatch at all on a small grid */
        all = all && ((n[k] > 0 && sec[k] > 0) || (gpu_compute_passes() && k == KP_PASS_WET) ||
                      (kp_gpu_fused(g) && (k == KP_PASS_CLOCK || k == KP_PASS_REDUCE)));
        total += sec[k];
        printf("      %-12s %4ld passes %8.3f ms\n", kp_gpu_pass_name(k), n[k], 1e3 * sec[k]);
    }
    /* RK2: two flux evaluations per step (each with its wet map), one reduction
     * and one clock (steps queued after the landing count too); a sample llvmpipe gets
     * wrong is dropped (kp_gpu_flux.c), so only "every pass has samples" is asserted */
    long issued = kp_gpu_fused(g) ? n[KP_PASS_INTEGRATE] : n[KP_PASS_CLOCK];   /* one per step issued */
    CHECK(all && steps > 0 && n[KP_PASS_FLUX] > 0 && n[KP_PASS_FLUX] <= 2 * issued + 2,
          "profile: every pass timed (%ld steps, %ld flux passes, %.3g ms in all)", steps, n[KP_PASS_FLUX],
          1e3 * total);
    kp_gpu_destroy(g);
    prob_free(&r);
}

int main(void)
{
    gpu_context *ctx = kp_test_begin();
    dt_on_gpu();
    profile();
    gpu_context_destroy(ctx);
    return check_done();
}
