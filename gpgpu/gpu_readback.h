/* gpu_readback.h — reading a few elements of an array back without stalling the
 * pipeline: each request copies a small rectangle into a pixel-pack buffer (PBO) of a
 * ring and fences it (the whole of a small array by glGetTexImage, else glReadPixels); the data is fetched later, when the GPU has got there (poll) or
 * by waiting for it.  Requests come back in the order they were made. */
#ifndef SWGL_GPU_READBACK_H
#define SWGL_GPU_READBACK_H

#include "gpu_array2d.h"

#define GPU_READBACK_MAX 16

typedef struct gpu_readback gpu_readback;

/* slots: how many requests may be in flight (1..GPU_READBACK_MAX); each holds up to
 * max_elems elements (16 bytes each: RGBA32F, or RGBA32UI, whose bits come back as they
 * are in the floats of fetch's out). */
swgl_status gpu_readback_create(int slots, int max_elems, gpu_readback **out);
/* The same with the buffers mapped for good where the context can (gpu_readback_mapped: GL
 * 4.4 or GL_ARB_buffer_storage), so that a fetch is a copy from host memory and a view no
 * copy at all. */
swgl_status gpu_readback_create_mapped(int slots, int max_elems, gpu_readback **out);
int gpu_readback_mapped(const gpu_readback *r);
void gpu_readback_destroy(gpu_readback *r);      /* NULL is fine */
/* Requests [x, x+w) x [y, y+h) of a; SWGL_ERR_ARG when every slot is in
 * flight (fetch first). */
swgl_status gpu_readback_request(gpu_readback *r, const gpu_array2d *a, int x, int y, int w, int h);
int gpu_readback_pending(const gpu_readback *r);
/* The elements the oldest request in flight holds (0: none in flight). */
int gpu_readback_next(const gpu_readback *r);
/* The oldest request's data into out (w*h elements of 16 bytes, as stored: RGBA32F's
 * floats, RGBA32UI's bits): *ready = 1 and the slot is freed
 * when the GPU is done with it; wait = 0 only polls (*ready = 0 if not yet), wait = 1
 * blocks until it is. */
swgl_status gpu_readback_fetch(gpu_readback *r, int wait, void *out, int *ready);
/* As fetch, on mapped buffers only (SWGL_ERR_ARG else), without a copy: *p is the oldest
 * request's data in place, which stays there until that slot is requested again (the
 * slots are taken in turn: after slots - 1 more requests, not before). */
swgl_status gpu_readback_view(gpu_readback *r, int wait, const void **p, int *ready);

#endif
