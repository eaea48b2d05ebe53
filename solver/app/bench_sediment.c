/* bench_sediment.c — `swgl bench sediment`: the speed of the sediment scheme (Su et al.
 * 2013, their Table of GFLOP/s for 4096^2 in double) on this machine, through swgl.h: for
 * each size, a sim of a basin (the sediment-basin case with overrides) on the GPU in
 * single and (where the renderer has fp64) double precision, then on the fast CPU solver
 * (SSE2 + OpenMP) and the scalar one (up to --scalar-max), each a whole step (h pass + s
 * pass), the median of 3 measurements of at least --min-time seconds of stepping
 * (bench_measure.h: a run of the basin repeated, after a warm-up run that sets its steps);
 * on the GPU also the h and s passes alone, their GPU time (GL timer queries) in profiled
 * sims, by the same rule.  (The OPT-2
 * analog, a pass storing alpha s and beta (1 - s) read by the h pass, was timed on the
 * backend's own calls and has no key a sim reaches: docs/performance.md keeps its figures.)
 *
 * GFLOP/s use the paper's counts: 55 flops per h value, 34 per s value (89 per step and
 * point; docs/sediment.md 8).  GB/s use the fewest bytes each pass must move per point,
 * in values of 4 B (single) or 8 B (double):
 *   h pass     reads h, s, alpha, beta, writes h+                           5 values
 *   s pass     reads h, h+, s, alpha, writes s+                             5
 * "copy" is the fraction of the copy ceiling (swgl_copy_bandwidth: bench gpgpu's copy row
 * of SWGL_COPY_CEILING_N^2, fragment or compute as the passes run), measured in the same
 * run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_measure.h"
#include "cli.h"
#include "swgl.h"


#define WARM_STEPS 3   /* the warm-up run: 1 step, then 2 timed to choose a run's steps */

/* A basin like the sediment-basin case on an n x n grid 100 m apart (the case with these
 * overrides): smooth heights, mixed sand and mud, alpha varying, a river on the south
 * side; dt 0.9 x the stability limit; t_end `steps` steps. */
static swgl_status basin_sim(int n, int paper, const char *backend, const char *precision, int device, int profile,
                             int steps, swgl_sim **sim)
{
    double L = (n - 1) * 100.0, tw = 6.283185307179586;
    char s[10][192];
    snprintf(s[0], sizeof s[0], "domain.nx=%d", n);
    snprintf(s[1], sizeof s[1], "domain.ny=%d", n);
    snprintf(s[2], sizeof s[2], "initial.height=-10 - 30*y/%.17g + 4*sin(%.17g*x)*cos(%.17g*y)", L, tw / L, tw / L);
    snprintf(s[3], sizeof s[3], "initial.sand=0.5 + 0.3*sin(%.17g*x)*sin(%.17g*y)", 2 * tw / L, tw / L);
    snprintf(s[4], sizeof s[4], "sediment.alpha=1.0 + 0.5*sin(%.17g*x)", tw / L);
    snprintf(s[5], sizeof s[5], "sediment.form=%s", paper ? "paper" : "conservative");
    /* the mouth: grid points n/2 - n/40 .. n/2 + n/40 of the side (from 1) */
    snprintf(s[6], sizeof s[6], "sediment.inflow_from=%d", (n / 2 - n / 40 - 1) * 100);
    snprintf(s[7], sizeof s[7], "sediment.inflow_to=%d", (n / 2 + n / 40 - 1) * 100);
    snprintf(s[8], sizeof s[8], "sediment.steps=%d", steps);
    const char *sets[] = {s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], "sediment.beta=2.0",
                          "domain.dx=100", "domain.dy=100", NULL};
    swgl_sim_desc d = {.case_name = "sediment-basin", .set = sets, .backend = backend, .precision = precision,
                       .use_device = device >= 0, .device = device, .profile = profile};
    return swgl_sim_create(&d, sim);
}

/* The wall time and step count of the sim so far */
static swgl_status so_far(const swgl_sim *sim, double *wall, double *steps)
{
    swgl_status st = swgl_sim_stat(sim, "wall_s", wall);
    return st == SWGL_OK ? swgl_sim_stat(sim, "steps", steps) : st;
}

/* a row's configuration: the basin at n on a backend; a run takes `steps` steps, chosen by
 * the warm-up run (steps 0 until then) to take about 1.2 x the rule's minimum */
typedef struct sed_job {
    int n, paper, device, profile;
    const char *backend, *precision;
    double min_s;
    int steps;
    swgl_sim_info info;
    const char *pass[2];   /* profile: the h and s passes' names */
} sed_job;

/* One run (bench_run_fn): a new sim of the basin to its t_end; the first, the warm-up, runs
 * WARM_STEPS steps and sets the steps of the others from its last two.  With the profile,
 * the h and s passes' GPU seconds and counts as the extra figures. */
static int sed_run(void *user, bench_sample *out)
{
    sed_job *j = user;
    swgl_sim *sim = NULL;
    int warm = j->steps == 0;
    double w0 = 0, n0 = 0, w1 = 0, n1 = 0;
    swgl_status st = basin_sim(j->n, j->paper, j->backend, j->precision, j->device, j->profile,
                               warm ? WARM_STEPS : j->steps, &sim);
    if (st == SWGL_OK) st = swgl_sim_get_info(sim, &j->info);
    if (st == SWGL_OK && warm) {
        st = swgl_sim_run_to(sim, swgl_sim_t_end(sim) / WARM_STEPS);
        if (st == SWGL_OK) st = so_far(sim, &w0, &n0);
    }
    if (st == SWGL_OK && warm) st = swgl_sim_run_to(sim, swgl_sim_t_end(sim));
    if (st == SWGL_OK && warm) st = so_far(sim, &w1, &n1);
    if (st == SWGL_OK && warm) {   /* (a run's first BENCH_WARM_S s are not counted: bench_sim_run) */
        double t = n1 > n0 ? (w1 - w0) / (n1 - n0) : 0;
        j->steps = t > 0 ? (int)fmin(fmax(ceil((1.2 * j->min_s + BENCH_WARM_S) / t), WARM_STEPS), 1000000) : 100;
        out->wall = w1;
        out->steps = (long)n1;
    }
    if (st == SWGL_OK && !warm) st = bench_sim_run(sim, swgl_sim_t_end(sim), out);
    for (int k = 0; st == SWGL_OK && j->profile && k < 2; k++) {
        const char *name;
        double sec;
        long count;
        if (swgl_sim_profile(sim, k, &name, &sec, &count) != SWGL_OK) break;
        j->pass[k] = name;
        out->units[k] = (double)count;
        out->sec[k] = sec;
        out->n = k + 1;
    }
    if (st != SWGL_OK)
        fprintf(stderr, "swgl: %d^2 %s%s%s%s: %s\n", j->n, j->backend, j->precision ? " " : "",
                j->precision ? j->precision : "", j->profile ? ", profiled" : "", swgl_last_error());
    swgl_sim_destroy(sim);
    return st != SWGL_OK;
}

static void row(int n, const char *what, long reps, double sec, double flops, double values, int vbytes,
                double ceiling, double spread)
{
    double pts = (double)n * n;
    double gf = sec > 0 ? flops * pts / sec / 1e9 : 0;
    double gbs = sec > 0 ? values * vbytes * pts / sec / 1e9 : 0;
    char cf[16] = "-", sp[16];
    if (ceiling > 0 && vbytes > 0) snprintf(cf, sizeof cf, "%.2f", gbs / ceiling);
    bench_fmt_spread(sp, sizeof sp, spread);
    printf("%6d  %-38s %7ld %10.3f %9.2f %8.1f %6s | %6s\n", n, what, reps, sec * 1e3, gf, gbs, cf, sp);
    fflush(stdout);
}

/* One row: the basin on a backend, a step's time the median of 3 (bench_measure.h) */
static int bench_row(int n, int paper, const char *backend, const char *precision, int device, double min_s,
                     double values, int vbytes, double ceiling)
{
    sed_job j = {.n = n, .paper = paper, .device = device, .backend = backend, .precision = precision, .min_s = min_s};
    bench_figure f;
    if (bench_measure(sed_run, &j, min_s, &f)) return 1;
    char what[64];
    const int gpu = strncmp(backend, "gpu", 3) == 0;
    if (gpu) snprintf(what, sizeof what, "gpu %s step (h + s)", precision);
    else if (strcmp(backend, "cpu") == 0) {
        /* the fast solver's threads, as its description states them ("..., 16 threads") */
        const char *th = strstr(j.info.solver, " threads");
        while (th && th > j.info.solver && th[-1] >= '0' && th[-1] <= '9') th--;
        snprintf(what, sizeof what, "cpu sse2+omp double, %d threads", th ? atoi(th) : 0);
    } else snprintf(what, sizeof what, "cpu scalar double");
    row(n, what, f.steps, 1 / bench_median(&f, 0), 89, values, vbytes, ceiling, bench_spread(&f, 0));
    if (!gpu) return 0;
    /* the h and s passes alone: the GPU time of each (GL timer queries) over the steps of
     * profiled sims; not on llvmpipe, whose elapsed-time queries measured a draw as seconds
     * and a compute dispatch as 0 */
    if (strstr(j.info.renderer, "llvmpipe")) return 0;
    sed_job p = {.n = n, .paper = paper, .device = device, .profile = 1, .backend = backend, .precision = precision,
                 .min_s = min_s};
    if (bench_measure(sed_run, &p, min_s, &f)) return 1;
    static const double flops[2] = {55, 34};
    for (int k = 0; k + 1 < f.n && k < 2; k++) {
        snprintf(what, sizeof what, "gpu %s %s (GPU time)", precision, p.pass[k] ? p.pass[k] : "?");
        row(n, what, f.steps, 1 / bench_median(&f, 1 + k), flops[k], 5, vbytes, ceiling, bench_spread(&f, 1 + k));
    }
    return 0;
}

int bench_sediment(int argc, char **argv)
{
    int sizes[16] = {1024, 2048, 4096}, nsizes = 3, scalar_max = 2048, device = -1, no_cpu = 0;
    double min_s = 1.0;
    int paper = 0;   /* --form paper */
    const char *gpu = "gpu";   /* --backend */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (strcmp(a, "--sizes") == 0 && more) {
            nsizes = 0;
            for (char *t = argv[++i]; *t && nsizes < 16;) {
                char *e;
                long v = strtol(t, &e, 10);
                if (e == t || v < 8) {
                    fprintf(stderr, "swgl bench sediment: --sizes expects sizes >= 8 separated by commas\n");
                    return 2;
                }
                sizes[nsizes++] = (int)v;
                t = *e == ',' ? e + 1 : e;
            }
        } else if (strcmp(a, "--scalar-max") == 0 && more) scalar_max = atoi(argv[++i]);
        else if (strcmp(a, "--min-time") == 0 && more && bench_parse_min_time(argv[i + 1]) > 0)
            min_s = bench_parse_min_time(argv[++i]);
        else if (strcmp(a, "--form") == 0 && more) {
            const char *f = argv[++i];
            if (strcmp(f, "paper") == 0) paper = 1;
            else if (strcmp(f, "conservative") == 0) paper = 0;
            else {
                fprintf(stderr, "swgl bench sediment: --form paper | conservative\n");
                return 2;
            }
        } else if (strcmp(a, "--no-cpu") == 0) no_cpu = 1;
        else if (strcmp(a, "--device") == 0 && more) device = atoi(argv[++i]);
        else if (strcmp(a, "--backend") == 0 && more &&
                 (strcmp(argv[i + 1], "gpu") == 0 || strcmp(argv[i + 1], "gpu-compute") == 0))
            gpu = argv[++i];
        else {
            printf("usage: swgl bench sediment [--sizes N,N,..] [--scalar-max N] [--min-time S]\n"
                   "                           [--form paper|conservative] [--no-cpu] [--device N]\n"
                   "                           [--backend gpu|gpu-compute]\n"
                   "  sizes of the n x n grid (default 1024,2048,4096); the scalar CPU solver runs up to\n"
                   "  --scalar-max (default 2048); every time is the median of 3 measurements of at least\n"
                   "  S s of stepping each (--min-time, default 1): a run of the basin repeated, a new sim\n"
                   "  each time, after a warm-up run that sets a run's steps (about 1.2 S of stepping);\n"
                   "  'spread' = (max - min) / median.  --form: the s pass's form (default conservative;\n"
                   "  paper = (4) as printed).  --backend: the GPU rows' backend (default gpu; gpu-compute:\n"
                   "  the passes as compute shaders, the copy ceiling the compute one).\n");
            return strcmp(a, "--help") == 0 ? 0 : 2;
        }
    }
    bench_gpu dev;   /* the device, its passes and their copy ceiling */
    if (bench_gpu_setup(device, strcmp(gpu, "gpu-compute") == 0, &dev)) return 1;
    const char *renderer = dev.renderer;
    const int has_fp64 = dev.fp64;
    const double ceiling = dev.ceiling;
    const int threads = bench_cpu_threads();
    printf("swgl bench sediment — Su et al. (2013) on this machine, %s form\n", paper ? "paper" : "conservative");
    bench_gpu_print(&dev, 1);
    printf("CPU: %s, fast solver with %d OpenMP threads\n", swgl_cpu_model(), threads);
    printf("GFLOP/s with the paper's 55 (h) + 34 (s) flops per point; GB/s with the fewest bytes per pass\n");
    printf("(h 5, s 5 values of 4 B single / 8 B double: 10 a step); copy = GB/s over the copy ceiling\n");
    printf("timing: every time the %s of stepping (a run of the basin repeated, a new sim each time, after a "
           "warm-up run that sets its steps, 'reps'); spread = (max - min) / median of the three\n\n",
           bench_rule(min_s));
    printf("the basin, %s form, at", paper ? "paper" : "conservative");
    for (int k = 0; k < nsizes; k++) printf("%s %d^2", k ? "," : "", sizes[k]);
    printf(": gpu (single%s) on %s%s; %s\n", has_fp64 ? ", double" : "", renderer,
           no_cpu ? "" : ", the fast CPU solver and the scalar one", bench_rule(min_s));
    printf("%6s  %-38s %7s %10s %9s %8s %6s | %6s\n", "n", "what", "reps", "ms/rep", "GFLOP/s", "GB/s", "copy",
           "spread");
    int rc = 0;
    for (int k = 0; k < nsizes; k++) {
        int n = sizes[k];
        for (int dbl = 0; dbl <= has_fp64; dbl++)
            rc |= bench_row(n, paper, gpu, dbl ? "double" : "single", device, min_s, 10, dbl ? 8 : 4, ceiling);
        if (!no_cpu) {
            rc |= bench_row(n, paper, "cpu", NULL, device, min_s, 10, 8, 0);
            if (n <= scalar_max) rc |= bench_row(n, paper, "cpu-scalar", NULL, device, min_s, 10, 8, 0);
        }
    }
    return rc;
}
