/* validate_ucl.c — `swgl validate ucl RUNDIR`: a run of the built-in case ucl-building
 * (data/cases/ucl-building.ini) against the measurements of Soares-Frazão & Zech (2007),
 * "Experimental study of dam-break flow against an isolated obstacle", J. Hydraulic
 * Research 45 (Extra Issue), 27-36, in DATA/ucl_isolated_obstacle (its README.md).
 *
 * Gauges (RUNDIR/gauges.csv against building_gauges_h.txt and building_gauges_uv.txt):
 *   - the measured G1-G5 columns start at 0 while the channel held 0.02 m of water, so
 *     they are compared with the simulated depth RISE h(t) - h(0); G6, in the reservoir,
 *     is a depth (0.4 m at t = 0) and is compared with h itself;
 *   - the simulated series is interpolated linearly to the measured times, over
 *     0 .. min(30 s, the run's end);
 *   - per gauge: the RMS error, the peak (G6: the lowest depth) measured and simulated
 *     with their times, the first arrival (the first time the rise exceeds 0.01 m, for G6
 *     the first time the depth has fallen by 0.01 m; interpolated between samples), and
 *     where building_gauges_uv.txt has velocities (G1-G5) the RMS speed and vector
 *     differences of the point velocity.
 * Velocity fields (RUNDIR/{h,qx,qy}_tT.asc against building_vel_tTT.txt, T = 1, 3, 5,
 * 10, 15 s): at each measured point inside the grid whose cell is active and wet (h >
 * 1e-3 m), the model's (u, v) = (qx, qy) / h of that cell.  A time after the run's end is
 * skipped with a note (a short run); a grid missing at a time the run reached is an error.
 *
 * Writes OUTDIR/ucl_gauges.csv (per gauge), ucl_series.csv (t, measured and simulated per
 * gauge), ucl_velocity_tT.csv (x, y, u_meas, v_meas, u_sim, v_sim), ucl_velocity.csv (per
 * time), ucl_gauges.gp and ucl_velocity.gp, and runs gnuplot on the scripts where it is
 * on PATH (ucl_gauges.png, ucl_velocity_tT.png).  Prints markdown tables on stdout.
 * Errors: one line on stderr naming the file (and line) and what was expected; return 1. */
#include "validate.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

#define NG 6                      /* gauges G1..G6 */
#define NT 5                      /* velocity-field times */
#define T_TEST 30.0               /* s, the experiment's duration */
#define RISE 0.01                 /* m, the arrival threshold */
#define WET 1e-3                  /* m, wet cells for the velocity comparison */

static const double gauge_xy[NG][2] = {{2.65, 1.15}, {2.65, -0.60}, {4.00, 1.15},
                                       {4.00, -0.80}, {5.20, 0.30}, {-1.87, 1.10}};
static const int field_t[NT] = {1, 3, 5, 10, 15};

/* ---- small helpers ------------------------------------------------------------------ */

static int fail_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail_msg(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("swgl validate ucl: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 1;
}

/* fail_msg, then free(b) (the message may point into it), then return 1 */
#define FAIL_FREE(b, ...)                 \
    do {                                  \
        int r_ = fail_msg(__VA_ARGS__);   \
        free(b);                          \
        return r_;                        \
    } while (0)

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/%s", dir, name);
    return p;
}

/* a whole file, NUL-terminated; NULL with a message on failure */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fail_msg("%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) break;
        if (n + 1 >= cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) { free(buf); buf = NULL; break; }
            buf = nb;
        }
        size_t r = fread(buf + n, 1, cap - n - 1, f);
        n += r;
        if (r == 0) break;
    }
    int err = ferror(f);
    fclose(f);
    if (!buf || err) {
        fail_msg("%s: cannot read%s", path, buf ? "" : " (out of memory)");
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    if (memchr(buf, 0, n)) {
        free(buf);
        fail_msg("%s: a NUL byte: expected a text file", path);
        return NULL;
    }
    if (len) *len = n;
    return buf;
}

/* the next line of *p (ends at \n, \r\n or a lone \r), NUL-terminated in place; NULL at the end */
static char *next_line(char **p)
{
    char *s = *p;
    if (!*s) return NULL;
    char *e = s + strcspn(s, "\r\n");
    if (*e == '\r' && e[1] == '\n') { *e = 0; *p = e + 2; }
    else if (*e) { *e = 0; *p = e + 1; }
    else *p = e;
    return s;
}

/* splits a line into at most max fields: on sep when sep != 0; otherwise on tabs when
 * the line has one (empty cells kept), else on runs of blanks.  Fields are trimmed. */
static int split(char *line, char sep, char **f, int max)
{
    int n = 0;
    if (!sep && !strchr(line, '\t')) {
        char *s = line;
        while (*s) {
            while (*s == ' ') s++;
            if (!*s) break;
            if (n == max) return max + 1;
            f[n++] = s;
            while (*s && *s != ' ') s++;
            if (*s) *s++ = 0;
        }
        return n;
    }
    if (!sep) sep = '\t';
    char *s = line;
    for (;;) {
        char *e = strchr(s, sep);
        if (e) *e = 0;
        while (*s == ' ') s++;
        char *t = s + strlen(s);
        while (t > s && t[-1] == ' ') *--t = 0;
        if (n == max) {
            if (*s || e) return max + 1;   /* more fields than allowed (trailing empty ones are fine) */
        } else {
            f[n++] = s;
        }
        if (!e) break;
        s = e + 1;
        if (n == max) {                     /* the rest must be empty cells */
            for (const char *c = s; *c; c++)
                if (*c != sep && *c != ' ') return max + 1;
            break;
        }
    }
    return n;
}

/* a number: 1 on success (NaN for an empty cell when empty_ok), 0 when not a number */
static int number(const char *s, double *v, int empty_ok)
{
    if (!*s) {
        *v = NAN;
        return empty_ok;
    }
    char *e;
    errno = 0;
    double d = strtod(s, &e);
    if (e == s || *e || errno == ERANGE) return 0;
    *v = d;
    return 1;
}

/* a table of ncol numbers a row: header lines (the first field not a number) up to the
 * first row of numbers, then every row must be numbers (empty cells NaN; blank lines are
 * skipped); column 0 (time or x) is required.  headers receives the header lines' fields
 * (hdr[line][col], copies) for the caller's checks.  increasing: column 0 is a time that
 * must increase from row to row. */
typedef struct {
    int nrow, ncol;
    double *v;            /* nrow * ncol */
    char hdr[4][16][32];  /* up to 4 header lines of up to 16 fields */
    int nhdr, hdr_n[4];
} table;

static int read_table(const char *path, int ncol, int min_col, int increasing, table *t)
{
    memset(t, 0, sizeof *t);
    t->ncol = ncol;
    char *buf = slurp(path, NULL);
    if (!buf) return 1;
    int cap = 1024, lineno = 0, data = 0;
    t->v = malloc(sizeof(double) * cap * ncol);
    char *p = buf, *line, *f[64];
    while (t->v && (line = next_line(&p))) {
        lineno++;
        char copy[1024];
        snprintf(copy, sizeof copy, "%s", line);
        int n = split(line, 0, f, ncol);
        if (n == 0 || (n == 1 && !*f[0])) continue;   /* blank line */
        double v0;
        if (!data && !number(f[0], &v0, 0)) {            /* a header line */
            if (t->nhdr == 4) {
                FAIL_FREE(buf, "%s:%d: expected a row of %d numbers, found '%.60s'", path, lineno, ncol, copy);
            }
            int m = split(copy, 0, f, 16);
            if (m > 16) m = 16;
            for (int k = 0; k < m; k++) snprintf(t->hdr[t->nhdr][k], 32, "%s", f[k]);
            t->hdr_n[t->nhdr++] = m;
            continue;
        }
        data = 1;
        if (n > ncol) {
            FAIL_FREE(buf, "%s:%d: expected at most %d columns, found more", path, lineno, ncol);
        }
        if (n < min_col) {
            FAIL_FREE(buf, "%s:%d: expected at least %d columns, found %d", path, lineno, min_col, n);
        }
        if (t->nrow == cap) {
            double *nv = realloc(t->v, sizeof(double) * (cap *= 2) * ncol);
            if (!nv) break;
            t->v = nv;
        }
        double *row = t->v + (size_t)t->nrow * ncol;
        for (int k = 0; k < ncol; k++) {
            if (k >= n) { row[k] = NAN; continue; }
            if (!number(f[k], &row[k], k > 0) || (k == 0 && !isfinite(row[k])) || isinf(row[k])) {
                FAIL_FREE(buf, "%s:%d: column %d: expected a number%s, found '%.40s'", path, lineno, k + 1,
                                k > 0 ? " or an empty cell" : "", f[k]);
            }
        }
        if (increasing && t->nrow > 0 && !(row[0] > row[-ncol]))
            FAIL_FREE(buf, "%s:%d: expected increasing times, found %g after %g", path, lineno, row[0], row[-ncol]);
        t->nrow++;
    }
    free(buf);
    if (!t->v) return fail_msg("%s: out of memory", path);
    if (t->nrow == 0) return fail_msg("%s: no data: expected rows of %d numbers after the header", path, ncol);
    return 0;
}

/* column indices of G1..Gmax in a header line of gauge names (first occurrence, or the
 * second when second is set); 0 when every one was found */
static int gauge_columns(const table *t, int ngauge, int second, int *col)
{
    for (int g = 0; g < ngauge; g++) {
        char name[8];
        snprintf(name, sizeof name, "G%d", g + 1);
        col[g] = -1;
        for (int h = 0; h < t->nhdr && col[g] < 0; h++) {
            int seen = 0;
            for (int k = 1; k < t->hdr_n[h]; k++)
                if (strcmp(t->hdr[h][k], name) == 0 && seen++ == second) { col[g] = k; break; }
        }
        if (col[g] < 0) return 1;
    }
    return 0;
}

/* ---- the simulated gauges ----------------------------------------------------------- */

typedef struct {
    int n;
    double *t, *h[NG], *u[NG], *v[NG];
} sim_series;

static void sim_free(sim_series *s)
{
    free(s->t);
    for (int g = 0; g < NG; g++) { free(s->h[g]); free(s->u[g]); free(s->v[g]); }
}

static int read_gauges_csv(const char *path, sim_series *s)
{
    memset(s, 0, sizeof *s);
    char *buf = slurp(path, NULL);
    if (!buf) return 1;
    char *p = buf, *line = next_line(&p), *f[4 * 64 + 1];
    int lineno = 1;
    if (!line) { free(buf); return fail_msg("%s: empty: expected a header time_s,G1_h_m,...", path); }
    int n = split(line, ',', f, 4 * 64 + 1);
    if (n > 4 * 64 + 1 || n < 1 || strcmp(f[0], "time_s") != 0) {
        FAIL_FREE(buf, "%s:1: expected a header 'time_s,NAME_h_m,NAME_eta_m,NAME_u_ms,NAME_v_ms,...'", path);
    }
    int ncol = n, ch[NG], cu[NG], cv[NG];
    for (int g = 0; g < NG; g++) {
        char a[32], b[32], c[32];
        snprintf(a, sizeof a, "G%d_h_m", g + 1);
        snprintf(b, sizeof b, "G%d_u_ms", g + 1);
        snprintf(c, sizeof c, "G%d_v_ms", g + 1);
        ch[g] = cu[g] = cv[g] = -1;
        for (int k = 1; k < n; k++) {
            if (strcmp(f[k], a) == 0) ch[g] = k;
            if (strcmp(f[k], b) == 0) cu[g] = k;
            if (strcmp(f[k], c) == 0) cv[g] = k;
        }
        if (ch[g] < 0 || cu[g] < 0 || cv[g] < 0) {
            FAIL_FREE(buf, "%s:1: expected columns %s, G%d_u_ms, G%d_v_ms (the case's [gauges] G1..G6)", path, a, g + 1,
                            g + 1);
        }
    }
    int cap = 1024;
    s->t = malloc(sizeof(double) * cap);
    for (int g = 0; g < NG; g++) {
        s->h[g] = malloc(sizeof(double) * cap);
        s->u[g] = malloc(sizeof(double) * cap);
        s->v[g] = malloc(sizeof(double) * cap);
    }
    while ((line = next_line(&p))) {
        lineno++;
        if (!*line) continue;
        int m = split(line, ',', f, ncol);
        if (m != ncol) {
            FAIL_FREE(buf, "%s:%d: expected %d comma-separated values (as the header), found %s", path, lineno, ncol,
                            m > ncol ? "more" : "fewer");
        }
        double row[4 * 64 + 1];
        for (int k = 0; k < ncol; k++)
            if (!number(f[k], &row[k], 0)) {
                FAIL_FREE(buf, "%s:%d: column %d: expected a number, found '%.40s'", path, lineno, k + 1, f[k]);
            }
        if (!isfinite(row[0]) || (s->n > 0 && row[0] < s->t[s->n - 1])) {
            FAIL_FREE(buf, "%s:%d: expected increasing times, found %g", path, lineno, row[0]);
        }
        if (s->n == cap) {
            cap *= 2;
            double *nt = realloc(s->t, sizeof(double) * cap);
            if (nt) s->t = nt;
            for (int g = 0; g < NG; g++) {
                double *a = realloc(s->h[g], sizeof(double) * cap), *b = realloc(s->u[g], sizeof(double) * cap),
                       *c = realloc(s->v[g], sizeof(double) * cap);
                if (a) s->h[g] = a;
                if (b) s->u[g] = b;
                if (c) s->v[g] = c;
                if (!a || !b || !c) nt = NULL;
            }
            if (!nt) {
                free(buf);
                return fail_msg("%s: out of memory", path);
            }
        }
        s->t[s->n] = row[0];
        for (int g = 0; g < NG; g++) {
            s->h[g][s->n] = row[ch[g]];
            s->u[g][s->n] = row[cu[g]];
            s->v[g][s->n] = row[cv[g]];
        }
        s->n++;
    }
    free(buf);
    if (s->n < 2) return fail_msg("%s: expected at least 2 rows of data (t = 0 and later), found %d", path, s->n);
    if (s->t[0] > 1e-9) return fail_msg("%s:2: expected the first row at t = 0, found %g", path, s->t[0]);
    return 0;
}

/* the series a (at times t, n samples) at time x, linear; NaN outside */
static double interp(const double *t, const double *a, int n, double x)
{
    if (n < 1 || x < t[0] - 1e-12 || x > t[n - 1] + 1e-12) return NAN;
    int lo = 0, hi = n - 1;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (t[mid] <= x) lo = mid;
        else hi = mid;
    }
    if (hi == lo || t[hi] == t[lo]) return a[lo];
    double w = (x - t[lo]) / (t[hi] - t[lo]);
    if (w < 0) w = 0;
    if (w > 1) w = 1;
    return a[lo] + w * (a[hi] - a[lo]);
}

/* the first time the series (sign * a) exceeds thr, interpolated between samples (NaN
 * samples skipped); NaN when it never does within tmax */
static double first_crossing(const double *t, const double *a, int n, double thr, double sign, double tmax)
{
    double tp = NAN, ap = NAN;
    for (int i = 0; i < n && t[i] <= tmax + 1e-9; i++) {
        if (isnan(a[i])) continue;
        double y = sign * a[i];
        if (y > thr) {
            if (isnan(tp)) return t[i];
            return tp + (thr - ap) / (y - ap) * (t[i] - tp);
        }
        tp = t[i];
        ap = y;
    }
    return NAN;
}

/* ---- the gnuplot scripts ------------------------------------------------------------ */

/* the building's corners b1..b4 in the experiment's frame (the case's geometry) */
static void building_corners(double c[5][2])
{
    const double a = 64.0 * acos(-1.0) / 180.0, x0 = 3.44, y0 = -0.05, L = 0.80, W = 0.40;
    double ux = cos(a), uy = sin(a), vx = -sin(a), vy = cos(a);
    c[0][0] = x0 + W * vx;          c[0][1] = y0 + W * vy;            /* b1 */
    c[1][0] = x0;                   c[1][1] = y0;                     /* b2 */
    c[2][0] = x0 + L * ux;          c[2][1] = y0 + L * uy;            /* b3 */
    c[3][0] = x0 + L * ux + W * vx; c[3][1] = y0 + L * uy + W * vy;   /* b4 */
    c[4][0] = c[0][0];              c[4][1] = c[0][1];
}

static int write_gauges_gp(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) return fail_msg("%s: cannot write: %s", path, strerror(errno));
    fprintf(f, "# ucl_gauges.gp (swgl validate ucl): measured against simulated depth at G1-G6.\n"
               "# Run in this folder: gnuplot ucl_gauges.gp -> ucl_gauges.png\n"
               "set terminal pngcairo size 1100,950 font ',10'\n"
               "set output 'ucl_gauges.png'\n"
               "set datafile separator ','\n"
               "set datafile missing 'nan'\n"
               "set key top right\n"
               "set grid\n"
               "set xrange [0:30]\n"
               "set multiplot layout 3,2 title 'UCL dam break against a building (Soares-Frazao and Zech 2007): "
               "depth at the gauges'\n");
    for (int g = 0; g < NG; g++) {
        fprintf(f, "set title 'G%d (%.2f, %.2f) m'\n", g + 1, gauge_xy[g][0], gauge_xy[g][1]);
        fprintf(f, "set xlabel 't (s)'\nset ylabel '%s'\n", g < 5 ? "depth rise h - h(0) (m)" : "depth h (m)");
        /* ucl_series.csv: t, then per gauge measured, simulated */
        fprintf(f, "plot 'ucl_series.csv' using 1:%d with lines lw 2 lc rgb 'black' title 'measured', \\\n"
                   "     '' using 1:%d with lines lw 2 lc rgb '#d62728' title 'swgl kp'\n",
                2 + 2 * g, 3 + 2 * g);
    }
    fprintf(f, "unset multiplot\n");
    if (fclose(f) != 0) return fail_msg("%s: cannot write: %s", path, strerror(errno));
    return 0;
}

static int write_velocity_gp(const char *path, const int *done)
{
    FILE *f = fopen(path, "w");
    if (!f) return fail_msg("%s: cannot write: %s", path, strerror(errno));
    double c[5][2];
    building_corners(c);
    fprintf(f, "# ucl_velocity.gp (swgl validate ucl): measured and simulated surface velocities.\n"
               "# Run in this folder: gnuplot ucl_velocity.gp -> ucl_velocity_tT.png (data blocks: comma-separated)\n"
               "set terminal pngcairo size 1200,680 font ',10'\n"
               "set datafile separator ','\n"
               "set size ratio -1\n"
               "set xrange [-1:6.5]\nset yrange [-1.8:1.8]\n"
               "set xlabel 'x (m, from the gate)'\nset ylabel 'y (m)'\n"
               "set key outside top center horizontal\n"
               "scale = 0.08   # s: an arrow is the distance covered in 0.08 s\n"
               "$building << EOD\n");
    for (int k = 0; k < 5; k++) fprintf(f, "%.4f,%.4f\n", c[k][0], c[k][1]);
    fprintf(f, "EOD\n"
               "$dam << EOD\n-0.8,1.8\n-0.8,0.5\n0,0.5\n0,1.8\n\n-0.8,-1.8\n-0.8,-0.5\n0,-0.5\n0,-1.8\nEOD\n"
               "$banks << EOD\n-1,1.46\n6.5,1.46\n\n-1,-1.46\n6.5,-1.46\nEOD\n"
               "$gauges << EOD\n");
    for (int g = 0; g < NG; g++) fprintf(f, "%.2f,%.2f,G%d\n", gauge_xy[g][0], gauge_xy[g][1], g + 1);
    fprintf(f, "EOD\n");
    for (int k = 0; k < NT; k++) {
        if (!done[k]) continue;
        fprintf(f, "set output 'ucl_velocity_t%d.png'\n"
                   "set title 'UCL dam break: surface velocity at t = %d s, measured (black) and swgl kp (red); "
                   "every 3rd point, arrow = 0.08 s of travel'\n"
                   "plot $banks using 1:2 with lines dt 2 lc rgb 'gray60' title 'bank toe', \\\n"
                   "     $dam using 1:2 with lines lw 2 lc rgb 'gray30' title 'dam', \\\n"
                   "     $building using 1:2 with filledcurves closed fc rgb 'gray40' title 'building', \\\n"
                   "     'ucl_velocity_t%d.csv' every 3 using 1:2:(scale*$3):(scale*$4) with vectors head size 0.03,20 "
                   "lc rgb 'black' title 'measured', \\\n"
                   "     '' every 3 using 1:2:(scale*$5):(scale*$6) with vectors head size 0.03,20 lc rgb '#d62728' "
                   "title 'simulated', \\\n"
                   "     $gauges using 1:2:3 with labels point pt 7 ps 0.8 lc rgb 'blue' offset 1,0.5 tc rgb 'blue' "
                   "notitle\n",
                field_t[k], field_t[k], field_t[k]);
    }
    if (fclose(f) != 0) return fail_msg("%s: cannot write: %s", path, strerror(errno));
    return 0;
}

/* gnuplot on PATH? */
static int have_gnuplot(void)
{
    const char *path = getenv("PATH");
    if (!path) return 0;
    char dir[4096];
    while (*path) {
        size_t n = strcspn(path, ":");
        snprintf(dir, sizeof dir, "%.*s/gnuplot", (int)(n ? n : 1), n ? path : ".");
        if (access(dir, X_OK) == 0) return 1;
        path += n;
        if (*path == ':') path++;
    }
    return 0;
}

/* out_dir quoted for sh: '...' with ' as '\'' */
static char *sh_quote(const char *s)
{
    size_t n = 3;
    for (const char *c = s; *c; c++) n += *c == '\'' ? 4 : 1;
    char *q = malloc(n), *o = q;
    if (!q) return NULL;
    *o++ = '\'';
    for (const char *c = s; *c; c++) {
        if (*c == '\'') { memcpy(o, "'\\''", 4); o += 4; }
        else *o++ = *c;
    }
    *o++ = '\'';
    *o = 0;
    return q;
}

/* ---- the velocity fields ------------------------------------------------------------ */

typedef struct {
    int n, ndry, nout;
    double rms_speed, mean_meas, mean_sim, rms_vec;
} vel_stats;

static int read_grid(const char *run_dir, const char *name, int T, int *nx, int *ny, double *xll, double *yll,
                     double *dx, double *dy, double **v, unsigned char **nd)
{
    char file[64];
    snprintf(file, sizeof file, "%s_t%d.asc", name, T);
    char *path = join(run_dir, file);
    if (!path) return fail_msg("out of memory");
    swgl_status st = cli_read_grid(path, nx, ny, xll, yll, dx, dy, v, nd);
    if (st != SWGL_OK) {
        fail_msg("%s (expected the run's grid at the output time %d s: the case's output_times)", swgl_last_error(), T);
        free(path);
        return 1;
    }
    free(path);
    return 0;
}

static int velocity_field(const char *run_dir, const char *ucl_dir, const char *out_dir, int T, vel_stats *vs,
                          double *grid_xll, double *grid_yll)
{
    memset(vs, 0, sizeof *vs);
    int nx[3], ny[3], rc = 1;
    double xll[3], yll[3], dx[3], dy[3], *v[3] = {NULL, NULL, NULL};
    unsigned char *nd[3] = {NULL, NULL, NULL};
    const char *names[3] = {"h", "qx", "qy"};
    char file[64];
    table m = {0};
    char *path = NULL, *mpath = NULL;
    FILE *f = NULL;
    for (int k = 0; k < 3; k++)
        if (read_grid(run_dir, names[k], T, &nx[k], &ny[k], &xll[k], &yll[k], &dx[k], &dy[k], &v[k], &nd[k]))
            goto out;
    for (int k = 1; k < 3; k++)
        if (nx[k] != nx[0] || ny[k] != ny[0] || dx[k] != dx[0] || dy[k] != dy[0] || xll[k] != xll[0] ||
            yll[k] != yll[0]) {
            fail_msg("%s/%s_t%d.asc: expected the same grid as h_t%d.asc", run_dir, names[k], T, T);
            goto out;
        }
    *grid_xll = xll[0];
    *grid_yll = yll[0];
    snprintf(file, sizeof file, "building_vel_t%02d.txt", T);
    mpath = join(ucl_dir, file);
    if (!mpath || read_table(mpath, 4, 4, 0, &m)) goto out;
    snprintf(file, sizeof file, "ucl_velocity_t%d.csv", T);
    path = join(out_dir, file);
    if (!path || !(f = fopen(path, "w"))) {
        fail_msg("%s: cannot write: %s", path ? path : file, strerror(errno));
        goto out;
    }
    fprintf(f, "x_m,y_m,u_meas_ms,v_meas_ms,u_sim_ms,v_sim_ms\n");
    double s_sp = 0, s_vec = 0, s_m = 0, s_s = 0;
    for (int r = 0; r < m.nrow; r++) {
        const double *row = m.v + (size_t)r * 4;
        if (!isfinite(row[1]) || !isfinite(row[2]) || !isfinite(row[3])) continue;   /* no measurement */
        double fi = (row[0] - xll[0]) / dx[0], fj = (row[1] - yll[0]) / dy[0];
        if (fi < 0 || fj < 0 || fi >= nx[0] || fj >= ny[0]) { vs->nout++; continue; }
        size_t k = (size_t)(int)fj * nx[0] + (size_t)(int)fi;
        if (nd[0][k]) { vs->nout++; continue; }            /* inactive: the building, the dam */
        double h = v[0][k];
        if (!(h > WET)) { vs->ndry++; continue; }
        double us = v[1][k] / h, vsim = v[2][k] / h;
        double um = row[2], vm = row[3];
        double sm = hypot(um, vm), ss = hypot(us, vsim);
        s_sp += (ss - sm) * (ss - sm);
        s_vec += (us - um) * (us - um) + (vsim - vm) * (vsim - vm);
        s_m += sm;
        s_s += ss;
        vs->n++;
        fprintf(f, "%.3f,%.3f,%.6g,%.6g,%.6g,%.6g\n", row[0], row[1], um, vm, us, vsim);
    }
    if (vs->n > 0) {
        vs->rms_speed = sqrt(s_sp / vs->n);
        vs->rms_vec = sqrt(s_vec / vs->n);
        vs->mean_meas = s_m / vs->n;
        vs->mean_sim = s_s / vs->n;
    } else {
        vs->rms_speed = vs->rms_vec = vs->mean_meas = vs->mean_sim = NAN;
    }
    if (fclose(f) != 0) {
        f = NULL;
        fail_msg("%s: cannot write: %s", path, strerror(errno));
        goto out;
    }
    f = NULL;
    rc = 0;
out:
    if (f) fclose(f);
    free(path);
    free(mpath);
    free(m.v);
    for (int k = 0; k < 3; k++) { free(v[k]); free(nd[k]); }
    return rc;
}

/* ---- the comparison ----------------------------------------------------------------- */

typedef struct {
    int n;                 /* measured samples compared */
    double rms, peak_m, tpeak_m, peak_s, tpeak_s, arr_m, arr_s;
    int uv_n;
    double uv_rms_speed, uv_rms_vec;
} gauge_stats;

int validate_ucl(const char *run_dir, const char *data_dir, const char *out_dir)
{
    int rc = 1;
    char *ucl_dir = NULL, *path = NULL;
    sim_series s = {0};
    table mh = {0}, muv = {0};
    FILE *f = NULL;
    double *mcol = NULL;
    gauge_stats gs[NG];
    vel_stats vs[NT];
    int done[NT] = {0};
    double gxll = NAN, gyll = NAN;

    /* the data folder: DATA/ucl_isolated_obstacle, or DATA itself when it holds the files */
    if (!data_dir) data_dir = ".";
    path = join(data_dir, "building_gauges_h.txt");
    if (path && access(path, R_OK) == 0) ucl_dir = strdup(data_dir);
    else ucl_dir = join(data_dir, "ucl_isolated_obstacle");
    free(path);
    path = NULL;
    if (!ucl_dir) return fail_msg("out of memory");
    if (access(ucl_dir, R_OK | X_OK) != 0) {
        fail_msg("%s: no such folder: expected the UCL measurements (Soares-Frazao & Zech 2007) there; "
                 "give the shared data folder with --data DIR or SWGL_DATA", ucl_dir);
        goto out;
    }
    if (cli_mkdirs(out_dir) != 0) {
        fail_msg("%s: cannot create the output folder: %s", out_dir, strerror(errno));
        goto out;
    }

    /* the run's gauges */
    path = join(run_dir, "gauges.csv");
    if (!path) goto oom;
    if (read_gauges_csv(path, &s)) goto out;
    free(path);
    path = NULL;
    const double t_run = s.t[s.n - 1], tmax = fmin(T_TEST, t_run);

    /* the measured depths: t, G1..G6 */
    path = join(ucl_dir, "building_gauges_h.txt");
    if (!path) goto oom;
    if (read_table(path, 1 + NG, 1 + NG, 1, &mh)) goto out;
    int ch[NG];
    if (gauge_columns(&mh, NG, 0, ch)) {
        fail_msg("%s:1: expected a header line naming the columns G1 .. G6", path);
        goto out;
    }
    free(path);
    path = NULL;
    /* the measured velocities: t, (u, v) at G1..G5 */
    path = join(ucl_dir, "building_gauges_uv.txt");
    if (!path) goto oom;
    if (read_table(path, 1 + 2 * 5, 1, 1, &muv)) goto out;
    int cu[5], cv[5];
    if (gauge_columns(&muv, 5, 0, cu) || gauge_columns(&muv, 5, 1, cv)) {
        fail_msg("%s:1: expected a header line naming the columns G1 G1 .. G5 G5 (u and v of each gauge)", path);
        goto out;
    }
    free(path);
    path = NULL;

    /* per gauge */
    mcol = malloc(sizeof(double) * mh.nrow);
    if (!mcol) goto oom;
    double *tm = malloc(sizeof(double) * mh.nrow), *simv = malloc(sizeof(double) * mh.nrow * NG);
    if (!tm || !simv) { free(tm); free(simv); goto oom; }
    for (int r = 0; r < mh.nrow; r++) tm[r] = mh.v[(size_t)r * mh.ncol];
    for (int g = 0; g < NG; g++) {
        gauge_stats *G = &gs[g];
        memset(G, 0, sizeof *G);
        const int is_depth = g == 5;           /* G6: a depth; G1..G5: the rise over 0.02 m */
        const double h0 = s.h[g][0], base = is_depth ? 0 : h0, sign = is_depth ? -1 : 1;
        double sse = 0;
        G->peak_m = G->peak_s = G->tpeak_m = G->tpeak_s = NAN;
        for (int r = 0; r < mh.nrow; r++) {
            double t = tm[r], mv = mh.v[(size_t)r * mh.ncol + ch[g]];
            mcol[r] = mv;
            double sv = t <= tmax + 1e-9 ? interp(s.t, s.h[g], s.n, t) - base : NAN;
            simv[(size_t)r * NG + g] = sv;
            if (isnan(mv) || t > tmax + 1e-9) continue;
            if (isnan(G->peak_m) || sign * mv > sign * G->peak_m) { G->peak_m = mv; G->tpeak_m = t; }
            if (isnan(sv)) continue;
            sse += (sv - mv) * (sv - mv);
            G->n++;
        }
        G->rms = G->n ? sqrt(sse / G->n) : NAN;
        for (int i = 0; i < s.n && s.t[i] <= tmax + 1e-9; i++) {
            double sv = s.h[g][i] - base;
            if (isnan(G->peak_s) || sign * sv > sign * G->peak_s) { G->peak_s = sv; G->tpeak_s = s.t[i]; }
        }
        /* arrival: the rise (G6: the fall) past RISE */
        if (is_depth) {
            double m0 = NAN;
            for (int r = 0; r < mh.nrow && isnan(m0); r++) m0 = mcol[r];
            /* -(h - h0) > RISE  <=>  -h > RISE - h0 */
            G->arr_m = first_crossing(tm, mcol, mh.nrow, RISE - m0, -1, tmax);
            G->arr_s = first_crossing(s.t, s.h[g], s.n, RISE - h0, -1, tmax);
        } else {
            G->arr_m = first_crossing(tm, mcol, mh.nrow, RISE, 1, tmax);
            double *rise = malloc(sizeof(double) * s.n);
            if (!rise) { free(tm); free(simv); goto oom; }
            for (int i = 0; i < s.n; i++) rise[i] = s.h[g][i] - h0;
            G->arr_s = first_crossing(s.t, rise, s.n, RISE, 1, tmax);
            free(rise);
        }
        /* the point velocities G1..G5 */
        G->uv_rms_speed = G->uv_rms_vec = NAN;
        if (g < 5) {
            double ssp = 0, svec = 0;
            for (int r = 0; r < muv.nrow; r++) {
                const double *row = muv.v + (size_t)r * muv.ncol;
                double t = row[0], um = row[cu[g]], vm = row[cv[g]];
                if (isnan(um) || isnan(vm) || t > tmax + 1e-9) continue;
                double us = interp(s.t, s.u[g], s.n, t), vsm = interp(s.t, s.v[g], s.n, t);
                if (isnan(us) || isnan(vsm)) continue;
                double d = hypot(us, vsm) - hypot(um, vm);
                ssp += d * d;
                svec += (us - um) * (us - um) + (vsm - vm) * (vsm - vm);
                G->uv_n++;
            }
            if (G->uv_n) {
                G->uv_rms_speed = sqrt(ssp / G->uv_n);
                G->uv_rms_vec = sqrt(svec / G->uv_n);
            }
        }
    }

    /* ucl_series.csv */
    path = join(out_dir, "ucl_series.csv");
    if (!path || !(f = fopen(path, "w"))) {
        fail_msg("%s: cannot write: %s", path ? path : "ucl_series.csv", strerror(errno));
        free(tm); free(simv);
        goto out;
    }
    fprintf(f, "time_s");
    for (int g = 0; g < NG; g++)
        fprintf(f, g < 5 ? ",G%d_rise_meas_m,G%d_rise_sim_m" : ",G%d_h_meas_m,G%d_h_sim_m", g + 1, g + 1);
    fprintf(f, "\n");
    for (int r = 0; r < mh.nrow; r++) {
        if (tm[r] > tmax + 1e-9) break;
        fprintf(f, "%g", tm[r]);
        for (int g = 0; g < NG; g++) {
            double mv = mh.v[(size_t)r * mh.ncol + ch[g]], sv = simv[(size_t)r * NG + g];
            if (isnan(mv)) fprintf(f, ",nan");
            else fprintf(f, ",%.5g", mv);
            if (isnan(sv)) fprintf(f, ",nan");
            else fprintf(f, ",%.5g", sv);
        }
        fprintf(f, "\n");
    }
    free(tm);
    free(simv);
    if (fclose(f) != 0) { f = NULL; fail_msg("%s: cannot write: %s", path, strerror(errno)); goto out; }
    f = NULL;
    free(path);

    /* ucl_gauges.csv */
    path = join(out_dir, "ucl_gauges.csv");
    if (!path || !(f = fopen(path, "w"))) {
        fail_msg("%s: cannot write: %s", path ? path : "ucl_gauges.csv", strerror(errno));
        goto out;
    }
    fprintf(f, "gauge,x_m,y_m,quantity,t_end_s,n,rms_m,peak_meas_m,t_peak_meas_s,peak_sim_m,t_peak_sim_s,"
               "arrival_meas_s,arrival_sim_s,uv_n,uv_rms_speed_ms,uv_rms_vector_ms\n");
    for (int g = 0; g < NG; g++) {
        const gauge_stats *G = &gs[g];
        fprintf(f, "G%d,%.2f,%.2f,%s,%g,%d,%.4f,%.4f,%.2f,%.4f,%.2f,%.3f,%.3f,%d,%.4f,%.4f\n", g + 1, gauge_xy[g][0],
                gauge_xy[g][1], g < 5 ? "rise" : "depth", tmax, G->n, G->rms, G->peak_m, G->tpeak_m, G->peak_s,
                G->tpeak_s, G->arr_m, G->arr_s, G->uv_n, G->uv_rms_speed, G->uv_rms_vec);
    }
    if (fclose(f) != 0) { f = NULL; fail_msg("%s: cannot write: %s", path, strerror(errno)); goto out; }
    f = NULL;
    free(path);
    path = NULL;

    /* the velocity fields */
    for (int k = 0; k < NT; k++) {
        if (field_t[k] > t_run + 1e-6) continue;       /* the run ended before */
        if (velocity_field(run_dir, ucl_dir, out_dir, field_t[k], &vs[k], &gxll, &gyll)) goto out;
        done[k] = 1;
    }
    path = join(out_dir, "ucl_velocity.csv");
    if (!path || !(f = fopen(path, "w"))) {
        fail_msg("%s: cannot write: %s", path ? path : "ucl_velocity.csv", strerror(errno));
        goto out;
    }
    fprintf(f, "time_s,n,n_dry_in_model,n_outside_or_inactive,rms_speed_diff_ms,mean_speed_meas_ms,"
               "mean_speed_sim_ms,rms_vector_diff_ms\n");
    for (int k = 0; k < NT; k++)
        if (done[k])
            fprintf(f, "%d,%d,%d,%d,%.4f,%.4f,%.4f,%.4f\n", field_t[k], vs[k].n, vs[k].ndry, vs[k].nout,
                    vs[k].rms_speed, vs[k].mean_meas, vs[k].mean_sim, vs[k].rms_vec);
    if (fclose(f) != 0) { f = NULL; fail_msg("%s: cannot write: %s", path, strerror(errno)); goto out; }
    f = NULL;
    free(path);
    path = NULL;

    /* the tables */
    printf("UCL dam break against an isolated obstacle (Soares-Frazao & Zech 2007): %s against %s\n\n", run_dir,
           ucl_dir);
    printf("Depth at the gauges over 0-%g s (G1-G5: the rise h - h(0) above the 0.02 m layer; G6: the depth;\n"
           "peak: G6's lowest depth; arrival: the rise (G6: the fall) first past %.2f m)\n\n",
           tmax, RISE);
    printf("| gauge | n | RMS (m) | peak meas (m) @ s | peak sim (m) @ s | arrival meas (s) | arrival sim (s) |"
           " u,v n | RMS speed (m/s) | RMS vector (m/s) |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|\n");
    for (int g = 0; g < NG; g++) {
        const gauge_stats *G = &gs[g];
        printf("| G%d | %d | %.4f | %.4f @ %.2f | %.4f @ %.2f | %.2f | %.2f | %d | %.3f | %.3f |\n", g + 1, G->n, G->rms,
               G->peak_m, G->tpeak_m, G->peak_s, G->tpeak_s, G->arr_m, G->arr_s, G->uv_n, G->uv_rms_speed,
               G->uv_rms_vec);
    }
    printf("\nSurface velocity fields (measured points in active cells wet in the model, h > %g m)\n\n", WET);
    printf("| t (s) | points | dry in model | outside/inactive | RMS speed diff (m/s) | mean speed meas (m/s) |"
           " mean speed sim (m/s) | RMS vector diff (m/s) |\n");
    printf("|---|---|---|---|---|---|---|---|\n");
    for (int k = 0; k < NT; k++) {
        if (done[k])
            printf("| %d | %d | %d | %d | %.3f | %.3f | %.3f | %.3f |\n", field_t[k], vs[k].n, vs[k].ndry, vs[k].nout,
                   vs[k].rms_speed, vs[k].mean_meas, vs[k].mean_sim, vs[k].rms_vec);
        else
            printf("| %d | skipped: the run ended at %g s | | | | | | |\n", field_t[k], t_run);
    }
    if (isfinite(gxll) && fabs(gxll) < 1e-9 && fabs(gyll) < 1e-9)
        fprintf(stderr, "swgl validate ucl: note: the run's grids have their corner at (0, 0), not in the "
                        "experiment's frame (the case's xll = -7.55, yll = -1.8): the velocity points are misplaced\n");

    /* gnuplot */
    path = join(out_dir, "ucl_gauges.gp");
    if (!path || write_gauges_gp(path)) goto out;
    free(path);
    path = join(out_dir, "ucl_velocity.gp");
    if (!path || write_velocity_gp(path, done)) goto out;
    free(path);
    path = NULL;
    if (!have_gnuplot()) {
        fprintf(stderr, "swgl validate ucl: note: gnuplot is not on PATH: no PNG plots (the scripts "
                        "ucl_gauges.gp and ucl_velocity.gp are in %s)\n", out_dir);
    } else {
        char *q = sh_quote(out_dir);
        if (!q) goto oom;
        size_t n = strlen(q) + 64;
        char *cmd = malloc(n);
        if (!cmd) { free(q); goto oom; }
        snprintf(cmd, n, "cd %s && gnuplot ucl_gauges.gp ucl_velocity.gp", q);
        fflush(stdout);
        int st = system(cmd);
        free(cmd);
        free(q);
        if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            fail_msg("%s/ucl_gauges.gp, ucl_velocity.gp: gnuplot failed (status %d)", out_dir,
                     st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
            goto out;
        }
        printf("\nplots: %s/ucl_gauges.png, ucl_velocity_tT.png\n", out_dir);
    }
    rc = 0;
    goto out;
oom:
    fail_msg("out of memory");
out:
    if (f) fclose(f);
    free(path);
    free(ucl_dir);
    free(mcol);
    free(mh.v);
    free(muv.v);
    sim_free(&s);
    return rc;
}
