/* raster.h — one entry point for the rasters a scenario names (beds, initial fields,
 * Manning's n, rain, ...): raster_read picks the reader by the file's type, the ending of
 * its name first, else its first bytes (raster.c keeps the table of readers: a new
 * format, GDAL's for one, is one more file and one more line there).
 *
 * Errors: a status and one line in swgl_last_error() naming the file (swgl_error.h):
 * SWGL_ERR_IO when it cannot be opened, SWGL_ERR_INPUT when it is malformed or of a type
 * this build does not read (the message lists those it reads).
 */
#ifndef SWGL_RASTER_H
#define SWGL_RASTER_H

#include <stddef.h>

#include "swgl_error.h"

typedef struct raster {
    int nx, ny;                /* cells in x, y */
    double x0, y0;             /* the south-west corner (map coordinates, m) */
    double dx, dy;             /* cell sizes (m) */
    double *v;                 /* nx*ny values, row j = 0 the southern one; NaN at NODATA */
    unsigned char *nodata;     /* nx*ny: 1 at a NODATA cell, else 0 */
    int has_nodata_value;      /* the file gives a NODATA value ... */
    double nodata_value;       /* ... this one (NaN when it gives none) */
    char *crs;                 /* the coordinate reference system (WKT or AUTHORITY:CODE),
                                * malloc'ed; NULL when the file gives none (the ASCII reader
                                * never does) */
    const char *format;        /* the reader's name, e.g. "ESRI ASCII grid" */
} raster;

/* Reads path (as given: the caller resolves it) into *r (zeroed first); on failure *r
 * holds nothing to free.  raster_free releases it (NULL and a zeroed raster are fine). */
swgl_status raster_read(const char *path, raster *r);
void raster_free(raster *r);

/* 1 when path ends in the name ending of a format this build reads (".asc"). */
int raster_known_ending(const char *path);

/* The formats this build reads, for messages: "ESRI ASCII grid (.asc)", ... */
const char *raster_formats(void);

/* ---- the readers behind raster_read (called directly by their tests and fuzzers) ---- */

/* ESRI ASCII grid (raster_asc.c): fails (SWGL_ERR_INPUT) with a message naming the file,
 * the line and what was expected (bad header, short data, non-numeric, NaN), or
 * SWGL_ERR_IO when the file cannot be opened.  NODATA cells come back as NaN with
 * nodata[k] = 1 when nodata is non-NULL, else they are an error.  dx = dy = cellsize (or
 * dx, dy when the header has them).  *v is malloc'ed, row j = 0 southern. */
swgl_status asc_read(const char *path, int *nx, int *ny, double *xll, double *yll, double *dx,
                     double *dy, double **v, unsigned char **nodata);
/* raster_read's form of it (with the NODATA mask), and whether the first n bytes of a
 * file look like one (the first word a header keyword). */
swgl_status raster_read_asc(const char *path, raster *r);
int raster_asc_probe(const unsigned char *head, size_t n);

#endif
