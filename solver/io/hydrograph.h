/* hydrograph.h — time series files (hydrographs, tides, rain): CSV with a header line that
 * names the two columns (units in the names, e.g. "time_s,discharge_m3s"), then one row
 * "time, value" per line, times strictly increasing, at least two rows.  Blank lines and
 * lines starting with '#' are skipped; a trailing '\r' is ignored.  Between rows the
 * value is interpolated linearly; before the first time it is the first value, after the
 * last the last (cpu_ref/swe.h swe_series_at). */
#ifndef SWGL_HYDROGRAPH_H
#define SWGL_HYDROGRAPH_H

#include <stddef.h>
#include <stdio.h>

#include "swgl_error.h"

#define HYDROGRAPH_MAX_ROWS 10000000

typedef struct hydrograph {
    int n;
    double *t, *v;
} hydrograph;

/* Reads f (named name in messages).  lo, hi: the range every value must lie in (what =
 * "a discharge >= 0" says so in the message).  On failure SWGL_ERR_INPUT with one line
 * "NAME:LINE: what was found: what was expected" (no line for a file with too few
 * rows), or SWGL_ERR_NO_MEMORY; *h is then empty. */
swgl_status hydrograph_read(FILE *f, const char *name, double lo, double hi, const char *what, hydrograph *h);
/* The same from a path (SWGL_ERR_IO naming it when it cannot be opened). */
swgl_status hydrograph_load(const char *path, double lo, double hi, const char *what, hydrograph *h);
void hydrograph_free(hydrograph *h);
/* The value at t, and the exact mean over [t, t + dt] of the piecewise-linear series
 * (the integral over the step divided by dt; the value at t where dt <= 0): the one
 * formula of gpgpu/base/swgl_series.h, which the solvers apply over each step. */
double hydrograph_at(const hydrograph *h, double t);
double hydrograph_mean(const hydrograph *h, double t, double dt);

#endif
