/* gpu_hold.h — the held time step on a GPU backend (scheme_hold_ops, timeloop.c): a copy
 * on the device of the arrays a step changes (the state, the flood maps), taken at a
 * window's start and written back where the window goes back; and a row of slots that
 * keeps each quiet stage's bound (the reduction's 1x1 result, copied there) until the
 * window's end reads them back at once.  Shared by the roe and kp GPU backends.  The
 * copies are passes (gpgpu's strip.glsl), not glBlitFramebuffer: on an H200 a blit of one
 * texel a step halved roe's speed at 4096^2 on gpu-compute. */
#ifndef SWGL_GPU_HOLD_H
#define SWGL_GPU_HOLD_H

#include "gpu_pass.h"
#include "scheme.h"

#define GPU_HOLD_ARRAYS 8

typedef struct gpu_hold {
    gpu_array2d *copy[GPU_HOLD_ARRAYS];   /* the saved arrays, made at the first save */
    int n;
    gpu_array2d *slots;                   /* SCHEME_HOLD_SLOTS x 1 */
    gpu_program *copy_prog[2];            /* gpgpu's strip.glsl, float and uint arrays */
    unsigned char recorded[SCHEME_HOLD_SLOTS];
} gpu_hold;

/* Copies the n arrays (at most GPU_HOLD_ARRAYS, the same list at every call) into h's. */
swgl_status gpu_hold_save(gpu_hold *h, gpu_array2d *const *a, int n);
/* Copies h's back into the n arrays (the list saved). */
swgl_status gpu_hold_restore(gpu_hold *h, gpu_array2d *const *a, int n);
/* The 1x1 result of a bound's reduction into slot `slot`; a slot not recorded reads +inf. */
swgl_status gpu_hold_record(gpu_hold *h, int slot, const gpu_array2d *bound);
void gpu_hold_skip(gpu_hold *h, int slot);
/* Slots 0..n-1 read back: component `channel` of each (its infinity +inf), then every slot
 * counts as not recorded. */
swgl_status gpu_hold_read(gpu_hold *h, int n, int channel, double *out);
void gpu_hold_destroy(gpu_hold *h);

#endif
