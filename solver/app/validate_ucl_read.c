/* validate_ucl_read.c — `swgl validate ucl`: reading the files (validate_ucl.h): the
 * measurements' tables (building_gauges_h.txt, building_gauges_uv.txt,
 * building_vel_tTT.txt: blank- or tab-separated numbers under header lines naming the
 * gauges) and the run's gauges.csv; the messages of every part. */
#include "validate_ucl.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const double ucl_gauge_xy[NG][2] = {{2.65, 1.15}, {2.65, -0.60}, {4.00, 1.15},
                                    {4.00, -0.80}, {5.20, 0.30}, {-1.87, 1.10}};
const int ucl_field_t[NT] = {1, 3, 5, 10, 15};

/* ---- small helpers ------------------------------------------------------------------ */

int ucl_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("swgl validate ucl: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 1;
}

char *ucl_join(const char *dir, const char *name)
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
        ucl_fail("%s: cannot open: %s", path, strerror(errno));
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
        ucl_fail("%s: cannot read%s", path, buf ? "" : " (out of memory)");
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    if (memchr(buf, 0, n)) {
        free(buf);
        ucl_fail("%s: a NUL byte: expected a text file", path);
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

int ucl_read_table(const char *path, int ncol, int min_col, int increasing, table *t)
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
    if (!t->v) return ucl_fail("%s: out of memory", path);
    if (t->nrow == 0) return ucl_fail("%s: no data: expected rows of %d numbers after the header", path, ncol);
    return 0;
}

/* column indices of G1..Gmax in a header line of gauge names (first occurrence, or the
 * second when second is set); 0 when every one was found */
int ucl_gauge_columns(const table *t, int ngauge, int second, int *col)
{
    for (int g = 0; g < ngauge; g++) {
        char name[16];   /* "G" and any int: ngauge is an argument here */
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

void ucl_sim_free(sim_series *s)
{
    free(s->t);
    for (int g = 0; g < NG; g++) { free(s->h[g]); free(s->u[g]); free(s->v[g]); }
}

int ucl_read_gauges_csv(const char *path, sim_series *s)
{
    memset(s, 0, sizeof *s);
    char *buf = slurp(path, NULL);
    if (!buf) return 1;
    char *p = buf, *line = next_line(&p), *f[4 * 64 + 1];
    int lineno = 1;
    if (!line) { free(buf); return ucl_fail("%s: empty: expected a header time_s,G1_h_m,...", path); }
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
                return ucl_fail("%s: out of memory", path);
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
    if (s->n < 2) return ucl_fail("%s: expected at least 2 rows of data (t = 0 and later), found %d", path, s->n);
    if (s->t[0] > 1e-9) return ucl_fail("%s:2: expected the first row at t = 0, found %g", path, s->t[0]);
    return 0;
}
