/* sediment_gpu.h — the sediment scheme of Su et al. (2013) as fragment passes: per step
 * an h pass, (3), then an s pass, (4) or its flux form (cpu_ref/sediment.h,
 * docs/sediment.md), in single (RGBA32F) or double precision (doubles packed two per
 * RGBA32UI texel; needs GL_ARB_gpu_shader_fp64).  Shaders: shaders/sed_*.glsl. */
#ifndef SWGL_SEDIMENT_GPU_H
#define SWGL_SEDIMENT_GPU_H

#include "gpu_error.h"
#include "sediment.h"

typedef struct sed_gpu sed_gpu;

/* use_double: 1 for double (the caller checks gpu_context_info()->has_fp64 first; without
 * it the passes fail to compile, SWGL_ERR_COMPILE), 0 for single.  p is copied (alpha,
 * beta too); its arguments are checked by sed_problem_check, as on the CPU (SWGL_ERR_ARG). */
swgl_status sed_gpu_create(const sed_problem *p, int use_double, sed_gpu **out);
void sed_gpu_destroy(sed_gpu *g);
/* arrays of (nx+2)*(ny+2) doubles laid out as in sediment.h; ghosts of the input are
 * ignored, the output's ghosts are set by the ghost rule (as sed_cpu_get_state). */
swgl_status sed_gpu_set_state(sed_gpu *g, const double *h, const double *s);
swgl_status sed_gpu_get_state(sed_gpu *g, double *h, double *s);
/* steps of h pass then s pass with the problem's dt; sed_gpu_run_dt with another dt
 * (0 < dt <= p->dt: a step cut short to land on a time), whose passes are built on
 * first use and kept for the next call with the same dt. */
swgl_status sed_gpu_run(sed_gpu *g, int steps);
swgl_status sed_gpu_run_dt(sed_gpu *g, int steps, double dt);
/* Over MPI ranks, the step overlapped with the halo exchange (scheme_mpi_halo.c): the step
 * with the problem's dt drawn in parts into the state to come, r[0..n-1] (x, y, w, h in the
 * texture's coordinates, the ghost ring at 0): first (inner 1) the points that read no halo
 * point, the passes before the last drawn as far as it reads, then (inner 0) the rest;
 * sed_gpu_take(dt) then makes it the state (a dt other than the problem's: the step drawn
 * anew, whole).  A step not drawn in parts, take draws it whole. */
swgl_status sed_gpu_parts(sed_gpu *g, const int (*r)[4], int n, int inner);
swgl_status sed_gpu_take(sed_gpu *g, double dt);
/* 1: the h pass reads alpha s and beta (1 - s) stored by a pass of their own (the OPT-2
 * analog: sed_kpass.glsl + sed_h_opt.glsl); 0 (default): it recomputes them. */
void sed_gpu_set_opt2(sed_gpu *g, int on);
/* For the bench: reps of one pass alone (0 h pass, 1 s pass, 2 k pass + opt h pass),
 * leaving the state unchanged. */
swgl_status sed_gpu_run_pass(sed_gpu *g, int which, int reps);
int sed_gpu_is_double(const sed_gpu *g);

/* The profile (benches): GPU timer sections around the h and s passes from now on (on) or
 * none; drain adds up the sections the GPU has finished (wait: all of them). */
swgl_status sed_gpu_profile(sed_gpu *g, int on);
void sed_gpu_profile_drain(sed_gpu *g, int wait);

#endif
