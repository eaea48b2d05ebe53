/* bench_kp.c — `swgl bench kp`: Brodtkorb et al. (2011) Figure 10 on this machine: the
 * speed of the kp scheme in megacells per second (cells x steps / wall time, a step
 * being a whole Euler or RK2 step) against the domain size, for the circular dam break
 * (case circular-dambreak, their case 1) run to 4 s, with Euler and RK2, early exit on
 * and off, on the GPU, the fast CPU solver and the scalar one; every figure the median of
 * 3 measurements of at least --min-time seconds of stepping (bench_measure.h).  For the
 * GPU it also gives, from GL timer queries in a separate profiled run of the largest size,
 * each pass's share of the step, and the step's effective bandwidth (the fewest bytes its
 * passes must move per cell, over time) as a fraction of the copy ceiling
 * (swgl_copy_bandwidth, as bench gpgpu's), measured in the same run.  A client of swgl.h: each run is a sim of the case with
 * overrides (swgl_sim_profile for the passes' shares). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_measure.h"
#include "cli.h"
#include "swgl.h"


/* Fewest bytes a step moves per cell (float4 = 16 B; kp_gpu_step.c's head comment): a flux
 * evaluation 48 B (reads the cell's state and bed, writes R); the reduction 16 (stage 0);
 * the integration 64 (stage 1: 80); the wet map 16 per stage with early exit.
 * Euler 128 B, RK2 256 B. */
static double bytes_per_cell_step(int rk2, int early)
{
    double flux = 48;
    double stage0 = flux + 16 + 64 + (early ? 16 : 0);
    double stage1 = flux + 80 + (early ? 16 : 0);
    return rk2 ? stage0 + stage1 : stage0;
}

static int parse_sizes(const char *s, int *sizes, int max)
{
    int n = 0;
    while (*s && n < max) {
        char *end;
        long v = strtol(s, &end, 10);
        if (end == s || v < 8 || v > 16384) return -1;
        sizes[n++] = (int)v;
        s = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') return -1;
    }
    return n;
}

static const char *g_gpu = "gpu";  /* the GPU runs' backend (--backend) */
static char g_tune[CLI_TUNE_MAX];   /* --tune items for every sim */

/* the pass profile of a run: each pass's name and GPU seconds */
#define MAX_PASSES 32
typedef struct profile {
    int n;
    char name[MAX_PASSES][32];
    double sec[MAX_PASSES];
} profile;

static double g_outside = 0.5;   /* m of still water around the column (--outside) */
static int g_device = -1;        /* --device */

/* a run of the case at size n with the overrides on a backend ("gpu", "cpu", "cpu-scalar") in
 * a precision; prof (when given) gets the passes' profile (GL timer queries) */
typedef struct kp_job {
    int n;
    double t_end;
    const char *integrator, *early, *b, *precision;
    double tiles;    /* the run's share of tiles computed in its last step (early exit), -1 unknown */
    profile *prof;
} kp_job;

/* One run (bench_run_fn): 0, or 1 after printing what failed. */
static int run_one(void *user, bench_sample *out)
{
    kp_job *j = user;
    int n = j->n;
    char s1[64], s2[64], s3[64], s4[64], s5[64], s6[64], s7[64], s8[96];
    snprintf(s1, sizeof s1, "domain.nx=%d", n);
    snprintf(s2, sizeof s2, "domain.ny=%d", n);
    snprintf(s3, sizeof s3, "domain.dx=%.17g", 40.0 / n);
    snprintf(s4, sizeof s4, "domain.dy=%.17g", 40.0 / n);
    snprintf(s5, sizeof s5, "run.t_end=%.17g", j->t_end);
    snprintf(s6, sizeof s6, "kp.integrator=%s", j->integrator);
    snprintf(s7, sizeof s7, "kp.early_exit=%s", j->early);
    snprintf(s8, sizeof s8, "initial.depth=(x - 20)^2 + (y - 20)^2 < 6.25 ? 2.5 : %.17g", g_outside);
    const char *sets[9] = {s1, s2, s3, s4, s5, s6, s7, s8, NULL};
    swgl_sim_desc d = {.case_name = "circular-dambreak", .set = sets, .backend = j->b, .precision = j->precision,
                       .profile = j->prof != NULL, .use_device = g_device >= 0, .device = g_device,
                       .tune = g_tune};
    swgl_sim *sim = NULL;
    swgl_sim_info info;
    double tiles = -1;
    j->tiles = -1;
    swgl_status st = swgl_sim_create(&d, &sim);
    if (st == SWGL_OK) st = swgl_sim_get_info(sim, &info);
    if (st == SWGL_OK) st = bench_sim_run(sim, swgl_sim_t_end(sim), out);
    if (st != SWGL_OK) {
        fprintf(stderr, "swgl: %d^2 on %s: %s\n", n, j->b, swgl_last_error());
        swgl_sim_destroy(sim);
        return 1;
    }
    if (swgl_sim_stat(sim, "tiles_fraction", &tiles) == SWGL_OK) j->tiles = tiles;
    if (j->prof) {
        profile *prof = j->prof;
        const char *name;
        double sec;
        long count;
        prof->n = 0;
        while (prof->n < MAX_PASSES && swgl_sim_profile(sim, prof->n, &name, &sec, &count) == SWGL_OK) {
            snprintf(prof->name[prof->n], sizeof prof->name[prof->n], "%s", name);
            prof->sec[prof->n++] = sec;
        }
    }
    swgl_sim_destroy(sim);
    return 0;
}

/* a figure of a configuration: the median of 3 (bench_measure.h), the last run's tiles */
typedef struct result {
    bench_figure f;
    double tiles;
} result;

static int measure(int n, double t_end, const char *integrator, const char *early, const char *b,
                   const char *precision, double min_s, result *r)
{
    kp_job j = {n, t_end, integrator, early, b, precision, -1, NULL};
    int rc = bench_measure(run_one, &j, min_s, &r->f);
    r->tiles = rc ? -1 : j.tiles;
    return rc;
}

int bench_kp(int argc, char **argv)
{
    int sizes[32] = {128, 256, 512, 1024}, nsizes = 4, scalar_max = 256, cpu_max = 1024, device = -1;
    int gpu = 1;
    int dbl = 0;   /* --precision double */
    double t_end = 4.0, min_s = 1.0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (strcmp(a, "--sizes") == 0 && more && (nsizes = parse_sizes(argv[i + 1], sizes, 32)) > 0) i++;
        else if (strcmp(a, "--t-end") == 0 && more && atof(argv[i + 1]) > 0) t_end = atof(argv[++i]);
        else if (strcmp(a, "--scalar-max") == 0 && more) scalar_max = atoi(argv[++i]);
        else if (strcmp(a, "--cpu-max") == 0 && more) cpu_max = atoi(argv[++i]);
        else if (strcmp(a, "--device") == 0 && more) device = atoi(argv[++i]);
        else if (strcmp(a, "--no-gpu") == 0) gpu = 0;
        else if (strcmp(a, "--backend") == 0 && more &&
                 (!strcmp(argv[i + 1], "gpu") || !strcmp(argv[i + 1], "gpu-compute")))
            g_gpu = argv[++i];
        else if (strcmp(a, "--tune") == 0 && more) {
            int t = cli_tune("bench kp", argv[++i], g_tune, sizeof g_tune);
            if (t) return t > 0 ? 0 : 2;
        }
        else if (strcmp(a, "--outside") == 0 && more && atof(argv[i + 1]) >= 0) g_outside = atof(argv[++i]);
        else if (strcmp(a, "--min-time") == 0 && more && bench_parse_min_time(argv[i + 1]) > 0)
            min_s = bench_parse_min_time(argv[++i]);
        else if (strcmp(a, "--precision") == 0 && more && (!strcmp(argv[i + 1], "single") || !strcmp(argv[i + 1], "double")))
            dbl = strcmp(argv[++i], "double") == 0;
        else {
            printf("usage: swgl bench kp [--sizes N,N,...] [--t-end T] [--scalar-max N] [--cpu-max N]\n"
                   "                     [--outside H] [--precision single|double] [--min-time S] [--device N]\n"
                   "                     [--no-gpu] [--backend gpu|gpu-compute] [--tune KEY=VALUE]...\n"
                   "  the circular dam break (40 m x 40 m) on N x N cells (default 128,256,512,1024), to\n"
                   "  T s (default 4, Brodtkorb et al.'s Figure 10); Euler and RK2, early exit off and on;\n"
                   "  the fast CPU solver up to N = --cpu-max (1024), the scalar one up to --scalar-max\n"
                   "  (256).  Mcells/s = cells x steps / wall, the median of 3 measurements of at least\n"
                   "  S s of stepping each (--min-time, default 1): the run repeated, a new sim each time,\n"
                   "  after a warm-up run; 'spread' = (max - min) / median.  --backend: the GPU runs'\n"
                   "  backend (default gpu); --tune: a tuning key for every run (--tune help lists them).\n"
                   "  --outside H: the still water around the column (default\n"
                   "  0.5 m, the paper's case 1, where every cell is wet; 0: a dry bed, where early exit\n"
                   "  skips the tiles the wave has not reached).  --precision double runs the GPU (fp64) and\n"
                   "  the fast CPU solver in double (default single; the scalar solver is always double).\n");
            return strcmp(a, "--help") == 0 ? 0 : 2;
        }
    }
    if (nsizes <= 0) {
        fprintf(stderr, "swgl bench kp: --sizes: expected sizes from 8 to 16384 separated by commas\n");
        return 2;
    }
    g_device = device;
    const char *precision = dbl ? "double" : "single";
    bench_gpu dev;   /* the device, its passes (compute with --backend gpu-compute) and their ceiling */
    memset(&dev, 0, sizeof dev);
    snprintf(dev.renderer, sizeof dev.renderer, "no GPU");
    dev.compute = strcmp(g_gpu, "gpu-compute") == 0;
    if (gpu && bench_gpu_setup(device, dev.compute, &dev)) return 1;
    const char *renderer = dev.renderer;
    const int compute = dev.compute;
    const double ceiling = dev.ceiling;
    const int threads = bench_cpu_threads();
    printf("swgl bench kp — Brodtkorb et al. (2011) Figure 10 on this machine: circular dam break to %g s, "
           "%g m of water outside the column\n", t_end, g_outside);
    if (gpu) bench_gpu_print(&dev, 0);
    printf("CPU: %s, fast solver with %d OpenMP threads\n", swgl_cpu_model(), threads);
    printf("precision: %s on the GPU and the fast CPU solver (scalar: double)\n", precision);
    printf("Mcells/s (cells x steps / wall), each the %s of stepping (the run to t_end repeated, a new sim each "
           "time, after a warm-up run; steps: one run's); spread = (max - min) / median of the three, the largest of "
           "the row; 'tiles' = share of the tiles the flux computed in the last step\n", bench_rule(min_s));
    if (gpu && compute)
        printf("GPU passes: compute (--backend gpu-compute): early exit is in the fused kernel where it runs\n");
    int rc = 0;
    static const char *integ[2] = {"euler", "rk2"}, *ee[2] = {"off", "on"};
    for (int r2 = 0; r2 < 2; r2++) {
        printf("\n%s: N = %d..%d; gpu (%s) on %s, the fast CPU solver up to N = %d (%d threads), the scalar one up to "
               "%d; Mcells/s, %s\n", r2 ? "RK2" : "Euler", sizes[0], sizes[nsizes - 1], precision, gpu ? renderer : "-",
               cpu_max, threads, scalar_max, bench_rule(min_s));
        printf("%6s %9s %6s | %9s %9s %6s %7s %6s | %9s %9s %6s | %9s | %7s | %6s\n", "N", "cells", "steps", "gpu",
               "gpu ee", "tiles", "GB/s", "copy", "cpu", "cpu ee", "tiles", "scalar", "gpu/cpu", "spread");
        for (int z = 0; z < nsizes; z++) {
            int n = sizes[z];
            result g[2], c[2], sc;
            memset(g, 0, sizeof g);
            memset(c, 0, sizeof c);
            memset(&sc, 0, sizeof sc);
            for (int e = 0; e < 2; e++) {
                if (gpu) rc |= measure(n, t_end, integ[r2], ee[e], g_gpu, precision, min_s, &g[e]);
                if (n <= cpu_max) rc |= measure(n, t_end, integ[r2], ee[e], "cpu", precision, min_s, &c[e]);
            }
            if (n <= scalar_max) rc |= measure(n, t_end, integ[r2], "off", "cpu-scalar", precision, min_s, &sc);
            double cells = (double)n * n;
            long steps = g[0].f.ok ? g[0].f.steps : c[0].f.ok ? c[0].f.steps : sc.f.steps;
            const result *all[5] = {&g[0], &g[1], &c[0], &c[1], &sc};
            double spread = -1;
            for (int k = 0; k < 5; k++)
                if (all[k]->f.ok) spread = fmax(spread, bench_spread(&all[k]->f, 0));
#define MC(r) (cells * bench_median(&(r).f, 0) / 1e6)
            char b[9][24];
            snprintf(b[0], 24, g[0].f.ok ? "%.1f" : "-", MC(g[0]));
            snprintf(b[1], 24, g[1].f.ok ? "%.1f" : "-", MC(g[1]));
            snprintf(b[2], 24, g[1].f.ok && g[1].tiles >= 0 ? "%.2f" : "-", g[1].tiles);
            snprintf(b[3], 24, c[0].f.ok ? "%.1f" : "-", MC(c[0]));
            snprintf(b[4], 24, c[1].f.ok ? "%.1f" : "-", MC(c[1]));
            snprintf(b[5], 24, c[1].f.ok && c[1].tiles >= 0 ? "%.2f" : "-", c[1].tiles);
            snprintf(b[6], 24, sc.f.ok ? "%.2f" : "-", MC(sc));
            double best_g = fmax(MC(g[0]), MC(g[1])), best_c = fmax(MC(c[0]), MC(c[1]));
            snprintf(b[7], 24, best_g > 0 && best_c > 0 ? "%.1f" : "-", best_g / best_c);
            bench_fmt_spread(b[8], 24, spread);
            double gbs = MC(g[0]) * 1e6 * bytes_per_cell_step(r2, 0) * (dbl ? 2 : 1) / 1e9;
            printf("%6d %9.0f %6ld | %9s %9s %6s %7.1f %6.3f | %9s %9s %6s | %9s | %7s | %6s\n", n, cells, steps, b[0],
                   b[1], b[2], gbs, ceiling > 0 ? gbs / ceiling : 0, b[3], b[4], b[5], b[6], b[7], b[8]);
            fflush(stdout);
#undef MC
        }
    }
    if (gpu) {
        /* the passes' shares: a profiled RK2 run of the largest size without early exit,
         * and one with it (the wet map pass is then part of the step); the shares of one
         * run (the configuration was just timed: the driver is warm), not a timed figure */
        int n = sizes[nsizes - 1];
        for (int e = 0; e < 2; e++) {
            profile prof = {0};
            bench_sample r;
            kp_job j = {n, t_end, "rk2", ee[e], g_gpu, precision, -1, &prof};
            memset(&r, 0, sizeof r);
            rc |= run_one(&j, &r);
            double total = 0;
            for (int p = 0; p < prof.n; p++) total += prof.sec[p];
            printf("\nGPU passes, RK2, %d^2, early exit %s (GL timer queries of one run: shares, not a timed figure; %ld "
                   "steps; GPU time %.3f s of %.3f s wall, its first %g s of stepping in):\n", n, ee[e],
                   r.run_steps, total, r.run_wall, BENCH_WARM_S);
            for (int p = 0; p < prof.n; p++)
                if (prof.sec[p] > 0)
                    printf("  %-12s %8.3f s  %5.1f%%\n", prof.name[p], prof.sec[p], total > 0 ? 100 * prof.sec[p] / total : 0);
        }
        printf("\nfewest bytes a step moves per cell (GPU, %s flux): Euler %.0f B, RK2 %.0f B (early exit: + %.0f B "
               "per stage for the wet map)\n", "cell", bytes_per_cell_step(0, 0),
               bytes_per_cell_step(1, 0), 16.0);
    }
    return rc;
}
