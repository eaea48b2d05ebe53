/* output_asc.c — ESRI ASCII grids (.asc): writing the final state, reading beds and
 * initial fields.
 *
 * The format: a header of "keyword value" lines, then nrows rows of ncols numbers, the
 * first row being the northern one.
 *
 *   ncols 4                 cells in x
 *   nrows 3                 cells in y
 *   xllcorner 0.0           or xllcenter (the centre of the south-west cell)
 *   yllcorner 0.0           or yllcenter
 *   cellsize 0.5            or the pair dx / dy
 *   NODATA_value -9999      optional
 *
 * Keywords are case-insensitive and may come in any order.  Data values may be split
 * over lines freely, but there must be exactly ncols*nrows of them; each must be a finite
 * number or the NODATA value.  In memory, row j = 0 is the southern one.
 */
#include "output.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define ASC_NODATA (-9999.0)

/* ---- writing ----------------------------------------------------------------------- */

static void write_header(FILE *f, int nx, int ny, double xll, double yll, double dx, double dy)
{
    fprintf(f, "ncols %d\nnrows %d\nxllcorner %.9g\nyllcorner %.9g\n", nx, ny, xll, yll);
    if (dx == dy) fprintf(f, "cellsize %.9g\n", dx);
    else fprintf(f, "dx %.9g\ndy %.9g\n", dx, dy);
    fprintf(f, "NODATA_value %.9g\n", ASC_NODATA);
}

swgl_status asc_write(const char *path, int nx, int ny, double xll, double yll, double dx,
                      double dy, const double *v, const unsigned char *mask)
{
    if (!path) return swgl_fail(SWGL_ERR_ARG, "asc_write: no path");
    FILE *f = fopen(path, "w");
    if (!f) return swgl_fail(SWGL_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
    write_header(f, nx, ny, xll, yll, dx, dy);
    for (int j = ny - 1; j >= 0; j--) {
        for (int i = 0; i < nx; i++) {
            size_t k = (size_t)j * (size_t)nx + (size_t)i;
            double x = v[k];
            if ((mask && !mask[k]) || !isfinite(x)) x = ASC_NODATA;
            fprintf(f, i + 1 < nx ? "%.9g " : "%.9g\n", x);
        }
    }
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) return swgl_fail(SWGL_ERR_IO, "%s: write error", path);
    return SWGL_OK;
}

/* ---- reading ----------------------------------------------------------------------- */

typedef struct asc_reader {
    FILE *f;
    const char *path;
    char *line;          /* current line (getline buffer) */
    size_t cap;
    char *p;             /* next unread character in line */
    int lineno;
} asc_reader;

/* The next whitespace-separated token, reading lines as needed; NULL at the end. */
static char *next_token(asc_reader *r)
{
    for (;;) {
        while (r->p && isspace((unsigned char)*r->p)) r->p++;
        if (r->p && *r->p) {
            char *t = r->p;
            while (*r->p && !isspace((unsigned char)*r->p)) r->p++;
            if (*r->p) *r->p++ = '\0';
            return t;
        }
        if (getline(&r->line, &r->cap, r->f) < 0) {
            r->p = NULL;
            return NULL;
        }
        r->lineno++;
        r->p = r->line;
    }
}

static int parse_double(const char *t, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(t, &end);
    return end != t && *end == '\0' && errno != ERANGE;
}

typedef struct asc_header {
    long ncols, nrows;
    double xll, yll, cellsize, dx, dy, nodata;
    int has[9];   /* ncols nrows xll yll cellsize dx dy nodata, xll/yll centred flag (bit) */
    int x_center, y_center;
} asc_header;

enum { H_NCOLS, H_NROWS, H_XLL, H_YLL, H_CELL, H_DX, H_DY, H_NODATA };

/* Which header keyword t is (-1: none); *center set for the *center spellings. */
static int header_key(const char *t, int *center)
{
    static const char *const names[] = {"ncols", "nrows", "xllcorner", "yllcorner", "cellsize",
                                        "dx", "dy", "nodata_value"};
    *center = 0;
    for (int i = 0; i < 8; i++)
        if (strcasecmp(t, names[i]) == 0) return i;
    if (strcasecmp(t, "xllcenter") == 0) return *center = 1, H_XLL;
    if (strcasecmp(t, "yllcenter") == 0) return *center = 1, H_YLL;
    return -1;
}

static swgl_status header_value(asc_reader *r, asc_header *h, int key, int center,
                                const char *name)
{
    char *t = next_token(r);
    double v;
    if (!t || !parse_double(t, &v) || !isfinite(v))
        return swgl_fail(SWGL_ERR_INPUT, "%s:%d: bad header: expected a number after %s",
                         r->path, r->lineno, name);
    if (h->has[key])
        return swgl_fail(SWGL_ERR_INPUT, "%s:%d: bad header: %s given twice", r->path,
                         r->lineno, name);
    h->has[key] = 1;
    switch (key) {
    case H_NCOLS: h->ncols = (long)v; break;
    case H_NROWS: h->nrows = (long)v; break;
    case H_XLL: h->xll = v; h->x_center = center; break;
    case H_YLL: h->yll = v; h->y_center = center; break;
    case H_CELL: h->cellsize = v; break;
    case H_DX: h->dx = v; break;
    case H_DY: h->dy = v; break;
    default: h->nodata = v; break;
    }
    if ((key == H_NCOLS || key == H_NROWS) && (v != floor(v) || v < 1 || v > 1e6))
        return swgl_fail(SWGL_ERR_INPUT, "%s:%d: bad header: %s must be a positive integer",
                         r->path, r->lineno, name);
    if ((key == H_CELL || key == H_DX || key == H_DY) && !(v > 0))
        return swgl_fail(SWGL_ERR_INPUT, "%s:%d: bad header: %s must be positive", r->path,
                         r->lineno, name);
    return SWGL_OK;
}

/* Reads header lines up to the first number; *first is that first data token. */
static swgl_status read_header(asc_reader *r, asc_header *h, char **first)
{
    memset(h, 0, sizeof *h);
    char *t;
    while ((t = next_token(r))) {
        int center;
        int key = header_key(t, &center);
        if (key < 0) break;
        swgl_status st = header_value(r, h, key, center, t);
        if (st != SWGL_OK) return st;
    }
    *first = t;
    const char *missing = !h->has[H_NCOLS] ? "ncols" : !h->has[H_NROWS] ? "nrows"
                        : !h->has[H_XLL] ? "xllcorner or xllcenter"
                        : !h->has[H_YLL] ? "yllcorner or yllcenter"
                        : (!h->has[H_CELL] && !(h->has[H_DX] && h->has[H_DY])) ? "cellsize (or dx and dy)"
                        : NULL;
    if (missing) {
        if (t && !isdigit((unsigned char)t[0]) && t[0] != '-' && t[0] != '+' && t[0] != '.')
            return swgl_fail(SWGL_ERR_INPUT, "%s:%d: bad header: unknown keyword '%s' (expected %s)",
                             r->path, r->lineno, t, missing);
        return swgl_fail(SWGL_ERR_INPUT, "%s:%d: bad header: missing %s", r->path,
                         r->lineno ? r->lineno : 1, missing);
    }
    if (!h->has[H_DX]) h->dx = h->cellsize;
    if (!h->has[H_DY]) h->dy = h->cellsize;
    if (h->x_center) h->xll -= 0.5 * h->dx;
    if (h->y_center) h->yll -= 0.5 * h->dy;
    return SWGL_OK;
}

/* One data value at file position (row from the north, col); NODATA becomes NaN. */
static swgl_status read_value(asc_reader *r, const asc_header *h, char *t, size_t k, double *v,
                              unsigned char *nodata)
{
    long n = h->ncols * h->nrows;
    if (!t)
        return swgl_fail(SWGL_ERR_INPUT, "%s:%d: short data: expected %ld x %ld = %ld values, "
                         "found %zu", r->path, r->lineno, h->ncols, h->nrows, n, k);
    double x;
    if (!parse_double(t, &x))
        return swgl_fail(SWGL_ERR_INPUT, "%s:%d: expected a number, found '%.40s'", r->path,
                         r->lineno, t);
    long row = (long)k / h->ncols, col = (long)k % h->ncols;
    size_t dst = (size_t)(h->nrows - 1 - row) * (size_t)h->ncols + (size_t)col;
    if (h->has[H_NODATA] && x == h->nodata) {
        if (!nodata)
            return swgl_fail(SWGL_ERR_INPUT, "%s:%d: NODATA value at row %ld, column %ld where a "
                             "value is required", r->path, r->lineno, row + 1, col + 1);
        nodata[dst] = 1;
        v[dst] = NAN;
        return SWGL_OK;
    }
    if (!isfinite(x))
        return swgl_fail(SWGL_ERR_INPUT, "%s:%d: expected a finite number, found '%.40s'", r->path,
                         r->lineno, t);
    v[dst] = x;
    return SWGL_OK;
}

static swgl_status read_data(asc_reader *r, const asc_header *h, char *first, double *v,
                             unsigned char *nodata)
{
    size_t n = (size_t)h->ncols * (size_t)h->nrows;
    char *t = first;
    for (size_t k = 0; k < n; k++) {
        if (k > 0) t = next_token(r);
        swgl_status st = read_value(r, h, t, k, v, nodata);
        if (st != SWGL_OK) return st;
    }
    if ((t = next_token(r)))
        return swgl_fail(SWGL_ERR_INPUT, "%s:%d: more than ncols x nrows = %ld x %ld values",
                         r->path, r->lineno, h->ncols, h->nrows);
    return SWGL_OK;
}

swgl_status asc_read(const char *path, int *nx, int *ny, double *xll, double *yll, double *dx,
                     double *dy, double **v, unsigned char **nodata)
{
    asc_reader r = {.path = path};
    asc_header h;
    double *vals = NULL;
    unsigned char *nd = NULL;
    char *first;
    *v = NULL;
    if (nodata) *nodata = NULL;
    r.f = fopen(path, "r");
    if (!r.f) return swgl_fail(SWGL_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    swgl_status st = read_header(&r, &h, &first);
    if (st != SWGL_OK) goto fail;
    size_t n = (size_t)h.ncols * (size_t)h.nrows;
    vals = malloc(n * sizeof *vals);
    if (nodata) nd = calloc(n, 1);
    if (!vals || (nodata && !nd)) {
        st = swgl_fail(SWGL_ERR_NO_MEMORY, "%s: out of memory for %zu values", path, n);
        goto fail;
    }
    if ((st = read_data(&r, &h, first, vals, nd)) != SWGL_OK) goto fail;
    fclose(r.f);
    free(r.line);
    *nx = (int)h.ncols;
    *ny = (int)h.nrows;
    *xll = h.xll;
    *yll = h.yll;
    *dx = h.dx;
    *dy = h.dy;
    *v = vals;
    if (nodata) *nodata = nd;
    return SWGL_OK;
fail:
    fclose(r.f);
    free(r.line);
    free(vals);
    free(nd);
    return st;
}
