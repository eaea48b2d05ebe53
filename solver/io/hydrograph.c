/* hydrograph.c — time series files (hydrograph.h). */
#include "hydrograph.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "swgl_series.h"

void hydrograph_free(hydrograph *h)
{
    if (!h) return;
    free(h->t);
    free(h->v);
    memset(h, 0, sizeof *h);
}

double hydrograph_at(const hydrograph *h, double t) { return swgl_series_at(h->n, h->t, h->v, t); }

double hydrograph_mean(const hydrograph *h, double t, double dt)
{
    return swgl_series_mean(h->n, h->t, h->v, t, t + dt);
}

/* A whole field of decimal text (no hex, inf, nan), surrounding blanks allowed. */
static int number(const char *s, size_t n, double *v)
{
    char buf[64];
    while (n && isspace((unsigned char)*s)) s++, n--;
    while (n && isspace((unsigned char)s[n - 1])) n--;
    if (!n || n >= sizeof buf) return 0;
    memcpy(buf, s, n);
    buf[n] = '\0';
    for (size_t i = 0; i < n; i++)
        if (!strchr("0123456789+-.eE", buf[i])) return 0;
    char *end;
    errno = 0;
    *v = strtod(buf, &end);
    return *end == '\0' && end != buf && isfinite(*v);
}

swgl_status hydrograph_read(FILE *f, const char *name, double lo, double hi, const char *what, hydrograph *h)
{
    memset(h, 0, sizeof *h);
    char line[512], sh[64];
    int lineno = 0, header = 0, cap = 0;
    swgl_status st = SWGL_OK;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        size_t n = strlen(line);
        if (n + 1 == sizeof line && line[n - 1] != '\n' && !feof(f)) {
            st = swgl_fail(SWGL_ERR_INPUT, "%s:%d: line longer than %zu bytes: expected \"time, value\"", name,
                           lineno, sizeof line - 2);
            goto fail;
        }
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = '\0';
        size_t b = strspn(line, " \t");
        if (!line[b] || line[b] == '#') continue;
        const char *comma = strchr(line, ',');
        if (!header) {
            double x;
            int named = comma && !strchr(comma + 1, ',') && comma > line + b && comma[1 + strspn(comma + 1, " \t")];
            if (!named || number(line, (size_t)(comma - line), &x)) {
                st = swgl_fail(SWGL_ERR_INPUT, "%s:%d: '%s': expected a header line naming the two columns, "
                               "with units, e.g. time_s,value", name, lineno, swgl_shown(line, sh, sizeof sh));
                goto fail;
            }
            header = 1;
            continue;
        }
        double t, v;
        if (!comma || strchr(comma + 1, ',') || !number(line, (size_t)(comma - line), &t) ||
            !number(comma + 1, strlen(comma + 1), &v)) {
            st = swgl_fail(SWGL_ERR_INPUT, "%s:%d: '%s': expected two numbers \"time, value\" (time in s)", name,
                           lineno, swgl_shown(line, sh, sizeof sh));
            goto fail;
        }
        if (h->n && !(t > h->t[h->n - 1])) {
            st = swgl_fail(SWGL_ERR_INPUT, "%s:%d: time %g is not after the time before it (%g): times must "
                           "increase", name, lineno, t, h->t[h->n - 1]);
            goto fail;
        }
        if (!(v >= lo && v <= hi)) {
            st = swgl_fail(SWGL_ERR_INPUT, "%s:%d: value %g: expected %s", name, lineno, v, what);
            goto fail;
        }
        if (h->n == cap) {
            if (cap >= HYDROGRAPH_MAX_ROWS) {
                st = swgl_fail(SWGL_ERR_INPUT, "%s:%d: more than %d rows", name, lineno, HYDROGRAPH_MAX_ROWS);
                goto fail;
            }
            cap = cap ? 2 * cap : 64;
            double *nt = realloc(h->t, (size_t)cap * sizeof *nt);
            if (nt) h->t = nt;
            double *nv = nt ? realloc(h->v, (size_t)cap * sizeof *nv) : NULL;
            if (nv) h->v = nv;
            if (!nt || !nv) {
                st = swgl_fail(SWGL_ERR_NO_MEMORY, "%s: out of memory", name);
                goto fail;
            }
        }
        h->t[h->n] = t;
        h->v[h->n++] = v;
    }
    if (ferror(f)) {
        st = swgl_fail(SWGL_ERR_IO, "%s: read error", name);
        goto fail;
    }
    if (!header) {
        st = swgl_fail(SWGL_ERR_INPUT, "%s: empty: expected a header line (e.g. time_s,value) and at least two "
                       "rows \"time, value\"", name);
        goto fail;
    }
    if (h->n < 2) {
        st = swgl_fail(SWGL_ERR_INPUT, "%s: %d row%s: expected at least two rows \"time, value\" (a constant is "
                       "written as a number, not a file)", name, h->n, h->n == 1 ? "" : "s");
        goto fail;
    }
    return SWGL_OK;
fail:
    hydrograph_free(h);
    return st;
}

swgl_status hydrograph_load(const char *path, double lo, double hi, const char *what, hydrograph *h)
{
    memset(h, 0, sizeof *h);
    FILE *f = fopen(path, "r");
    if (!f) return swgl_fail(SWGL_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    swgl_status st = hydrograph_read(f, path, lo, hi, what, h);
    fclose(f);
    return st;
}
