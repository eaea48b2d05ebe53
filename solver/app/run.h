/* run.h — what the command line hands to the run driver, and the benches. */
#ifndef SWGL_RUN_H
#define SWGL_RUN_H

#include "scenario.h"
#include "scheme.h"

typedef struct run_options {
    const char *out_dir;        /* --out DIR (default "out") */
    enum backend backend;       /* --backend gpu|cpu|cpu-scalar */
    enum backend compare;       /* --compare cpu|cpu-scalar|gpu (BACKEND_NONE: no comparison) */
    int device;                 /* --device N, -1: SWGL_DEVICE or automatic */
    enum precision_choice precision;   /* --precision single|double (sediment on the GPU) */
    int quiet;                  /* --quiet: no progress, no summary on stdout */
    int progress;               /* TIMELOOP_PROGRESS_TTY (stderr a terminal), _LINES (not), 0 (--quiet) */
    const char *restart;        /* --restart PREVIOUS/run.nc, or NULL */
    double restart_time;        /* --restart-time T, or -1: the latest stored state */
} run_options;

/* The one run driver of every scheme (run.c): runs the scenario's scheme on the chosen
 * backend through the time loop (and, with --compare, on a second one), writes the
 * snapshots at output_times, DIR/summary.json, the final grids and pictures (through
 * output.h's staging, so a failure leaves DIR as it was), prints a short summary on
 * stdout unless quiet, and returns the process exit status: 0, 1 on an error, 128 + N
 * after signal N (SIGINT, SIGTERM: the run stops after its step and writes the state
 * reached as its last, summary.json saying "interrupted"). */
int run_scenario(const scenario *sc, const run_options *opt);

/* swgl trace SCENARIO|--case NAME [--steps N] [--out DIR] (trace.c). */
int cmd_trace(int argc, char **argv);
/* swgl validate (validate.c) and swgl grid-from-mesh (grid_from_mesh.c) */
int cmd_validate(int argc, char **argv);
int cmd_grid_from_mesh(int argc, char **argv);

/* swgl bench gpgpu | roe | sediment: argv[0] is the bench's name. */
int bench_gpgpu(int argc, char **argv);
int bench_roe(int argc, char **argv);
int bench_kp(int argc, char **argv);
int bench_scaling(int argc, char **argv);   /* mpirun -n P swgl bench scaling (bench_scaling.c) */
int bench_sediment(int argc, char **argv);
/* The GL context of a bench (device -1: SWGL_DEVICE or automatic); NULL after printing
 * why. */
struct gpu_context;
struct gpu_context *bench_context(int device);
/* GB/s of a 2048^2 float4 copy pass on the current context (ping-pong, best of 3). */
double bench_copy_ceiling_gbs(void);

#endif
