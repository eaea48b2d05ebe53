/* test_sediment_bench.c — speed of the CPU sediment kinds (not run by ctest):
 *   bench_sediment_cpu [n ...]      (default: 1024 4096)
 * n x n points, double precision, conservative and paper forms, GFLOP/s counted with
 * the paper's 55 + 34 flops per point per step (Su et al. 2013, section 4). */
#include "sediment.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv)
{
    int sizes[8] = {1024, 4096}, ns = 2;
    if (argc > 1) {
        ns = 0;
        for (int a = 1; a < argc && ns < 8; a++) sizes[ns++] = atoi(argv[a]);
    }
    printf("%-6s %-13s %-24s %7s %6s %10s %9s\n", "n", "form", "kind", "threads", "steps", "ms/step", "GFLOP/s");
    for (int r = 0; r < ns; r++) {
        int n = sizes[r];
        size_t N = (size_t)(n + 2) * (n + 2);
        double *al = malloc(N * sizeof(double)), *be = malloc(N * sizeof(double));
        double *h = malloc(N * sizeof(double)), *s = malloc(N * sizeof(double));
        for (int j = 0; j < n + 2; j++)
            for (int i = 0; i < n + 2; i++) {
                size_t k = (size_t)j * (n + 2) + i;
                al[k] = 1.0 + 0.3 * sin(0.01 * i);
                be[k] = 0.7;
                h[k] = sin(0.02 * i) * cos(0.03 * j);
                s[k] = 0.5 + 0.4 * cos(0.05 * i + 0.02 * j);
            }
        for (int form = 0; form < 2; form++)
            for (int kind = 0; kind < 2; kind++) {
                sed_problem p = {.nx = n, .ny = n, .dx = 1, .dy = 1, .cs = 1, .cm = 1, .layer = 1,
                                 .alpha = al, .beta = be, .form = form, .inflow_side = SED_NONE};
                p.dt = 0.9 * sed_dt_limit(&p);
                sed_cpu *c = sed_cpu_create(&p, kind);
                if (!c) {
                    fprintf(stderr, "%s\n", swgl_last_error());
                    return 1;
                }
                sed_cpu_set_state(c, h, s);
                sed_cpu_run(c, 1); /* warm-up: page in */
                int steps = 0;
                double t0 = now(), t;
                do {
                    sed_cpu_run(c, 1);
                    steps++;
                    t = now() - t0;
                } while (t < 2.0 || steps < 3);
                double pts = (double)n * n * steps;
                printf("%-6d %-13s %-24s %7d %6d %10.2f %9.2f\n", n, form ? "conservative" : "paper",
                       sed_cpu_name(c), sed_cpu_threads(c), steps, 1e3 * t / steps, 89.0 * pts / t * 1e-9);
                fflush(stdout);
                sed_cpu_destroy(c);
            }
        free(al);
        free(be);
        free(h);
        free(s);
    }
    return 0;
}
