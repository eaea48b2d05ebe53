/* bench_real.c — `swgl bench real`: the radial dam break as a modeller runs it against the
 * benchmark's shape (issue 28).  For each size N and scheme (roe, kp RK2): the circular dam
 * break on an N x N grid of the 40 m basin,
 *   bench   walls, no flood maps, no gauges (what swgl bench roe and kp time);
 *   real    open (free) boundaries on every side, the flood maps, three gauges read every
 *           t_end / 10 s, written to a scratch folder (not committed: the files are not
 *           written, only the run's stepping is timed)
 * each the median of 3 measurements of at least --min-time s of stepping (bench_measure.h),
 * in cell-steps per second, and the real run's share of the bench's.  A client of swgl.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_measure.h"
#include "cli.h"
#include "swgl.h"

typedef struct real_job {
    int n, real, roe, device;
    double t_end;
    const char *backend, *tune, *scratch;
} real_job;

static int run_one(void *user, bench_sample *out)
{
    real_job *j = user;
    char s[12][96];
    const char *sets[13];
    int k = 0;
    snprintf(s[k], 96, "domain.nx=%d", j->n), k++;
    snprintf(s[k], 96, "domain.ny=%d", j->n), k++;
    snprintf(s[k], 96, "domain.dx=%.17g", 40.0 / j->n), k++;
    snprintf(s[k], 96, "domain.dy=%.17g", 40.0 / j->n), k++;
    snprintf(s[k], 96, "run.t_end=%.17g", j->t_end), k++;
    snprintf(s[k], 96, "run.scheme=%s", j->roe ? "roe" : "kp"), k++;
    if (j->real) {
        static const char *const sides[4] = {"west", "east", "south", "north"};
        for (int q = 0; q < 4; q++) snprintf(s[k], 96, "boundary.%s=free", sides[q]), k++;
        snprintf(s[k], 96, "output.gauge_interval=%.17g", j->t_end / 10), k++;
        snprintf(s[k], 96, "output.netcdf=false"), k++;
    } else {
        snprintf(s[k], 96, "output.maps=false"), k++;
    }
    for (int q = 0; q < k; q++) sets[q] = s[q];
    sets[k] = NULL;
    /* (the gauges: the dam's centre, half way to the wall, near a corner) */
    static const char *const gauges[] = {"gauges.C=20 20", "gauges.H=30 20", "gauges.K=38 38", NULL};
    const char *all[20];
    int m = 0;
    for (int q = 0; sets[q]; q++) all[m++] = sets[q];
    for (int q = 0; j->real && gauges[q]; q++) all[m++] = gauges[q];
    all[m] = NULL;
    swgl_sim_desc d = {.case_name = "circular-dambreak", .set = all, .backend = j->backend,
                       .out = j->real ? j->scratch : NULL, .use_device = j->device >= 0, .device = j->device,
                       .tune = j->tune};
    swgl_sim *sim = NULL;
    swgl_status st = swgl_sim_create(&d, &sim);
    if (st == SWGL_OK) st = bench_sim_run(sim, swgl_sim_t_end(sim), out);
    if (st != SWGL_OK) fprintf(stderr, "swgl bench real: %d^2 %s: %s\n", j->n, j->roe ? "roe" : "kp", swgl_last_error());
    swgl_sim_destroy(sim);   /* (no finish: the scratch folder's staging goes, nothing is written) */
    return st != SWGL_OK;
}

int bench_real(int argc, char **argv)
{
    int sizes[32] = {256, 512, 1024}, nsizes = 3, device = -1, schemes = 3;
    double min_s = 1.0, t_end = 0.5;
    const char *backend = "gpu-compute";
    static char tune[CLI_TUNE_MAX];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (strcmp(a, "--sizes") == 0 && more) {
            nsizes = 0;
            for (char *p = argv[++i], *e; *p && nsizes < 32; p = *e ? e + 1 : e) {
                long v = strtol(p, &e, 10);
                if (e == p || v < 8 || v > 16384 || (*e && *e != ',')) {
                    fprintf(stderr, "swgl bench real: --sizes: expected sizes from 8 to 16384 separated by commas\n");
                    return 2;
                }
                sizes[nsizes++] = (int)v;
            }
        } else if (strcmp(a, "--t-end") == 0 && more && atof(argv[i + 1]) > 0) {
            t_end = atof(argv[++i]);
        } else if (strcmp(a, "--scheme") == 0 && more &&
                   (!strcmp(argv[i + 1], "roe") || !strcmp(argv[i + 1], "kp") || !strcmp(argv[i + 1], "both"))) {
            i++;
            schemes = !strcmp(argv[i], "roe") ? 1 : !strcmp(argv[i], "kp") ? 2 : 3;
        } else if (strcmp(a, "--backend") == 0 && more &&
                   (!strcmp(argv[i + 1], "gpu") || !strcmp(argv[i + 1], "gpu-compute") || !strcmp(argv[i + 1], "cpu"))) {
            backend = argv[++i];
        } else if (strcmp(a, "--tune") == 0 && more) {
            int t = cli_tune("bench real", argv[++i], tune, sizeof tune);
            if (t) return t > 0 ? 0 : 2;
        } else if (strcmp(a, "--min-time") == 0 && more && bench_parse_min_time(argv[i + 1]) > 0) {
            min_s = bench_parse_min_time(argv[++i]);
        } else if (strcmp(a, "--device") == 0 && more) {
            device = atoi(argv[++i]);
        } else {
            printf("usage: swgl bench real [--sizes N,N,...] [--scheme roe|kp|both] [--t-end T] [--backend B]\n"
                   "                       [--min-time S] [--device N] [--tune KEY=VALUE]...\n"
                   "  the circular dam break on N x N cells (default 256,512,1024) to T s (default 0.5) as the\n"
                   "  benchmark runs it (walls, no flood maps) and as a modeller does (free boundaries, the\n"
                   "  flood maps, three gauges every T/10 s), on backend B (default gpu-compute; gpu, cpu);\n"
                   "  cell-steps/s, the median of 3 x >= S s of stepping (default 1), and real / bench; on a GPU\n"
                   "  the copy ceiling measured first, as bench kp's\n");
            return strcmp(a, "--help") == 0 ? 0 : 2;
        }
    }
    /* the device and its copy ceiling, measured in this run (as bench kp's and roe's) */
    bench_gpu dev;
    const int gpu = strcmp(backend, "cpu") != 0;
    if (gpu && bench_gpu_setup(device, strcmp(backend, "gpu-compute") == 0, &dev)) return 1;
    char scratch[] = "/tmp/swgl-bench-real-XXXXXX";
    if (!mkdtemp(scratch)) {
        perror("swgl bench real: a scratch folder in /tmp");
        return 1;
    }
    char out[sizeof scratch + 8];
    snprintf(out, sizeof out, "%s/run", scratch);
    printf("swgl bench real — the circular dam break to %g s: bench (walls, no maps) against real (free boundaries, "
           "flood maps, 3 gauges every %g s) on %s%s%s\n", t_end, t_end / 10, backend, tune[0] ? ", --tune " : "", tune);
    if (gpu) bench_gpu_print(&dev, 0);
    printf("cell-steps/s, each the %s of stepping (the first %g s of each run not counted)\n", bench_rule(min_s),
           BENCH_WARM_S);
    printf("%-6s %6s %9s %7s | %11s %11s | %6s | %6s\n", "scheme", "N", "cells", "steps", "bench", "real", "real/b",
           "spread");
    int rc = 0;
    for (int sc = 0; sc < 2; sc++) {
        if (!(schemes & (1 << sc))) continue;
        for (int z = 0; z < nsizes; z++) {
            bench_figure f[2];
            memset(f, 0, sizeof f);
            for (int r = 0; r < 2; r++) {
                real_job j = {sizes[z], r, sc == 0, device, t_end, backend, tune[0] ? tune : NULL, out};
                rc |= bench_measure(run_one, &j, min_s, &f[r]);
            }
            double cells = (double)sizes[z] * sizes[z], b = cells * bench_median(&f[0], 0),
                   r = cells * bench_median(&f[1], 0);
            char sp[24];
            bench_fmt_spread(sp, sizeof sp, fmax(f[0].ok ? bench_spread(&f[0], 0) : -1, f[1].ok ? bench_spread(&f[1], 0) : -1));
            printf("%-6s %6d %9.0f %7ld | %11.4g %11.4g | %5.1f%% | %6s\n", sc == 0 ? "roe" : "kp RK2", sizes[z], cells,
                   f[1].ok ? f[1].steps : f[0].steps, f[0].ok ? b : 0, f[1].ok ? r : 0,
                   f[0].ok && f[1].ok && b > 0 ? 100 * r / b : 0, sp);
            fflush(stdout);
        }
    }
    rmdir(scratch);
    return rc;
}
