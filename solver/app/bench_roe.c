/* bench_roe.c — `swgl bench roe`: Lastra et al. (2009) Tables 1 and 2 on this machine.
 * For each mesh level of Test 1 (lastra-test1, to t = 5 s; level 5 to 0.1 s) and
 * Test 2 (lastra-test2, to 0.65 s): the wall time of the GPU, of the fast CPU solver
 * (SSE + OpenMP, with its thread count) and of the scalar double CPU solver, the
 * speedups, and cell updates per second.  The GPU figure is also given as an effective
 * bandwidth (bytes each pass must move per cell and step, over time) and as a fraction
 * of this renderer's copy pass, measured in the same run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_info.h"
#include "gpu_context.h"
#include "gpu_pass.h"
#include "roe_gpu.h"
#include "run.h"
#include "scheme.h"

/* Fewest bytes a step must move per cell (float4 = 16 B), by pass (roe_gpu.c):
 *   edge   reads the state and bed of a cell (32 B; each is read by the 2 edges it
 *          owns and the 2 it borders, counted once), writes 2 targets per edge (64 B)
 *   dt     reads 4 edge texels (64 B) and the state (16), writes the sums (16)
 *   min    reads 16 (+ 1/3 for the pyramid, not counted)
 *   update reads the state, the sums (32) and the 4 edge texels for the mass fluxes (64),
 *          writes 16 (SWGL_ROE_MASS=cell: the dt pass writes the mass fluxes as a second
 *          target, +16 + 16, and the update reads that one texel, -64 + 16)
 * (before the momentum sums went from the dt pass to the update and the codes into the
 * state, with no positivity limiter: 352 B) */
#define ROE_BYTES_PER_CELL (32.0 + 64 + 64 + 16 + 16 + 16 + 32 + 64 + 16)

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
    int l1a = 0, l1b = 3, l2a = 0, l2b = 3, scalar_max = 2, cpu_max = 5, device = -1, repeat = 3;
    double t_scale = 1.0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (strcmp(a, "--test1") == 0 && more && !parse_range(argv[i + 1], &l1a, &l1b)) i++;
        else if (strcmp(a, "--test2") == 0 && more && !parse_range(argv[i + 1], &l2a, &l2b)) i++;
        else if (strcmp(a, "--scalar-max") == 0 && more) scalar_max = atoi(argv[++i]);
        else if (strcmp(a, "--cpu-max") == 0 && more) cpu_max = atoi(argv[++i]);
        else if (strcmp(a, "--t-scale") == 0 && more) t_scale = atof(argv[++i]);
        else if (strcmp(a, "--device") == 0 && more) device = atoi(argv[++i]);
        else if (strcmp(a, "--repeat") == 0 && more && atoi(argv[i + 1]) >= 1) repeat = atoi(argv[++i]);
        else {
            printf("usage: swgl bench roe [--test1 A-B] [--test2 A-B] [--scalar-max L] [--cpu-max L]\n"
                   "                      [--t-scale F] [--device N] [--repeat N]\n"
                   "  levels of Test 1 (default 0-3; the paper: 0-5) and Test 2 (default 0-3; paper 0-4);\n"
                   "  the scalar CPU solver runs up to level L (default 2), the fast CPU one up to L (5);\n"
                   "  --t-scale F runs every case to F times its end time (default 1: the paper's times).\n"
                   "  Use --test1 -1 or --test2 -1 to skip a test.  --repeat N: the GPU time is the best of\n"
                   "  N runs (default 3; the CPU solvers run once).  SWGL_DT_READBACK=sync reads the time\n"
                   "  step back every step instead of keeping it on the GPU.\n");
            return strcmp(a, "--help") == 0 ? 0 : 2;
        }
    }
    gpu_context *ctx = bench_context(device);
    if (!ctx) return 1;
    const gpu_info *info = gpu_context_info(ctx);
    double ceiling = bench_copy_ceiling_gbs();
    printf("swgl bench roe — Lastra et al. (2009) Tables 1 and 2 on this machine\n");
    printf("GPU: %s | %s | GL %s; copy pass (2048^2 float4) %.1f GB/s\n", info->renderer, info->vendor,
           info->version, ceiling);
    printf("CPU: %s, fast solver with %d OpenMP threads\n", cpu_model_name(), cpu_threads());
    const char *mode = getenv("SWGL_DT_READBACK"), *mass = getenv("SWGL_ROE_MASS");
    int edges = !(mass && strcmp(mass, "cell") == 0);
    printf("GPU bytes per cell and step (fewest, all passes): %.0f B; time step %s; mass fluxes %s; GPU time: "
           "best of %d\n",
           ROE_BYTES_PER_CELL + (edges ? 0 : 32 - 64),
           mode && strcmp(mode, "sync") == 0 ? "read back every step" : "kept on the GPU",
           edges ? "re-read from the edges" : "passed from the dt pass (SWGL_ROE_MASS=cell)", repeat);
    int rc = 0;
    for (int test = 1; test <= 2; test++) {
        int la = test == 1 ? l1a : l2a, lb = test == 1 ? l1b : l2b;
        if (la < 0) continue;
        printf("\nTest %d (%s)\n", test, test == 1 ? "lastra-test1" : "lastra-test2");
        printf("%5s %9s %8s %6s | %9s %9s %9s | %8s %8s | %9s %7s %6s\n", "level", "cells", "t_end", "steps",
               "gpu s", "cpu s", "scalar s", "gpu/cpu", "gpu/scal", "gpu Mc/s", "GB/s", "copy");
        for (int lv = la; lv <= lb; lv++) {
            scenario sc;
            char lvset[64], tset[64];
            memset(&sc, 0, sizeof sc);
            snprintf(lvset, sizeof lvset, "domain.level=%d", lv);
            const char *sets[2] = {lvset, NULL};
            int nsets = 1;
            double t_end_paper = test == 1 ? (lv == 5 ? 0.1 : 5.0) : 0.65;
            snprintf(tset, sizeof tset, "run.t_end=%.17g", t_end_paper * t_scale);
            sets[nsets++] = tset;
            const scheme_desc *d = scheme_find(SCHEME_ROE);
            scheme_setup s;
            if (scenario_load_case(&sc, test == 1 ? "lastra-test1" : "lastra-test2", sets, nsets) ||
                d->setup(&sc, &s)) {
                fprintf(stderr, "swgl: %s\n", swgl_last_error());
                scenario_free(&sc);
                rc = 1;
                break;
            }
            scheme_config cfg = {.renderer = info->renderer, .has_fp64 = info->has_fp64};
            double wall[3] = {-1, -1, -1};
            long steps[3] = {0, 0, 0};
            enum backend bk[3] = {BACKEND_GPU, BACKEND_CPU, BACKEND_CPU_SCALAR};
            for (int b = 0; b < 3; b++) {
                if ((b == 1 && lv > cpu_max) || (b == 2 && lv > scalar_max)) continue;
                for (int rep = 0; rep < (b == 0 ? repeat : 1); rep++) {
                    scheme_inst e;
                    timeloop_result r;
                    if (scheme_open(&e, d, bk[b], &s, &cfg) || timeloop_run(&e, &s.t_end, 1, 0, NULL, NULL, &r)) {
                        fprintf(stderr, "swgl: level %d, %s: %s\n", lv, backend_name(bk[b]), swgl_last_error());
                        rc = 1;
                    } else if (wall[b] < 0 || r.wall < wall[b]) {
                        steps[b] = r.steps;
                        wall[b] = r.wall;
                    }
                    scheme_close(&e);
                }
            }
            long cells = (long)sc.nx * sc.ny;
            char c1[16] = "-", c2[16] = "-", s1[16] = "-", s2[16] = "-";
            if (wall[1] > 0) {
                snprintf(c1, sizeof c1, "%.3f", wall[1]);
                snprintf(s1, sizeof s1, "%.1f", wall[1] / wall[0]);
            }
            if (wall[2] > 0) {
                snprintf(c2, sizeof c2, "%.3f", wall[2]);
                snprintf(s2, sizeof s2, "%.1f", wall[2] / wall[0]);
            }
            double cps = wall[0] > 0 ? (double)cells * steps[0] / wall[0] : 0;
            double gbs = cps * ROE_BYTES_PER_CELL / 1e9;
            printf("%5d %9ld %8.3g %6ld | %9.3f %9s %9s | %8s %8s | %9.2f %7.1f %6.2f\n", lv, cells, sc.t_end,
                   steps[0], wall[0], c1, c2, s1, s2, cps / 1e6, gbs, ceiling > 0 ? gbs / ceiling : 0);
            fflush(stdout);
            d->setup_free(&s);
            scenario_free(&sc);
        }
    }
    gpu_context_destroy(ctx);
    return rc;
}
