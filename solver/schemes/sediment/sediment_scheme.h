/* sediment_scheme.h — the Su et al. (2013) sediment scheme behind scheme.h: its problem
 * built from a scenario, and its backends (sediment_gpu.c: fragment passes in single or
 * double precision; sediment_cpu.c: cpu_ref/sediment.h). */
#ifndef SWGL_SEDIMENT_SCHEME_H
#define SWGL_SEDIMENT_SCHEME_H

#include "scheme.h"
#include "sediment.h"

/* What scheme_setup.problem points to for scheme = sediment: arrays in the ghost-ring
 * layout, the inflow segment (the points whose coordinate along the side lies in
 * [inflow_from, inflow_to]), dt = sediment.dt when given (refused, naming the limit, when
 * above sed_dt_limit_state(p, h0)), else 0.9 x that limit; the run ends at
 * sediment.steps x dt when steps is given, else at run.t_end (the last step cut short to
 * land on it). */
typedef struct sed_setup {
    sed_problem p;
    double *alpha, *beta;           /* grid_size */
    double dt_limit;                /* sed_dt_limit_state of the initial heights */
} sed_setup;

extern const scheme_desc scheme_sediment;
extern const scheme_backend sediment_backend_gpu, sediment_backend_cpu, sediment_backend_cpu_scalar;

#endif
