/* bench_gpgpu.c — `swgl bench gpgpu`: the ceilings of the texture layer on this renderer
 * (swgl_bench_layer in the library: copy, stencil, MRT and reduction passes, the compute
 * copy and the dispatch latency, and the copy ceiling every bench quotes).  Also what the
 * other benches share, through the public API alone: the lines their headers give of the
 * machine (the GPU, the CPU), and the rule of their timed figures (bench_measure.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_measure.h"
#include "cli.h"
#include "swgl.h"

/* ---- the machine, for the benches' headers ---------------------------------------------- */

/* the value of "key:   value" with what follows `cut` (when given) left off */
static int take(const char *line, const char *key, const char *cut, char *dst, size_t len)
{
    size_t k = strlen(key);
    if (strncmp(line, key, k) != 0) return 0;
    const char *v = line + k;
    while (*v == ' ') v++;
    size_t n = strcspn(v, "\r\n");
    if (cut) {
        const char *c = strstr(v, cut);
        if (c && (size_t)(c - v) < n) n = (size_t)(c - v);
    }
    snprintf(dst, len, "%.*s", (int)n, v);
    return 1;
}

/* The renderer, vendor and GL version a sim on this device would get, and whether it has
 * fp64 (from swgl_print_devices); 0, or 1 with swgl_last_error() when no context can be had. */
int bench_gpu_about(int use_device, int device, char *renderer, char *vendor, char *version, size_t len, int *fp64)
{
    snprintf(renderer, len, "?");
    snprintf(vendor, len, "?");
    snprintf(version, len, "?");
    *fp64 = 0;
    FILE *f = tmpfile();
    if (!f) return 0;   /* unknown: the runs say what they find */
    int rc = swgl_print_devices(f, use_device, device);
    rewind(f);
    char line[1024], yes[16] = "";
    while (fgets(line, sizeof line, f)) {
        if (take(line, "renderer:", "  (software)", renderer, len) || take(line, "vendor:", NULL, vendor, len) ||
            take(line, "GL:", "  (context", version, len))
            continue;
        if (take(line, "fp64:", " ", yes, sizeof yes)) *fp64 = strcmp(yes, "yes") == 0;
    }
    fclose(f);
    return rc;
}

int bench_gpu_setup(int device, int compute, bench_gpu *g)
{
    memset(g, 0, sizeof *g);
    snprintf(g->renderer, sizeof g->renderer, "no GPU");
    g->compute = compute != 0;
    if (bench_gpu_about(device >= 0, device, g->renderer, g->vendor, g->version, sizeof g->renderer, &g->fp64)) {
        fprintf(stderr, "swgl: %s\n", swgl_last_error());
        return 1;
    }
    if (swgl_copy_bandwidth(device >= 0, device, g->compute, &g->ceiling) != SWGL_OK) g->ceiling = 0;
    return 0;
}

void bench_gpu_print(const bench_gpu *g, int with_fp64)
{
    printf("GPU: %s | %s | GL %s", g->renderer, g->vendor, g->version);
    if (with_fp64) printf("; fp64: %s", g->fp64 ? "yes" : "no");
    printf("; passes: %s\n", g->compute ? "compute (gpu-compute: its sims get a GL 4.3 context)" : "fragment");
    printf("copy ceiling: %s %dx%d float4, %.1f GB/s (swgl_copy_bandwidth: bench gpgpu's row of that size)\n",
           g->compute ? "compute copy-cs" : "fragment copy", SWGL_COPY_CEILING_N, SWGL_COPY_CEILING_N, g->ceiling);
}

static char g_cpu_solver[sizeof ((swgl_sim_info *)0)->solver];

/* The OpenMP threads of the fast CPU solver, as its description states them ("cpu (float,
 * AVX-512 x16, up to 16 threads)") for a small case (roe's); 0 where unknown.  Over MPI ranks
 * every rank calls it (rank 0 makes the sim alone; the others get 0). */
int bench_cpu_threads(void)
{
    const char *sets[] = {"run.t_end=0.01", NULL};
    swgl_sim_desc d = {.case_name = "lastra-test1", .set = sets, .backend = "cpu", .mpi_alone = 1};
    swgl_sim *sim = NULL;
    swgl_sim_info info;
    int n = 0;
    if (swgl_sim_create(&d, &sim) == SWGL_OK && swgl_mpi_rank() == 0 && swgl_sim_get_info(sim, &info) == SWGL_OK) {
        snprintf(g_cpu_solver, sizeof g_cpu_solver, "%s", info.solver);
        const char *t = strstr(info.solver, " threads");
        while (t && t > info.solver && t[-1] >= '0' && t[-1] <= '9') t--;
        if (t) n = atoi(t);
    }
    swgl_sim_destroy(sim);
    return n;
}

/* The description bench_cpu_threads read ("cpu (float, AVX-512 x16, up to 16 threads)"), "" before */
const char *bench_cpu_solver(void)
{
    return g_cpu_solver;
}

/* ---- the rule of the timed figures (bench_measure.h) ------------------------------------ */

static void sort3(double *v)
{
    for (int i = 1; i < BENCH_REPEATS; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
}

int bench_measure(bench_run_fn run, void *user, double min_s, bench_figure *f)
{
    bench_sample s;
    memset(&s, 0, sizeof s);
    memset(f, 0, sizeof *f);
    if (run(user, &s) != 0) return 1;   /* the warm-up */
    return bench_measure_warmed(run, user, min_s, f);
}

swgl_status bench_sim_warm(swgl_sim *sim, double t_end)
{
    double t0 = swgl_sim_time(sim), w = 0;
    swgl_status st = SWGL_OK;
    /* Every rank votes each round whether to step on, and all step while any does (the steps
     * of a run over ranks are collective).  A rank that does not step votes no: one of an
     * mpi_alone run other than 0 (its sim is empty: time and t_end 0), or a failed one, so
     * that the ranks leave the loop together. */
    for (;;) {
        const int on = st == SWGL_OK && swgl_sim_time(sim) < t0 + 0.5 * (t_end - t0) && w < BENCH_WARM_S;
        if (swgl_mpi_reduce_max(on) == 0) break;
        if (st == SWGL_OK && (st = swgl_sim_step(sim)) == SWGL_OK) st = swgl_sim_stat(sim, "wall_s", &w);
    }
    return st;
}

swgl_status bench_sim_run(swgl_sim *sim, double t_end, bench_sample *out)
{
    double w0 = 0, n0 = 0, w = 0, n = 0;
    swgl_status st = bench_sim_warm(sim, t_end);
    if (st == SWGL_OK) st = swgl_sim_stat(sim, "wall_s", &w0);
    if (st == SWGL_OK) st = swgl_sim_stat(sim, "steps", &n0);
    if (swgl_sim_time(sim) >= t_end) w0 = n0 = 0;   /* (a run the warm-up took whole: counted whole) */
    if (st == SWGL_OK) st = swgl_sim_run_to(sim, t_end);
    if (st == SWGL_OK) st = swgl_sim_stat(sim, "wall_s", &w);
    if (st == SWGL_OK) st = swgl_sim_stat(sim, "steps", &n);
    if (st == SWGL_OK) {
        out->wall = w - w0;
        out->steps = (long)(n - n0);
        out->run_steps = (long)n;
        out->run_wall = w;
    }
    return st;
}

int bench_measure_warmed(bench_run_fn run, void *user, double min_s, bench_figure *f)
{
    memset(f, 0, sizeof *f);
    f->n = 1;
    bench_sample s;
    for (int m = 0; m < BENCH_REPEATS; m++) {
        double wall = 0, steps = 0, units[BENCH_EXTRA] = {0}, sec[BENCH_EXTRA] = {0};
        do {
            memset(&s, 0, sizeof s);
            if (run(user, &s) != 0) return 1;
            if (!(s.wall > 0) || s.steps <= 0) {
                fprintf(stderr, "swgl bench: a run took %ld steps in %g s of stepping: nothing to time\n", s.steps,
                        s.wall);
                return 1;
            }
            wall += s.wall;
            steps += (double)s.steps;
            f->steps = s.run_steps > 0 ? s.run_steps : s.steps;
            f->runs++;
            f->n = 1 + (s.n < 0 ? 0 : s.n > BENCH_EXTRA ? BENCH_EXTRA : s.n);
            for (int k = 0; k < f->n - 1; k++) units[k] += s.units[k], sec[k] += s.sec[k];
        } while (wall < min_s);
        f->m[0][m] = steps / wall;
        for (int k = 0; k < f->n - 1; k++) f->m[1 + k][m] = sec[k] > 0 ? units[k] / sec[k] : 0;
    }
    for (int k = 0; k < f->n; k++) sort3(f->m[k]);
    f->ok = 1;
    return 0;
}

double bench_median(const bench_figure *f, int k)
{
    return f->ok && k >= 0 && k < f->n ? f->m[k][BENCH_REPEATS / 2] : 0;
}

double bench_spread(const bench_figure *f, int k)
{
    double med = bench_median(f, k);
    return med > 0 ? (f->m[k][BENCH_REPEATS - 1] - f->m[k][0]) / med : 0;
}

double bench_run_s(const bench_figure *f)
{
    double sps = bench_median(f, 0);
    return sps > 0 ? (double)f->steps / sps : -1;
}

void bench_fmt_spread(char *buf, size_t len, double spread)
{
    if (spread < 0) snprintf(buf, len, "-");
    else snprintf(buf, len, spread < 0.1 ? "%.1f%%" : "%.0f%%", 100 * spread);
}

const char *bench_rule(double min_s)
{
    static char rule[64];
    snprintf(rule, sizeof rule, "median of %d x >= %g s", BENCH_REPEATS, min_s);
    return rule;
}

double bench_parse_min_time(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    return end != s && *end == '\0' && v > 0 && v < 1e6 ? v : -1;
}

/* ---- swgl bench gpgpu -------------------------------------------------------------------- */

int bench_gpgpu(int argc, char **argv)
{
    int nmax = 8192, nmin = 512, device = -1;
    double batch = 0.2;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--max") == 0 && i + 1 < argc) nmax = atoi(argv[++i]);
        else if (strcmp(argv[i], "--min") == 0 && i + 1 < argc) nmin = atoi(argv[++i]);
        else if (strcmp(argv[i], "--device") == 0 && i + 1 < argc) device = atoi(argv[++i]);
        else if (strcmp(argv[i], "--batch") == 0 && i + 1 < argc) batch = atof(argv[++i]);
        else {
            printf("usage: swgl bench gpgpu [--min N] [--max N] [--device N] [--batch SECONDS]\n"
                   "  sizes N^2 for N = min, 2 min, ... up to max (default 512 .. 8192, as memory allows);\n"
                   "  each time the median of 5 batches of at least --batch s (default 0.2).  The copy rows\n"
                   "  of %d^2 and the 'ceiling' line after the table are the copy ceiling every bench\n"
                   "  quotes (swgl_copy_bandwidth: batches of 0.2 s whatever --batch).\n", SWGL_COPY_CEILING_N);
            return strcmp(argv[i], "--help") == 0 ? 0 : 2;
        }
    }
    swgl_status st = swgl_bench_layer(stdout, device >= 0, device, nmin, nmax, batch);
    if (st != SWGL_OK) {
        fprintf(stderr, "swgl: %s\n", swgl_last_error());
        return 1;
    }
    return 0;
}
