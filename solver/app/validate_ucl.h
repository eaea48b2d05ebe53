/* validate_ucl.h — the parts of `swgl validate ucl RUNDIR` (validate_ucl.c: the gauges'
 * comparison, the tables and the command; validate_ucl_read.c: the measurements' tables
 * and the run's gauges.csv; validate_ucl_velocity.c: the velocity fields;
 * validate_ucl_plot.c: the gnuplot scripts).  Every function here returns 0, or 1 after
 * one line on stderr naming the file (and line) and what was expected. */
#ifndef SWGL_VALIDATE_UCL_H
#define SWGL_VALIDATE_UCL_H

#include <stdlib.h>

#define NG 6                      /* gauges G1..G6 */
#define NT 5                      /* velocity-field times */
#define T_TEST 30.0               /* s, the experiment's duration */
#define RISE 0.01                 /* m, the arrival threshold: a rise this far above the initial layer */
#define LAYER 0.02                /* m, the channel's initial layer (the sketch's h0), measured G1..G5 */
#define BIAS_T0 15.0              /* s, the window of the mean bias: BIAS_T0 .. T_TEST */
#define WET 1e-3                  /* m, wet cells for the velocity comparison */

extern const double ucl_gauge_xy[NG][2];   /* G1..G6, m, the experiment's frame */
extern const int ucl_field_t[NT];          /* s, the velocity fields' times */

/* "swgl validate ucl: " and the message on stderr; returns 1 */
int ucl_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ucl_fail, then free(b) (the message may point into it), then return 1 */
#define FAIL_FREE(b, ...)                 \
    do {                                  \
        int r_ = ucl_fail(__VA_ARGS__);   \
        free(b);                          \
        return r_;                        \
    } while (0)

/* dir/name, malloc'ed; NULL when out of memory */
char *ucl_join(const char *dir, const char *name);

/* ---- the measurements (validate_ucl_read.c) ---- */

/* a table of ncol numbers a row: header lines (the first field not a number) up to the
 * first row of numbers, then every row must be numbers (empty cells NaN; blank lines are
 * skipped); column 0 (time or x) is required.  headers receives the header lines' fields
 * (hdr[line][col], copies) for the caller's checks.  increasing: column 0 is a time that
 * must increase from row to row. */
typedef struct {
    int nrow, ncol;
    double *v;            /* nrow * ncol */
    char hdr[4][16][32];  /* up to 4 header lines of up to 16 fields */
    int nhdr, hdr_n[4];
} table;

int ucl_read_table(const char *path, int ncol, int min_col, int increasing, table *t);
/* column indices of G1..Gmax in a header line of gauge names (first occurrence, or the
 * second when second is set); 0 when every one was found */
int ucl_gauge_columns(const table *t, int ngauge, int second, int *col);

/* the run's gauges.csv: time, and h, u, v at G1..G6 */
typedef struct {
    int n;
    double *t, *h[NG], *u[NG], *v[NG];
} sim_series;

void ucl_sim_free(sim_series *s);
int ucl_read_gauges_csv(const char *path, sim_series *s);

/* ---- the velocity fields (validate_ucl_velocity.c) ---- */

typedef struct {
    int n, ndry, nout;
    double rms_speed, mean_meas, mean_sim, rms_vec;
} vel_stats;

/* the run's h, qx, qy at T s against building_vel_tTT.txt; writes ucl_velocity_tT.csv;
 * the grid's corner into grid_xll, grid_yll */
int ucl_velocity_field(const char *run_dir, const char *ucl_dir, const char *out_dir, int T, vel_stats *vs,
                       double *grid_xll, double *grid_yll);

/* ---- the gnuplot scripts (validate_ucl_plot.c) ---- */

/* shift: the measured record's time origin moved by this (s; NaN: no shifted curve) */
int ucl_write_gauges_gp(const char *path, double shift);
/* done[k]: the field at ucl_field_t[k] was compared */
int ucl_write_velocity_gp(const char *path, const int *done);

#endif
