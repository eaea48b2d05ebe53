/* bench_scaling.c — `mpirun -n P swgl bench scaling`: how a run over P ranks scales
 * (issue 14; docs/mpi.md, docs/performance.md "Over MPI ranks").  The radial dam break
 * (case circular-dambreak: a column of 2.5 m in still water of 0.5 m, so every cell is wet
 * and every block works alike, kp's rest rule off unless tuned), for each scheme and backend:
 *   strong:  a fixed N x N grid (--strong, default 8192) on one rank, then over the P;
 *   weak:    B x B cells a rank (--weak, default 4096; or W x H, --weak WxH, so that the
 *            border's length can change with the block's area kept): a block on one rank,
 *            then the grid of the P blocks (W px x H py, split so) over the P ranks.
 * "One rank" is rank 0 alone (swgl_sim_desc.mpi_alone: the others wait) as a one-rank run
 * is by default (the step kept on the GPU): what a user gets without the ranks; with
 * --host-clock also with the time step read back every step, as the ranks run
 * (desc.host_clock), so that the two differ by the decomposition alone.  A first run
 * of --steps steps (default 20; the simulated time chosen from the first step's bound)
 * times a step, and the runs measured are lengthened to step for --min-time seconds each
 * (measure_long); every figure is the median of 3 such runs (bench_measure.h; the first
 * run is the warm-up; every rank alike).
 * Printed: cell updates per second, the share of the
 * run's wall time in the halo exchange (the slowest rank's), the speed-up and the
 * efficiency (strong: speed-up / P; weak: one rank's time over the P ranks' for the same
 * cells a rank), against the default one-rank run. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_measure.h"
#include "cli.h"
#include "swgl.h"


/* a run of the case (scheme "roe" or "kp") on an nx x ny grid of cells dx wide to t_end;
 * alone: rank 0 by itself (desc.mpi_alone; the other ranks' calls return at once); sync:
 * the step read back each step (desc.host_clock) */
typedef struct scase {
    const char *scheme, *backend;
    int device, nx, ny;
    double dx, t_end;
    int alone, sync;
    const char *tune;   /* the sim's tuning (g_tune, or it with the weak run's blocks) */
} scase;

static char g_tune[CLI_TUNE_MAX];   /* --tune items for every sim */
static int g_hold = 1;              /* --hold: [run] step_hold of every sim (1: a bound a step) */

/* One run (bench_run_fn; every rank makes the same calls and gets the same numbers): its wall
 * (the slowest rank's) and steps, and as extra figures the cell updates (0) and the slowest
 * rank's halo exchange (1), each over the wall. */
static int run_case(void *user, bench_sample *r)
{
    const scase *c = user;
    char s[9][96];
    snprintf(s[0], sizeof s[0], "domain.nx=%d", c->nx);
    snprintf(s[1], sizeof s[1], "domain.ny=%d", c->ny);
    snprintf(s[2], sizeof s[2], "domain.dx=%.17g", c->dx);
    snprintf(s[3], sizeof s[3], "domain.dy=%.17g", c->dx);
    snprintf(s[4], sizeof s[4], "run.t_end=%.17g", c->t_end);
    snprintf(s[5], sizeof s[5], "run.scheme=%s", c->scheme);
    snprintf(s[6], sizeof s[6], "output.maps=false");
    /* a column of 2.5 m and radius 2.5 m at (20, 20) m in still water of 0.5 m */
    snprintf(s[7], sizeof s[7], "initial.depth=(x - 20)^2 + (y - 20)^2 < 6.25 ? 2.5 : 0.5");
    snprintf(s[8], sizeof s[8], "run.step_hold=%d", g_hold);
    const char *sets[10] = {s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], NULL};
    swgl_sim_desc d = {.case_name = "circular-dambreak", .set = sets, .backend = c->backend, .precision = "single",
                       .use_device = c->device >= 0, .device = c->device, .host_clock = c->sync, .mpi_alone = c->alone,
                       .tune = c->tune};
    swgl_sim *sim = NULL;
    double wall = 0, steps = 0, cells = 0, exch = 0;
    /* the exchange's parts (swgl_sim_stat): read, wire, write, bound; the exchanges; the bytes
     * sent an exchange */
    enum { NP = 6 };
    static const char *const parts[NP] = {"exchange_read_s", "exchange_wire_s", "exchange_write_s", "bound_s",
                                          "exchanges", "halo_bytes"};
    double pv[NP] = {0};
    swgl_status st = swgl_sim_create(&d, &sim);
    /* the first steps apart (the GPU's clocks rising: bench_sim_warm): the figures count the
     * steps after them */
    const int me = !c->alone || swgl_mpi_rank() == 0;   /* (rank 0's, where a run is alone) */
    double w0 = 0, s0 = 0, x0 = 0, pv0[NP] = {0};
    if (st == SWGL_OK) st = bench_sim_warm(sim, swgl_sim_t_end(sim));
    if (st == SWGL_OK && me && (st = swgl_sim_stat(sim, "wall_s", &w0)) == SWGL_OK &&
        (st = swgl_sim_stat(sim, "steps", &s0)) == SWGL_OK)
        st = swgl_sim_stat(sim, "exchange_s", &x0);
    for (int k = 0; k < NP && st == SWGL_OK && me; k++) st = swgl_sim_stat(sim, parts[k], &pv0[k]);
    if (me && swgl_sim_time(sim) >= swgl_sim_t_end(sim)) {   /* (the warm-up took the run whole: counted whole) */
        w0 = s0 = x0 = 0;
        memset(pv0, 0, sizeof pv0);
    }
    if (st == SWGL_OK) st = swgl_sim_run_to(sim, swgl_sim_t_end(sim));
    if (st == SWGL_OK && me && (st = swgl_sim_stat(sim, "wall_s", &wall)) == SWGL_OK &&
        (st = swgl_sim_stat(sim, "steps", &steps)) == SWGL_OK && (st = swgl_sim_stat(sim, "cells_per_s", &cells)) == SWGL_OK)
        st = swgl_sim_stat(sim, "exchange_s", &exch);
    for (int k = 0; k < NP && st == SWGL_OK && me; k++) st = swgl_sim_stat(sim, parts[k], &pv[k]);
    double run_steps = steps;   /* (the warm-up's in: the physics' count, as printed) */
    if (st == SWGL_OK && me) {
        double ncell = steps > 0 ? cells * wall / steps : 0;   /* the active cells */
        wall -= w0;
        steps -= s0;
        exch -= x0;
        for (int k = 0; k < NP - 1; k++) pv[k] -= pv0[k];   /* (halo_bytes is per exchange) */
        cells = wall > 0 ? ncell * steps / wall : 0;
    }
    if (st != SWGL_OK && swgl_mpi_rank() == 0)
        fprintf(stderr, "swgl bench scaling: %dx%d on %s: %s\n", c->nx, c->ny, c->backend, swgl_last_error());
    swgl_sim_destroy(sim);
    if (st != SWGL_OK || !me) {
        wall = steps = cells = exch = run_steps = 0;
        memset(pv, 0, sizeof pv);
    }
    /* every rank alike (a failure is agreed on by the sim's calls): the slowest rank's time */
    double updates = swgl_mpi_reduce_max(cells * wall);
    r->wall = swgl_mpi_reduce_max(wall);
    r->steps = (long)swgl_mpi_reduce_max(steps);
    r->run_steps = (long)swgl_mpi_reduce_max(run_steps);
    r->n = 7;
    r->units[0] = updates;
    r->sec[0] = r->wall;
    r->units[1] = swgl_mpi_reduce_max(exch);
    r->sec[1] = r->wall;
    /* 2..5: the slowest rank's seconds of each part an exchange (read, wire, write; the
     * bound's agreement over an exchange's steps); 6: the most bytes a rank sends an exchange */
    double nx = swgl_mpi_reduce_max(pv[4]);
    for (int k = 0; k < 4; k++) {
        r->units[2 + k] = swgl_mpi_reduce_max(pv[k]);
        r->sec[2 + k] = nx > 0 ? nx : 1;
    }
    r->units[6] = swgl_mpi_reduce_max(pv[5]);
    r->sec[6] = 1;
    return st != SWGL_OK;
}

/* A figure of the case by the trusted rule (bench_measure.h) with runs of at least min_s of
 * stepping each: a first run of the case's --steps steps says how long a step takes, and the
 * simulated time is lengthened (a few tries) so that one run steps for min_s,
 * so that a measurement is one long run, not many short ones (whose set-up, a new sim each
 * time, would take the bench's time, and whose first steps would weigh in the figure). */
static int measure_long(scase *c, double min_s, bench_figure *f)
{
    bench_sample s;
    memset(f, 0, sizeof *f);
    /* lengthened by at most 8 times a try (a short run on the GPU's clock may end with work
     * still queued, and time a step short), until a run steps for most of min_s */
    for (int tries = 0; tries < 6; tries++) {
        memset(&s, 0, sizeof s);
        if (run_case(c, &s) != 0) return 1;
        if (!(s.wall > 0) || s.wall >= 0.8 * min_s) break;
        c->t_end *= fmin(fmax(1.1 * min_s / s.wall, 1.5), 8.0);
    }
    return bench_measure_warmed(run_case, c, min_s, f);   /* (those first runs were the warm-up) */
}

/* The blocks of a square grid over P ranks as the library splits it (docs/mpi.md: the
 * least cut length, wider blocks first on a tie; --tune mpi.blocks=AxB chooses them, the
 * last one given); -1 where those do not fit P. */
static int square_blocks(int P, int *px, int *py)
{
    const char *v = NULL;
    for (const char *s = strstr(g_tune, "mpi.blocks="); s; s = strstr(s + 1, "mpi.blocks=")) v = s + 11;
    if (v && strncmp(v, "auto", 4) != 0) {
        int a = 0, b = 0;
        if (sscanf(v, "%dx%d", &a, &b) != 2 || a < 1 || b < 1 || (long)a * b != P) return -1;
        *px = a;
        *py = b;
        return 0;
    }
    *px = 1;
    *py = P;
    for (int a = 1; a <= P; a++)   /* on a square grid the cut is (a - 1 + P / a - 1) N */
        if (P % a == 0 && a + P / a < *px + *py) *px = a, *py = P / a;
    return 0;
}

/* The simulated time of about `steps` steps on cells dx wide: the fastest wave of the
 * column, sqrt(g 2.5) + 0 m/s, at a quarter cell a step (kp's cfl; roe's takes fewer) */
static double t_for(int steps, double dx) { return steps * 0.25 * dx / sqrt(9.81 * 2.5); }

static void line(const char *what, int nx, int ny, const bench_figure *one, const bench_figure *dev,
                 const bench_figure *all, int P, int weak)
{
    double eff = 0, sp = 0, spread = -1;
    if (dev->ok && all->ok) {
        double r = bench_median(all, 0) / bench_median(dev, 0);   /* steps a second, P ranks over one */
        if (weak) eff = r;
        else sp = r, eff = sp / P;
    }
    const bench_figure *f[3] = {one, dev, all};
    for (int k = 0; k < 3; k++)
        if (f[k]->ok) spread = fmax(spread, bench_spread(f[k], 1));
    char spd[16] = "", sps[16];
    if (!weak && sp > 0) snprintf(spd, sizeof spd, "%.2f", sp);
    bench_fmt_spread(sps, sizeof sps, spread);
    char host[16] = "-";
    if (one->ok) snprintf(host, sizeof host, "%.4g", bench_median(one, 1));
    printf("%-24s %6s %6dx%-6d | %6ld %8.3f %10.4g %10s | %6ld %8.3f %10.4g %7.1f%% | %7s %6.1f%% | %6s\n", what,
           weak ? "weak" : "strong", nx, ny, dev->steps, bench_run_s(dev), bench_median(dev, 1), host, all->steps,
           bench_run_s(all), bench_median(all, 1), 100 * bench_median(all, 2), spd, 100 * eff, sps);
    if (P > 1 && all->ok)   /* the P ranks' exchange, its parts (the slowest rank's each, us an exchange) */
        printf("%-24s   an exchange: read %.0f + wire %.0f + write %.0f us; the bound over the ranks %.0f us; "
               "halo %.1f KiB a rank (the slowest rank's each)\n", "", 1e6 * bench_median(all, 3),
               1e6 * bench_median(all, 4), 1e6 * bench_median(all, 5), 1e6 * bench_median(all, 6),
               bench_median(all, 7) / 1024);
}

/* each figure on stderr as it is measured (a row is printed when its three are): what a
 * run cut short by a time limit still shows */
static void progress(const char *what, const scase *c, const bench_figure *f)
{
    if (swgl_mpi_rank() != 0) return;
    char cols[48];
    if (c->alone) snprintf(cols, sizeof cols, "%s", c->sync ? "1 rank, host clock" : "1 rank");
    else snprintf(cols, sizeof cols, "%d ranks", swgl_mpi_size());
    if (f->ok) fprintf(stderr, "bench scaling, measured: %s %dx%d, %s: %.4g cells/s, %ld steps in %.3f s a run\n", what,
                       c->nx, c->ny, cols, bench_median(f, 1), f->steps, bench_run_s(f));
    else fprintf(stderr, "bench scaling, measured: %s %dx%d, %s: no figure\n", what, c->nx, c->ny, cols);
}

/* The value of the last item KEY=VALUE in the tune items t (separated by ',' or newlines,
 * spaces around key and value ignored: as the library reads them, the last one wins) into
 * v; 0 where no item sets key */
static int tune_last(const char *t, const char *key, char *v, size_t len)
{
    int found = 0;
    const size_t kl = strlen(key);
    for (const char *p = t; *p;) {
        size_t n = strcspn(p, ",\n");
        const char *e = p + n;
        while (p < e && isspace((unsigned char)*p)) p++;
        if ((size_t)(e - p) > kl && strncmp(p, key, kl) == 0) {
            const char *q = p + kl;
            while (q < e && isspace((unsigned char)*q)) q++;
            if (q < e && *q == '=') {
                q++;
                while (q < e && isspace((unsigned char)*q)) q++;
                const char *r = e;
                while (r > q && isspace((unsigned char)r[-1])) r--;
                snprintf(v, len, "%.*s", (int)(r - q), q);
                found = 1;
            }
        }
        p = *e ? e + 1 : e;
    }
    return found;
}

int bench_scaling(int argc, char **argv)
{
    int strong = 8192, weak = 4096, weak_h = 4096, steps = 20, device = -1, host_col = 0;
    double min_s = 1.0;
    char schemes[64] = "roe,kp", backends[96] = "gpu-compute,gpu";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (strcmp(a, "--tune") == 0 && more) {
            int t = cli_tune("bench scaling", argv[++i], g_tune, sizeof g_tune);
            if (t) return t > 0 ? 0 : 2;
        } else if ((strcmp(a, "--strong") == 0 || strcmp(a, "--steps") == 0 || strcmp(a, "--weak") == 0) && more) {
            /* an integer (--weak: or WxH), nothing after it */
            const char *v = argv[++i];
            char x = 0;
            int n1 = 0, n2 = 0, got = sscanf(v, "%d%c%d%c", &n1, &x, &n2, &x);
            int whole = got == 1 || (got == 3 && strcmp(a, "--weak") == 0 && strchr(v, 'x') && !strchr(v, ' '));
            if (!whole) {
                if (swgl_mpi_rank() == 0)
                    fprintf(stderr, "swgl bench scaling: %s %s: expected an integer%s\n", a, v,
                            strcmp(a, "--weak") == 0 ? " or WxH" : "");
                return 2;
            }
            if (strcmp(a, "--strong") == 0) strong = n1;
            else if (strcmp(a, "--steps") == 0) steps = n1;
            else weak = n1, weak_h = got == 3 ? n2 : n1;
        }
        else if (strcmp(a, "--host-clock") == 0) host_col = 1;
        else if (strcmp(a, "--hold") == 0 && more && atoi(argv[i + 1]) >= 1 && atoi(argv[i + 1]) <= 64)
            g_hold = atoi(argv[++i]);
        else if (strcmp(a, "--device") == 0 && more) device = atoi(argv[++i]);
        else if (strcmp(a, "--min-time") == 0 && more && bench_parse_min_time(argv[i + 1]) > 0)
            min_s = bench_parse_min_time(argv[++i]);
        else if (strcmp(a, "--schemes") == 0 && more) snprintf(schemes, sizeof schemes, "%s", argv[++i]);
        else if (strcmp(a, "--backends") == 0 && more) snprintf(backends, sizeof backends, "%s", argv[++i]);
        else {
            if (swgl_mpi_rank() == 0)
                printf("usage: mpirun -n P swgl bench scaling [--strong N] [--weak N|WxH] [--steps S] [--host-clock]\n"
                       "                 [--hold K] [--schemes roe,kp] [--backends gpu-compute,gpu,cpu,cpu-scalar]\n"
                       "                 [--min-time T] [--device N] [--tune KEY=VALUE]... (--tune help lists the keys)\n"
                       "  strong: an N x N grid (default 8192) on one rank, then over the P ranks; weak: N x N cells a\n"
                       "  rank (default 4096; WxH: blocks W wide, H high); 0 skips either.  A first run of S steps\n"
                       "  (default 20) times a step; the runs measured are then made long enough to step for T s\n"
                       "  each (--min-time, default 1).  Every figure is the median of 3 such runs, a new sim each\n"
                       "  time, after the first run (its warm-up); 'spread' = (max - min) / median.  --host-clock: one\n"
                       "  rank also with the step read back every step, as the ranks step.  --hold K: every run\n"
                       "  with [run] step_hold = K (1 to 64: the time step held for up to K steps, docs/mpi.md).\n"
                       "  kp's rest rule is off unless --tune kp.rest=on|off is given (the case's still water would\n"
                       "  be skipped, and a run's cost follow the wave, not the ranks).\n");
            return 2;
        }
    }
    if (strong < 0 || weak < 0 || steps < 1 || (strong > 0 && strong < 16) || (weak > 0 && weak < 16) ||
        (weak > 0 && weak_h < 16)) {
        fprintf(stderr, "swgl bench scaling: --strong and --weak: 0 or at least 16 (--weak WxH: each); --steps: at "
                        "least 1\n");
        return 2;
    }
    const int P = swgl_mpi_size(), rank0 = swgl_mpi_rank() == 0;
    int px = 1, py = 1;
    /* kp's rest rule off unless tuned: the case's still water is at rest but for the column, so
     * with the rule on the first steps skip most tiles, and a run's cost depends on how far the
     * wave has gone (a 4096^2 block at 6e10 cells/s), not on the decomposition (issue 32) */
    char rest[64];
    if (!tune_last(g_tune, "kp.rest", rest, sizeof rest)) {
        size_t n = strlen(g_tune);
        if (n + 16 >= sizeof g_tune) {
            if (swgl_mpi_rank() == 0) fprintf(stderr, "swgl bench scaling: --tune: too long to add kp.rest=off\n");
            return 2;
        }
        snprintf(g_tune + n, sizeof g_tune - n, "%skp.rest=off", n ? "\n" : "");
        snprintf(rest, sizeof rest, "off");
    }
    /* the blocks of a square grid (the weak runs' grid is B px x B py, which splits the same) */
    if (weak > 0 && square_blocks(P, &px, &py)) {
        if (rank0) fprintf(stderr, "swgl bench scaling: --tune mpi.blocks: expected AxB with A B = %d ranks\n", P);
        return 2;
    }
    /* rank 0's GPU (each rank of a node takes its own in turn; rank 0 the first) */
    char renderer[256], vendor[256], version[256];
    int has_fp64 = 0, gpu_line = 0;
    if (rank0 && strstr(backends, "gpu"))
        gpu_line = !bench_gpu_about(device >= 0, device, renderer, vendor, version, sizeof renderer, &has_fp64);
    /* the copy ceilings of the GPU backends asked (rank 0's GPU), as every bench quotes them */
    double ceil_frag = 0, ceil_cs = 0;
    int want_frag = 0, want_cs = 0;
    {
        char bl[96];
        snprintf(bl, sizeof bl, "%s", backends);
        for (char *bp = NULL, *bn = strtok_r(bl, ",", &bp); bn; bn = strtok_r(NULL, ",", &bp))
            want_frag |= strcmp(bn, "gpu") == 0, want_cs |= strcmp(bn, "gpu-compute") == 0;
    }
    if (rank0 && gpu_line && want_frag && swgl_copy_bandwidth(device >= 0, device, 0, &ceil_frag) != SWGL_OK)
        ceil_frag = 0;
    if (rank0 && gpu_line && want_cs && swgl_copy_bandwidth(device >= 0, device, 1, &ceil_cs) != SWGL_OK) ceil_cs = 0;
    const int threads = bench_cpu_threads();   /* (every rank) */
    if (rank0) {
        printf("swgl bench scaling — the radial dam break (every cell wet; kp's rest rule %s) over %d MPI rank%s (weak: "
               "%d x %d blocks)\n", rest, P, P == 1 ? "" : "s", px, py);
        if (gpu_line) {
            printf("GPU (rank 0): %s | %s | GL %s (each rank of a node its own GPU, in turn)\n", renderer, vendor,
                   version);
            printf("copy ceiling (rank 0's GPU, %dx%d float4; swgl_copy_bandwidth: bench gpgpu's rows of that size):",
                   SWGL_COPY_CEILING_N, SWGL_COPY_CEILING_N);
            if (want_frag) printf(" fragment copy %.1f GB/s%s", ceil_frag, want_cs ? "," : "");
            if (want_cs) printf(" compute copy-cs %.1f GB/s", ceil_cs);
            printf("\n");
        }
        printf("CPU: %s, %d OpenMP threads a rank\n", swgl_cpu_model(), threads);
        printf("1 rank: rank 0 alone, as a one-rank run is by default (the step kept on the GPU); 'host clock': "
               "the same with the step read back every step, as the ranks run (--host-clock); cells/s = cells x "
               "steps / wall; exch = the slowest rank's halo exchange, share of the wall time; speed-up and "
               "efficiency against the default one-rank run\n");
        printf("timing: every figure the %s of stepping (the run repeated, a new sim each time, after a warm-up run; "
               "steps, wall s: one run's); spread = (max - min) / median of the three cells/s, the largest of the "
               "row\n\n", bench_rule(min_s));
        printf("%s on %s (rank 0: %s); strong %d^2, weak %dx%d a rank; runs of >= %d steps; %s\n", schemes,
               backends, gpu_line ? renderer : "no GPU", strong, weak, weak_h, steps, bench_rule(min_s));
        printf("%-24s %6s %13s | %6s %8s %10s %10s | %6s %8s %10s %8s | %7s %7s | %6s\n", "scheme, backend", "",
               "grid", "steps", "wall s", "cells/s", "host clock", "steps", "wall s", "cells/s", "exch", "speedup",
               "effic.", "spread");
        printf("%-24s %6s %13s | %37s | %37s |\n", "", "", "", "1 rank", "P ranks");
        fflush(stdout);
    }
    /* the weak runs' blocks as the bench lays them out (a W x H block's grid may split
     * otherwise by the least cut) */
    char wtune[CLI_TUNE_MAX + 32];
    snprintf(wtune, sizeof wtune, "%s%smpi.blocks=%dx%d", g_tune, g_tune[0] ? "\n" : "", px, py);
    int rc = 0;
    const char *sep = ",";
    char sl[64], bl[96];
    snprintf(sl, sizeof sl, "%s", schemes);
    for (char *sp = NULL, *sn = strtok_r(sl, sep, &sp); sn; sn = strtok_r(NULL, sep, &sp)) {
        if (strcmp(sn, "kp") && strcmp(sn, "roe")) {
            if (rank0) fprintf(stderr, "swgl bench scaling: --schemes: roe or kp, not '%s'\n", sn);
            rc = 2;
            continue;
        }
        snprintf(bl, sizeof bl, "%s", backends);
        for (char *bp = NULL, *bn = strtok_r(bl, sep, &bp); bn; bn = strtok_r(NULL, sep, &bp)) {
            /* the backend tried on a small grid over the ranks (a sim's create is agreed on by
             * every rank, so all skip it alike) */
            static const char *known[] = {"gpu", "gpu-compute", "cpu", "cpu-scalar"};
            int ok = 0;
            for (int q = 0; q < 4; q++) ok |= strcmp(bn, known[q]) == 0;
            if (ok) {
                char msg[512] = "";
                swgl_sim_desc d = {.case_name = "circular-dambreak", .backend = bn, .precision = "single",
                                   .use_device = device >= 0, .device = device};
                char sch[32];
                snprintf(sch, sizeof sch, "run.scheme=%s", sn);
                const char *sets[] = {"domain.nx=256", "domain.ny=256", "domain.dx=0.15625", "domain.dy=0.15625", sch,
                                      NULL};
                swgl_sim *sim = NULL;
                d.set = sets;
                ok = swgl_sim_create(&d, &sim) == SWGL_OK;
                if (!ok) snprintf(msg, sizeof msg, ": %s", swgl_last_error());
                swgl_sim_destroy(sim);
                if (!ok && rank0) fprintf(stderr, "swgl bench scaling: backend '%s' not available here%s\n", bn, msg);
            } else if (rank0) {
                fprintf(stderr, "swgl bench scaling: backend '%s' not available here\n", bn);
            }
            if (!ok) {
                rc = 2;
                continue;
            }
            char what[64];
            snprintf(what, sizeof what, "%s, %s", sn, bn);
            for (int w = 0; w < 2; w++) {
                int n = w ? weak : strong, n_h = w ? weak_h : strong;
                if (n <= 0) continue;
                int nx = w ? n * px : n, ny = w ? n_h * py : n;
                double dx = 40.0 / (n < n_h ? n : n_h), t = t_for(steps, dx);
                bench_figure one, dev, all;
                scase c1 = {sn, bn, device, n, n_h, dx, t, 1, 1, g_tune},
                      cd = {sn, bn, device, n, n_h, dx, t, 1, 0, g_tune},
                      cp = {sn, bn, device, nx, ny, dx, t, 0, 1, w ? wtune : g_tune};
                memset(&one, 0, sizeof one);
                if (host_col) rc |= measure_long(&c1, min_s, &one), progress(what, &c1, &one);
                rc |= measure_long(&cd, min_s, &dev), progress(what, &cd, &dev);
                rc |= measure_long(&cp, min_s, &all), progress(what, &cp, &all);
                if (rank0) {
                    line(what, nx, ny, &one, &dev, &all, P, w);
                    fflush(stdout);
                }
            }
        }
    }
    return rc;
}
