/* bench_sediment.c — `swgl bench sediment`: the speed of the sediment scheme (Su et al.
 * 2013, their Table of GFLOP/s for 4096^2 in double) on this machine.  For each size:
 * the GPU in single and (where the renderer has fp64) double precision — a whole step,
 * the h pass alone, the s pass alone, and the OPT-2 analog (a pass storing alpha s and
 * beta (1 - s) once per point, read by the h pass) against the h pass recomputing them —
 * then the fast CPU solver (SSE2 + OpenMP) and the scalar one (up to --scalar-max).
 *
 * GFLOP/s use the paper's counts: 55 flops per h value, 34 per s value (89 per step and
 * point; docs/sediment.md 8).  GB/s use the fewest bytes each pass must move per point,
 * in values of 4 B (single) or 8 B (double):
 *   h pass     reads h, s, alpha, beta, writes h+                           5 values
 *   s pass     reads h, h+, s, alpha, writes s+                             5
 *   k pass     reads s, alpha, beta, writes alpha s, beta (1 - s)           5  (OPT-2)
 *   h_opt      reads h, alpha s, beta (1 - s), writes h+                    4  (OPT-2)
 * "copy" is the fraction of this renderer's copy pass (2048^2 float4, 32 B per texel),
 * measured in the same run, ping-pong between two arrays (a pass repeated into one
 * target can be merged by the driver: llvmpipe drops a draw that the next opaque
 * full-screen draw covers; the passes alone alternate their target for that reason). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_info.h"
#include "gpu_context.h"
#include "gpu_pass.h"
#include "run.h"
#include "sediment_gpu.h"

typedef struct bprob {
    sed_problem p;
    double *a, *b, *h, *s;
} bprob;

/* A basin like the sediment-basin case on an n x n grid 100 m apart: smooth heights,
 * mixed sand and mud, alpha varying, a river on the south side. */
static int bprob_make(bprob *q, int n, enum sed_form form)
{
    memset(q, 0, sizeof *q);
    size_t m = (size_t)(n + 2) * (n + 2);
    q->a = malloc(m * sizeof(double));
    q->b = malloc(m * sizeof(double));
    q->h = malloc(m * sizeof(double));
    q->s = malloc(m * sizeof(double));
    if (!q->a || !q->b || !q->h || !q->s) return -1;
    double L = (n - 1) * 100.0, tw = 6.283185307179586;
    for (int j = 0; j < n + 2; j++)
        for (int i = 0; i < n + 2; i++) {
            size_t k = (size_t)j * (n + 2) + i;
            double x = (i - 1) * 100.0, y = (j - 1) * 100.0;
            q->a[k] = 1.0 + 0.5 * sin(tw * x / L);
            q->b[k] = 2.0;
            q->h[k] = -10 - 30 * y / L + 4 * sin(tw * x / L) * cos(tw * y / L);
            q->s[k] = 0.5 + 0.3 * sin(2 * tw * x / L) * sin(tw * y / L);
        }
    sed_problem *p = &q->p;
    p->nx = p->ny = n;
    p->dx = p->dy = 100.0;
    p->cs = p->cm = 1.0;
    p->layer = 2.0;
    p->alpha = q->a;
    p->beta = q->b;
    p->form = form;
    p->inflow_side = SED_SOUTH;
    p->inflow_first = n / 2 - n / 40;
    p->inflow_last = n / 2 + n / 40;
    p->inflow_sand = 0.01;
    p->inflow_mud = 0.02;
    p->dt = 0.9 * sed_dt_limit_state(p, q->h);
    return 0;
}

static void bprob_free(bprob *q)
{
    free(q->a);
    free(q->b);
    free(q->h);
    free(q->s);
}

/* seconds per repetition of a GPU piece: which = -1 a step, 0 h pass, 1 s pass, 2 OPT-2 h */
static swgl_status gpu_piece(sed_gpu *g, int which, int reps)
{
    return which < 0 ? sed_gpu_run(g, reps) : sed_gpu_run_pass(g, which, reps);
}

static double time_gpu(sed_gpu *g, int which, double target, int *reps_out)
{
    swgl_status st = gpu_piece(g, which, 1);
    gpu_finish();
    double t0 = cpu_seconds();
    if (st == SWGL_OK) st = gpu_piece(g, which, 2);
    gpu_finish();
    double t = (cpu_seconds() - t0) / 2;
    int reps = t > 0 ? (int)fmin(fmax(target / t, 3), 100000) : 100;
    t0 = cpu_seconds();
    if (st == SWGL_OK) st = gpu_piece(g, which, reps);
    gpu_finish();
    *reps_out = reps;
    if (st != SWGL_OK) {
        fprintf(stderr, "swgl: %s\n", swgl_last_error());
        return -1;
    }
    return (cpu_seconds() - t0) / reps;
}

static double time_cpu(const bprob *q, enum sed_cpu_kind kind, double target, int *reps_out, int *threads)
{
    sed_cpu *c = sed_cpu_create(&q->p, kind);
    if (!c) {
        fprintf(stderr, "swgl: %s\n", swgl_last_error());
        return -1;
    }
    *threads = sed_cpu_threads(c);
    sed_cpu_set_state(c, q->h, q->s);
    double t0 = cpu_seconds();
    sed_cpu_run(c, 1);
    double t = cpu_seconds() - t0;
    int reps = t > 0 ? (int)fmin(fmax(target / t, 1), 100000) : 10;
    t0 = cpu_seconds();
    sed_cpu_run(c, reps);
    double per = (cpu_seconds() - t0) / reps;
    sed_cpu_destroy(c);
    *reps_out = reps;
    return per;
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

int bench_sediment(int argc, char **argv)
{
    int sizes[16] = {1024, 2048, 4096}, nsizes = 3, scalar_max = 2048, device = -1, no_cpu = 0;
    double target = 0.3;
    enum sed_form form = SED_FORM_CONSERVATIVE;
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
            if (strcmp(f, "paper") == 0) form = SED_FORM_PAPER;
            else if (strcmp(f, "conservative") == 0) form = SED_FORM_CONSERVATIVE;
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
    gpu_context *ctx = bench_context(device);
    if (!ctx) return 1;
    const gpu_info *info = gpu_context_info(ctx);
    double ceiling = bench_copy_ceiling_gbs();
    printf("swgl bench sediment — Su et al. (2013) on this machine, %s form\n",
           form == SED_FORM_PAPER ? "paper" : "conservative");
    printf("GPU: %s | %s | GL %s | fp64 %s; copy pass (2048^2 float4) %.1f GB/s\n", info->renderer, info->vendor,
           info->version, info->has_fp64 ? "yes" : "no", ceiling);
    printf("CPU: %s, fast solver with %d OpenMP threads\n", cpu_model_name(), cpu_threads());
    printf("sizes:");
    for (int k = 0; k < nsizes; k++) printf(" %d^2", sizes[k]);
    printf("\nGFLOP/s with the paper's 55 (h) + 34 (s) flops per point; GB/s with the fewest bytes per pass\n");
    printf("(h 5, s 5, k 5, h_opt 4 values of 4 B single / 8 B double); copy = GB/s over the copy pass\n\n");
    printf("%6s  %-38s %7s %10s %9s %8s %6s\n", "n", "what", "reps", "ms/rep", "GFLOP/s", "GB/s", "copy");
    int rc = 0;
    for (int k = 0; k < nsizes; k++) {
        int n = sizes[k], reps;
        bprob q;
        if (bprob_make(&q, n, form)) {
            fprintf(stderr, "swgl: out of memory at %d^2\n", n);
            bprob_free(&q);
            rc = 1;
            break;
        }
        for (int dbl = 0; dbl <= info->has_fp64; dbl++) {
            sed_gpu *g = NULL;
            if (sed_gpu_create(&q.p, dbl, &g) != SWGL_OK || sed_gpu_set_state(g, q.h, q.s) != SWGL_OK) {
                fprintf(stderr, "swgl: %d^2 %s: %s\n", n, dbl ? "double" : "single", swgl_last_error());
                sed_gpu_destroy(g);
                rc = 1;
                continue;
            }
            const char *pr = dbl ? "double" : "single";
            int vb = dbl ? 8 : 4;
            char what[64];
            double t;
            sed_gpu_set_opt2(g, 0);
            snprintf(what, sizeof what, "gpu %s step (h + s)", pr);
            if ((t = time_gpu(g, -1, target, &reps)) > 0) row(n, what, reps, t, 89, 10, vb, ceiling);
            sed_gpu_set_opt2(g, 1);
            snprintf(what, sizeof what, "gpu %s step, OPT-2 (k + h_opt + s)", pr);
            if ((t = time_gpu(g, -1, target, &reps)) > 0) row(n, what, reps, t, 89, 14, vb, ceiling);
            sed_gpu_set_opt2(g, 0);
            snprintf(what, sizeof what, "gpu %s h pass", pr);
            if ((t = time_gpu(g, 0, target, &reps)) > 0) row(n, what, reps, t, 55, 5, vb, ceiling);
            snprintf(what, sizeof what, "gpu %s h, OPT-2 (k + h_opt)", pr);
            if ((t = time_gpu(g, 2, target, &reps)) > 0) row(n, what, reps, t, 55, 9, vb, ceiling);
            snprintf(what, sizeof what, "gpu %s s pass", pr);
            if ((t = time_gpu(g, 1, target, &reps)) > 0) row(n, what, reps, t, 34, 5, vb, ceiling);
            sed_gpu_destroy(g);
        }
        if (!no_cpu) {
            int th;
            char what[64];
            double t = time_cpu(&q, SED_CPU_FAST, target, &reps, &th);
            snprintf(what, sizeof what, "cpu sse2+omp double, %d threads", th);
            if (t > 0) row(n, what, reps, t, 89, 10, 8, 0);
            if (n <= scalar_max) {
                t = time_cpu(&q, SED_CPU_SCALAR, target, &reps, &th);
                if (t > 0) row(n, "cpu scalar double", reps, t, 89, 10, 8, 0);
            }
        }
        bprob_free(&q);
    }
    gpu_context_destroy(ctx);
    return rc;
}
