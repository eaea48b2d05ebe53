/* output_flt.c — ESRI binary float grids (.flt with its .hdr), the default for large grids
 * (issue 28: an ESRI ASCII grid of 4096^2 cells is some 100 MB of text that takes seconds
 * to format; the same grid as floats is 64 MB written at the disk's speed).  GDAL reads
 * them (its EHdr driver), and so QGIS and ArcGIS do.  Also grid_write, which writes a grid
 * in the format a run asked for (output.h).
 *
 * The .hdr is text, a "keyword value" line each:
 *   ncols 4096               cells in x
 *   nrows 4096               cells in y
 *   xllcorner 0              the south-west corner
 *   yllcorner 0
 *   cellsize 0.01            (square cells; otherwise xdim and ydim, with ulxmap and
 *                            ulymap the centre of the north-west cell: the BIL form
 *                            of the same header, which GDAL also reads)
 *   NODATA_value -9999
 *   byteorder LSBFIRST       the floats' byte order (this machine's)
 * and the .flt holds nrows rows of ncols IEEE single-precision floats, the first row the
 * northern one, as the ASCII grid's rows. */
#include "output.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FLT_NODATA (-9999.0f)

static int little_endian(void)
{
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 1;
}

static swgl_status write_hdr(const char *path, int nx, int ny, double xll, double yll, double dx, double dy)
{
    FILE *f = fopen(path, "w");
    if (!f) return swgl_fail(SWGL_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
    fprintf(f, "ncols %d\nnrows %d\n", nx, ny);
    if (dx == dy) {
        fprintf(f, "xllcorner %.15g\nyllcorner %.15g\ncellsize %.15g\n", xll, yll, dx);
    } else {
        fprintf(f, "ulxmap %.15g\nulymap %.15g\nxdim %.15g\nydim %.15g\nnbits 32\npixeltype float\n", xll + 0.5 * dx,
                yll + ((double)ny - 0.5) * dy, dx, dy);
    }
    fprintf(f, "NODATA_value %.9g\nbyteorder %s\n", (double)FLT_NODATA, little_endian() ? "LSBFIRST" : "MSBFIRST");
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) return swgl_fail(SWGL_ERR_IO, "%s: write failed: %s", path, strerror(errno));
    return SWGL_OK;
}

/* rows r0 .. r0 + rn - 1 of the file (the first the northern one) as floats into out, on
 * every core: NODATA where a value is not finite or not kept */
static void flt_rows(const grid_values *g, int nx, int ny, int r0, int rn, float *out)
{
#pragma omp parallel for schedule(static)
    for (int r = 0; r < rn; r++) {
        const int j = ny - 1 - (r0 + r);
        float *row = out + (size_t)r * (size_t)nx;
        for (int i = 0; i < nx; i++) {
            const double x = grid_value_at(g, nx, i, j);
            row[i] = isfinite(x) && grid_value_kept(g, nx, i, j, x) ? (float)x : FLT_NODATA;
        }
    }
}

/* The grid of grid_write_at (output.h) as floats into flt_path, its header into hdr_path:
 * rows of FLT_ROWS at a time converted on every core, written in order. */
#define FLT_ROWS 64
static swgl_status flt_write_at(const char *flt_path, const char *hdr_path, int nx, int ny, double xll, double yll,
                                double dx, double dy, const grid_values *g)
{
    if (!flt_path || !hdr_path) return swgl_fail(SWGL_ERR_ARG, "flt_write: no path");
    swgl_status st = write_hdr(hdr_path, nx, ny, xll, yll, dx, dy);
    if (st != SWGL_OK) return st;
    float *rows = malloc((size_t)nx * FLT_ROWS * sizeof *rows);
    FILE *f = rows ? fopen(flt_path, "wb") : NULL;
    if (!f) {
        int err = errno;
        free(rows);
        return !rows ? swgl_fail(SWGL_ERR_NO_MEMORY, "%s: out of memory", flt_path)
                     : swgl_fail(SWGL_ERR_IO, "%s: cannot create: %s", flt_path, strerror(err));
    }
    int bad = 0;
    for (int r0 = 0; r0 < ny && !bad; r0 += FLT_ROWS) {
        const int rn = ny - r0 < FLT_ROWS ? ny - r0 : FLT_ROWS;
        flt_rows(g, nx, ny, r0, rn, rows);
        bad = fwrite(rows, sizeof *rows * (size_t)nx, (size_t)rn, f) != (size_t)rn;
    }
    free(rows);
    bad = bad || ferror(f);
    if (fclose(f) != 0 || bad) return swgl_fail(SWGL_ERR_IO, "%s: write failed: %s", flt_path, strerror(errno));
    return SWGL_OK;
}

swgl_status flt_write(const char *flt_path, const char *hdr_path, int nx, int ny, double xll, double yll, double dx,
                      double dy, const double *v, const unsigned char *mask)
{
    const grid_values g = {v, (size_t)nx, NULL, mask, 0};
    return flt_write_at(flt_path, hdr_path, nx, ny, xll, yll, dx, dy, &g);
}

int grid_format_of(int requested, int nx, int ny)
{
    if (requested == GRID_FORMAT_ASC || requested == GRID_FORMAT_FLT) return requested;
    return (double)nx * (double)ny >= GRID_FLT_CELLS ? GRID_FORMAT_FLT : GRID_FORMAT_ASC;
}

swgl_status grid_write_at(outdir *od, const char *name, int format, int nx, int ny, double xll, double yll, double dx,
                          double dy, const grid_values *g)
{
    char file[160];
    if (grid_format_of(format, nx, ny) == GRID_FORMAT_ASC) {
        snprintf(file, sizeof file, "%s.asc", name);
        return asc_write_at(outdir_path(od, file), nx, ny, xll, yll, dx, dy, g);
    }
    /* the header now; the floats in parts of up to 64 MB (a 4096^2 grid: one), each converted on
     * every core into a buffer the folder's writers write in the background (outdir_file_write;
     * on the H200's machine a 4096^2 run's files took 0.23 s so, against 0.33-0.38 s written
     * in order here, docs/performance.md) */
    snprintf(file, sizeof file, "%s.hdr", name);
    const char *hdr = outdir_path(od, file);
    swgl_status st = hdr ? write_hdr(hdr, nx, ny, xll, yll, dx, dy)
                         : swgl_fail(SWGL_ERR_IO, "%s: bad name in the output folder", file);
    if (st != SWGL_OK) return st;
    snprintf(file, sizeof file, "%s.flt", name);
    outdir_file *f = outdir_file_open(od, file);
    if (!f) return SWGL_ERR_IO;
    const size_t row = (size_t)nx * sizeof(float);
    const size_t pb = (size_t)64 << 20;
    const int part = row < pb ? (int)(pb / row) : 1;   /* rows a part */
    for (int r0 = 0; r0 < ny && st == SWGL_OK; r0 += part) {
        const int rn = ny - r0 < part ? ny - r0 : part;
        float *v = outdir_buffer(od, (size_t)rn * row);
        if (!v) {
            st = swgl_fail(SWGL_ERR_NO_MEMORY, "%s: out of memory", file);
            break;
        }
        flt_rows(g, nx, ny, r0, rn, v);
        st = outdir_file_write(od, f, (size_t)r0 * row, v, (size_t)rn * row);
    }
    outdir_file_close(od, f);
    return st;
}

swgl_status grid_write(outdir *od, const char *name, int format, int nx, int ny, double xll, double yll, double dx,
                       double dy, const double *v, const unsigned char *mask)
{
    const grid_values g = {v, (size_t)nx, NULL, mask, 0};
    return grid_write_at(od, name, format, nx, ny, xll, yll, dx, dy, &g);
}

const char *grid_format_ext(int format, int nx, int ny)
{
    return grid_format_of(format, nx, ny) == GRID_FORMAT_ASC ? "asc" : "flt";
}
