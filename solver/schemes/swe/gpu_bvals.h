/* gpu_bvals.h — the boundary segments' values of a step on the GPU's clock, computed on the
 * GPU (shaders/swe/swe_bvals.glsl), shared by the roe and kp compute backends: where a
 * level or depth is a series (a tide, a stage hydrograph), each stage's values are the
 * series at that stage's time, and that time lives on the GPU's clock; a pass reads the
 * series from a table made once and writes the segments' array the flux kernels read
 * (kp_bv, roe_bv: (value, vmax) a segment), so that no step waits for the host.  The table's
 * times are kept relative to a time t_ref near the run's time (made again when the run has
 * moved 512 s from it), so that the float sums stay exact to a few 1e-5 s. */
#ifndef SWGL_GPU_BVALS_H
#define SWGL_GPU_BVALS_H

#include "gpu_clock.h"
#include "gpu_pass.h"
#include "swe.h"

typedef struct gpu_bvals {
    const swe_forcing *f;
    gpu_program *prog;
    gpu_array2d *table;   /* u_table of swe_bvals.glsl */
    int w, stride;        /* its width; texels a segment */
    double t_ref;         /* the table's time origin; NAN: not made yet */
    float *buf;
} gpu_bvals;

/* The pass and the table for f's segments (swe_forcing_faces_on_gpu) */
swgl_status gpu_bvals_create(gpu_bvals *b, const swe_forcing *f, const char *defs);
void gpu_bvals_destroy(gpu_bvals *b);
/* The segments' values into out (n_seg x 1) at t = t_cpu + the k most recent steps of clock
 * (k = 0: t_cpu, the clock unread; a step's clock after it: k = the steps the CPU has not
 * read back, this one included) */
swgl_status gpu_bvals_pass(gpu_bvals *b, gpu_array2d *out, double t_cpu, const gpu_array2d *clock, int k);

#endif
