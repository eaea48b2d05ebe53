/* bench_scaling.c — `mpirun -n P swgl bench scaling`: how a run over P ranks scales
 * (issue 14; docs/mpi.md, docs/performance.md "Over MPI ranks").  The radial dam break
 * (case circular-dambreak: a column of 2.5 m in still water of 0.5 m, so every cell is wet
 * and every block works alike), for each scheme and backend:
 *   strong:  a fixed N x N grid (--strong, default 8192) on one rank, then over the P;
 *   weak:    B x B cells a rank (--weak, default 4096): B x B on one rank, then the grid
 *            of the P blocks (B px x B py) over the P ranks.
 * "One rank" is rank 0 alone (the others wait) with the time step read back every step, as
 * the ranks run (SWGL_DT_READBACK=sync), so the two differ by the decomposition alone;
 * the default one-rank run (the step kept on the GPU) is printed beside it.  Each run
 * takes --steps steps (default 20; the simulated time chosen from the first step's
 * bound), after one warm-up run.  Printed: cell updates per second, the share of the
 * run's wall time in the halo exchange (the slowest rank's), the speed-up and the
 * efficiency (strong: speed-up / P; weak: one rank's time over the P ranks' for the same
 * cells a rank). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_info.h"
#include "gpu_compute.h"
#include "gpu_context.h"
#include "run.h"
#include "scheme_mpi.h"

typedef struct srun {
    double wall, exch;   /* s; exch: the slowest rank's exchange */
    long steps;
    double cells;        /* computed cells x steps / wall */
} srun;

/* One run of the case on an nx x ny grid of cells dx wide to t_end; alone: rank 0 by
 * itself (scheme_open_block) with the others waiting; sync: the step read back each step. */
static int run_case(enum scheme_kind k, enum backend b, const scheme_config *cfg, int nx, int ny, double dx,
                    double t_end, int alone, int sync, srun *r)
{
    char s[8][96];
    snprintf(s[0], sizeof s[0], "domain.nx=%d", nx);
    snprintf(s[1], sizeof s[1], "domain.ny=%d", ny);
    snprintf(s[2], sizeof s[2], "domain.dx=%.17g", dx);
    snprintf(s[3], sizeof s[3], "domain.dy=%.17g", dx);
    snprintf(s[4], sizeof s[4], "run.t_end=%.17g", t_end);
    snprintf(s[5], sizeof s[5], "run.scheme=%s", k == SCHEME_KP ? "kp" : "roe");
    snprintf(s[6], sizeof s[6], "output.maps=false");
    /* a column of 2.5 m and radius 2.5 m at (20, 20) m in still water of 0.5 m */
    snprintf(s[7], sizeof s[7], "initial.depth=(x - 20)^2 + (y - 20)^2 < 6.25 ? 2.5 : 0.5");
    const char *sets[8] = {s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]};
    scenario sc;
    scheme_setup st;
    const scheme_desc *d = scheme_find(k);
    memset(r, 0, sizeof *r);
    r->wall = -1;
    int me = !alone || swgl_mpi_rank() == 0, rc = 0;
    swgl_status e = SWGL_OK;
    if (me) {
        if (scenario_load_case(&sc, "circular-dambreak", sets, 8)) e = SWGL_ERR_INPUT;
        else if ((e = d->setup(&sc, &st)) != SWGL_OK) scenario_free(&sc);
    }
    if (!alone) e = swgl_mpi_agree(e);
    if (e != SWGL_OK) {
        if (swgl_mpi_rank() == 0) fprintf(stderr, "swgl bench scaling: %s\n", swgl_last_error());
        if (alone) swgl_mpi_barrier();
        return 1;
    }
    if (me) {
        const char *old = getenv("SWGL_DT_READBACK");
        char keep[32] = "";
        if (old) snprintf(keep, sizeof keep, "%s", old);
        if (sync) setenv("SWGL_DT_READBACK", "sync", 1);
        else unsetenv("SWGL_DT_READBACK");
        scheme_inst in;
        timeloop_result tr;
        e = alone ? scheme_open_block(&in, d, b, &st, cfg) : scheme_open(&in, d, b, &st, cfg);
        if (e == SWGL_OK) {
            e = timeloop_run(&in, &st.t_end, 1, 0, NULL, NULL, &tr);
            double ex = 0;
            long n = 0;
            scheme_mpi_stats(&in, &ex, &n);
            if (e == SWGL_OK) {
                r->wall = tr.wall;
                r->steps = tr.steps;
                r->exch = ex;
                r->cells = tr.wall > 0 ? (double)in.cells * tr.steps / tr.wall : 0;
            }
            scheme_close(&in);
        }
        if (e != SWGL_OK && swgl_mpi_rank() == 0)
            fprintf(stderr, "swgl bench scaling: %dx%d on %s: %s\n", nx, ny, backend_name(b), swgl_last_error());
        rc = e != SWGL_OK;
        if (keep[0]) setenv("SWGL_DT_READBACK", keep, 1);
        else unsetenv("SWGL_DT_READBACK");
        d->setup_free(&st);
        scenario_free(&sc);
    }
    if (alone) swgl_mpi_barrier();
    else {
        r->exch = swgl_mpi_max(r->exch);
        r->wall = swgl_mpi_max(r->wall);
    }
    return rc;
}

/* The simulated time of about `steps` steps on cells dx wide: the fastest wave of the
 * column, sqrt(g 2.5) + 0 m/s, at a quarter cell a step (kp's cfl; roe's takes fewer) */
static double t_for(int steps, double dx) { return steps * 0.25 * dx / sqrt(9.81 * 2.5); }

static void line(const char *what, int nx, int ny, const srun *one, const srun *dev, const srun *all, int P,
                 int weak)
{
    double eff = 0, sp = 0;
    if (one->wall > 0 && all->wall > 0 && one->steps > 0 && all->steps > 0) {
        double t1 = one->wall / one->steps, tp = all->wall / all->steps;   /* s a step */
        if (weak) eff = t1 / tp;
        else sp = t1 / tp, eff = sp / P;
    }
    char spd[16] = "";
    if (!weak && sp > 0) snprintf(spd, sizeof spd, "%.2f", sp);
    printf("%-24s %6s %6dx%-6d | %6ld %8.3f %10.4g %10.4g | %6ld %8.3f %10.4g %7.1f%% | %7s %6.1f%%\n", what,
           weak ? "weak" : "strong", nx, ny, one->steps, one->wall, one->cells, dev->cells, all->steps, all->wall,
           all->cells, all->wall > 0 ? 100 * all->exch / all->wall : 0, spd, 100 * eff);
}

int bench_scaling(int argc, char **argv)
{
    int strong = 8192, weak = 4096, steps = 20, device = -1;
    char schemes[64] = "roe,kp", backends[96] = "gpu-compute,gpu";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (strcmp(a, "--strong") == 0 && more) strong = atoi(argv[++i]);
        else if (strcmp(a, "--weak") == 0 && more) weak = atoi(argv[++i]);
        else if (strcmp(a, "--steps") == 0 && more) steps = atoi(argv[++i]);
        else if (strcmp(a, "--device") == 0 && more) device = atoi(argv[++i]);
        else if (strcmp(a, "--schemes") == 0 && more) snprintf(schemes, sizeof schemes, "%s", argv[++i]);
        else if (strcmp(a, "--backends") == 0 && more) snprintf(backends, sizeof backends, "%s", argv[++i]);
        else {
            if (swgl_mpi_rank() == 0)
                printf("usage: mpirun -n P swgl bench scaling [--strong N] [--weak N] [--steps S] [--schemes roe,kp]\n"
                       "                 [--backends gpu-compute,gpu,cpu,cpu-scalar] [--device N]\n"
                       "  strong: an N x N grid (default 8192) on one rank, then over the P ranks; weak: N x N cells a\n"
                       "  rank (default 4096); 0 skips either.  Each run about S steps (default 20).\n");
            return 2;
        }
    }
    if (strong < 0 || weak < 0 || steps < 1 || (strong > 0 && strong < 16) || (weak > 0 && weak < 16)) {
        fprintf(stderr, "swgl bench scaling: --strong and --weak: 0 or at least 16; --steps: at least 1\n");
        return 2;
    }
    const int P = swgl_mpi_size();
    int px = 1, py = 1;
    /* the blocks of a square grid (the weak runs' grid is B px x B py, which splits the same) */
    if (weak > 0 && scheme_mpi_blocks(1 << 20, 1 << 20, P, &px, &py)) {
        fprintf(stderr, "swgl bench scaling: %s\n", swgl_last_error());
        return 2;
    }
    int want_gpu = strstr(backends, "gpu") != NULL, want_cs = strstr(backends, "gpu-compute") != NULL;
    gpu_context *ctx = NULL;
    if (want_gpu) {
        gpu_context_desc gd = {.device = device, .use_device = device >= 0, .want_compute = want_cs,
                               .rotate = swgl_mpi_local_rank()};
        swgl_status e = swgl_mpi_agree(gpu_context_create(&gd, &ctx));
        if (e != SWGL_OK) {
            if (swgl_mpi_rank() == 0) fprintf(stderr, "swgl bench scaling: %s\n", swgl_last_error());
            return 1;
        }
    }
    const gpu_info *info = ctx ? gpu_context_info(ctx) : NULL;
    if (swgl_mpi_rank() == 0) {
        printf("swgl bench scaling — the radial dam break (every cell wet) over %d MPI rank%s (weak: %d x %d blocks)\n",
               P, P == 1 ? "" : "s", px, py);
        if (info)
            printf("GPU (rank 0): %s | %s | GL %s (each rank of a node its own GPU, in turn)\n", info->renderer,
                   info->vendor, info->version);
        printf("CPU: %s, %d OpenMP threads a rank\n", cpu_model_name(), cpu_threads());
        printf("1 rank: rank 0 alone, the step read back each step as over ranks ('gpu clock': the default one-rank "
               "run, the step kept on the GPU); cells/s = cells x steps / wall; exch = the slowest rank's halo "
               "exchange, share of the wall time\n\n");
        printf("%-24s %6s %13s | %6s %8s %10s %10s | %6s %8s %10s %8s | %7s %7s\n", "scheme, backend", "", "grid",
               "steps", "wall s", "cells/s", "gpu clock", "steps", "wall s", "cells/s", "exch", "speedup", "effic.");
        printf("%-24s %6s %13s | %37s | %37s |\n", "", "", "", "1 rank", "P ranks");
    }
    int rc = 0;
    const char *sep = ",";
    char sl[64], bl[96];
    snprintf(sl, sizeof sl, "%s", schemes);
    for (char *sp = NULL, *sn = strtok_r(sl, sep, &sp); sn; sn = strtok_r(NULL, sep, &sp)) {
        enum scheme_kind k = strcmp(sn, "kp") == 0 ? SCHEME_KP : SCHEME_ROE;
        if (strcmp(sn, "kp") && strcmp(sn, "roe")) {
            if (swgl_mpi_rank() == 0) fprintf(stderr, "swgl bench scaling: --schemes: roe or kp, not '%s'\n", sn);
            rc = 2;
            continue;
        }
        snprintf(bl, sizeof bl, "%s", backends);
        for (char *bp = NULL, *bn = strtok_r(bl, sep, &bp); bn; bn = strtok_r(NULL, sep, &bp)) {
            enum backend b;
            if (backend_parse(bn, &b) || ((b == BACKEND_GPU || b == BACKEND_GPU_COMPUTE) && !ctx) ||
                (b == BACKEND_GPU_COMPUTE && !gpu_compute_available())) {
                if (swgl_mpi_rank() == 0) fprintf(stderr, "swgl bench scaling: backend '%s' not available here\n", bn);
                rc = 2;
                continue;
            }
            scheme_config cfg = {.backend = b, .renderer = info ? info->renderer : NULL,
                                 .has_fp64 = info ? info->has_fp64 : 0, .precision = PRECISION_SINGLE};
            char what[64];
            snprintf(what, sizeof what, "%s, %s", sn, bn);
            for (int w = 0; w < 2; w++) {
                int n = w ? weak : strong;
                if (n <= 0) continue;
                int nx = w ? n * px : n, ny = w ? n * py : n;
                double dx = 40.0 / n, t = t_for(steps, dx);
                srun one, dev, all, warm;
                rc |= run_case(k, b, &cfg, n, n, dx, t_for(2, dx), 1, 1, &warm);   /* warm-up */
                rc |= run_case(k, b, &cfg, n, n, dx, t, 1, 1, &one);
                rc |= run_case(k, b, &cfg, n, n, dx, t, 1, 0, &dev);
                rc |= run_case(k, b, &cfg, nx, ny, dx, t, 0, 1, &all);
                if (swgl_mpi_rank() == 0) line(what, nx, ny, &one, &dev, &all, P, w);
            }
        }
    }
    gpu_context_destroy(ctx);
    return rc;
}
