/* test_gl_kp_early_exit.c — early exit of the Kurganov-Petrova scheme on the GPU (dry
 * tiles skipped), on small grids built by hand (gl_kp_util.h):
 *  - early exit on, off and auto give the same bits, also with the water jumping; off
 *    computes every tile, on fewer; a dry domain computes no tile, runs no fragment of
 *    the flux pass and does not change;
 *  - the step on kernels (gpu-compute: --compute, test_gl_kp_early_exit_compute):
 *    on, off and auto give the same bits and on fewer tiles, tiles run in turn by a few
 *    work groups, water jumping and host-clock steps between run_to spans, a dry domain;
 *  - the rest rule on those kernels (tune kp.rest): on and off give the same bits, on
 *    computes only the tiles that move. */
#include "gl_kp_util.h"

/* ---------- early exit ---------- */
/* (the quads, quads32, quads64 and depthclear methods and the faces flux were removed,
 * issue 25: early exit is the depth test's, the flux the cell pass's) */

/* a column of water: depth h within sqrt(r2) of (cx, cy), dry elsewhere */
static void column_init(prob *r, double cx, double cy, double r2, double h)
{
    for (int j = 1; j <= r->ny; j++)
        for (int i = 1; i <= r->nx; i++) {
            double x = i - 0.5 - cx, y = j - 0.5 - cy;
            r->h[grid_at(r->nx, i, j)] = x * x + y * y < r2 ? h : 0.0;
        }
}

static void early_exit(void)
{
    /* a small circular dam break in a big dry walled box: 80 x 72 cells, 5 x 5 tiles */
    prob r;
    prob_init(&r, 80, 72, 1.0, 1.0, bed_flat, CELL_WALL);
    column_init(&r, 30, 33, 36, 1.0);
    long all_frags = (long)grid_stride(r.nx) * grid_rows(r.ny);
    {
        state off;
        long tiles_off[2] = {0, 0}, frags_off = -1;
        kp_gpu *g = NULL;
        r.p.early_exit = KP_EARLY_EXIT_OFF;
        int ok_off = gpu_run(&r, 120, NULL, 0, &off, &g) == SWGL_OK;
        if (g) {
            kp_gpu_tiles(g, &tiles_off[0], &tiles_off[1]);
            kp_gpu_count_fragments(g, 1);
            double b;
            if (kp_gpu_rates(g, 0, &b) == SWGL_OK) frags_off = kp_gpu_fragments(g);
        }
        kp_gpu_destroy(g);
        CHECK(ok_off, "early exit off runs");
        CHECK(tiles_off[0] == tiles_off[1], "early exit off computes every tile (%ld of %ld)", tiles_off[0],
              tiles_off[1]);
        /* compute passes (--compute): early exit is off and no fragment is counted */
        if (!gpu_compute_passes())
            CHECK(frags_off == all_frags, "early exit off: the flux pass runs %ld fragments (%ld cells with the ring)",
                  frags_off, all_frags);
        else
            printf("skip  compute passes: no fragments, and early exit runs inside the flux kernel (float, no "
                   "boundary data: kp_flux_cs.glsl) or not at all, so tiles and fragments are not counted; "
                   "test_gpu_compute.sh checks the kernel's early exit gives the same state on, off and auto\n");
        state s[2];
        long tiles[2] = {0, 0}, frags = -1;
        double est[2] = {0, 0};
        long choices = 0;
        int ok = 1;
        for (int m = 0; m < 2; m++) {
            g = NULL;
            r.p.early_exit = m ? KP_EARLY_EXIT_AUTO : KP_EARLY_EXIT_ON;
            ok = ok && gpu_run(&r, 120, NULL, 0, &s[m], &g) == SWGL_OK;
            if (g && m == 0) {
                kp_gpu_tiles(g, &tiles[0], &tiles[1]);
                kp_gpu_count_fragments(g, 1);
                double b;
                if (kp_gpu_rates(g, 0, &b) == SWGL_OK) frags = kp_gpu_fragments(g);
            }
            if (g && m == 1) {
                kp_gpu_profile(g, 0);   /* waits for the timer queries in flight */
                kp_gpu_auto_estimates(g, &est[1], &est[0], &choices);
            }
            kp_gpu_destroy(g);
        }
        CHECK(ok, "early exit on and auto run");
        if (ok && ok_off) {
            CHECK(same_bits(&off, &s[0]), "early exit on vs off, 120 RK2 steps: identical bits");
            CHECK(same_bits(&off, &s[1]), "early exit auto vs off: identical bits");
            if (!gpu_compute_passes()) {
                CHECK(tiles[0] < tiles[1] && tiles[0] > 0, "early exit on skips tiles after 120 steps (%ld of %ld "
                      "computed)", tiles[0], tiles[1]);
                CHECK(frags > 0 && frags < frags_off, "early exit on: the flux pass runs %ld fragments (off: %ld)",
                      frags, frags_off);
                /* auto timed a flux evaluation with and without early exit (steps 0 and 1,
                 * 100 and 101) and chose */
                CHECK(choices >= 1 && est[0] > 0 && est[1] > 0,
                      "early exit auto measured both variants: %.3g ms with, %.3g ms without, %ld choices",
                      1e3 * est[1], 1e3 * est[0], choices);
            }
        }
        for (int m = 0; m < 2; m++) state_free(&s[m]);
        state_free(&off);
    }

    /* the water jumps (set_state) from one corner of the box to the other: the tiles it
     * left are skipped from then on and must hold the zero state again (kp_fill.glsl), as
     * computing them gives */
    {
        state s[2];
        prob b;
        prob_init(&b, 80, 72, 1.0, 1.0, bed_bump, CELL_WALL);
        for (int m = 0; m < 2; m++) {
            long tiles[2] = {0, 0};
            kp_gpu *g = NULL;
            b.p.early_exit = m ? KP_EARLY_EXIT_ON : KP_EARLY_EXIT_OFF;
            swgl_status st = kp_gpu_create(&b.p, &g);
            for (int jump = 0; jump < 3 && st == SWGL_OK; jump++) {
                double cx = jump == 1 ? 62 : 14, cy = jump == 1 ? 55 : 12;
                column_init(&b, cx, cy, 30, 0.8);
                st = kp_gpu_set_state(g, b.h, b.qx, b.qy);
                if (st == SWGL_OK) st = gpu_steps(g, 15, NULL, 0);
            }
            state_alloc(&s[m], &b);
            if (st == SWGL_OK) st = kp_gpu_get_state(g, s[m].h, s[m].qx, s[m].qy);
            if (st == SWGL_OK) st = kp_gpu_tiles(g, &tiles[0], &tiles[1]);
            kp_gpu_destroy(g);
            if (!m) {
                CHECK(st == SWGL_OK, "jumping water runs: %s", swgl_last_error());
                continue;
            }
            CHECK(st == SWGL_OK && same_bits(&s[0], &s[1]), "water jumping across the box: early exit on and off "
                  "give identical bits (%ld of %ld tiles computed at the end)", tiles[0], tiles[1]);
        }
        state_free(&s[0]);
        state_free(&s[1]);
        prob_free(&b);
    }

    /* a dry domain: no tile computed, no fragment of the flux pass run, the state
     * unchanged (bit for bit), bound +inf */
    {
        prob d;
        prob_init(&d, 40, 40, 1.0, 1.0, bed_bump, CELL_WALL);
        d.p.early_exit = KP_EARLY_EXIT_ON;
        for (size_t k = 0; k < grid_size(40, 40); k++)   /* water below h_dry */
            d.h[k] = d.code[k] == CELL_ACTIVE ? 1e-6 : 0.0;
        kp_gpu *g = NULL;
        state s0, s1;
        state_alloc(&s0, &d);
        double bound = 0;
        swgl_status st = kp_gpu_create(&d.p, &g);
        if (st == SWGL_OK) st = kp_gpu_set_state(g, d.h, d.qx, d.qy);
        if (st == SWGL_OK) st = kp_gpu_get_state(g, s0.h, s0.qx, s0.qy);
        if (st == SWGL_OK) kp_gpu_count_fragments(g, 1);
        if (st == SWGL_OK) st = kp_gpu_rates(g, 0, &bound);
        long c = -1, t = -1, f0 = g ? kp_gpu_fragments(g) : -2;
        if (st == SWGL_OK) st = kp_gpu_tiles(g, &c, &t);
        if (st == SWGL_OK) st = kp_gpu_apply(g, 0, 0.5);
        if (st == SWGL_OK) st = gpu_steps(g, 20, NULL, 0);
        long f1 = g ? kp_gpu_fragments(g) : -2;
        state_alloc(&s1, &d);
        if (st == SWGL_OK) st = kp_gpu_get_state(g, s1.h, s1.qx, s1.qy);
        CHECK(st == SWGL_OK, "dry domain runs: %s", swgl_last_error());
        if (!gpu_compute_passes())   /* compute: early exit off, nothing counted */
            CHECK(c == 0 && t == 9 && f0 == 0 && f1 == 0,
                  "dry domain: the flux pass computes %ld of %ld tiles (expected 0 of 9), %ld and %ld fragments "
                  "(first and last evaluation)", c, t, f0, f1);
        CHECK(isinf(bound) && bound > 0, "dry domain: the bound is +inf (%g)", bound);
        CHECK(same_bits(&s0, &s1), "dry domain: 20 steps leave the state as it was, bit for bit");
        state_free(&s0);
        state_free(&s1);
        kp_gpu_destroy(g);
        prob_free(&d);
    }
    prob_free(&r);
}

/* run_to from 0 over the stops (the step chosen on the GPU, as the time loop runs it); the
 * steps taken, or -1 */
static long run_to_stops(kp_gpu *g, double t0, const double *stops, int n)
{
    long steps = 0;
    double t = t0;
    for (int k = 0; k < n; k++) {
        timeloop_span sp = {0, t, INFINITY, 0, NAN, NULL, NULL, NULL, 0, 0};
        if (kp_gpu_run_to(g, t, stops[k], k, 1e-9, &sp) != SWGL_OK || sp.t != stops[k]) return -1;
        steps += sp.steps;
        t = sp.t;
    }
    return steps;
}

/* The step on kernels (gpu-compute, float: kp_tiles.glsl), which skips dry tiles outright:
 * a dam break in a dry box run_to with early exit on, auto and off, Euler and RK2, gives
 * the same bits, on, fewer tiles; the water jumping between set_states, and steps on the
 * host clock between run_to spans, start the tiles afresh; a dry domain computes no tile
 * and stays as it is, to the bit. */
static void kernel_steps(void)
{
    prob r;
    prob_init(&r, 80, 72, 1.0, 1.0, bed_bump, CELL_WALL);
    column_init(&r, 30, 33, 36, 1.0);
    kp_gpu *g = NULL;
    if (kp_gpu_create(&r.p, &g) != SWGL_OK || !kp_gpu_fused(g)) {
        printf("skip  the step on kernels needs the compute backend (--compute: test_gl_kp_early_exit_compute)\n");
        kp_gpu_destroy(g);
        prob_free(&r);
        return;
    }
    kp_gpu_destroy(g);
    const double stops[3] = {1.0, 2.5, 4.0};
    static const enum kp_early_exit modes[3] = {KP_EARLY_EXIT_OFF, KP_EARLY_EXIT_ON, KP_EARLY_EXIT_AUTO};
    static const char *mname[3] = {"off", "on", "auto"};
    for (int rk2 = 0; rk2 < 2; rk2++) {
        state s[3];
        long steps[3], tiles[3][2];
        r.p.rk2 = rk2;
        for (int m = 0; m < 3; m++) {
            r.p.early_exit = modes[m];
            g = NULL;
            swgl_status st = kp_gpu_create(&r.p, &g);
            if (st == SWGL_OK) st = kp_gpu_set_state(g, r.h, r.qx, r.qy);
            steps[m] = st == SWGL_OK ? run_to_stops(g, 0, stops, 3) : -1;
            state_alloc(&s[m], &r);
            if (steps[m] > 0) st = kp_gpu_get_state(g, s[m].h, s[m].qx, s[m].qy);
            if (steps[m] > 0 && st == SWGL_OK) st = kp_gpu_tiles(g, &tiles[m][0], &tiles[m][1]);
            CHECK(st == SWGL_OK && steps[m] > 0, "kernels, %s, early exit %s: run_to over 3 stops: %s",
                  rk2 ? "RK2" : "Euler", mname[m], swgl_last_error());
            kp_gpu_destroy(g);
        }
        CHECK(steps[0] == steps[1] && steps[0] == steps[2] && same_bits(&s[0], &s[1]) && same_bits(&s[0], &s[2]),
              "kernels, %s: early exit on and auto give early exit off's bits (%ld, %ld, %ld steps)",
              rk2 ? "RK2" : "Euler", steps[0], steps[1], steps[2]);
        CHECK(tiles[0][0] == tiles[0][1] && tiles[1][0] > 0 && tiles[1][0] < tiles[1][1],
              "kernels, %s: early exit on computes %ld of %ld tiles in the last step (off: %ld)",
              rk2 ? "RK2" : "Euler", tiles[1][0], tiles[1][1], tiles[0][0]);
        /* dispatches of 3 work groups (tune kp.max_groups=3): the control group and two that
         * run the list's tiles in turn, as a grid of more than 65535 tiles would */
        for (int m = 1; m >= 0; m--) {
            state f;
            long n = -1;
            r.p.early_exit = modes[m];
            swgl_tuning tune;
            tuning_defaults(&tune);
            tune.kp_max_groups = 3;
            g = NULL;
            swgl_status st = kp_gpu_create_tuned(&r.p, 0, &tune, &g);
            if (st == SWGL_OK) st = kp_gpu_set_state(g, r.h, r.qx, r.qy);
            if (st == SWGL_OK) n = run_to_stops(g, 0, stops, 3);
            state_alloc(&f, &r);
            if (n > 0) st = kp_gpu_get_state(g, f.h, f.qx, f.qy);
            CHECK(st == SWGL_OK && n == steps[0] && same_bits(&s[0], &f),
                  "kernels, %s, early exit %s: 3 work groups, tiles in turn, give the bits of a group a tile (%ld "
                  "steps)", rk2 ? "RK2" : "Euler", mname[m], n);
            state_free(&f);
            kp_gpu_destroy(g);
        }
        for (int m = 0; m < 3; m++) state_free(&s[m]);
    }

    /* the water jumps (set_state) from corner to corner, and host-clock steps run between
     * run_to spans: with early exit on as with it off */
    {
        state s[2];
        for (int m = 0; m < 2; m++) {
            r.p.rk2 = 1;
            r.p.early_exit = m ? KP_EARLY_EXIT_ON : KP_EARLY_EXIT_OFF;
            g = NULL;
            swgl_status st = kp_gpu_create(&r.p, &g);
            for (int jump = 0; jump < 3 && st == SWGL_OK; jump++) {
                double cx = jump == 1 ? 62 : 14, cy = jump == 1 ? 55 : 12;
                column_init(&r, cx, cy, 30, 0.8);
                st = kp_gpu_set_state(g, r.h, r.qx, r.qy);
                double j1[1] = {1.5}, j2[1] = {3.0};
                if (st == SWGL_OK && run_to_stops(g, 0, j1, 1) < 0) st = SWGL_ERR_GL;
                if (st == SWGL_OK) st = gpu_steps(g, 7, NULL, 0);
                if (st == SWGL_OK && run_to_stops(g, 1.5, j2, 1) < 0) st = SWGL_ERR_GL;
            }
            state_alloc(&s[m], &r);
            if (st == SWGL_OK) st = kp_gpu_get_state(g, s[m].h, s[m].qx, s[m].qy);
            CHECK(st == SWGL_OK, "kernels: jumping water, early exit %s: %s", m ? "on" : "off", swgl_last_error());
            kp_gpu_destroy(g);
        }
        CHECK(same_bits(&s[0], &s[1]), "kernels: water jumping between set_states, host-clock steps between run_to "
              "spans: early exit on gives off's bits");
        state_free(&s[0]);
        state_free(&s[1]);
    }

    /* a dry domain: after the first step no tile is on the list, and 40 steps leave the
     * state as it was */
    {
        prob d;
        prob_init(&d, 40, 40, 1.0, 1.0, bed_bump, CELL_WALL);
        d.p.early_exit = KP_EARLY_EXIT_ON;
        for (size_t k = 0; k < grid_size(40, 40); k++) d.h[k] = d.code[k] == CELL_ACTIVE ? 1e-6 : 0.0;
        state s0, s1;
        state_alloc(&s0, &d);
        state_alloc(&s1, &d);
        long c = -1, t = -1, n = -1;
        g = NULL;
        swgl_status st = kp_gpu_create(&d.p, &g);
        if (st == SWGL_OK) st = kp_gpu_set_state(g, d.h, d.qx, d.qy);
        if (st == SWGL_OK) st = kp_gpu_get_state(g, s0.h, s0.qx, s0.qy);
        double dstops[2] = {5.0, 10.0};
        if (st == SWGL_OK) n = run_to_stops(g, 0, dstops, 2);
        if (n > 0) st = kp_gpu_tiles(g, &c, &t);
        if (st == SWGL_OK) st = kp_gpu_get_state(g, s1.h, s1.qx, s1.qy);
        CHECK(st == SWGL_OK && n == 2 && c == 0 && t > 0 && same_bits(&s0, &s1),
              "kernels: a dry domain lands on each stop in one step (%ld steps), computes %ld of %ld tiles, and stays "
              "as it was to the bit", n, c, t);
        state_free(&s0);
        state_free(&s1);
        kp_gpu_destroy(g);
        prob_free(&d);
    }
    prob_free(&r);
}

/* a run of the step on kernels with early exit on and tune kp.rest on or off (max_groups:
 * tune kp.max_groups, 0 the default): its steps over the stops, state and last step's tiles */
static long rest_run(prob *r, int rest, int max_groups, const double *stops, int n, state *s, long tiles[2])
{
    swgl_tuning tune;
    tuning_defaults(&tune);
    tune.kp_rest = rest;
    if (max_groups) tune.kp_max_groups = max_groups;
    r->p.early_exit = KP_EARLY_EXIT_ON;
    kp_gpu *g = NULL;
    long steps = -1;
    swgl_status st = kp_gpu_create_tuned(&r->p, 0, &tune, &g);
    if (st == SWGL_OK) st = kp_gpu_set_state(g, r->h, r->qx, r->qy);
    if (st == SWGL_OK) steps = run_to_stops(g, 0, stops, n);
    state_alloc(s, r);
    if (steps > 0) st = kp_gpu_get_state(g, s->h, s->qx, s->qy);
    if (steps > 0 && st == SWGL_OK) st = kp_gpu_tiles(g, &tiles[0], &tiles[1]);
    kp_gpu_destroy(g);
    return st == SWGL_OK ? steps : -1;
}

/* The paper's second rule (kp_tiles.glsl "The second rule", tune kp.rest): wet tiles at
 * rest skipped as dry ones, on the step on kernels (gpu-compute) and on the fragment passes
 * (gpu).  A lake at rest 96 x 80 with a mound of
 * water in one corner: rest on and off give the same steps and bits (Euler and RK2, a group
 * a tile and 3 groups running tiles in turn), off computes every tile (all wet), on only
 * those the waves have reached, also with hu = -0.0 everywhere; a lake with no mound
 * computes no tile; on a bumpy bed (where no tile rests: the well-balanced R = 0 does not
 * hold to the bit there) and beside a dry plateau the bits are the same (tiles printed). */
static double bed_plateau(double x, double y)
{
    (void)y;
    return x >= 72 ? 2.0 : 0.0;
}

static void rest_tiles(void)
{
    prob r;
    prob_init(&r, 96, 80, 1.0, 1.0, bed_flat, CELL_WALL);
    kp_gpu *g = NULL;
    int kernels = 0;
    if (kp_gpu_create(&r.p, &g) != SWGL_OK || (gpu_compute_passes() && !(kernels = kp_gpu_fused(g)))) {
        printf("skip  the rest rule runs on the step on kernels and on the fragment passes\n");
        kp_gpu_destroy(g);
        prob_free(&r);
        return;
    }
    kp_gpu_destroy(g);
    /* the tiles: the kernels' (16 x 8 over the arrays with their ring: 7 x 11), the passes'
     * (16 x 16 interior cells: 6 x 5) */
    const long nt = kernels ? 77 : 30;
    const char *path = kernels ? "kernels" : "passes";
    const double stops[3] = {0.5, 1.5, 3.0};
    /* beds: 0 flat, 1 bumpy, 2 flat with a dry plateau 2 m high from x = 72 m (a shore, and dry
     * tiles beside water); mound 2: the mound with hu = -0.0 everywhere (the passes' fill
     * must not turn a resting -0.0 momentum into +0.0) */
    for (int bed = 0; bed < 3; bed++) {
        if (bed) {
            prob_free(&r);
            prob_init(&r, 96, 80, 1.0, 1.0, bed == 1 ? bed_bump : bed_plateau, CELL_WALL);
        }
        for (int mound = bed == 0 ? 2 : 1; mound >= 0; mound--) {
            if (bed == 2 && mound == 0) continue;
            for (int j = 1; j <= r.ny; j++)
                for (int i = 1; i <= r.nx; i++) {
                    double x = i - 0.5 - 14, y = j - 0.5 - 12;
                    size_t k = grid_at(r.nx, i, j);
                    r.h[k] = fmax((mound && x * x + y * y < 9 ? 1.3 : 1.0) - bij(&r, i, j), 0.0);
                    r.qx[k] = mound == 2 ? -0.0 : 0.0;
                }
            for (int rk2 = 0; rk2 < 2; rk2++) {
                r.p.rk2 = rk2;
                state s[3];
                long steps[3], tiles[3][2] = {{-1, -1}, {-1, -1}, {-1, -1}};
                for (int m = 0; m < 3; m++) steps[m] = rest_run(&r, m > 0, m == 2 ? 3 : 0, stops, 3, &s[m], tiles[m]);
                const char *what = bed == 2 ? "flat bed, dry plateau, mound" :
                                   bed      ? (mound ? "bumpy bed, mound" : "bumpy bed, still") :
                                              (mound == 2 ? "flat bed, mound, hu = -0" :
                                               mound      ? "flat bed, mound" : "flat bed, still");
                CHECK(steps[0] > 0 && steps[0] == steps[1] && steps[0] == steps[2] && same_bits(&s[0], &s[1]) &&
                          same_bits(&s[0], &s[2]),
                      "rest rule, %s, %s, %s: on (%s) gives off's steps and bits (%ld, %ld, %ld steps)", path, what,
                      rk2 ? "RK2" : "Euler", kernels ? "a group a tile, and 3 groups running tiles in turn" : "twice",
                      steps[0], steps[1], steps[2]);
                if (bed != 2)
                    CHECK(tiles[0][0] == tiles[0][1] && tiles[0][1] == nt, "rest rule off, %s, %s, %s: every tile "
                          "computed (%ld of %ld: all wet)", path, what, rk2 ? "RK2" : "Euler", tiles[0][0], tiles[0][1]);
                /* the waves (sqrt(g h) ~ 3.1 cells/s) reach ~13 cells in 3 s: a few of the kernels' tiles,
                 * (measured 33 to 39 of 77), and of the passes' (16 x 16: 6 x 5) those and the ring of tiles around
                 * them (21, 22 of 30) */
                if (!bed && mound == 2 && !kernels)   /* (the passes rest no -0.0 momentum: kp_wet.glsl) */
                    CHECK(tiles[1][0] == nt, "rest rule on, %s, %s, %s: every tile computed (%ld of %ld: no -0.0 "
                          "momentum rests on the passes)", path, what, rk2 ? "RK2" : "Euler", tiles[1][0], nt);
                else if (!bed && mound)
                    CHECK(tiles[1][0] > 0 && tiles[1][0] <= (kernels ? 45 : 24) && tiles[2][0] == tiles[1][0],
                          "rest rule on, %s, %s, %s: %ld of %ld tiles computed in the last step (those the waves "
                          "reached)", path, what, rk2 ? "RK2" : "Euler", tiles[1][0], nt);
                else if (!bed)
                    CHECK(tiles[1][0] == 0, "rest rule on, %s, %s, %s: no tile computed (%ld)", path, what,
                          rk2 ? "RK2" : "Euler", tiles[1][0]);
                else
                    printf("note  rest rule on, %s, %s, %s: %ld of %ld tiles computed in the last step\n", path, what,
                           rk2 ? "RK2" : "Euler", tiles[1][0], nt);
                for (int m = 0; m < 3; m++) state_free(&s[m]);
            }
        }
    }
    prob_free(&r);
}

int main(void)
{
    gpu_context *ctx = kp_test_begin();
    early_exit();
    kernel_steps();
    rest_tiles();
    gpu_context_destroy(ctx);
    return check_done();
}
