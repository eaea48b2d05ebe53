/* raster_asc.c — the ESRI ASCII grid reader (.asc), behind raster_read (raster.c); the
 * writer is output_asc.c.
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
 *
 * Limits: ncols, nrows at most 10^6 each and ncols*nrows at most SCENARIO_MAX_CELLS (the
 * cap on a scenario's cells), checked on the header; the values are stored as they
 * arrive, so memory follows what the file holds, not what its header promises.  The
 * file is read in chunks, not lines, so one with no line end costs no more.  Lines may
 * end in \n, \r\n or a lone \r (for the line numbers of messages); a NUL byte, or a
 * token of more than ASC_MAX_TOKEN characters, is an error.
 */
#include "raster.h"
#include "scenario.h"     /* SCENARIO_MAX_CELLS */

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- reading ----------------------------------------------------------------------- */

/* The most values a grid may have: the scenario's cap on cells (scenario.h). */
#define ASC_MAX_VALUES SCENARIO_MAX_CELLS
#define ASC_MAX_SIDE 1000000L     /* ncols, nrows each */

#define ASC_MAX_TOKEN 255         /* characters in a keyword or a value */

/* The file is read in chunks and split into tokens here: memory stays bounded whatever
 * the file holds (a file with no line end, /dev/zero). */
typedef struct asc_reader {
    FILE *f;
    const char *path;
    unsigned char *buf;  /* a chunk of the file */
    size_t len, pos;
    char tok[ASC_MAX_TOKEN + 1];   /* the last token: valid until the next call only */
    int lineno;          /* the line of the last token (at the end: of the last byte) */
    int scan_line;       /* the line of the next byte */
    int last_line;       /* the line of the last byte read (a line end is in its line) */
    int after_cr;        /* the last byte was '\r': a '\n' now ends no further line */
    swgl_status failed;  /* a NUL byte, a token too long or a read error (message set) */
} asc_reader;

#define ASC_CHUNK 65536

/* Reads the next chunk and returns its first byte; EOF at the end or on a read error
 * (r->failed set). */
static int refill(asc_reader *r)
{
    if (r->failed) return EOF;
    errno = 0;
    r->len = fread(r->buf, 1, ASC_CHUNK, r->f);
    r->pos = 0;
    if (r->len == 0) {
        if (ferror(r->f))
            r->failed = swgl_fail(SWGL_ERR_IO, "%s: cannot read: %s", r->path,
                                  strerror(errno ? errno : EIO));
        return EOF;
    }
    return r->buf[r->pos++];
}

static inline int next_byte(asc_reader *r)
{
    return r->pos < r->len ? r->buf[r->pos++] : refill(r);
}

/* Counts lines past white space c: "\n", "\r\n" and a lone "\r" each end one. */
static inline void count_space(asc_reader *r, int c)
{
    r->last_line = c == '\n' && r->after_cr ? r->scan_line - 1 : r->scan_line;
    if ((c == '\n' && !r->after_cr) || c == '\r') r->scan_line++;
    r->after_cr = c == '\r';
}

static char *nul_byte(asc_reader *r)
{
    r->lineno = r->scan_line;
    r->failed = swgl_fail(SWGL_ERR_INPUT, "%s:%d: a NUL byte in the file (expected text)",
                          r->path, r->lineno);
    return NULL;
}

/* isspace() in the C locale. */
static inline int is_space(int c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

/* The next whitespace-separated token; NULL at the end, or on a failure (r->failed set).
 * The token is valid until the next call only.  The loops run over the chunk in memory;
 * a token may span two chunks. */
static char *next_token(asc_reader *r)
{
    int c;
    for (;;) {    /* white space */
        while (r->pos < r->len && r->buf[r->pos] == ' ') r->pos++;
        if ((c = next_byte(r)) == EOF || c == '\0' || !is_space(c)) break;
        count_space(r, c);
    }
    if (c == '\0') return nul_byte(r);
    if (c == EOF) {
        if (!r->failed) r->lineno = r->last_line;
        return NULL;
    }
    r->lineno = r->last_line = r->scan_line;
    r->after_cr = 0;
    r->tok[0] = (char)c;
    size_t n = 1;
    for (;;) {
        size_t start = r->pos, end = start;
        while (end < r->len && r->buf[end] && !is_space(r->buf[end])) end++;
        if (n + (end - start) > ASC_MAX_TOKEN) {
            size_t m = ASC_MAX_TOKEN - n;
            memcpy(r->tok + n, r->buf + start, m);
            r->tok[ASC_MAX_TOKEN] = '\0';
            r->failed = swgl_fail(SWGL_ERR_INPUT, "%s:%d: expected a number or a keyword, found "
                                  "'%.40s...' (more than %d characters)", r->path, r->lineno,
                                  r->tok, ASC_MAX_TOKEN);
            return NULL;
        }
        memcpy(r->tok + n, r->buf + start, end - start);
        n += end - start;
        r->pos = end;
        if (end < r->len) break;            /* a NUL or white space ends it */
        if (refill(r) == EOF) {             /* the chunk ended: on into the next one */
            r->tok[n] = '\0';
            return r->failed ? NULL : r->tok;
        }
        r->pos--;                           /* refill consumed the first byte */
    }
    r->tok[n] = '\0';
    c = next_byte(r);
    if (c == '\0') return nul_byte(r);
    count_space(r, c);
    return r->tok;
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

/* The value after keyword name (a copy: the next token overwrites the keyword's). */
static swgl_status header_value(asc_reader *r, asc_header *h, int key, int center,
                                const char *name)
{
    char *t = next_token(r);
    double v;
    if (!t && r->failed) return r->failed;
    if (!t || !parse_double(t, &v) || !isfinite(v))
        return swgl_fail(SWGL_ERR_INPUT, "%s:%d: bad header: expected a number after %s",
                         r->path, r->lineno, name);
    if (h->has[key])
        return swgl_fail(SWGL_ERR_INPUT, "%s:%d: bad header: %s given twice", r->path,
                         r->lineno, name);
    h->has[key] = 1;
    if (key == H_NCOLS || key == H_NROWS) {
        /* the range first: converting a double beyond long's range is undefined */
        if (v != floor(v) || v < 1)
            return swgl_fail(SWGL_ERR_INPUT, "%s:%d: bad header: %s must be a positive integer",
                             r->path, r->lineno, name);
        if (v > (double)ASC_MAX_SIDE)
            return swgl_fail(SWGL_ERR_INPUT, "%s:%d: bad header: %s must be at most %ld, found %.15g",
                             r->path, r->lineno, name, ASC_MAX_SIDE, v);
    }
    if ((key == H_CELL || key == H_DX || key == H_DY) && !(v > 0))
        return swgl_fail(SWGL_ERR_INPUT, "%s:%d: bad header: %s must be positive", r->path,
                         r->lineno, name);
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
    if (h->has[H_NCOLS] && h->has[H_NROWS] && h->ncols * h->nrows > ASC_MAX_VALUES)
        return swgl_fail(SWGL_ERR_INPUT, "%s:%d: bad header: too many cells: ncols x nrows = %ld x "
                         "%ld = %ld, at most %ld", r->path, r->lineno, h->ncols, h->nrows,
                         h->ncols * h->nrows, (long)ASC_MAX_VALUES);
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
        char name[16];
        snprintf(name, sizeof name, "%s", t);   /* the next token overwrites t */
        swgl_status st = header_value(r, h, key, center, name);
        if (st != SWGL_OK) return st;
    }
    if (!t && r->failed) return r->failed;
    *first = t;
    const char *missing = !h->has[H_NCOLS] ? "ncols" : !h->has[H_NROWS] ? "nrows"
                        : !h->has[H_XLL] ? "xllcorner or xllcenter"
                        : !h->has[H_YLL] ? "yllcorner or yllcenter"
                        : (!h->has[H_CELL] && !(h->has[H_DX] && h->has[H_DY])) ? "cellsize (or dx and dy)"
                        : NULL;
    if (missing) {
        if (t && !isdigit((unsigned char)t[0]) && t[0] != '-' && t[0] != '+' && t[0] != '.')
            return swgl_fail(SWGL_ERR_INPUT, "%s:%d: bad header: unknown keyword '%.40s' (expected %s)",
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

/* The values read so far, in file order (the northern row first); they grow as values
 * arrive, so a header promising more than the file holds costs no memory. */
typedef struct asc_values {
    double *v;
    unsigned char *nodata;    /* NULL when the caller wants none */
    size_t n, cap;
} asc_values;

static int grow(asc_values *a, size_t want, int with_nodata)
{
    if (a->n < a->cap) return 1;
    size_t cap = a->cap ? 2 * a->cap : 4096;
    if (cap > want) cap = want;
    double *v = realloc(a->v, cap * sizeof *v);
    if (!v) return 0;
    a->v = v;
    if (with_nodata) {
        unsigned char *nd = realloc(a->nodata, cap);
        if (!nd) return 0;
        a->nodata = nd;
    }
    a->cap = cap;
    return 1;
}

/* One data value t, the k-th in file order; NODATA becomes NaN. */
static swgl_status read_value(asc_reader *r, const asc_header *h, const char *t, size_t k,
                              asc_values *a, int with_nodata)
{
    long n = h->ncols * h->nrows;
    if (!t && r->failed) return r->failed;
    if (!t)
        return swgl_fail(SWGL_ERR_INPUT, "%s:%d: short data: expected %ld x %ld = %ld values, "
                         "found %zu", r->path, r->lineno, h->ncols, h->nrows, n, k);
    double x;
    if (!parse_double(t, &x))
        return swgl_fail(SWGL_ERR_INPUT, "%s:%d: expected a number, found '%.40s'", r->path,
                         r->lineno, t);
    long row = (long)k / h->ncols, col = (long)k % h->ncols;
    if (!grow(a, (size_t)n, with_nodata))
        return swgl_fail(SWGL_ERR_NO_MEMORY, "%s: out of memory for %zu values", r->path, k + 1);
    if (h->has[H_NODATA] && x == h->nodata) {
        if (!with_nodata)
            return swgl_fail(SWGL_ERR_INPUT, "%s:%d: NODATA value at row %ld, column %ld where a "
                             "value is required", r->path, r->lineno, row + 1, col + 1);
        a->nodata[a->n] = 1;
        a->v[a->n++] = NAN;
        return SWGL_OK;
    }
    if (!isfinite(x))
        return swgl_fail(SWGL_ERR_INPUT, "%s:%d: expected a finite number, found '%.40s'", r->path,
                         r->lineno, t);
    if (with_nodata) a->nodata[a->n] = 0;
    a->v[a->n++] = x;
    return SWGL_OK;
}

/* Swaps rows so that row j = 0 is the southern one. */
static void flip_rows(void *data, size_t row_bytes, long nrows)
{
    unsigned char *d = data, tmp[512];
    for (long j = 0; j < nrows / 2; j++) {
        unsigned char *a = d + (size_t)j * row_bytes, *b = d + (size_t)(nrows - 1 - j) * row_bytes;
        for (size_t off = 0; off < row_bytes; off += sizeof tmp) {
            size_t m = row_bytes - off < sizeof tmp ? row_bytes - off : sizeof tmp;
            memcpy(tmp, a + off, m);
            memcpy(a + off, b + off, m);
            memcpy(b + off, tmp, m);
        }
    }
}

static swgl_status read_data(asc_reader *r, const asc_header *h, char *first, asc_values *a,
                             int with_nodata)
{
    size_t n = (size_t)h->ncols * (size_t)h->nrows;
    char *t = first;
    for (size_t k = 0; k < n; k++) {
        if (k > 0) t = next_token(r);
        swgl_status st = read_value(r, h, t, k, a, with_nodata);
        if (st != SWGL_OK) return st;
    }
    if ((t = next_token(r)))
        return swgl_fail(SWGL_ERR_INPUT, "%s:%d: more than ncols x nrows = %ld x %ld values",
                         r->path, r->lineno, h->ncols, h->nrows);
    if (r->failed) return r->failed;
    flip_rows(a->v, (size_t)h->ncols * sizeof *a->v, h->nrows);
    if (with_nodata) flip_rows(a->nodata, (size_t)h->ncols, h->nrows);
    return SWGL_OK;
}

/* Reads path into the header h and the values a (row j = 0 southern; with a NODATA mask
 * when with_nodata); on failure a's arrays are freed. */
static swgl_status asc_load(const char *path, asc_header *h, asc_values *a, int with_nodata)
{
    asc_reader r = {.path = path, .scan_line = 1};
    char *first;
    if (!(r.buf = malloc(ASC_CHUNK))) return swgl_fail(SWGL_ERR_NO_MEMORY, "%s: out of memory", path);
    r.f = fopen(path, "r");
    if (!r.f) {
        free(r.buf);
        return swgl_fail(SWGL_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    }
    swgl_status st = read_header(&r, h, &first);
    if (st == SWGL_OK) st = read_data(&r, h, first, a, with_nodata);
    fclose(r.f);
    free(r.buf);
    if (st != SWGL_OK) {
        free(a->v);
        free(a->nodata);
        a->v = NULL;
        a->nodata = NULL;
    }
    return st;
}

swgl_status asc_read(const char *path, int *nx, int *ny, double *xll, double *yll, double *dx,
                     double *dy, double **v, unsigned char **nodata)
{
    asc_header h;
    asc_values a = {0};
    *v = NULL;
    if (nodata) *nodata = NULL;
    swgl_status st = asc_load(path, &h, &a, nodata != NULL);
    if (st != SWGL_OK) return st;
    *nx = (int)h.ncols;
    *ny = (int)h.nrows;
    *xll = h.xll;
    *yll = h.yll;
    *dx = h.dx;
    *dy = h.dy;
    *v = a.v;
    if (nodata) *nodata = a.nodata;
    return SWGL_OK;
}

/* ---- behind raster_read (raster.c) ------------------------------------------------- */

int raster_asc_probe(const unsigned char *head, size_t n)
{
    size_t i = 0, k = 0;
    char t[16];
    while (i < n && isspace(head[i])) i++;
    while (i < n && k + 1 < sizeof t && !isspace(head[i])) t[k++] = (char)head[i++];
    t[k] = '\0';
    int center;
    return k > 0 && (i < n && isspace(head[i])) && header_key(t, &center) >= 0;
}

swgl_status raster_read_asc(const char *path, raster *r)
{
    asc_header h;
    asc_values a = {0};
    swgl_status st = asc_load(path, &h, &a, 1);
    if (st != SWGL_OK) return st;
    r->nx = (int)h.ncols;
    r->ny = (int)h.nrows;
    r->x0 = h.xll;
    r->y0 = h.yll;
    r->dx = h.dx;
    r->dy = h.dy;
    r->v = a.v;
    r->nodata = a.nodata;
    r->has_nodata_value = h.has[H_NODATA] != 0;
    r->nodata_value = r->has_nodata_value ? h.nodata : NAN;
    return SWGL_OK;
}
