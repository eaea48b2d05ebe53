/* gpu_reductor.h — Lastra's GPUreductor: min, max or sum of each channel of a float4
 * array of any width and height >= 1, by repeated passes that each combine 2x2 blocks
 * (ceil(w/2) x ceil(h/2) out of w x h) down to 1x1; on compute passes min and max by a
 * kernel that combines 32x32 blocks a dispatch (gpu_reductor.c).  Its scratch arrays are
 * its own and are reused across calls of the same input size. */
#ifndef SWGL_GPU_REDUCTOR_H
#define SWGL_GPU_REDUCTOR_H

#include "gpu_array2d.h"

typedef enum gpu_reduce_op { GPU_REDUCE_MIN = 0, GPU_REDUCE_MAX = 1, GPU_REDUCE_SUM = 2 } gpu_reduce_op;

typedef struct gpu_reductor gpu_reductor;

swgl_status gpu_reductor_create(gpu_reductor **out);
void gpu_reductor_destroy(gpu_reductor *r);      /* NULL is fine */
/* Reduces in (RGBA32F) and reads the 1x1 result back into result[4]. */
swgl_status gpu_reductor_run(gpu_reductor *r, const gpu_array2d *in, gpu_reduce_op op, float result[4]);
/* The same, leaving the result on the GPU: *result is the 1x1 array (owned by the
 * reductor, valid until its next run; the input itself when it is 1x1). */
swgl_status gpu_reductor_run_gpu(gpu_reductor *r, const gpu_array2d *in, gpu_reduce_op op,
                                 const gpu_array2d **result);
/* The same, stopping as soon as the array has at most max_elems elements (the input
 * itself when it has): for a kernel that finishes the reduction in one work group. */
swgl_status gpu_reductor_run_gpu_until(gpu_reductor *r, const gpu_array2d *in, gpu_reduce_op op, int max_elems,
                                       const gpu_array2d **result);
/* Number of passes (2x2 passes or kernel dispatches) the last run took. */
int gpu_reductor_passes(const gpu_reductor *r);
/* how many chains of scratch arrays it has built so far (one an input size and pass kind,
 * kept for the sizes it reduces in turn: to test that a size's arrays are kept) */
unsigned long gpu_reductor_builds(const gpu_reductor *r);

#endif
