/* points.h — a table of named points, read from a CSV file: the gauges of a scenario given
 * as `[gauges] KEY = FILE.csv` (docs/scenarios.md), e.g. the Malpasset observation files
 * of the shared data folder, so that their coordinates are read where they are kept.
 *
 * Format: one point a line, `id,x,y[,...]` (further columns are ignored); fields are
 * separated by commas; lines starting with '#' and blank lines are skipped; the first
 * other line is a header when its x field is not a number.  An id is 1 to 15 printable
 * characters (no space, no comma); x, y are finite numbers.  At most POINTS_MAX points.
 * Any failure: SWGL_ERR_INPUT (or SWGL_ERR_NO_MEMORY) with one line naming the file and
 * the line and what was expected. */
#ifndef SWGL_POINTS_H
#define SWGL_POINTS_H

#include <stdio.h>

#include "swgl_error.h"

#define POINTS_MAX 4096
#define POINTS_ID_MAX 15

typedef struct point_table {
    int n;
    char (*id)[POINTS_ID_MAX + 1];
    double *x, *y;
} point_table;

/* Reads f (name: for messages) into *t (zeroed first; points_free it in any case). */
swgl_status points_read(FILE *f, const char *name, point_table *t);
void points_free(point_table *t);

#endif
