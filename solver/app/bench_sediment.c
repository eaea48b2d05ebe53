/* bench_sediment.c — `swgl bench sediment`: the speed of the sediment scheme (Su et al.
 * 2013, their Table of GFLOP/s for 4096^2 in double) on this machine, through swgl.h: for
 * each size, a sim of a basin (the sediment-basin case with overrides) on the GPU in
 * single and (where the renderer has fp64) double precision, then on the fast CPU solver
 * (SSE2 + OpenMP) and the scalar one (up to --scalar-max), each a whole step (h pass + s
 * pass) timed over about --time seconds of steps after a warm-up; on the GPU also the h
 * and s passes alone, their GPU time (GL timer queries) in a profiled sim.  (The OPT-2
 * analog, a pass storing alpha s and beta (1 - s) read by the h pass, was timed on the
 * backend's own calls and has no key a sim reaches: docs/performance.md keeps its figures.)
 *
 * GFLOP/s use the paper's counts: 55 flops per h value, 34 per s value (89 per step and
 * point; docs/sediment.md 8).  GB/s use the fewest bytes each pass must move per point,
 * in values of 4 B (single) or 8 B (double):
 *   h pass     reads h, s, alpha, beta, writes h+                           5 values
 *   s pass     reads h, h+, s, alpha, writes s+                             5
 * "copy" is the fraction of this renderer's copy pass (2048^2 float4, 32 B per texel),
 * measured in the same run, ping-pong between two arrays (a pass repeated into one
 * target can be merged by the driver: llvmpipe drops a draw that the next opaque
 * full-screen draw covers). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "swgl.h"


#define WARM_STEPS 3   /* the sim's own t_end: 1 warm-up step, 2 timed to choose the count */

/* A basin like the sediment-basin case on an n x n grid 100 m apart (the case with these
 * overrides): smooth heights, mixed sand and mud, alpha varying, a river on the south
 * side; dt 0.9 x the stability limit; t_end WARM_STEPS steps. */
static swgl_status basin_sim(int n, int paper, const char *backend, const char *precision, int device, int profile,
                             swgl_sim **sim)
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
    snprintf(s[8], sizeof s[8], "sediment.steps=%d", WARM_STEPS);
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

/* Seconds a step of the sim: one warm-up step, two timed ones to choose the count (at
 * least min_reps) that runs about target seconds, then those (past the case's t_end);
 * -1 where it failed. */
static double time_steps(swgl_sim *sim, double target, int min_reps, int *reps_out)
{
    double t_end = swgl_sim_t_end(sim), dt = t_end / WARM_STEPS, w0, n0, w1, n1, w2, n2;
    swgl_status st = swgl_sim_run_to(sim, dt);
    if (st == SWGL_OK) st = so_far(sim, &w0, &n0);
    if (st == SWGL_OK) st = swgl_sim_run_to(sim, t_end);
    if (st == SWGL_OK) st = so_far(sim, &w1, &n1);
    if (st != SWGL_OK) return -1;
    double t = n1 > n0 ? (w1 - w0) / (n1 - n0) : 0;
    int reps = t > 0 ? (int)fmin(fmax(target / t, min_reps), 100000) : 100;
    st = swgl_sim_run_to(sim, t_end + reps * dt);
    if (st == SWGL_OK) st = so_far(sim, &w2, &n2);
    if (st != SWGL_OK || !(n2 > n1)) return -1;
    *reps_out = (int)(n2 - n1);
    return (w2 - w1) / (n2 - n1);
}

static void row(int n, const char *what, int reps, double sec, double flops, double values, int vbytes,
                double ceiling)
{
    double pts = (double)n * n;
    double gf = sec > 0 ? flops * pts / sec / 1e9 : 0;
    double gbs = sec > 0 ? values * vbytes * pts / sec / 1e9 : 0;
    char cf[16] = "-";
    if (ceiling > 0 && vbytes > 0) snprintf(cf, sizeof cf, "%.2f", gbs / ceiling);
    printf("%6d  %-38s %7d %10.3f %9.2f %8.1f %6s\n", n, what, reps, sec * 1e3, gf, gbs, cf);
    fflush(stdout);
}

/* One row: a sim of the basin on a backend, its steps timed */
static int bench_row(int n, int paper, const char *backend, const char *precision, int device, double target,
                     int min_reps, double values, int vbytes, double ceiling)
{
    swgl_sim *sim = NULL;
    swgl_sim_info info;
    int reps = 0;
    double t = -1;
    if (basin_sim(n, paper, backend, precision, device, 0, &sim) == SWGL_OK && swgl_sim_get_info(sim, &info) == SWGL_OK)
        t = time_steps(sim, target, min_reps, &reps);
    if (t < 0) {
        fprintf(stderr, "swgl: %d^2 %s%s%s: %s\n", n, backend, precision ? " " : "", precision ? precision : "",
                swgl_last_error());
        swgl_sim_destroy(sim);
        return 1;
    }
    char what[64];
    if (strcmp(backend, "gpu") == 0) snprintf(what, sizeof what, "gpu %s step (h + s)", precision);
    else if (strcmp(backend, "cpu") == 0) {
        /* the fast solver's threads, as its description states them ("..., 16 threads") */
        const char *th = strstr(info.solver, " threads");
        while (th && th > info.solver && th[-1] >= '0' && th[-1] <= '9') th--;
        snprintf(what, sizeof what, "cpu sse2+omp double, %d threads", th ? atoi(th) : 0);
    } else snprintf(what, sizeof what, "cpu scalar double");
    row(n, what, reps, t, 89, values, vbytes, ceiling);
    swgl_sim_destroy(sim);
    if (strcmp(backend, "gpu") != 0) return 0;
    /* the h and s passes alone: the GPU time of each (GL timer queries) over the steps of a
     * profiled sim; not on llvmpipe, whose elapsed-time queries measured a draw as seconds
     * and a compute dispatch as 0 */
    if (strstr(info.renderer, "llvmpipe")) return 0;
    int preps = 0;
    if (basin_sim(n, paper, backend, precision, device, 1, &sim) != SWGL_OK || time_steps(sim, target, min_reps, &preps) < 0) {
        fprintf(stderr, "swgl: %d^2 gpu %s, profiled: %s\n", n, precision, swgl_last_error());
        swgl_sim_destroy(sim);
        return 1;
    }
    static const double flops[2] = {55, 34};
    const char *name;
    double sec;
    long count;
    for (int k = 0; swgl_sim_profile(sim, k, &name, &sec, &count) == SWGL_OK; k++) {
        if (count <= 0 || k > 1) continue;
        snprintf(what, sizeof what, "gpu %s %s (GPU time)", precision, name);
        row(n, what, (int)count, sec / (double)count, flops[k], 5, vbytes, ceiling);
    }
    swgl_sim_destroy(sim);
    return 0;
}

int bench_sediment(int argc, char **argv)
{
    int sizes[16] = {1024, 2048, 4096}, nsizes = 3, scalar_max = 2048, device = -1, no_cpu = 0;
    double target = 0.3;
    int paper = 0;   /* --form paper */
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
        else if (strcmp(a, "--time") == 0 && more) target = atof(argv[++i]);
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
        else {
            printf("usage: swgl bench sediment [--sizes N,N,..] [--scalar-max N] [--time S] [--form paper|conservative]\n"
                   "                           [--no-cpu] [--device N]\n"
                   "  sizes of the n x n grid (default 1024,2048,4096); the scalar CPU solver runs up to\n"
                   "  --scalar-max (default 2048); each row runs about --time seconds (default 0.3);\n"
                   "  --form: the s pass's form (default conservative; paper = (4) as printed).\n");
            return strcmp(a, "--help") == 0 ? 0 : 2;
        }
    }
    char renderer[256], vendor[256], version[256];
    int has_fp64 = 0;
    if (bench_gpu_about(device >= 0, device, renderer, vendor, version, sizeof renderer, &has_fp64)) {
        fprintf(stderr, "swgl: %s\n", swgl_last_error());
        return 1;
    }
    /* the ceiling of the passes the runs make: compute passes under SWGL_PASSES=compute */
    const char *passes = getenv("SWGL_PASSES");
    double ceiling = 0;
    if (swgl_copy_bandwidth(device >= 0, device, passes && strcmp(passes, "compute") == 0, &ceiling) != SWGL_OK)
        ceiling = 0;
    printf("swgl bench sediment — Su et al. (2013) on this machine, %s form\n", paper ? "paper" : "conservative");
    printf("GPU: %s | %s | GL %s | fp64 %s; copy pass (2048^2 float4) %.1f GB/s\n", renderer, vendor, version,
           has_fp64 ? "yes" : "no", ceiling);
    printf("CPU: %s, fast solver with %d OpenMP threads\n", bench_cpu_model(), bench_cpu_threads());
    printf("sizes:");
    for (int k = 0; k < nsizes; k++) printf(" %d^2", sizes[k]);
    printf("\nGFLOP/s with the paper's 55 (h) + 34 (s) flops per point; GB/s with the fewest bytes per pass\n");
    printf("(h 5, s 5 values of 4 B single / 8 B double: 10 a step); copy = GB/s over the copy pass\n\n");
    printf("%6s  %-38s %7s %10s %9s %8s %6s\n", "n", "what", "reps", "ms/rep", "GFLOP/s", "GB/s", "copy");
    int rc = 0;
    for (int k = 0; k < nsizes; k++) {
        int n = sizes[k];
        for (int dbl = 0; dbl <= has_fp64; dbl++)
            rc |= bench_row(n, paper, "gpu", dbl ? "double" : "single", device, target, 3, 10, dbl ? 8 : 4, ceiling);
        if (!no_cpu) {
            rc |= bench_row(n, paper, "cpu", NULL, device, target, 1, 10, 8, 0);
            if (n <= scalar_max) rc |= bench_row(n, paper, "cpu-scalar", NULL, device, target, 1, 10, 8, 0);
        }
    }
    return rc;
}
