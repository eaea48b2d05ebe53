/* run.h — what the command line hands to a scheme's driver, and the drivers. */
#ifndef SWGL_RUN_H
#define SWGL_RUN_H

#include "scenario.h"

enum backend { BACKEND_GPU = 0, BACKEND_CPU = 1, BACKEND_CPU_SCALAR = 2, BACKEND_NONE = -1 };
enum precision_choice { PRECISION_AUTO = 0, PRECISION_SINGLE = 1, PRECISION_DOUBLE = 2 };

typedef struct run_options {
    const char *out_dir;        /* --out DIR (default "out") */
    enum backend backend;       /* --backend gpu|cpu|cpu-scalar */
    enum backend compare;       /* --compare cpu|cpu-scalar (BACKEND_NONE: no comparison) */
    int device;                 /* --device N, -1: SWGL_DEVICE or automatic */
    enum precision_choice precision;   /* --precision single|double (sediment) */
    int quiet;                  /* --quiet: no progress, no summary on stdout */
    int progress;               /* a progress line on stderr (stderr is a terminal, not quiet) */
} run_options;

const char *backend_name(enum backend b);

/* Each driver runs the scenario, writes DIR/summary.json, the grids and the pictures
 * (through output.h's staging, so a failure leaves DIR as it was), prints a short
 * summary on stdout unless quiet, and returns the process exit status (0 or 1). */
int roe_run(const scenario *sc, const run_options *opt);
int sediment_run(const scenario *sc, const run_options *opt);

/* Fields on the ghost-ring layout of swe.h / sediment.h ((nx+2)*(ny+2), row-major):
 * ring_interior copies the nx*ny interior into a new malloc'ed array (row j = 0 southern);
 * ring_volume is the Kahan sum of v * cell over the interior cells whose code is 0
 * (code NULL: every interior cell). */
double *ring_interior(const double *v, int nx, int ny);
double ring_volume(const double *v, const unsigned char *code, int nx, int ny, double cell);

/* swgl bench gpgpu | roe | sediment: argv[0] is the bench's name. */
int bench_gpgpu(int argc, char **argv);
int bench_roe(int argc, char **argv);
int bench_sediment(int argc, char **argv);
/* GB/s of a 2048^2 float4 copy pass on the current context (ping-pong, best of 3). */
double bench_copy_ceiling_gbs(void);

#endif
