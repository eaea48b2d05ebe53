/* bench_roe.c — `swgl bench roe`: Lastra et al. (2009) Tables 1 and 2 on this machine.
 * For each mesh level of Test 1 (lastra-test1, to t = 5 s; level 5 to 0.1 s) and
 * Test 2 (lastra-test2, to 0.65 s): the wall time of a run on the GPU, on the fast CPU
 * solver (SSE + OpenMP, with its thread count) and on the scalar double CPU solver, the
 * speedups, and cell updates per second; every time the median of 3 measurements of at
 * least --min-time seconds of stepping (bench_measure.h).  The GPU figure is also given as
 * an effective bandwidth (bytes each pass must move per cell and step, over time) and as a
 * fraction of the copy ceiling (swgl_copy_bandwidth, as bench gpgpu's), measured in the
 * same run.
 * --precision single (default) | double | both: the GPU and the fast CPU solver in float,
 * in double (`--precision double` of `swgl run`: packed doubles on the GPU, which needs
 * GL_ARB_gpu_shader_fp64; on the CPU the widest vectors it has), or both side by side with the cost of
 * double per step (double / float); the scalar solver is double in every mode.  A client
 * of swgl.h: each run is a sim of the case with overrides. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_measure.h"
#include "cli.h"
#include "swgl.h"


/* Fewest bytes a step must move per cell (float4 = 16 B), by pass (roe_gpu.c):
 *   edge   reads the state and bed of a cell (32 B; each is read by the 2 edges it
 *          owns and the 2 it borders, counted once), writes 2 targets per edge (64 B)
 *   dt     reads 4 edge texels (64 B) and the state (16), writes the sums (16)
 *   min    reads 16 (+ 1/3 for the pyramid, not counted)
 *   update reads the state, the sums (32) and the 4 edge texels for the mass fluxes (64),
 *          writes 16
 * (before the momentum sums went from the dt pass to the update and the codes into the
 * state, with no positivity limiter: 352 B) */
#define ROE_BYTES_PER_CELL (32.0 + 64 + 64 + 16 + 16 + 16 + 32 + 64 + 16)
/* The same in double (roe_gpu.c): every float4 array is two texels of packed doubles,
 * and the dt pass writes a third target, a float4 for the reduction:
 *   edge   reads state (2 texels) and bed (48 B), writes 4 targets per edge (128 B)
 *   dt     reads 4 edges x 2 texels per side (128 B) and the state (32), writes 48
 *   min    reads 16
 *   update reads the state (32), sums and tau (32) and the mass halves of 4 edges (64),
 *          writes 32 */
#define ROE_BYTES_PER_CELL_D (48.0 + 128 + 128 + 32 + 48 + 16 + 32 + 32 + 64 + 32)

/* one timed column: a backend ("gpu", "cpu", "cpu-scalar") in a precision ("single",
 * "double", NULL: the scheme's), its figure (bench_measure.h) for the row's case */
typedef struct {
    const char *b;
    const char *p;
    bench_figure f;
} bench_col;

/* a run of a row's case: the sim's description and where its grid size goes */
typedef struct {
    const char *name;
    const char *const *sets;
    const bench_col *col;
    int device, level;
    long cells;
} roe_job;

static char g_tune[CLI_TUNE_MAX];   /* --tune items for every sim */
static const char *g_gpu = "gpu";    /* --backend: the GPU columns' backend */

/* One run of a sim of the case with the overrides to its t_end (bench_run_fn): wall time and
 * steps, the grid's cells; 0, or 1 after printing what failed. */
static int run_sim(void *user, bench_sample *out)
{
    roe_job *j = user;
    swgl_sim_desc d = {.case_name = j->name, .set = j->sets, .backend = j->col->b, .precision = j->col->p,
                       .use_device = j->device >= 0, .device = j->device, .tune = g_tune};
    swgl_sim *sim = NULL;
    swgl_sim_info info;
    swgl_status st = swgl_sim_create(&d, &sim);
    if (st == SWGL_OK) st = swgl_sim_get_info(sim, &info);
    if (st == SWGL_OK) st = bench_sim_run(sim, swgl_sim_t_end(sim), out);
    if (st != SWGL_OK) fprintf(stderr, "swgl: level %d, %s: %s\n", j->level, j->col->b, swgl_last_error());
    else {
        j->cells = (long)info.nx * info.ny;
    }
    swgl_sim_destroy(sim);
    return st != SWGL_OK;
}

/* one run's seconds (from the median) */
static void fmt_s(char *buf, size_t len, const bench_col *c)
{
    if (c->f.ok) snprintf(buf, len, "%.3f", bench_run_s(&c->f));
    else snprintf(buf, len, "-");
}

/* a / b of two columns' run times */
static void fmt_ratio(char *buf, size_t len, const bench_col *a, const bench_col *b)
{
    if (a->f.ok && b->f.ok) snprintf(buf, len, "%.1f", bench_run_s(&a->f) / bench_run_s(&b->f));
    else snprintf(buf, len, "-");
}

/* double / float, per step */
static void fmt_cost(char *buf, size_t len, const bench_col *d, const bench_col *f)
{
    if (d->f.ok && f->f.ok) snprintf(buf, len, "%.2f", bench_median(&f->f, 0) / bench_median(&d->f, 0));
    else snprintf(buf, len, "-");
}

static int parse_range(const char *s, int *a, int *b)
{
    if (sscanf(s, "%d-%d", a, b) == 2) return 0;
    if (sscanf(s, "%d", a) == 1) {
        *b = *a;
        return 0;
    }
    return -1;
}

int bench_roe(int argc, char **argv)
{
    int l1a = 0, l1b = 3, l2a = 0, l2b = 3, scalar_max = 2, cpu_max = 5, device = -1;
    int prec = 0;   /* 0 single, 1 double, 2 both */
    const char *scheme = "roe";   /* --scheme: roe, or hllc on the same cases */
    double t_scale = 1.0, min_s = 1.0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (strcmp(a, "--tune") == 0 && more) {
            int t = cli_tune("bench roe", argv[++i], g_tune, sizeof g_tune);
            if (t) return t > 0 ? 0 : 2;
        } else if (strcmp(a, "--backend") == 0 && more &&
                   (strcmp(argv[i + 1], "gpu") == 0 || strcmp(argv[i + 1], "gpu-compute") == 0))
            g_gpu = argv[++i];
        else if (strcmp(a, "--scheme") == 0 && more &&
                 (strcmp(argv[i + 1], "roe") == 0 || strcmp(argv[i + 1], "hllc") == 0))
            scheme = argv[++i];
        else if (strcmp(a, "--test1") == 0 && more && !parse_range(argv[i + 1], &l1a, &l1b)) i++;
        else if (strcmp(a, "--test2") == 0 && more && !parse_range(argv[i + 1], &l2a, &l2b)) i++;
        else if (strcmp(a, "--scalar-max") == 0 && more) scalar_max = atoi(argv[++i]);
        else if (strcmp(a, "--cpu-max") == 0 && more) cpu_max = atoi(argv[++i]);
        else if (strcmp(a, "--t-scale") == 0 && more) t_scale = atof(argv[++i]);
        else if (strcmp(a, "--device") == 0 && more) device = atoi(argv[++i]);
        else if (strcmp(a, "--min-time") == 0 && more && bench_parse_min_time(argv[i + 1]) > 0)
            min_s = bench_parse_min_time(argv[++i]);
        else if (strcmp(a, "--precision") == 0 && more &&
                 (strcmp(argv[i + 1], "single") == 0 || strcmp(argv[i + 1], "double") == 0 ||
                  strcmp(argv[i + 1], "both") == 0)) {
            prec = strcmp(argv[i + 1], "single") == 0 ? 0 : strcmp(argv[i + 1], "double") == 0 ? 1 : 2;
            i++;
        } else {
            printf("usage: swgl bench roe [--test1 A-B] [--test2 A-B] [--scalar-max L] [--cpu-max L]\n"
                   "                      [--t-scale F] [--device N] [--min-time S] [--precision single|double|both]\n"
                   "                      [--backend gpu|gpu-compute] [--scheme roe|hllc] [--tune KEY=VALUE]...\n"
                   "  levels of Test 1 (default 0-3; the paper: 0-5) and Test 2 (default 0-3; paper 0-4);\n"
                   "  the scalar CPU solver runs up to level L (default 2), the fast CPU one up to L (5);\n"
                   "  --t-scale F runs every case to F times its end time (default 1: the paper's times).\n"
                   "  Use --test1 -1 or --test2 -1 to skip a test.  Every time is the median of 3\n"
                   "  measurements of at least S s of stepping each (--min-time, default 1): the case's run\n"
                   "  repeated, a new sim each time, after a warm-up run; 'spread' = (max - min) / median.\n"
                   "  --precision: the GPU and the fast CPU solver in single (default), double (the GPU\n"
                   "  needs fp64), or both, with the cost of double per step (double / float); the scalar\n"
                   "  solver is double.  --tune KEY=VALUE sets a tuning key for every run (--tune help\n"
                   "  lists them), e.g. --tune host_clock=on reads the time step back every step.\n"
                   "  --backend: the GPU columns' backend (default gpu, the fragment passes; gpu-compute:\n"
                   "  the same passes as GL 4.3 compute dispatches).  --scheme hllc: the same cases with\n"
                   "  scheme = hllc (HLLC on roe's first-order edge engine; docs/hllc.md).\n");
            return strcmp(a, "--help") == 0 ? 0 : 2;
        }
    }
    bench_gpu dev;   /* the device, its passes and their copy ceiling */
    if (bench_gpu_setup(device, strcmp(g_gpu, "gpu-compute") == 0, &dev)) return 1;
    const char *renderer = dev.renderer;
    const int has_fp64 = dev.fp64;
    const double ceiling = dev.ceiling;
    const int threads = bench_cpu_threads();
    printf("swgl bench roe — Lastra et al. (2009) Tables 1 and 2 on this machine%s\n",
           strcmp(scheme, "hllc") == 0 ? ", scheme = hllc (HLLC on the same cases)" : "");
    bench_gpu_print(&dev, 1);
    printf("CPU: %s, fast solver %s with %d OpenMP threads\n", swgl_cpu_model(), bench_cpu_solver(), threads);
    printf("GPU bytes per cell and step (fewest, all passes): %.0f B (float), %.0f B (double); time step %s; mass "
           "fluxes re-read from the edges\n",
           ROE_BYTES_PER_CELL, ROE_BYTES_PER_CELL_D, g_tune[0] && strstr(g_tune, "host_clock=on") ? "read back every step" : "kept on the GPU");
    printf("timing: every time the %s of stepping (the run to t_end repeated, a new sim each time, after a "
           "warm-up run; steps: one run's); spread = (max - min) / median of the three, the largest of the row\n",
           bench_rule(min_s));
    const char *pcols = prec == 0   ? "gpu float, cpu float, scalar double"
                        : prec == 1 ? "gpu double, cpu double, scalar double"
                                    : "gpu and cpu in float (f) and double (d), scalar double; d/f = the cost of "
                                      "double per step";
    printf("precision: %s\n", pcols);
    if (prec > 0 && !has_fp64)
        printf("note: this renderer lacks GL_ARB_gpu_shader_fp64: no GPU double column\n");
    /* the columns: gpu, cpu (one precision), scalar; or gpu f, gpu d, cpu f, cpu d, scalar */
    bench_col cols[5];
    int ncols = 0;
    memset(cols, 0, sizeof cols);
    if (prec < 2) {
        const char *p = prec == 1 ? "double" : "single";
        cols[ncols].b = g_gpu, cols[ncols++].p = p;
        cols[ncols].b = "cpu", cols[ncols++].p = p;
    } else {
        cols[ncols].b = g_gpu, cols[ncols++].p = "single";
        cols[ncols].b = g_gpu, cols[ncols++].p = "double";
        cols[ncols].b = "cpu", cols[ncols++].p = "single";
        cols[ncols].b = "cpu", cols[ncols++].p = "double";
    }
    cols[ncols].b = "cpu-scalar", cols[ncols++].p = NULL;
    int rc = 0;
    for (int test = 1; test <= 2; test++) {
        int la = test == 1 ? l1a : l2a, lb = test == 1 ? l1b : l2b;
        if (la < 0) continue;
        if (test == 1)
            printf("\nTest 1 (lastra-test1), levels %d-%d, to t = %g s (level 5: %g s): %s on %s; the fast CPU solver "
                   "up to level %d (%d threads), the scalar one up to %d; %s\n", la, lb, 5.0 * t_scale, 0.1 * t_scale,
                   pcols, renderer, cpu_max, threads, scalar_max, bench_rule(min_s));
        else
            printf("\nTest 2 (lastra-test2), levels %d-%d, to t = %g s: %s on %s; the fast CPU solver up to level %d "
                   "(%d threads), the scalar one up to %d; %s\n", la, lb, 0.65 * t_scale, pcols, renderer, cpu_max,
                   threads, scalar_max, bench_rule(min_s));
        if (prec < 2)
            printf("%5s %9s %8s %6s | %9s %9s %9s | %8s %8s | %9s %7s %6s | %6s\n", "level", "cells", "t_end", "steps",
                   prec ? "gpu d s" : "gpu s", prec ? "cpu d s" : "cpu s", "scalar s", "gpu/cpu", "gpu/scal",
                   "gpu Mc/s", "GB/s", "copy", "spread");
        else
            printf("%5s %9s %8s %6s | %9s %9s %5s | %9s %9s %5s | %9s | %9s %9s %7s %6s | %6s\n", "level", "cells",
                   "t_end", "steps", "gpu f s", "gpu d s", "d/f", "cpu f s", "cpu d s", "d/f", "scalar s",
                   "gpu f Mc/s", "gpu d Mc/s", "d GB/s", "copy", "spread");
        for (int lv = la; lv <= lb; lv++) {
            char lvset[64], tset[64];
            snprintf(lvset, sizeof lvset, "domain.level=%d", lv);
            double t_end = (test == 1 ? (lv == 5 ? 0.1 : 5.0) : 0.65) * t_scale;
            snprintf(tset, sizeof tset, "run.t_end=%.17g", t_end);
            char schset[32];
            snprintf(schset, sizeof schset, "run.scheme=%s", scheme);
            const char *sets[4] = {lvset, tset, schset, NULL};
            const char *name = test == 1 ? "lastra-test1" : "lastra-test2";
            long cells = 0, steps = 0;
            double spread = -1;
            for (int c = 0; c < ncols; c++) {
                bench_col *col = &cols[c];
                int gpu = strncmp(col->b, "gpu", 3) == 0;
                memset(&col->f, 0, sizeof col->f);
                if ((strcmp(col->b, "cpu") == 0 && lv > cpu_max) || (strcmp(col->b, "cpu-scalar") == 0 && lv > scalar_max))
                    continue;
                if (gpu && col->p && strcmp(col->p, "double") == 0 && !has_fp64) continue;
                roe_job j = {name, sets, col, device, lv, 0};
                if (bench_measure(run_sim, &j, min_s, &col->f)) rc = 1;
                else {
                    cells = j.cells;
                    if (!steps) steps = col->f.steps;
                    spread = fmax(spread, bench_spread(&col->f, 0));
                }
            }
            char sp[16];
            bench_fmt_spread(sp, sizeof sp, spread);
            if (prec < 2) {
                const bench_col *g = &cols[0], *c1 = &cols[1], *c2 = &cols[2];
                char sg[16], sc1[16], sc2[16], r1[16], r2[16];
                fmt_s(sg, sizeof sg, g);
                fmt_s(sc1, sizeof sc1, c1);
                fmt_s(sc2, sizeof sc2, c2);
                fmt_ratio(r1, sizeof r1, c1, g);
                fmt_ratio(r2, sizeof r2, c2, g);
                double cps = (double)cells * bench_median(&g->f, 0);
                double gbs = cps * (prec ? ROE_BYTES_PER_CELL_D : ROE_BYTES_PER_CELL) / 1e9;
                printf("%5d %9ld %8.3g %6ld | %9s %9s %9s | %8s %8s | %9.2f %7.1f %6.2f | %6s\n", lv, cells, t_end,
                       steps, sg, sc1, sc2, r1, r2, cps / 1e6, gbs, ceiling > 0 ? gbs / ceiling : 0, sp);
            } else {
                const bench_col *gf = &cols[0], *gd = &cols[1], *cf = &cols[2], *cd = &cols[3];
                char a[5][16], kg[16], kc[16];
                for (int c = 0; c < 5; c++) fmt_s(a[c], sizeof a[c], &cols[c]);
                fmt_cost(kg, sizeof kg, gd, gf);
                fmt_cost(kc, sizeof kc, cd, cf);
                double cpsf = (double)cells * bench_median(&gf->f, 0);
                double cpsd = (double)cells * bench_median(&gd->f, 0);
                double gbs = cpsd * ROE_BYTES_PER_CELL_D / 1e9;
                printf("%5d %9ld %8.3g %6ld | %9s %9s %5s | %9s %9s %5s | %9s | %9.2f %9.2f %7.1f %6.2f | %6s\n", lv,
                       cells, t_end, steps, a[0], a[1], kg, a[2], a[3], kc, a[4], cpsf / 1e6, cpsd / 1e6, gbs,
                       ceiling > 0 ? gbs / ceiling : 0, sp);
            }
            fflush(stdout);
        }
    }
    return rc;
}
