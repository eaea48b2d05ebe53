/* mesh.c — triangle meshes (TIN) from two CSV files, sampled on a regular grid (mesh.h).
 *
 * Reading: each file line by line through getline (any length; memory follows the
 * longest line), fields split in place; numbers by strtod over the whole field (decimal
 * text only: no hex, inf or nan).  Node ids become indices through a sorted copy of
 * (id, index) and a binary search, so an id of 10^15 costs no more than an id of 1.
 *
 * Sampling: triangle by triangle, row by row of the grid points that its bounding box
 * holds, over the x-span of the triangle in that row (one point of slack each side);
 * each candidate point is tested with barycentric coordinates relative to the triangle's
 * first vertex, so map coordinates of 10^4-10^6 m keep their precision.  The cost is
 * about the triangles' area in grid points plus their rows, plus nx * ny.
 */
#include "mesh.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bounds of a node's values (m): beyond them a file is surely wrong (units, a swapped
 * column) and the sampling's precision argument no longer holds. */
#define MESH_MAX_COORD 1e9   /* |x|, |y| */
#define MESH_MAX_Z 1e6       /* |z| */
#define MESH_MAX_ID 9007199254740992.0   /* 2^53: ids are exact in a double */

void mesh_free(mesh *m)
{
    if (!m) return;
    free(m->x);
    free(m->y);
    free(m->z);
    free(m->tri);
    memset(m, 0, sizeof *m);
}

/* ---- fields of a line ---------------------------------------------------------------- */

#define MAX_FIELDS 8   /* fields beyond these are counted, not kept */

typedef struct fields {
    int n;                  /* fields on the line */
    char *f[MAX_FIELDS];    /* the first ones, NUL-terminated in the line's buffer */
} fields;

static int is_blank(char c) { return c == ' ' || c == '\t'; }

/* Splits line (modified in place) at commas, semicolons, tabs and spaces: blanks around
 * a comma or semicolon belong to it, so "1, 2" has two fields and "1,,2" three (the
 * middle one empty). */
static void split(char *s, fields *fl)
{
    fl->n = 0;
    while (is_blank(*s)) s++;
    if (!*s) return;
    for (;;) {
        char *start = s;
        while (*s && !is_blank(*s) && *s != ',' && *s != ';') s++;
        char *end = s;
        while (is_blank(*s)) s++;
        int sep = *s == ',' || *s == ';';
        if (sep) {
            s++;
            while (is_blank(*s)) s++;
        }
        if (fl->n < MAX_FIELDS) fl->f[fl->n] = start;
        fl->n++;
        *end = '\0';   /* after the scan: end may be where the separator was */
        if (!*s && !sep) return;
        if (!*s) {     /* a trailing separator: one empty field after it */
            if (fl->n < MAX_FIELDS) fl->f[fl->n] = s;
            fl->n++;
            return;
        }
    }
}

/* A whole field of decimal text (no hex, inf, nan) that is a finite double. */
static int number(const char *s, double *v)
{
    if (!*s) return 0;
    for (const char *p = s; *p; p++)
        if (!strchr("0123456789+-.eE", *p)) return 0;
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return *end == '\0' && end != s && isfinite(*v);
}

/* An id: a number that is an integer in [0, 2^53]. */
static int id_value(const char *s, double *v)
{
    return number(s, v) && *v >= 0 && *v <= MESH_MAX_ID && *v == floor(*v);
}

/* ---- reading a file -------------------------------------------------------------------- */

/* One file's data lines handed to a callback, one at a time, with comments, blank lines
 * and a header (a first line whose first field is not a number) skipped. */
typedef struct reader {
    const char *path;
    FILE *f;
    char *line;
    size_t cap;
    long lineno;
    int seen_data;   /* a data or header line was seen (no header after it) */
} reader;

/* The next data line's fields: 1, 0 at the end, -1 on a failure (message set). */
static int next_line(reader *r, fields *fl, swgl_status *st)
{
    for (;;) {
        errno = 0;
        ssize_t n = getline(&r->line, &r->cap, r->f);
        if (n < 0) {
            if (ferror(r->f)) {
                *st = errno == ENOMEM ? swgl_fail(SWGL_ERR_NO_MEMORY, "%s:%ld: out of memory", r->path, r->lineno + 1)
                                      : swgl_fail(SWGL_ERR_IO, "%s:%ld: read error: %s", r->path, r->lineno + 1,
                                                  strerror(errno ? errno : EIO));
                return -1;
            }
            return 0;
        }
        r->lineno++;
        char *s = r->line;
        if (memchr(s, '\0', (size_t)n)) {
            *st = swgl_fail(SWGL_ERR_INPUT, "%s:%ld: a NUL byte in the line (expected text)", r->path, r->lineno);
            return -1;
        }
        while (n && (s[n - 1] == '\n' || s[n - 1] == '\r')) s[--n] = '\0';
        if (r->lineno == 1 && (unsigned char)s[0] == 0xef && (unsigned char)s[1] == 0xbb &&
            (unsigned char)s[2] == 0xbf)
            s += 3;   /* a UTF-8 byte order mark */
        while (is_blank(*s)) s++;
        if (!*s || *s == '#') continue;
        split(s, fl);
        if (!r->seen_data) {
            r->seen_data = 1;
            double v;
            if (!number(fl->f[0], &v)) continue;   /* the header */
        }
        return 1;
    }
}

/* The binary search of a node id: its index, or -1. */
typedef struct id_index {
    double id;
    long index;
} id_index;

static int cmp_id(const void *a, const void *b)
{
    const id_index *p = a, *q = b;
    if (p->id != q->id) return p->id < q->id ? -1 : 1;
    return p->index < q->index ? -1 : p->index > q->index;
}

static long find_id(const id_index *ids, long n, double id)
{
    long lo = 0, hi = n;
    while (lo < hi) {
        long mid = lo + (hi - lo) / 2;
        if (ids[mid].id < id) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && ids[lo].id == id ? ids[lo].index : -1;
}

/* Grows *p (n elements of size sz) to hold at least need; 0 on out of memory. */
static int grow(void **p, long *cap, long need, size_t sz, long max)
{
    if (need <= *cap) return 1;
    long c = *cap ? *cap : 1024;
    while (c < need) c = c > max / 2 ? max : 2 * c;
    void *q = realloc(*p, (size_t)c * sz);
    if (!q) return 0;
    *p = q;
    *cap = c;
    return 1;
}

static swgl_status read_nodes(const char *path, int column, mesh *m, id_index **ids_out)
{
    static const char *col[] = {"id", "x", "y", "z"};
    const int zc = column - 1;   /* the field that holds the value (3: z) */
    swgl_status st = SWGL_OK;
    reader r = {.path = path};
    id_index *ids = NULL;
    long *lines = NULL;
    long cap_x = 0, cap_y = 0, cap_z = 0, cap_i = 0, cap_l = 0;
    char sh[64];
    r.f = fopen(path, "r");
    if (!r.f) return swgl_fail(SWGL_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    fields fl;
    int got;
    while ((got = next_line(&r, &fl, &st)) > 0) {
        if (fl.n < column) {
            if (column == 4)
                st = swgl_fail(SWGL_ERR_INPUT, "%s:%ld: expected 4 fields (id, x, y, z), found %d", path, r.lineno,
                               fl.n);
            else
                st = swgl_fail(SWGL_ERR_INPUT, "%s:%ld: expected %d fields (id, x, y, ..., the value in column %d), "
                               "found %d", path, r.lineno, column, column, fl.n);
            goto fail;
        }
        double v[4];
        for (int c = 0; c < 4; c++) {
            int fc = c == 3 ? zc : c;   /* the field read */
            const char *name = c < 3 ? col[c] : column == 4 ? "z" : "value";
            int ok = c == 0 ? id_value(fl.f[fc], &v[c]) : number(fl.f[fc], &v[c]);
            if (!ok) {
                st = swgl_fail(SWGL_ERR_INPUT, "%s:%ld: column %d (%s): '%s': expected %s", path, r.lineno, fc + 1,
                               name, swgl_shown(fl.f[fc], sh, sizeof sh),
                               c == 0 ? "an integer id >= 0 (at most 2^53)" : "a finite decimal number (m)");
                goto fail;
            }
            double lim = c == 0 ? INFINITY : c == 3 ? MESH_MAX_Z : MESH_MAX_COORD;
            if (fabs(v[c]) > lim) {
                st = swgl_fail(SWGL_ERR_INPUT, "%s:%ld: column %d (%s): %g: expected a value within +-%g m", path,
                               r.lineno, fc + 1, name, v[c], lim);
                goto fail;
            }
        }
        long k = m->n_nodes;
        if (k >= MESH_MAX_NODES) {
            st = swgl_fail(SWGL_ERR_INPUT, "%s:%ld: more than %ld nodes", path, r.lineno, (long)MESH_MAX_NODES);
            goto fail;
        }
        if (!grow((void **)&m->x, &cap_x, k + 1, sizeof *m->x, MESH_MAX_NODES) ||
            !grow((void **)&m->y, &cap_y, k + 1, sizeof *m->y, MESH_MAX_NODES) ||
            !grow((void **)&m->z, &cap_z, k + 1, sizeof *m->z, MESH_MAX_NODES) ||
            !grow((void **)&ids, &cap_i, k + 1, sizeof *ids, MESH_MAX_NODES) ||
            !grow((void **)&lines, &cap_l, k + 1, sizeof *lines, MESH_MAX_NODES)) {
            st = swgl_fail(SWGL_ERR_NO_MEMORY, "%s:%ld: out of memory", path, r.lineno);
            goto fail;
        }
        ids[k] = (id_index){v[0], k};
        lines[k] = r.lineno;
        m->x[k] = v[1];
        m->y[k] = v[2];
        m->z[k] = v[3];
        m->n_nodes = k + 1;
    }
    if (got < 0) goto fail;
    if (m->n_nodes == 0) {
        st = swgl_fail(SWGL_ERR_INPUT, "%s: no nodes: expected lines \"id, x, y, z\"", path);
        goto fail;
    }
    qsort(ids, (size_t)m->n_nodes, sizeof *ids, cmp_id);
    for (long k = 1; k < m->n_nodes; k++)
        if (ids[k].id == ids[k - 1].id) {
            /* sorted by (id, index): k - 1 is the first occurrence, k the second */
            st = swgl_fail(SWGL_ERR_INPUT, "%s:%ld: node %.0f again (first at line %ld): expected each id once",
                           path, lines[ids[k].index], ids[k].id, lines[ids[k - 1].index]);
            goto fail;
        }
    m->xmin = m->xmax = m->x[0];
    m->ymin = m->ymax = m->y[0];
    for (long k = 1; k < m->n_nodes; k++) {
        m->xmin = fmin(m->xmin, m->x[k]), m->xmax = fmax(m->xmax, m->x[k]);
        m->ymin = fmin(m->ymin, m->y[k]), m->ymax = fmax(m->ymax, m->y[k]);
    }
    free(r.line);
    fclose(r.f);
    free(lines);
    *ids_out = ids;
    return SWGL_OK;
fail:
    free(r.line);
    fclose(r.f);
    free(ids);
    free(lines);
    return st;
}

static swgl_status read_triangles(const char *path, const char *nodes_path, const id_index *ids, mesh *m)
{
    swgl_status st = SWGL_OK;
    reader r = {.path = path};
    long cap = 0;
    char sh[64];
    r.f = fopen(path, "r");
    if (!r.f) return swgl_fail(SWGL_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    fields fl;
    int got;
    while ((got = next_line(&r, &fl, &st)) > 0) {
        if (fl.n != 4) {
            st = swgl_fail(SWGL_ERR_INPUT, "%s:%ld: expected 4 fields (id, n1, n2, n3), found %d", path, r.lineno,
                           fl.n);
            goto fail;
        }
        long t = m->n_tri, idx[3];
        for (int c = 0; c < 4; c++) {
            double v;
            if (!id_value(fl.f[c], &v)) {
                st = swgl_fail(SWGL_ERR_INPUT, "%s:%ld: column %d (%s): '%s': expected an integer id >= 0 (at most "
                               "2^53)", path, r.lineno, c + 1, c == 0 ? "id" : c == 1 ? "n1" : c == 2 ? "n2" : "n3",
                               swgl_shown(fl.f[c], sh, sizeof sh));
                goto fail;
            }
            if (c == 0) continue;
            idx[c - 1] = find_id(ids, m->n_nodes, v);
            if (idx[c - 1] < 0) {
                st = swgl_fail(SWGL_ERR_INPUT, "%s:%ld: column %d: node %.0f is not in %s", path, r.lineno, c + 1,
                               v, nodes_path);
                goto fail;
            }
        }
        if (t >= MESH_MAX_TRIANGLES) {
            st = swgl_fail(SWGL_ERR_INPUT, "%s:%ld: more than %ld triangles", path, r.lineno,
                           (long)MESH_MAX_TRIANGLES);
            goto fail;
        }
        if (!grow((void **)&m->tri, &cap, 3 * (t + 1), sizeof *m->tri, 3 * MESH_MAX_TRIANGLES)) {
            st = swgl_fail(SWGL_ERR_NO_MEMORY, "%s:%ld: out of memory", path, r.lineno);
            goto fail;
        }
        memcpy(m->tri + 3 * t, idx, sizeof idx);
        m->n_tri = t + 1;
    }
    if (got < 0) goto fail;
    if (m->n_tri == 0) {
        st = swgl_fail(SWGL_ERR_INPUT, "%s: no triangles: expected lines \"id, n1, n2, n3\"", path);
        goto fail;
    }
    free(r.line);
    fclose(r.f);
    return SWGL_OK;
fail:
    free(r.line);
    fclose(r.f);
    return st;
}

swgl_status mesh_read(const char *nodes_path, const char *triangles_path, mesh *m)
{
    return mesh_read_column(nodes_path, triangles_path, 4, m);
}

swgl_status mesh_read_column(const char *nodes_path, const char *triangles_path, int column, mesh *m)
{
    memset(m, 0, sizeof *m);
    if (!nodes_path || !triangles_path) return swgl_fail(SWGL_ERR_ARG, "mesh_read: no path");
    if (column < 4 || column > MESH_MAX_COLUMN)
        return swgl_fail(SWGL_ERR_ARG, "%s: value column %d: expected 4 (z) to %d", nodes_path, column,
                         MESH_MAX_COLUMN);
    id_index *ids = NULL;
    swgl_status st = read_nodes(nodes_path, column, m, &ids);
    if (st == SWGL_OK) st = read_triangles(triangles_path, nodes_path, ids, m);
    free(ids);
    if (st != SWGL_OK) mesh_free(m);
    return st;
}

/* ---- sampling -------------------------------------------------------------------------- */

/* The range [lo, hi] of grid indices k (points p0 + k d, 0 <= k < n) that may hold a
 * coordinate in [a, b], with one point of slack each side; 0 when none. */
static int index_range(double a, double b, double p0, double d, int n, int *lo, int *hi)
{
    double l = floor((a - p0) / d) - 1, h = ceil((b - p0) / d) + 1;
    if (!(l <= h)) return 0;            /* NaN */
    if (h < 0 || l > n - 1) return 0;
    *lo = l < 0 ? 0 : (int)l;
    *hi = h > n - 1 ? n - 1 : (int)h;
    return *lo <= *hi;
}

long mesh_sample(const mesh *m, double x0, double y0, double dx, double dy, int nx, int ny,
                 double *out, unsigned char *nodata)
{
    if (nx <= 0 || ny <= 0) return 0;
    size_t n = (size_t)nx * (size_t)ny;
    for (size_t k = 0; k < n; k++) out[k] = NAN;
    if (nodata) memset(nodata, 1, n);
    if (!m || !(dx > 0) || !(dy > 0) || !isfinite(dx) || !isfinite(dy) || !isfinite(x0) || !isfinite(y0))
        return 0;
    long inside = 0;
    for (long t = 0; t < m->n_tri; t++) {
        const long *v = m->tri + 3 * t;
        double xa = m->x[v[0]], ya = m->y[v[0]], za = m->z[v[0]];
        double ex1 = m->x[v[1]] - xa, ey1 = m->y[v[1]] - ya, ez1 = m->z[v[1]] - za;
        double ex2 = m->x[v[2]] - xa, ey2 = m->y[v[2]] - ya, ez2 = m->z[v[2]] - za;
        double det = ex1 * ey2 - ex2 * ey1;
        double l2 = fmax(ex1 * ex1 + ey1 * ey1, ex2 * ex2 + ey2 * ey2);
        /* zero area, or a sliver thinner than 1e-14 of its length: covers nothing */
        if (!isfinite(det) || !(fabs(det) > 1e-14 * l2)) continue;
        /* Tolerance on the barycentric coordinates: 1e-12, plus what rounding the point's
         * map coordinates (relative error of a few DBL_EPSILON of their size) moves them
         * by, so that points on shared edges and nodes are inside. */
        double big = fabs(xa) + fabs(ya) + fabs(x0) + fabs(y0) + fabs(dx) * nx + fabs(dy) * ny;
        double tol = 1e-12 + 8 * DBL_EPSILON * big * (fabs(ex1) + fabs(ex2) + fabs(ey1) + fabs(ey2)) / fabs(det);
        tol = fmin(tol, 1e-6);   /* a sliver far from the origin: never more than a hair */
        double bx0 = fmin(0, fmin(ex1, ex2)), bx1 = fmax(0, fmax(ex1, ex2));
        double by0 = fmin(0, fmin(ey1, ey2)), by1 = fmax(0, fmax(ey1, ey2));
        int j0, j1, i0, i1;
        if (!index_range(ya + by0, ya + by1, y0, dy, ny, &j0, &j1)) continue;
        if (!index_range(xa + bx0, xa + bx1, x0, dx, nx, &i0, &i1)) continue;
        /* the edges, relative to vertex a: (0,0)-(e1), (0,0)-(e2), (e1)-(e2) */
        const double ex[3][2] = {{0, ex1}, {0, ex2}, {ex1, ex2}}, ey[3][2] = {{0, ey1}, {0, ey2}, {ey1, ey2}};
        double slack = (1e-9 + 2 * tol) * (by1 - by0);   /* rows at a vertex's height */
        for (int j = j0; j <= j1; j++) {
            double ry = (y0 + j * dy) - ya;
            /* the triangle's x-span in this row (relative to a) */
            double lo = INFINITY, hi = -INFINITY;
            for (int e = 0; e < 3; e++) {
                double ya_ = ey[e][0], yb_ = ey[e][1], xa_ = ex[e][0], xb_ = ex[e][1];
                if (ry < fmin(ya_, yb_) - slack || ry > fmax(ya_, yb_) + slack) continue;
                double x;
                if (ya_ == yb_) {
                    lo = fmin(lo, fmin(xa_, xb_)), hi = fmax(hi, fmax(xa_, xb_));
                    continue;
                }
                double s = (ry - ya_) / (yb_ - ya_);
                s = s < 0 ? 0 : s > 1 ? 1 : s;
                x = xa_ + s * (xb_ - xa_);
                lo = fmin(lo, x), hi = fmax(hi, x);
            }
            int a, b;
            if (!(lo <= hi) || !index_range(xa + lo, xa + hi, x0, dx, nx, &a, &b)) continue;
            if (a < i0) a = i0;
            if (b > i1) b = i1;
            for (int i = a; i <= b; i++) {
                size_t k = (size_t)j * (size_t)nx + (size_t)i;
                if (!isnan(out[k])) continue;   /* an earlier triangle holds it: they agree */
                double rx = (x0 + i * dx) - xa;
                double w1 = (rx * ey2 - ry * ex2) / det, w2 = (ex1 * ry - ey1 * rx) / det;
                double w0 = 1 - w1 - w2;
                if (w0 < -tol || w1 < -tol || w2 < -tol) continue;
                out[k] = za + w1 * ez1 + w2 * ez2;
                if (nodata) nodata[k] = 0;
                inside++;
            }
        }
    }
    return inside;
}
