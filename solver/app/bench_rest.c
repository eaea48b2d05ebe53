/* bench_rest.c — `swgl bench rest`: what the second rule of Brodtkorb et al.'s early exit
 * (2011, 3.2.1: tiles where the fluxes balance the sources exactly, R = 0, skipped as dry
 * ones; tune kp.rest) saves.  A lake at rest on a flat bed, N x N cells of 1 m, 1 m deep,
 * walls, with K pools: in each of K square blocks a pool 40 m across, walled by a dry ridge
 * 2 m high and 2 m thick, with a mound of water 0.3 m high within 3 m of its centre.  The
 * water sloshes in the pools for as long as the run lasts, and the lake outside them is at
 * rest, but for the rounding its shores leak in float (the well-balanced sums against a
 * ridge's slope are not exact): that noise spreads from the shores at the scheme's pace, so
 * a long run ends with every tile moving; --t-end T runs both rules to a fixed T instead.  Each K is run with kp.rest on and off
 * (kp.early_exit on, RK2 by default): Mcells/s (cells x steps / wall), the share of tiles
 * the last step computed with the rule on, and the step's time on against off, which
 * should follow that share.  Since that share does not change with time, each
 * configuration's t_end is set by a first run of 5 s so that one run steps about --min-time
 * seconds (a sim's set-up at 4096^2 takes seconds; a rule that repeats short runs would be
 * all set-up).  A last row puts the still lake (no pools) on a slope of 1e-3 (bed 0.001 x,
 * the surface level): how many of its tiles still qualify (R = 0 to the bit needs the
 * well-balanced sums to leave no rounding, which a sloping bed does not promise).  A client
 * of swgl.h, as bench kp. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_measure.h"
#include "cli.h"
#include "swgl.h"

typedef struct rest_job {
    int n, k, slope;          /* size, mounds, a sloping bed (k ignored) */
    double t_end;
    const char *backend, *integrator, *tune;
    double tiles;             /* the last run's share of tiles computed in its last step (-1 unknown) */
    int device;
} rest_job;

static int rest_run(void *user, bench_sample *out)
{
    rest_job *j = user;
    char s[9][1024];
    snprintf(s[0], sizeof s[0], "domain.nx=%d", j->n);
    snprintf(s[1], sizeof s[1], "domain.ny=%d", j->n);
    snprintf(s[2], sizeof s[2], "domain.dx=1");
    snprintf(s[3], sizeof s[3], "domain.dy=1");
    snprintf(s[4], sizeof s[4], "run.t_end=%.17g", j->t_end);
    snprintf(s[5], sizeof s[5], "kp.integrator=%s", j->integrator);
    snprintf(s[6], sizeof s[6], "kp.early_exit=on");
    if (j->slope) {
        snprintf(s[7], sizeof s[7], "domain.bed=0.001 * x");
        snprintf(s[8], sizeof s[8], "initial.depth=%.17g - 0.001 * x", 1.0 + 0.001 * j->n);
    } else if (j->k == 0) {
        snprintf(s[7], sizeof s[7], "domain.bed=0");
        snprintf(s[8], sizeof s[8], "initial.depth=1");
    } else {
        /* the blocks' side p, m; a cell's distance from its block's centre along x and y: u,
         * v; the ridge where max(|u|, |v|) is in [20, 22) */
        double p = j->n / sqrt((double)j->k);
        char u[96], v[96];
        snprintf(u, sizeof u, "(x - %.17g * floor(x / %.17g) - %.17g)", p, p, p / 2);
        snprintf(v, sizeof v, "(y - %.17g * floor(y / %.17g) - %.17g)", p, p, p / 2);
        snprintf(s[7], sizeof s[7], "domain.bed=max(abs%s, abs%s) >= 20 && max(abs%s, abs%s) < 22 ? 2 : 0", u, v, u, v);
        snprintf(s[8], sizeof s[8],
                 "initial.depth=max(abs%s, abs%s) >= 20 && max(abs%s, abs%s) < 22 ? 0 : %s^2 + %s^2 < 9 ? 1.3 : 1", u, v,
                 u, v, u, v);
    }
    const char *sets[10] = {s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], NULL};
    swgl_sim_desc d = {.case_name = "circular-dambreak", .set = sets, .backend = j->backend,
                       .use_device = j->device >= 0, .device = j->device, .tune = j->tune};
    swgl_sim *sim = NULL;
    swgl_status st = swgl_sim_create(&d, &sim);
    if (st == SWGL_OK) st = bench_sim_run(sim, swgl_sim_t_end(sim), out);
    if (st != SWGL_OK) {
        fprintf(stderr, "swgl bench rest: %d^2, %d mounds, %s: %s\n", j->n, j->k, j->tune, swgl_last_error());
        swgl_sim_destroy(sim);
        return 1;
    }
    double tiles = -1;
    if (swgl_sim_stat(sim, "tiles_fraction", &tiles) == SWGL_OK) j->tiles = tiles;
    swgl_sim_destroy(sim);
    return 0;
}

static int parse_list(const char *s, int *v, int max, int lo, int hi)
{
    int n = 0;
    while (*s && n < max) {
        char *end;
        long x = strtol(s, &end, 10);
        if (end == s || x < lo || x > hi || (*end && *end != ',')) return -1;
        v[n++] = (int)x;
        s = *end ? end + 1 : end;
    }
    return n;
}

/* A figure: the median of 3 measurements (steps / s), each runs of the job until their
 * stepping sums to min_s or max_runs runs; *sec the smallest measurement's seconds, *runs
 * the runs of all three.  0, or 1 where a run failed. */
static int measure(rest_job *j, double min_s, int max_runs, double *med, double *spread, double *sec, int *runs)
{
    double m[3];
    *runs = 0;
    *sec = INFINITY;
    for (int k = 0; k < 3; k++) {
        double wall = 0, steps = 0;
        int n = 0;
        do {
            bench_sample s;
            memset(&s, 0, sizeof s);
            if (rest_run(j, &s) != 0 || !(s.wall > 0) || s.steps <= 0) return 1;
            wall += s.wall;
            steps += (double)s.steps;
            n++;
        } while (wall < min_s && n < max_runs);
        m[k] = steps / wall;
        *runs += n;
        *sec = fmin(*sec, wall);
    }
    for (int a = 0; a < 2; a++)   /* (three values: sorted by two passes) */
        for (int b = 0; b < 2 - a; b++)
            if (m[b] > m[b + 1]) {
                double t = m[b];
                m[b] = m[b + 1];
                m[b + 1] = t;
            }
    *med = m[1];
    *spread = m[1] > 0 ? (m[2] - m[0]) / m[1] : -1;
    return 0;
}

int bench_rest(int argc, char **argv)
{
    int n = 1024, mounds[16] = {0, 16, 256, 1024, 4096}, nm = 5, device = -1;
    double t_probe = 5.0, t_max = 20000.0, min_s = 1.0, t_fixed = 0;
    int max_runs = 12;
    const char *backend = "gpu-compute", *integ = "rk2";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (strcmp(a, "--size") == 0 && more && atoi(argv[i + 1]) >= 16 && atoi(argv[i + 1]) <= 16384) n = atoi(argv[++i]);
        else if (strcmp(a, "--pools") == 0 && more && (nm = parse_list(argv[i + 1], mounds, 16, 0, 1 << 20)) > 0) i++;
        else if (strcmp(a, "--min-time") == 0 && more && bench_parse_min_time(argv[i + 1]) > 0)
            min_s = bench_parse_min_time(argv[++i]);
        else if (strcmp(a, "--device") == 0 && more) device = atoi(argv[++i]);
        else if (strcmp(a, "--t-end") == 0 && more && atof(argv[i + 1]) > 0) t_fixed = atof(argv[++i]);
        else if (strcmp(a, "--max-runs") == 0 && more && atoi(argv[i + 1]) >= 1) max_runs = atoi(argv[++i]);
        else if (strcmp(a, "--integrator") == 0 && more && (!strcmp(argv[i + 1], "rk2") || !strcmp(argv[i + 1], "euler")))
            integ = argv[++i];
        else if (strcmp(a, "--backend") == 0 && more &&
                 (!strcmp(argv[i + 1], "gpu") || !strcmp(argv[i + 1], "gpu-compute") || !strcmp(argv[i + 1], "cpu")))
            backend = argv[++i];
        else {
            printf("usage: swgl bench rest [--size N] [--pools K,K,...] [--integrator rk2|euler] [--t-end T]\n"
                   "                       [--backend gpu-compute|gpu|cpu] [--min-time S] [--max-runs R] [--device N]\n"
                   "  the second rule of early exit (tiles at rest skipped, tune kp.rest) on and off: a lake\n"
                   "  at rest on a flat bed, N x N cells of 1 m (default 1024), 1 m deep, walls, with K pools\n"
                   "  (default 0,16,256,1024,4096; one in each of K square blocks, 40 m across, walled by a\n"
                   "  dry ridge, a mound of 0.3 m at its centre: the water sloshes there, the lake outside is\n"
                   "  at rest), and the still lake on a slope of 1e-3.  Each configuration runs to a\n"
                   "  t_end set by a first run of 5 s so that a run steps about S s (--min-time, default 1);\n"
                   "  or (--t-end T) both rules to T s, runs repeated until their stepping sums to S s or R runs\n"
                   "  (--max-runs, default 12): the pools' shores leak rounding into the lake at rest (float),\n"
                   "  which a long run lets spread over it.  Mcells/s = cells x steps / wall, the median of 3;\n"
                   "  'tiles' the share the last step computed with the rule on; 'on/off' the step's time\n"
                   "  with the rule on over off.\n");
            return strcmp(a, "--help") == 0 ? 0 : 2;
        }
    }
    if (nm <= 0) {
        fprintf(stderr, "swgl bench rest: --pools: expected counts from 0 separated by commas\n");
        return 2;
    }
    int gpu = strcmp(backend, "cpu") != 0;
    bench_gpu dev;
    memset(&dev, 0, sizeof dev);
    dev.compute = strcmp(backend, "gpu-compute") == 0;
    if (gpu && bench_gpu_setup(device, dev.compute, &dev)) return 1;
    printf("swgl bench rest — early exit's second rule (tiles at rest skipped, tune kp.rest): a lake at rest, %d^2 "
           "cells of 1 m, 1 m deep, with K walled pools 40 m across where water sloshes, kp %s, early exit on, on %s\n",
           n, integ, backend);
    if (gpu) bench_gpu_print(&dev, 0);
    else printf("CPU: %s, fast solver with up to %d threads\n", swgl_cpu_model(), bench_cpu_threads());
    if (t_fixed > 0)
        printf("Mcells/s (cells x steps / wall), the median of 3 measurements, each runs to t_end = %g s until their "
               "stepping sums to %g s or %d runs ('s,runs': the shortest measurement's seconds, the runs of all three); ",
               t_fixed, min_s, max_runs);
    else
        printf("Mcells/s (cells x steps / wall), the median of 3 measurements of about %g s of stepping (t_end set by a "
               "first run of %g s so that one run steps that long; 's,runs': the shortest measurement's seconds, the runs "
               "of all three); ", min_s, t_probe);
    printf("tiles: the share of tiles the last step computed with the rule on; on/off: the step's time with the rule "
           "on over off; spread = (max - min) / median, the row's largest\n\n");
    printf("%-22s %7s %7s | %10s %10s | %7s %7s | %9s %9s | %6s\n", "lake", "t_end", "steps", "rest off", "rest on",
           "tiles", "on/off", "off s,runs", "on s,runs", "spread");
    int rc = 0;
    for (int r = 0; r <= nm; r++) {
        int slope = r == nm;
        double med[2] = {0, 0}, spr[2] = {-1, -1}, sec[2] = {0, 0}, tiles = -1, tend = t_fixed;
        int runs[2] = {0, 0}, ok[2] = {0, 0};
        long steps = 0;
        for (int on = 0; on < 2; on++) {
            rest_job j = {n, slope ? 0 : mounds[r], slope, t_probe, backend, integ, on ? "kp.rest=on" : "kp.rest=off", -1,
                          device};
            /* the probe (also the warm-up): without --t-end its seconds a step set the
             * configuration's t_end; with it, both rules run to that */
            bench_sample pr;
            memset(&pr, 0, sizeof pr);
            if (t_fixed > 0) j.t_end = t_fixed;
            if (rest_run(&j, &pr) != 0 || !(pr.wall > 0) || pr.steps <= 0) {
                rc = 1;
                continue;
            }
            if (!(t_fixed > 0)) {
                double per_step = pr.wall / (double)pr.steps;
                double dt_mean = t_probe / (double)(pr.run_steps > 0 ? pr.run_steps : pr.steps);
                j.t_end = fmin(fmax(t_probe, 1.2 * min_s / per_step * dt_mean), t_max);
                tend = j.t_end;
            }
            steps = pr.run_steps > 0 ? pr.run_steps : pr.steps;
            if (measure(&j, min_s, max_runs, &med[on], &spr[on], &sec[on], &runs[on]) != 0) {
                rc = 1;
                continue;
            }
            ok[on] = 1;
            if (on) tiles = j.tiles;
            if (t_fixed > 0) steps = (long)pr.run_steps;
        }
        char what[32], b[4][24];
        if (slope) snprintf(what, sizeof what, "still, slope 1e-3");
        else snprintf(what, sizeof what, "%d pool%s", mounds[r], mounds[r] == 1 ? "" : "s");
        double cells = (double)n * n, m0 = cells * med[0] / 1e6, m1 = cells * med[1] / 1e6;
        snprintf(b[0], 24, ok[0] ? "%.1f" : "-", m0);
        snprintf(b[1], 24, ok[1] ? "%.1f" : "-", m1);
        snprintf(b[2], 24, tiles >= 0 ? "%.4f" : "-", tiles);
        snprintf(b[3], 24, ok[0] && ok[1] && m1 > 0 ? "%.3f" : "-", m0 / m1);
        char sp[24];
        bench_fmt_spread(sp, sizeof sp, fmax(spr[0], spr[1]));
        printf("%-22s %7.0f %7ld | %10s %10s | %7s %7s | %5.2f %3d %5.2f %3d | %6s\n", what, tend, steps, b[0], b[1], b[2],
               b[3], sec[0], runs[0], sec[1], runs[1], sp);
        fflush(stdout);
    }
    return rc;
}
