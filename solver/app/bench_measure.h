/* bench_measure.h — the rule every timed figure of swgl bench roe, kp, sediment and scaling
 * follows (bench_gpgpu.c).  A configuration's run is a new sim from the same description run
 * to its t_end; its first run is a warm-up, not counted.  A measurement repeats the run until
 * the runs' stepping time (swgl_sim_stat "wall_s": no context creation, no shader compiles)
 * sums to at least min_s, and gives steps per second over its runs; three measurements are
 * made and the figure is their median, printed with their spread.  The step count printed
 * is one run's (the physics'), never the sum. */
#ifndef SWGL_BENCH_MEASURE_H
#define SWGL_BENCH_MEASURE_H

#include <stddef.h>

#define BENCH_REPEATS 3   /* measurements of a figure; the median is printed */
#define BENCH_EXTRA 8     /* figures a run may give beside its steps per second */

/* What one run gave: its stepping time and steps, and optionally more figures as units over
 * seconds (a pass's calls over its GPU seconds, the exchange's seconds over the wall) */
typedef struct bench_sample {
    double wall;    /* s of stepping (wall_s): what the rule sums */
    long steps;     /* the steps in wall */
    long run_steps; /* the run's steps, the warm-up's among them, as printed (0: steps) */
    double run_wall; /* the run's stepping time, the warm-up's in */
    int n;          /* extra figures */
    double units[BENCH_EXTRA], sec[BENCH_EXTRA];
} bench_sample;

/* One run of the configuration into s (zeroed before the call); 0, or nonzero after saying
 * what failed (on stderr).  Over MPI ranks every rank makes the same calls and gets the same
 * s->wall (the bench reduces it), so every rank repeats alike. */
typedef int (*bench_run_fn)(void *user, bench_sample *s);

typedef struct bench_figure {
    int ok;                                     /* 0: a run failed: no figure */
    long steps;                                 /* steps of one run (the last one's) */
    int runs;                                   /* runs of the three measurements (warm-up aside) */
    int n;                                      /* 1 + the extra figures */
    double m[1 + BENCH_EXTRA][BENCH_REPEATS];   /* the measurements, ascending: [0] steps/s, [1 + k] extra k */
} bench_figure;

/* The warm-up run, then BENCH_REPEATS measurements of at least min_s each; 0, or 1 where a
 * run failed (or stepped no time) */
int bench_measure(bench_run_fn run, void *user, double min_s, bench_figure *f);
/* The same after a warm-up run the caller made (bench scaling's first run, which also
 * times a step) */
int bench_measure_warmed(bench_run_fn run, void *user, double min_s, bench_figure *f);
/* Figure k's median (k = 0: steps per second; 1 + j: extra figure j), 0 without one */
double bench_median(const bench_figure *f, int k);
/* Figure k's spread: (largest - smallest) / median of its measurements, 0 without one */
double bench_spread(const bench_figure *f, int k);
/* One run's stepping time from the median: steps / (steps per second); -1 without one */
double bench_run_s(const bench_figure *f);
/* "12.3%": a spread (a fraction) as the tables' spread column prints it; "-" for none (< 0) */
void bench_fmt_spread(char *buf, size_t len, double spread);
/* "median of 3 x >= S s" (a static buffer), as every table's header states the rule */
const char *bench_rule(double min_s);
/* A sim's run to t_end with the GPU's clocks brought up first.  A GPU idles through a sim's
 * set-up (seconds at 4096^2: the initial state, shader compiles) and drops its clocks; under
 * load they take about 0.2 s to rise again (measured on an H200: 345 -> 1980 MHz, the first
 * ~50 steps of roe at 4096^2 at a fifth of the speed), so the first BENCH_WARM_S s of stepping
 * are stepped (whole steps, swgl_sim_step: the run's physics unchanged) and not counted, up to
 * half the run's simulated time.  Over MPI ranks every rank decides alike (the slowest rank's
 * wall).  out: wall and steps after the warm-up, run_steps the whole run's. */
#define BENCH_WARM_S 0.25
#include "swgl.h"
swgl_status bench_sim_run(swgl_sim *sim, double t_end, bench_sample *out);
/* the warm-up alone (bench scaling's runs count more than the steps) */
swgl_status bench_sim_warm(swgl_sim *sim, double t_end);
/* --min-time S: the seconds, or -1 where S is not a number > 0 */
double bench_parse_min_time(const char *s);

#endif
