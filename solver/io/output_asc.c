/* output_asc.c — ESRI ASCII grids (.asc): writing the final state (the reader, which
 * scenarios use through raster_read, is raster_asc.c).
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
 */
#include "output.h"
#include "fmt_g9.h"

#include <errno.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ASC_NODATA (-9999.0)
#define ASC_VALUE_MAX 32   /* bytes of a "%.9g" number with its NUL: "-1.23456789e-308" is 16 */
#define ASC_ROWS 8         /* rows a thread formats at a time */
#define ASC_BUFFER ((size_t)64 << 20)   /* the most bytes of rows held at once (one row at least) */

/* ---- writing ----------------------------------------------------------------------- */

static void write_header(FILE *f, int nx, int ny, double xll, double yll, double dx, double dy)
{
    fprintf(f, "ncols %d\nnrows %d\nxllcorner %.9g\nyllcorner %.9g\n", nx, ny, xll, yll);
    if (dx == dy) fprintf(f, "cellsize %.9g\n", dx);
    else fprintf(f, "dx %.9g\ndy %.9g\n", dx, dy);
    fprintf(f, "NODATA_value %.9g\n", ASC_NODATA);
}

/* One row's numbers (cells k0 .. k0 + nx - 1), each "%.9g" (NODATA outside the mask or where
 * not finite; 0 written as "0" without the call: many cells are dry), separated by spaces,
 * ended by a newline, into buf; its length */
static size_t format_row(char *buf, const grid_values *g, int nx, int j)
{
    char *p = buf;
    for (int i = 0; i < nx; i++) {
        double x = grid_value_at(g, nx, i, j);
        if (!grid_value_kept(g, nx, i, j, x) || !isfinite(x)) x = ASC_NODATA;
        if (x == 0.0 && !signbit(x)) *p++ = '0';
        else p += fmt_g9(p, x);   /* (printf's "%.9g", five times as fast: fmt_g9.h) */
        *p++ = i + 1 < nx ? ' ' : '\n';
    }
    return (size_t)(p - buf);
}

swgl_status asc_write(const char *path, int nx, int ny, double xll, double yll, double dx,
                      double dy, const double *v, const unsigned char *mask)
{
    const grid_values g = {v, (size_t)nx, NULL, mask, 0};
    return asc_write_at(path, nx, ny, xll, yll, dx, dy, &g);
}

swgl_status asc_write_at(const char *path, int nx, int ny, double xll, double yll, double dx, double dy,
                         const grid_values *g)
{
    if (!path) return swgl_fail(SWGL_ERR_ARG, "asc_write: no path");
    /* the rows are formatted in parallel, ASC_ROWS a thread at a time, and written in order
     * (issue 28: one core formatted a 4096^2 grid in seconds); the bytes are the serial
     * "%.9g" loop's */
    const size_t cap = (size_t)nx * (ASC_VALUE_MAX + 1) + 1;
    int block = omp_get_max_threads() * ASC_ROWS;   /* rows formatted at once, within ASC_BUFFER */
    if ((size_t)block * cap > ASC_BUFFER) block = ASC_BUFFER / cap > 0 ? (int)(ASC_BUFFER / cap) : 1;
    char *buf = malloc((size_t)block * cap);
    size_t *len = malloc((size_t)block * sizeof *len);
    FILE *f = buf && len ? fopen(path, "w") : NULL;
    if (!f) {
        int err = errno;
        free(buf);
        free(len);
        return !buf || !len ? swgl_fail(SWGL_ERR_NO_MEMORY, "%s: out of memory", path)
                            : swgl_fail(SWGL_ERR_IO, "%s: cannot create: %s", path, strerror(err));
    }
    write_header(f, nx, ny, xll, yll, dx, dy);
    for (int r0 = 0; r0 < ny; r0 += block) {
        const int rn = ny - r0 < block ? ny - r0 : block;
#pragma omp parallel for schedule(static)
        for (int r = 0; r < rn; r++) {
            const int j = ny - 1 - (r0 + r);   /* the first row the northern one */
            len[r] = format_row(buf + (size_t)r * cap, g, nx, j);
        }
        for (int r = 0; r < rn; r++) fwrite(buf + (size_t)r * cap, 1, len[r], f);
    }
    free(buf);
    free(len);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) return swgl_fail(SWGL_ERR_IO, "%s: write error", path);
    return SWGL_OK;
}
