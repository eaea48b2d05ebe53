/* output.h — what a run leaves behind: ESRI ASCII grids, PNG pictures with a colour
 * scale, summary.json, CSV cuts; written so that a failed run never leaves
 * half-finished files over good ones.
 *
 * Usage: outdir_open() makes a staging folder beside DIR (PARENT/.NAME.swgl-tmp-PID,
 * and cleans those that killed runs left); every writer below takes a path inside it
 * (outdir_path()); outdir_commit() swaps it with DIR in one step, so DIR holds either
 * the old run's outputs or the new run's, never a mix; outdir_abort() removes it and
 * leaves DIR as it was.  An existing DIR that swgl did not write (no .swgl-output, no
 * summary.json, not empty) is refused: it is never replaced (output_dir.c).
 *
 * Errors: a function returns a swgl_status (a constructor NULL) and leaves one line,
 * naming the file, in swgl_last_error() (swgl_error.h).
 */
#ifndef SWGL_OUTPUT_H
#define SWGL_OUTPUT_H

#include "swgl_error.h"

typedef struct outdir outdir;
outdir *outdir_open(const char *dir);                    /* NULL on failure */
const char *outdir_path(outdir *o, const char *name);   /* staged path of a file; valid until next call */
swgl_status outdir_commit(outdir *o);                    /* frees o */
int outdir_mkdirs(const char *path);                     /* mkdir -p: 0, or -1 with errno */
void outdir_abort(outdir *o);                            /* frees o; NULL is fine */
/* Writing in the background (output_dir.c): a file of the folder opened (created anew, a
 * file of that name before it unlinked; NULL with the message on failure), its parts written
 * by the folder's writer threads (outdir_file_write takes buf, malloc'd or from
 * outdir_buffer, and frees or keeps it once written, also on failure; the caller waits while
 * too much is queued; SWGL_ERR_IO, naming the file, once a write of the folder has failed),
 * then closed by the caller (the file is shut once its last part is in).  outdir_write_async: a whole file in
 * one part.  outdir_flush waits for every part and gives the first failure, naming its
 * file; outdir_commit flushes first and commits nothing after a failure. */
typedef struct outdir_file outdir_file;
outdir_file *outdir_file_open(outdir *o, const char *name);
swgl_status outdir_file_write(outdir *o, outdir_file *f, size_t offset, void *buf, size_t bytes);
void outdir_file_close(outdir *o, outdir_file *f);    /* NULL is fine */
swgl_status outdir_write_async(outdir *o, const char *name, void *buf, size_t bytes);
swgl_status outdir_flush(outdir *o);
/* A buffer of at least bytes for outdir_file_write: one written already where there is one
 * (its pages in memory), else malloc's; NULL when out of memory. */
void *outdir_buffer(outdir *o, size_t bytes);
/* Whether outdir_commit swaps the folders with one atomic exchange (renameat2
 * RENAME_EXCHANGE, the default: on) or, off, as where the file system has none: old aside,
 * new in, old removed (tests/test_output.c runs that path).  For the whole process. */
void outdir_set_exchange(int on);

/* ESRI ASCII grid of nx*ny values, row j = 0 the southern one (written last).
 * Cells with mask[k] == 0 (mask may be NULL) are written as NODATA_value -9999. */
swgl_status asc_write(const char *path, int nx, int ny, double xll, double yll, double dx,
                      double dy, const double *v, const unsigned char *mask);

/* ESRI binary float grid: the floats in flt_path, their header in hdr_path (output_flt.c
 * says the format; GDAL's EHdr driver reads it), rows and NODATA as asc_write's. */
swgl_status flt_write(const char *flt_path, const char *hdr_path, int nx, int ny, double xll, double yll, double dx,
                      double dy, const double *v, const unsigned char *mask);

/* The grids' format ([output] grids): auto (the default) writes ESRI binary float grids
 * (.flt + .hdr) from GRID_FLT_CELLS cells up and ESRI ASCII grids (.asc) below; asc and
 * flt always that one. */
enum { GRID_FORMAT_AUTO = 0, GRID_FORMAT_ASC = 1, GRID_FORMAT_FLT = 2 };
#define GRID_FLT_CELLS (1024.0 * 1024.0)
int grid_format_of(int requested, int nx, int ny);        /* GRID_FORMAT_ASC or _FLT */
const char *grid_format_ext(int requested, int nx, int ny);   /* "asc" or "flt" */
/* The grid `name` (no extension) in od in that format: name.asc, or name.flt and name.hdr. */
swgl_status grid_write(outdir *od, const char *name, int format, int nx, int ny, double xll, double yll, double dx,
                       double dy, const double *v, const unsigned char *mask);
/* A grid's values where they lie, so that a writer needs no copy of them: cell (i, j)'s value
 * is v[j stride + i] (a field with a ghost ring: &f[grid_in(nx, 0, 0)], stride its row's),
 * plus add[j nx + i] where add is not NULL (eta: h and the bed), written as NODATA where
 * mask[j nx + i] is 0 (mask NULL: none), where it is not finite, and, with neg_nodata,
 * where it is negative (a time never reached). */
typedef struct grid_values {
    const double *v;
    size_t stride;
    const double *add;
    const unsigned char *mask;
    int neg_nodata;
} grid_values;
static inline double grid_value_at(const grid_values *g, int nx, int i, int j)
{
    const double x = g->v[(size_t)j * g->stride + (size_t)i];
    return g->add ? x + g->add[(size_t)j * (size_t)nx + (size_t)i] : x;
}
static inline int grid_value_kept(const grid_values *g, int nx, int i, int j, double x)
{
    return (!g->mask || g->mask[(size_t)j * (size_t)nx + (size_t)i]) && !(g->neg_nodata && x < 0);
}
swgl_status grid_write_at(outdir *od, const char *name, int format, int nx, int ny, double xll, double yll, double dx,
                          double dy, const grid_values *g);
/* asc_write of such values */
swgl_status asc_write_at(const char *path, int nx, int ny, double xll, double yll, double dx, double dy,
                         const grid_values *g);

/* (The reader of rasters, ESRI ASCII grids among them, is raster.h's.) */

/* Colour maps for png_write_field. */
enum colormap { CMAP_DEPTH = 0,   /* white -> blue -> dark blue, for water depth */
                CMAP_DIVERGING,   /* blue -> white -> red */
                CMAP_VIRIDIS,     /* perceptual, for sand fraction and the like */
                CMAP_TERRAIN };   /* grey shaded relief, for basin height */

/* A PNG of an nx*ny field (row j = 0 southern at the bottom), each cell scale x scale
 * pixels (scale 0: chosen so the picture is about 800 px wide; a grid longer than 2048
 * cells on a side is drawn every so many cells, about 2048 px on that side), with a colour bar from
 * vmin to vmax labelled with its end values, title and units drawn in a built-in font.
 * Cells with mask[k] == 0 are grey.  When relief is non-NULL the picture is hill-shaded
 * by it (same size as v). */
swgl_status png_write_field(const char *path, int nx, int ny, const double *v,
                            const unsigned char *mask, const double *relief, double vmin,
                            double vmax, enum colormap cmap, int scale, const char *title,
                            const char *units);
/* The same with v's rows v_stride values apart (a field with its ghost ring: from its
 * first interior cell, stride nx + 2), read where it lies. */
swgl_status png_write_field_at(const char *path, int nx, int ny, const double *v, size_t v_stride,
                               const unsigned char *mask, const double *relief, double vmin, double vmax,
                               enum colormap cmap, int scale, const char *title, const char *units);

/* summary.json: an ordered list of members written in one go. */
typedef struct json_writer json_writer;
json_writer *json_open(const char *path);                        /* NULL on failure */
void json_str(json_writer *w, const char *key, const char *value);
void json_num(json_writer *w, const char *key, double value);   /* NaN/inf written as null */
void json_int(json_writer *w, const char *key, long long value);
void json_bool(json_writer *w, const char *key, int value);
void json_begin_object(json_writer *w, const char *key);
void json_end_object(json_writer *w);
swgl_status json_close(json_writer *w);                          /* frees w */

#endif
