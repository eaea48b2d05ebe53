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

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
