/* validate_malpasset.c — `swgl validate malpasset RUNDIR`: a finished run of the built-in
 * case `malpasset` against the observations of the 1959 flood and of the 1:400 physical
 * model (shared data folder, malpasset/observations_*.csv; docs/validation.md).
 *
 * From the run's flood maps (max_depth.asc, arrival_time.asc, time_of_max_depth.asc) and
 * its bed (eta.asc - h.asc, the scheme's own cell values):
 *   - police points P1-P17 (high-water marks of the real event): the largest water-surface
 *     elevation bed + max_depth "near" each point.  The marks lie on the banks and their
 *     positions are "not very precise" (the CADAM definition), so a point whose cell the
 *     simulated flood never wetted takes the nearest cell that it did wet, within
 *     NEAR_M; the distance is reported, with the range of the largest elevation over the
 *     wetted cells within RANGE_M, which shows how much "near" can matter;
 *   - model gauges 6-14: the largest elevation and the arrival time (the first time the
 *     depth exceeded [output] arrival_depth, 0.01 m by default) by the same rule;
 *   - transformers A-C: the shutdown times against the arrival time (A, in the valley
 *     bottom, shut down when the wave arrived) and the time of the largest depth (B and C
 *     shut down between the two, says the CADAM definition).
 * Writes malpasset_points.csv, malpasset_stats.csv and malpasset.gp (the two panels of
 * Brodtkorb et al. 2011, Figure 8: malpasset_max_wse.png, malpasset_arrival.png, and the
 * police points as malpasset_police.png), runs gnuplot where it is installed, and prints
 * the tables in markdown.
 */
#include "validate.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#define NEAR_M 100.0          /* the farthest a "nearest wetted cell" may be */
#define RANGE_M 50.0          /* the radius of the reported range of elevations */
#define WET_M 0.01            /* a cell counts as wetted when its largest depth exceeds this */
#define MAX_POINTS 64

typedef struct grid {
    int nx, ny;
    double xll, yll, dx, dy;
    double *v;
    unsigned char *nd;
} grid;

typedef struct point {
    char kind[12], id[8];
    double x, y, obs_wse, obs_time, alt_time;
    /* simulated */
    int found;
    double wse, dist, wse_lo, wse_hi, arrival, t_max;
} point;

static int read_grid(const char *dir, const char *name, grid *g)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (cli_read_grid(path, &g->nx, &g->ny, &g->xll, &g->yll, &g->dx, &g->dy, &g->v, &g->nd) != SWGL_OK) {
        char flt[1024];
        snprintf(flt, sizeof flt, "%.*s.flt", (int)(strlen(path) > 4 ? strlen(path) - 4 : 0), path);
        if (access(flt, R_OK) == 0)   /* ([output] grids = auto writes .flt from 2^20 cells) */
            fprintf(stderr, "swgl validate malpasset: %s holds ESRI binary float grids (.flt), which this reads not: run "
                    "the case with --set output.grids=asc\n", dir);
        else
            fprintf(stderr, "swgl validate malpasset: %s (is %s a finished run of the case malpasset with "
                    "[output] maps on?)\n", swgl_last_error(), dir);
        return 0;
    }
    return 1;
}

static int same_grid(const grid *a, const grid *b)
{
    return a->nx == b->nx && a->ny == b->ny && fabs(a->xll - b->xll) < 1e-6 * a->dx &&
           fabs(a->yll - b->yll) < 1e-6 * a->dy && fabs(a->dx - b->dx) < 1e-9 * a->dx &&
           fabs(a->dy - b->dy) < 1e-9 * a->dy;
}

/* A number filling the whole field, finite. */
static int finite_field(const char *f, double *v)
{
    char *end;
    *v = strtod(f, &end);
    while (*end == ' ' || *end == '\t') end++;
    return end != f && *end == '\0' && isfinite(*v);
}

/* The rows of an observations file: comment lines (#) and the header (first field "id")
 * skipped, fields split at commas.  kind: "police", "gauge" or "transformer". */
static int read_points(const char *data, const char *file, const char *kind, point *p, int *n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/malpasset/%s", data, file);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "swgl validate malpasset: %s: cannot open: %s (--data or SWGL_DATA: the shared "
                "data folder)\n", path, strerror(errno));
        return 0;
    }
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0, ok = 1;
    while (ok && getline(&line, &cap, f) >= 0) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0' || strncmp(line, "id,", 3) == 0) continue;
        if (*n == MAX_POINTS) {
            fprintf(stderr, "swgl validate malpasset: %s:%d: more than %d points\n", path, lineno, MAX_POINTS);
            ok = 0;
            break;
        }
        char *field[8] = {0};
        int nf = 0;
        for (char *s = line; nf < 8;) {
            field[nf++] = s;
            char *c = strchr(s, ',');
            if (!c) break;
            *c = '\0';
            s = c + 1;
        }
        point *q = &p[*n];
        memset(q, 0, sizeof *q);
        snprintf(q->kind, sizeof q->kind, "%s", kind);
        double a, b = NAN;
        /* x, y and the first value must be finite numbers; the second value (gauges: the
         * largest level; transformers: another source's time) may be empty; the police
         * points' further columns (bank, George's bed) are not read */
        if (nf < 4 || !finite_field(field[1], &q->x) || !finite_field(field[2], &q->y) || !finite_field(field[3], &a) ||
            (strcmp(kind, "police") != 0 && nf > 4 && field[4][0] && !finite_field(field[4], &b)) || !field[0][0] ||
            strlen(field[0]) + 1 >= sizeof q->id) {
            fprintf(stderr, "swgl validate malpasset: %s:%d: expected id,x_m,y_m,value[,value] with an id of at most "
                    "%zu characters and finite numbers\n", path, lineno, sizeof q->id - 2);
            ok = 0;
            break;
        }
        /* the model's gauges are numbered 6-14: named G6-G14 as in the case's [gauges] */
        snprintf(q->id, sizeof q->id, "%s%s", strcmp(kind, "gauge") == 0 ? "G" : "", field[0]);
        q->obs_wse = q->obs_time = q->alt_time = NAN;
        if (strcmp(kind, "police") == 0) q->obs_wse = a;
        else if (strcmp(kind, "transformer") == 0) {
            q->obs_time = a;
            q->alt_time = b;
        } else {
            q->obs_time = a;
            q->obs_wse = b;
        }
        (*n)++;
    }
    free(line);
    fclose(f);
    return ok;
}

/* The simulated values at a point by the "nearest wetted cell" rule (file comment). */
static void simulate(point *p, const grid *maxd, const grid *bed, const grid *arr, const grid *tmax)
{
    const grid *g = maxd;
    double fi = floor((p->x - g->xll) / g->dx), fj = floor((p->y - g->yll) / g->dy);
    double rr = ceil(NEAR_M / fmin(g->dx, g->dy)) + 1;
    double best = INFINITY;
    p->wse_lo = INFINITY;
    p->wse_hi = -INFINITY;
    p->found = 0;
    p->wse = p->dist = p->arrival = p->t_max = NAN;
    /* the cells within NEAR_M of the point, clipped to the grid (in doubles: a point far
     * outside it, or a tiny cell, must not overflow an int) */
    double i0 = fmax(fi - rr, 0), i1 = fmin(fi + rr, g->nx - 1.0), j0 = fmax(fj - rr, 0), j1 = fmin(fj + rr, g->ny - 1.0);
    if (!(i0 <= i1 && j0 <= j1)) return;
    int ci = (int)fmax(fmin(fi, g->nx), -1.0), cj = (int)fmax(fmin(fj, g->ny), -1.0);
    for (int j = (int)j0; j <= (int)j1; j++)
        for (int i = (int)i0; i <= (int)i1; i++) {
            size_t k = (size_t)j * (size_t)g->nx + (size_t)i;   /* asc_read: j = 0 the southern row */
            if (g->nd[k] || bed->nd[k] || !(g->v[k] > WET_M)) continue;
            double cx = g->xll + (i + 0.5) * g->dx, cy = g->yll + (j + 0.5) * g->dy;
            double d = (i == ci && j == cj) ? 0 : hypot(cx - p->x, cy - p->y);
            if (d > NEAR_M) continue;
            double wse = bed->v[k] + g->v[k];
            if (d <= RANGE_M) {
                p->wse_lo = fmin(p->wse_lo, wse);
                p->wse_hi = fmax(p->wse_hi, wse);
            }
            if (d < best) {
                best = d;
                p->found = 1;
                p->wse = wse;
                p->dist = d;
                p->arrival = arr->nd[k] ? NAN : arr->v[k];
                p->t_max = tmax->nd[k] ? NAN : tmax->v[k];
            }
        }
}

typedef struct stats {
    int n;
    double bias, mae, rms, worst;
    char worst_id[8];
} stats;

static void add_stat(stats *s, const char *id, double e)
{
    if (!isfinite(e)) return;
    s->n++;
    s->bias += e;
    s->mae += fabs(e);
    s->rms += e * e;
    if (fabs(e) > fabs(s->worst) || s->n == 1) {
        s->worst = e;
        snprintf(s->worst_id, sizeof s->worst_id, "%s", id);
    }
}

static void end_stat(stats *s)
{
    if (s->n == 0) return;
    s->bias /= s->n;
    s->mae /= s->n;
    s->rms = sqrt(s->rms / s->n);
}

static void print_stat(FILE *f, const char *what, const char *unit, const stats *s)
{
    printf("| %s | %d | %+.2f | %.2f | %.2f | %+.2f (%s) |\n", what, s->n, s->bias, s->mae, s->rms, s->worst, s->worst_id);
    fprintf(f, "%s,%s,%d,%.4f,%.4f,%.4f,%.4f,%s\n", what, unit, s->n, s->bias, s->mae, s->rms, s->worst, s->worst_id);
}

static const char *gnuplot_script =
    "# Malpasset: simulated against observed (Brodtkorb et al. 2011, Figure 8); run in this folder\n"
    "set datafile separator ','\n"
    "set terminal pngcairo size 720,480 font 'sans,11'\n"
    "set key top right\n"
    "set grid\n"
    "set offsets 0.5, 0.5, 0, 0\n"
    "set xtics 1\n"
    "set xlabel 'gauge of the 1:400 model, in the order of its observation file (1 = gauge 6)'\n"
    "set output 'malpasset_max_wse.png'\n"
    "set ylabel 'largest water-surface elevation (m)'\n"
    "set title 'Malpasset: largest water level at the model gauges'\n"
    "plot 'malpasset_points.csv' skip 1 using ($1==2 ? $2 : 1/0):7 with linespoints lw 2 pt 7 title 'physical model', \\\n"
    "     '' skip 1 using ($1==2 ? $2 : 1/0):8 with points pt 6 ps 1.6 lw 2 title 'swgl kp'\n"
    "set output 'malpasset_arrival.png'\n"
    "set ylabel 'arrival time (s)'\n"
    "set key top left\n"
    "set title 'Malpasset: arrival of the wave at the model gauges'\n"
    "plot 'malpasset_points.csv' skip 1 using ($1==2 ? $2 : 1/0):12 with linespoints lw 2 pt 7 title 'physical model', \\\n"
    "     '' skip 1 using ($1==2 ? $2 : 1/0):13 with points pt 6 ps 1.6 lw 2 title 'swgl kp'\n"
    "set output 'malpasset_police.png'\n"
    "set xlabel 'police point, in the order of its observation file (1 = P1)'\n"
    "set ylabel 'largest water-surface elevation (m)'\n"
    "set key top right\n"
    "set title 'Malpasset: high-water marks of 1959 (police survey)'\n"
    "plot 'malpasset_points.csv' skip 1 using ($1==1 ? $2 : 1/0):7 with linespoints lw 2 pt 7 title 'observed', \\\n"
    "     '' skip 1 using ($1==1 ? $2 : 1/0):8:10:11 with yerrorbars pt 6 ps 1.6 lw 2 title 'swgl kp (bar: range within 50 m)'\n";

int validate_malpasset(const char *run_dir, const char *data_dir, const char *out_dir)
{
    grid maxd = {0}, arr = {0}, tmax = {0}, h = {0}, eta = {0};
    point p[MAX_POINTS];
    int n = 0, rc = 1;
    if (!read_grid(run_dir, "max_depth.asc", &maxd) || !read_grid(run_dir, "arrival_time.asc", &arr) ||
        !read_grid(run_dir, "time_of_max_depth.asc", &tmax) || !read_grid(run_dir, "h.asc", &h) ||
        !read_grid(run_dir, "eta.asc", &eta))
        goto done;
    if (!same_grid(&maxd, &arr) || !same_grid(&maxd, &tmax) || !same_grid(&maxd, &h) || !same_grid(&maxd, &eta)) {
        fprintf(stderr, "swgl validate malpasset: the grids in %s are not all on one grid\n", run_dir);
        goto done;
    }
    if (maxd.dx < 1e-3 * NEAR_M || maxd.dy < 1e-3 * NEAR_M) {
        fprintf(stderr, "swgl validate malpasset: %s/max_depth.asc: cells of %g x %g m: expected the case's "
                "(metres, not millimetres)\n", run_dir, maxd.dx, maxd.dy);
        goto done;
    }
    if (cli_mkdirs(out_dir) != 0) {
        fprintf(stderr, "swgl validate malpasset: %s: cannot create the folder: %s\n", out_dir, strerror(errno));
        goto done;
    }
    /* the bed: eta - h, the scheme's own cell values */
    for (size_t k = 0; k < (size_t)h.nx * (size_t)h.ny; k++) {
        eta.nd[k] |= h.nd[k];
        if (!eta.nd[k]) eta.v[k] -= h.v[k];
    }
    int np = 0, ng, nt;
    if (!read_points(data_dir, "observations_police_points.csv", "police", p, &n)) goto done;
    np = n;
    if (!read_points(data_dir, "observations_model_gauges.csv", "gauge", p, &n)) goto done;
    ng = n - np;
    if (!read_points(data_dir, "observations_transformers.csv", "transformer", p, &n)) goto done;
    nt = n - np - ng;
    if (np < 1 || ng < 1 || nt < 1) {
        fprintf(stderr, "swgl validate malpasset: expected police points, model gauges and transformers in "
                "%s/malpasset, found %d, %d, %d\n", data_dir, np, ng, nt);
        goto done;
    }
    for (int k = 0; k < n; k++) simulate(&p[k], &maxd, &eta, &arr, &tmax);

    char path[1024];
    snprintf(path, sizeof path, "%s/malpasset_points.csv", out_dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "swgl validate malpasset: %s: cannot write: %s\n", path, strerror(errno));
        goto done;
    }
    /* kind: 1 police, 2 gauge, 3 transformer (a number, for gnuplot) */
    fprintf(f, "kind,seq,id,x_m,y_m,cell_distance_m,observed_max_wse_m,simulated_max_wse_m,error_m,"
            "simulated_min50_m,simulated_max50_m,observed_time_s,simulated_arrival_s,simulated_time_of_max_s\n");
    for (int k = 0; k < n; k++) {
        int kind = p[k].kind[0] == 'p' ? 1 : p[k].kind[0] == 'g' ? 2 : 3;
        int seq = kind == 1 ? k + 1 : kind == 2 ? k - np + 1 : k - np - ng + 1;
        fprintf(f, "%d,%d,%s,%.1f,%.1f,%.1f,%.2f,%.3f,%.3f,%.3f,%.3f,%.1f,%.1f,%.1f\n", kind, seq, p[k].id, p[k].x, p[k].y,
                p[k].dist, p[k].obs_wse, p[k].wse, p[k].wse - p[k].obs_wse, isfinite(p[k].wse_lo) ? p[k].wse_lo : NAN,
                isfinite(p[k].wse_hi) ? p[k].wse_hi : NAN, p[k].obs_time, p[k].arrival, p[k].t_max);
    }
    if (fclose(f) != 0) {
        fprintf(stderr, "swgl validate malpasset: %s: write failed\n", path);
        goto done;
    }

    printf("Malpasset: %s against the observations in %s/malpasset (grid %d x %d cells of %g m)\n\n", run_dir,
           data_dir, maxd.nx, maxd.ny, maxd.dx);
    printf("| police point | observed max WSE (m) | simulated (m) | error (m) | cell used: distance (m) | "
           "range within %.0f m (m) |\n|---|---|---|---|---|---|\n", RANGE_M);
    for (int k = 0; k < np; k++) {
        if (!p[k].found) {
            printf("| %s | %.2f | dry within %.0f m | | | |\n", p[k].id, p[k].obs_wse, NEAR_M);
            continue;
        }
        char range[48] = "–";
        if (isfinite(p[k].wse_lo)) snprintf(range, sizeof range, "%.2f – %.2f", p[k].wse_lo, p[k].wse_hi);
        printf("| %s | %.2f | %.2f | %+.2f | %.0f | %s |\n", p[k].id, p[k].obs_wse, p[k].wse,
               p[k].wse - p[k].obs_wse, p[k].dist, range);
    }
    printf("\n| model gauge | observed max WSE (m) | simulated (m) | error (m) | observed arrival (s) | "
           "simulated (s) | error (s) |\n|---|---|---|---|---|---|---|\n");
    for (int k = np; k < np + ng; k++)
        printf("| %s | %.1f | %.2f | %+.2f | %.1f | %.1f | %+.1f |\n", p[k].id, p[k].obs_wse, p[k].wse,
               p[k].wse - p[k].obs_wse, p[k].obs_time, p[k].arrival, p[k].arrival - p[k].obs_time);
    printf("\n| transformer | shutdown (s) | simulated arrival (s) | simulated time of the largest depth (s) |\n"
           "|---|---|---|---|\n");
    for (int k = np + ng; k < n; k++) {
        char alt[32] = "";
        if (isfinite(p[k].alt_time)) snprintf(alt, sizeof alt, " (TUFLOW: %.0f)", p[k].alt_time);
        printf("| %s | %.0f%s | %.0f | %.0f |\n", p[k].id, p[k].obs_time, alt, p[k].arrival, p[k].t_max);
    }

    stats s_police = {0}, s_gwse = {0}, s_garr = {0}, s_garr_rel = {0}, s_tr = {0};
    for (int k = 0; k < np; k++) add_stat(&s_police, p[k].id, p[k].wse - p[k].obs_wse);
    for (int k = np; k < np + ng; k++) {
        add_stat(&s_gwse, p[k].id, p[k].wse - p[k].obs_wse);
        add_stat(&s_garr, p[k].id, p[k].arrival - p[k].obs_time);
        add_stat(&s_garr_rel, p[k].id, 100 * (p[k].arrival - p[k].obs_time) / p[k].obs_time);
    }
    for (int k = np + ng; k < n; k++) add_stat(&s_tr, p[k].id, p[k].arrival - p[k].obs_time);
    end_stat(&s_police);
    end_stat(&s_gwse);
    end_stat(&s_garr);
    end_stat(&s_garr_rel);
    end_stat(&s_tr);
    snprintf(path, sizeof path, "%s/malpasset_stats.csv", out_dir);
    if (!(f = fopen(path, "w"))) {
        fprintf(stderr, "swgl validate malpasset: %s: cannot write: %s\n", path, strerror(errno));
        goto done;
    }
    fprintf(f, "quantity,unit,n,mean_error,mean_abs_error,rms_error,largest_error,at\n");
    printf("\n| quantity | n | mean error | mean abs. error | RMS | largest error |\n|---|---|---|---|---|---|\n");
    print_stat(f, "police points: max WSE (m)", "m", &s_police);
    print_stat(f, "model gauges: max WSE (m)", "m", &s_gwse);
    print_stat(f, "model gauges: arrival (s)", "s", &s_garr);
    print_stat(f, "model gauges: arrival (%)", "%", &s_garr_rel);
    print_stat(f, "transformers: arrival - shutdown (s)", "s", &s_tr);
    int missing = 0;
    for (int k = 0; k < n; k++) missing += !p[k].found;
    if (missing) printf("\n%d point(s) have no wetted cell within %.0f m: their rows hold nan\n", missing, NEAR_M);
    if (fclose(f) != 0) {
        fprintf(stderr, "swgl validate malpasset: %s: write failed\n", path);
        goto done;
    }
    snprintf(path, sizeof path, "%s/malpasset.gp", out_dir);
    if (!(f = fopen(path, "w")) || fputs(gnuplot_script, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "swgl validate malpasset: %s: cannot write\n", path);
        goto done;
    }
    rc = validate_gnuplot(out_dir, "malpasset.gp", NULL, NULL);
done:
    free(maxd.v), free(maxd.nd), free(arr.v), free(arr.nd), free(tmax.v), free(tmax.nd);
    free(h.v), free(h.nd), free(eta.v), free(eta.nd);
    return rc;
}
