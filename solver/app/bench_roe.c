/* bench_roe.c — `swgl bench roe`: Lastra et al. (2009) Tables 1 and 2 on this machine.
 * For each mesh level of Test 1 (lastra-test1, to t = 5 s; level 5 to 0.1 s) and
 * Test 2 (lastra-test2, to 0.65 s): the wall time of the GPU, of the fast CPU solver
 * (SSE + OpenMP, with its thread count) and of the scalar double CPU solver, the
 * speedups, and cell updates per second.  The GPU figure is also given as an effective
 * bandwidth (bytes each pass must move per cell and step, over time) and as a fraction
 * of this renderer's copy pass, measured in the same run.
 * --precision single (default) | double | both: the GPU and the fast CPU solver in float,
 * in double (`--precision double` of `swgl run`: packed doubles on the GPU, which needs
 * GL_ARB_gpu_shader_fp64; SSE2 x2 on the CPU), or both side by side with the cost of
 * double per step (double / float); the scalar solver is double in every mode.  A client
 * of swgl.h: each run is a sim of the case with overrides. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "swgl.h"


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
/* The same in double (roe_gpu.c): every float4 array is two texels of packed doubles,
 * and the dt pass writes a third target, a float4 for the reduction:
 *   edge   reads state (2 texels) and bed (48 B), writes 4 targets per edge (128 B)
 *   dt     reads 4 edges x 2 texels per side (128 B) and the state (32), writes 48
 *   min    reads 16
 *   update reads the state (32), sums and tau (32) and the mass halves of 4 edges (64),
 *          writes 32 */
#define ROE_BYTES_PER_CELL_D (48.0 + 128 + 128 + 32 + 48 + 16 + 32 + 32 + 64 + 32)

/* one timed run of a backend ("gpu", "cpu", "cpu-scalar") in a precision ("single",
 * "double", NULL: the scheme's): the best wall time, its steps */
typedef struct {
    const char *b;
    const char *p;
    double wall;
    long steps;
} bench_col;

/* One run of a sim of the case with the overrides to its t_end: wall time and steps, the
 * grid's cells; 0, or 1 after printing what failed. */
static int run_sim(const char *name, const char *const *sets, const bench_col *col, int device, int level,
                   double *wall, long *steps, long *cells)
{
    swgl_sim_desc d = {.case_name = name, .set = sets, .backend = col->b, .precision = col->p,
                       .use_device = device >= 0, .device = device};
    swgl_sim *sim = NULL;
    swgl_sim_info info;
    double w = 0, n = 0;
    swgl_status st = swgl_sim_create(&d, &sim);
    if (st == SWGL_OK) st = swgl_sim_get_info(sim, &info);
    if (st == SWGL_OK) st = swgl_sim_run_to(sim, swgl_sim_t_end(sim));
    if (st == SWGL_OK) st = swgl_sim_stat(sim, "wall_s", &w);
    if (st == SWGL_OK) st = swgl_sim_stat(sim, "steps", &n);
    if (st != SWGL_OK) fprintf(stderr, "swgl: level %d, %s: %s\n", level, col->b, swgl_last_error());
    else {
        *wall = w;
        *steps = (long)n;
        *cells = (long)info.nx * info.ny;
    }
    swgl_sim_destroy(sim);
    return st != SWGL_OK;
}

static void fmt_s(char *buf, size_t len, const bench_col *c)
{
    if (c->wall > 0) snprintf(buf, len, "%.3f", c->wall);
    else snprintf(buf, len, "-");
}

/* double / float, per step */
static void fmt_cost(char *buf, size_t len, const bench_col *d, const bench_col *f)
{
    if (d->wall > 0 && f->wall > 0 && d->steps > 0 && f->steps > 0)
        snprintf(buf, len, "%.2f", (d->wall / (double)d->steps) / (f->wall / (double)f->steps));
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
    int l1a = 0, l1b = 3, l2a = 0, l2b = 3, scalar_max = 2, cpu_max = 5, device = -1, repeat = 3;
    int prec = 0;   /* 0 single, 1 double, 2 both */
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
        else if (strcmp(a, "--precision") == 0 && more &&
                 (strcmp(argv[i + 1], "single") == 0 || strcmp(argv[i + 1], "double") == 0 ||
                  strcmp(argv[i + 1], "both") == 0)) {
            prec = strcmp(argv[i + 1], "single") == 0 ? 0 : strcmp(argv[i + 1], "double") == 0 ? 1 : 2;
            i++;
        } else {
            printf("usage: swgl bench roe [--test1 A-B] [--test2 A-B] [--scalar-max L] [--cpu-max L]\n"
                   "                      [--t-scale F] [--device N] [--repeat N] [--precision single|double|both]\n"
                   "  levels of Test 1 (default 0-3; the paper: 0-5) and Test 2 (default 0-3; paper 0-4);\n"
                   "  the scalar CPU solver runs up to level L (default 2), the fast CPU one up to L (5);\n"
                   "  --t-scale F runs every case to F times its end time (default 1: the paper's times).\n"
                   "  Use --test1 -1 or --test2 -1 to skip a test.  --repeat N: the GPU time is the best of\n"
                   "  N runs (default 3; the CPU solvers run once).  --precision: the GPU and the fast CPU\n"
                   "  solver in single (default), double (the GPU needs fp64), or both, with the cost of\n"
                   "  double per step (double / float); the scalar solver is double.  SWGL_DT_READBACK=sync\n"
                   "  reads the time step back every step instead of keeping it on the GPU.\n");
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
    printf("swgl bench roe — Lastra et al. (2009) Tables 1 and 2 on this machine\n");
    printf("GPU: %s | %s | GL %s; copy pass (2048^2 float4) %.1f GB/s; fp64: %s\n", renderer, vendor, version,
           ceiling, has_fp64 ? "yes" : "no");
    printf("CPU: %s, fast solver with %d OpenMP threads\n", bench_cpu_model(), bench_cpu_threads());
    const char *mode = getenv("SWGL_DT_READBACK"), *mass = getenv("SWGL_ROE_MASS");
    int edges = !(mass && strcmp(mass, "cell") == 0);
    printf("GPU bytes per cell and step (fewest, all passes): %.0f B (float), %.0f B (double); time step %s; mass "
           "fluxes %s; GPU time: best of %d\n",
           ROE_BYTES_PER_CELL + (edges ? 0 : 32 - 64), ROE_BYTES_PER_CELL_D,
           mode && strcmp(mode, "sync") == 0 ? "read back every step" : "kept on the GPU",
           edges ? "re-read from the edges" : "passed from the dt pass (SWGL_ROE_MASS=cell; float only)", repeat);
    if (prec == 0)
        printf("precision: gpu float, cpu float (SSE x4), scalar double\n");
    else if (prec == 1)
        printf("precision: gpu double, cpu double (SSE2 x2), scalar double\n");
    else
        printf("precision: gpu and cpu in float (f) and double (d); d/f = the cost of double per step; scalar "
               "double\n");
    if (prec > 0 && !has_fp64)
        printf("note: this renderer lacks GL_ARB_gpu_shader_fp64: no GPU double column\n");
    /* the columns: gpu, cpu (one precision), scalar; or gpu f, gpu d, cpu f, cpu d, scalar */
    bench_col cols[5];
    int ncols = 0;
    if (prec < 2) {
        const char *p = prec == 1 ? "double" : "single";
        cols[ncols++] = (bench_col){"gpu", p, -1, 0};
        cols[ncols++] = (bench_col){"cpu", p, -1, 0};
    } else {
        cols[ncols++] = (bench_col){"gpu", "single", -1, 0};
        cols[ncols++] = (bench_col){"gpu", "double", -1, 0};
        cols[ncols++] = (bench_col){"cpu", "single", -1, 0};
        cols[ncols++] = (bench_col){"cpu", "double", -1, 0};
    }
    cols[ncols++] = (bench_col){"cpu-scalar", NULL, -1, 0};
    int rc = 0;
    for (int test = 1; test <= 2; test++) {
        int la = test == 1 ? l1a : l2a, lb = test == 1 ? l1b : l2b;
        if (la < 0) continue;
        printf("\nTest %d (%s)\n", test, test == 1 ? "lastra-test1" : "lastra-test2");
        if (prec < 2)
            printf("%5s %9s %8s %6s | %9s %9s %9s | %8s %8s | %9s %7s %6s\n", "level", "cells", "t_end", "steps",
                   prec ? "gpu d s" : "gpu s", prec ? "cpu d s" : "cpu s", "scalar s", "gpu/cpu", "gpu/scal",
                   "gpu Mc/s", "GB/s", "copy");
        else
            printf("%5s %9s %8s %6s | %9s %9s %5s | %9s %9s %5s | %9s | %9s %9s %7s %6s\n", "level", "cells", "t_end",
                   "steps", "gpu f s", "gpu d s", "d/f", "cpu f s", "cpu d s", "d/f", "scalar s", "gpu f Mc/s",
                   "gpu d Mc/s", "d GB/s", "copy");
        for (int lv = la; lv <= lb; lv++) {
            char lvset[64], tset[64];
            snprintf(lvset, sizeof lvset, "domain.level=%d", lv);
            double t_end = (test == 1 ? (lv == 5 ? 0.1 : 5.0) : 0.65) * t_scale;
            snprintf(tset, sizeof tset, "run.t_end=%.17g", t_end);
            const char *sets[3] = {lvset, tset, NULL};
            const char *name = test == 1 ? "lastra-test1" : "lastra-test2";
            long cells = 0;
            for (int c = 0; c < ncols; c++) {
                bench_col *col = &cols[c];
                int gpu = strcmp(col->b, "gpu") == 0;
                col->wall = -1;
                col->steps = 0;
                if ((strcmp(col->b, "cpu") == 0 && lv > cpu_max) || (strcmp(col->b, "cpu-scalar") == 0 && lv > scalar_max))
                    continue;
                if (gpu && col->p && strcmp(col->p, "double") == 0 && !has_fp64) continue;
                for (int rep = 0; rep < (gpu ? repeat : 1); rep++) {
                    double wall;
                    long steps;
                    if (run_sim(name, sets, col, device, lv, &wall, &steps, &cells)) rc = 1;
                    else if (col->wall < 0 || wall < col->wall) {
                        col->steps = steps;
                        col->wall = wall;
                    }
                }
            }
            if (prec < 2) {
                const bench_col *g = &cols[0], *c1 = &cols[1], *c2 = &cols[2];
                char sg[16], sc1[16], sc2[16], r1[16] = "-", r2[16] = "-";
                fmt_s(sg, sizeof sg, g);
                fmt_s(sc1, sizeof sc1, c1);
                fmt_s(sc2, sizeof sc2, c2);
                if (c1->wall > 0 && g->wall > 0) snprintf(r1, sizeof r1, "%.1f", c1->wall / g->wall);
                if (c2->wall > 0 && g->wall > 0) snprintf(r2, sizeof r2, "%.1f", c2->wall / g->wall);
                double cps = g->wall > 0 ? (double)cells * g->steps / g->wall : 0;
                double gbs = cps * (prec ? ROE_BYTES_PER_CELL_D : ROE_BYTES_PER_CELL) / 1e9;
                printf("%5d %9ld %8.3g %6ld | %9s %9s %9s | %8s %8s | %9.2f %7.1f %6.2f\n", lv, cells, t_end,
                       g->steps, sg, sc1, sc2, r1, r2, cps / 1e6, gbs, ceiling > 0 ? gbs / ceiling : 0);
            } else {
                const bench_col *gf = &cols[0], *gd = &cols[1], *cf = &cols[2], *cd = &cols[3], *sc2 = &cols[4];
                char a[5][16], kg[16], kc[16];
                for (int c = 0; c < 5; c++) fmt_s(a[c], sizeof a[c], &cols[c]);
                fmt_cost(kg, sizeof kg, gd, gf);
                fmt_cost(kc, sizeof kc, cd, cf);
                double cpsf = gf->wall > 0 ? (double)cells * gf->steps / gf->wall : 0;
                double cpsd = gd->wall > 0 ? (double)cells * gd->steps / gd->wall : 0;
                double gbs = cpsd * ROE_BYTES_PER_CELL_D / 1e9;
                (void)sc2;
                printf("%5d %9ld %8.3g %6ld | %9s %9s %5s | %9s %9s %5s | %9s | %9.2f %9.2f %7.1f %6.2f\n", lv,
                       cells, t_end, gf->steps, a[0], a[1], kg, a[2], a[3], kc, a[4], cpsf / 1e6, cpsd / 1e6, gbs,
                       ceiling > 0 ? gbs / ceiling : 0);
            }
            fflush(stdout);
        }
    }
    return rc;
}
