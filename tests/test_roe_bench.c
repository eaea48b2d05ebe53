/* test_roe_bench.c — speed of the CPU Roe solvers (not a ctest): Test 1 (Lastra 5.1,
 * 10 m x 1 m channel, H = 1 - cos(2 pi x)/2, dam at x = 5) on nx x ny cells, scalar
 * (double) vs fast (float, SSE2, OpenMP).  Prints cell updates per second.
 *   usage: test_roe_bench [nx ny steps] ...   (default: 1000 100 200  2000 2000 10)
 * OMP_NUM_THREADS sets the fast solver's threads. */
#include "roe_cpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int bench(int nx, int ny, int steps)
{
    const double PI = 3.14159265358979323846;
    size_t w = (size_t)grid_stride(nx), n = grid_size(nx, ny);
    double *H = malloc(n * sizeof(double)), *h = malloc(n * sizeof(double));
    double *qx = calloc(n, sizeof(double)), *qy = calloc(n, sizeof(double));
    unsigned char *code = malloc(n);
    if (!H || !h || !qx || !qy || !code) return 1;
    double dx = 10.0 / nx, dy = 1.0 / ny;
    for (size_t k = 0; k < n; k++) {
        size_t i = k % w, j = k / w;
        double x = ((double)i - 0.5) * dx;
        H[k] = 1.0 - cos(2.0 * PI * x) / 2.0;
        h[k] = x < 5.0 ? H[k] + 2.0 : H[k];
        code[k] = (i == 0 || i == w - 1 || j == 0 || j == (size_t)ny + 1) ? CELL_WALL : CELL_ACTIVE;
    }
    swe_problem p = {.nx = nx, .ny = ny, .dx = dx, .dy = dy, .g = 9.81, .cfl = 0.9, .h_dry = 1e-5,
                     .H = H, .code = code};
    double rate[2] = {0, 0};
    for (int kind = 0; kind < 2; kind++) {
        roe_cpu *s = roe_cpu_create(&p, (enum roe_cpu_kind)kind);
        if (!s) {
            fprintf(stderr, "create: %s\n", swgl_last_error());
            return 1;
        }
        roe_cpu_set_state(s, h, qx, qy);
        roe_cpu_step(s, 1e30);  /* warm up */
        double t0 = now(), t = 0.0;
        for (int k = 0; k < steps; k++) t += roe_cpu_step(s, 1e30);
        double el = now() - t0;
        rate[kind] = (double)nx * ny * steps / el;
        printf("%-36s %5d x %-5d %4d steps  %8.3f s  %8.2f Mcells/s  (t = %.4g s)\n", roe_cpu_name(s), nx, ny,
               steps, el, rate[kind] * 1e-6, t);
        roe_cpu_destroy(s);
    }
    printf("speedup fast / scalar: %.2f\n", rate[1] / rate[0]);
    free(H); free(h); free(qx); free(qy); free(code);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 4) {
        for (int a = 1; a + 2 < argc; a += 3)
            if (bench(atoi(argv[a]), atoi(argv[a + 1]), atoi(argv[a + 2]))) return 1;
        return 0;
    }
    return bench(1000, 100, 200) || bench(2000, 2000, 10);
}
