/* tuning.h — the tuning choices that survived their measurements (issue 25 item 5): a typed
 * struct with defaults, set through the public API (swgl_sim_desc.tune, `--tune key=value`)
 * instead of environment variables.  One table of keys (tuning.c) parses, lists and
 * validates them; docs/performance.md has the measurements behind each default.
 *
 * A value of 0 (AxB: 0x0) in the fields marked "auto" means: the backend chooses by the
 * grid's size, as measured. */
#ifndef SWGL_TUNING_H
#define SWGL_TUNING_H

#include <stddef.h>
#include <stdio.h>

#include "swgl_error.h"

enum { TUNE_AUTO = -1, TUNE_OFF = 0, TUNE_ON = 1 };
/* kp.fused: the step on kernels (on), the flux kernel alone with the reduction, clock and
 * integration as passes after it (flux), or the passes (off) */
enum { TUNE_KP_FUSED_OFF = 0, TUNE_KP_FUSED_ON = 1, TUNE_KP_FUSED_FLUX = 2 };

typedef struct swgl_tuning {
    int clock_every;      /* a GPU backend's clock read back every N steps (1..63) */
    int clock_gauges;     /* a GPU backend lands on gauge-only stops on its own clock (run_stops) */
    int host_clock;       /* step on the host's clock: dt read back every step */
    int roe_fused;        /* gpu-compute roe: edge and dt passes as one kernel */
    int roe_group[2];     /* that kernel's work group */
    int kp_fused;         /* TUNE_KP_FUSED_* */
    int kp_group[2];      /* kp's flux kernel's work group (0x0: auto) */
    int kp_cells[2];      /* the cells an invocation of it sweeps (0x0: auto) */
    int kp_stage;         /* its group's texels in shared memory: TUNE_AUTO, OFF, ON */
    int kp_xshare;        /* a row's points shared between invocations: TUNE_AUTO, OFF, ON */
    int kp_max_groups;    /* the most work groups a dispatch of the step on kernels */
    int kp_rest;          /* kp's early exit skips tiles at rest too (the paper's second rule) */
    int mpi_blocks[2];    /* over MPI ranks: the blocks (0x0: the least cut) */
    int mpi_halo;         /* the halo's width in cells (0: the scheme's; tests) */
    int mpi_overlap;      /* the halo exchanged while stage 0 computes the inner cells: TUNE_AUTO
                           * (where measured to gain: kp on the fragment path, sediment), TUNE_ON, TUNE_OFF */
    int mpi_pack;         /* a GPU's halo strips moved by passes through small arrays */
    int mpi_mapped;       /* and through buffers mapped in the host's memory where GL has them (on) */
    int mpi_prefetch;     /* a GPU's strips of the next exchange read back after the step before it (off) */
    int mpi_every;        /* the halo exchanged every N steps, N times as wide (0: auto) */
    int mpi_choose;       /* the steps between exchanges measured at run time, N or N / 2 (auto: a GPU's auto N) */
    int mpi_verbose;      /* every rank prints, not only rank 0 */
    int gl_check;         /* every GL pass followed by a glGetError check (debugging) */
    int cpu_threads;      /* the fast CPU solvers' threads: 0 the cores other programs leave, N fixed */
    int cpu_isa;          /* roe's fast CPU solver's vector instructions: SWE_ISA_* (cpu_ref/swe.h) */
} swgl_tuning;

/* Every field at its default. */
void tuning_defaults(swgl_tuning *t);
/* The defaults where t is NULL: for the backends' `cfg->tune ? ... : ...`. */
const swgl_tuning *tuning_or_default(const swgl_tuning *t);

/* Sets t's fields from text: `key=value` items separated by commas or newlines (spaces
 * around them ignored, empty items skipped), over what t holds.  An unknown key, a bad value
 * or one out of range: SWGL_ERR_ARG with a message naming the key and what was expected
 * ("tune: kp.cells=9x1: expected AxB with 1 <= A <= 8, 1 <= B <= 64, or auto"); t may then
 * hold the items before it. */
swgl_status tuning_parse(swgl_tuning *t, const char *text);

/* The keys, a line each: name, type, default and help (swgl tune-keys). */
void tuning_print_keys(FILE *f);
/* The number of keys and key k's name (NULL past the last). */
int tuning_key_count(void);
const char *tuning_key_name(int k);

/* t's values as `key=value` items joined by commas, only those that differ from the
 * defaults (an empty string: all defaults). */
void tuning_format(const swgl_tuning *t, char *out, size_t len);

/* An AxB work group checked for a compute kernel (A, B >= min, A*B <= 1024 and the ring of
 * two in 32 KiB of shared memory); SWGL_ERR_ARG naming the key. */
swgl_status tuning_check_group(const char *key, const int g[2], int min);

/* The environment variables that were knobs before this struct, with the tune key that
 * replaced each or why it went: a warning on stderr, once a process, for each one set. */
void tuning_warn_removed_env(FILE *f);

#endif
