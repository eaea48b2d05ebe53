/* gpu_gather.h — a handful of texels of an array read back at once: one pass gathers them
 * into an n x 1 array (shaders/gpgpu/gather.glsl), one read-back brings them (a run's
 * gauges: where a read of one texel each costs a round trip to the GPU per texel).
 *
 *     gpu_gather *g;
 *     gpu_gather_create(n, xs, ys, &g);       the cells, fixed for the object's life
 *     gpu_gather_read(g, state, v);           v: 4 n floats, texel k's (x, y, z, w)
 *     gpu_gather_destroy(g);
 *
 * RGBA32F arrays only (an RGBA32UI array is read texel by texel by its caller). */
#ifndef SWGL_GPU_GATHER_H
#define SWGL_GPU_GATHER_H

#include "gpu_array2d.h"

typedef struct gpu_gather gpu_gather;

swgl_status gpu_gather_create(int n, const int *x, const int *y, gpu_gather **out);
/* whether g gathers exactly these n cells (so a caller may keep it) */
int gpu_gather_same(const gpu_gather *g, int n, const int *x, const int *y);
swgl_status gpu_gather_read(gpu_gather *g, const gpu_array2d *src, float *v);
void gpu_gather_destroy(gpu_gather *g);
/* The texels of src at g's cells kept on the GPU where the step that wrote clock (gpu_clock.h)
 * landed on a stop: into row (stop - first) of an n x rows array held by g (made, zeroed,
 * by gpu_gather_capture_begin; a GL 4.3 kernel, shaders/gpgpu/capture.glsl); then row k's n
 * texels (4 n floats in *v, held by g until the next capture), all rows read back at once
 * when a row is first asked for. */
swgl_status gpu_gather_capture_begin(gpu_gather *g, int rows);
swgl_status gpu_gather_capture(gpu_gather *g, const gpu_array2d *src, const gpu_array2d *clock, int first);
swgl_status gpu_gather_capture_row(gpu_gather *g, int k, int n, const float **v);
/* The n texels of src at the linear indices idx (texel k = y w + x, w the array's width)
 * into v (4 n floats) through *g, made (again) when it gathers other cells (*g NULL at
 * first; the caller destroys it). */
swgl_status gpu_gather_texels(gpu_gather **g, const gpu_array2d *src, const size_t *idx, int n, float *v);
/* *g made (again) for the cells idx of arrays as wide as src, as gpu_gather_texels does */
swgl_status gpu_gather_for(gpu_gather **g, const gpu_array2d *src, const size_t *idx, int n);

#endif
