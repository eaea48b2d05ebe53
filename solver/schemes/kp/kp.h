/* kp.h — the Kurganov-Petrova scheme as Brodtkorb et al. (2011) run it, behind scheme.h
 * (docs/kp.md): its problem built from a scenario (kp.c), and its backends (kp_gpu.c:
 * fragment passes, shaders/kp/; kp_cpu.c: cpu_ref/kp_cpu.h). */
#ifndef SWGL_KP_H
#define SWGL_KP_H

#include "kp_cpu.h"
#include "scheme.h"
#include "swe_forcing.h"

/* What scheme_setup.problem points to for scheme = kp. */
typedef struct kp_setup_problem {
    kp_problem p;            /* the arrays below, the setup's code */
    double *H;               /* grid_size: -B_ij */
    double *Bc;              /* (nx+1)(ny+1) corner bed elevations */
    double *manning;         /* grid_size, or NULL when n = 0 everywhere */
    swe_forcing_store forcing;   /* boundary data, rain, sources (p.sw.forcing) */
    double datum;            /* m: the elevation Bc and H are measured from (kp.c) */
} kp_setup_problem;

extern const scheme_backend kp_backend_gpu, kp_backend_cpu, kp_backend_cpu_scalar;

#endif
