/* gpu_compute.h — compute passes (GL 4.3 core): a GLSL compute shader dispatched over a
 * 2-D array, reading textures (texelFetch) and images, writing images; the layer under
 * the compute-shader backend (issue 13).  It needs a context created with
 * gpu_context_desc.want_compute where the device offers GL 4.3
 * (gpu_context_info()->compute_context); elsewhere every call fails with a message.
 *
 * The source handed to the driver is
 *     #version 430 core
 *     <defines>
 *     #line 1 0
 *     FILE.glsl (the shader file, embedded or from SWGL_SHADER_DIR like the fragment passes')
 * and the shader declares its own work-group size (layout(local_size_x = ...) in;).
 *
 *   gpu_compute *c;  gpu_compute_create("copy_cs", NULL, &c);
 *   gpu_compute_begin(c);
 *   gpu_compute_texture(c, "u_in", 0, a);                 // sampler2D u_in, texelFetch
 *   gpu_compute_image(c, 0, b, GPU_IMAGE_WRITE);          // layout(binding = 0) image2D
 *   gpu_compute_dispatch(c, width, height);               // then a memory barrier
 */
#ifndef SWGL_GPU_COMPUTE_H
#define SWGL_GPU_COMPUTE_H

#include "gpu_array2d.h"
#include "gpu_error.h"

typedef struct gpu_compute gpu_compute;

/* 1 if the current context is GL >= 4.3 core (compute shaders). */
int gpu_compute_available(void);

enum gpu_image_access { GPU_IMAGE_READ = 0, GPU_IMAGE_WRITE = 1, GPU_IMAGE_READ_WRITE = 2 };

/* file: the shader's file name without ".glsl" (shaders/gpgpu/NAME.glsl or a registered
 * folder's); defines: lines after #version (may be NULL). */
swgl_status gpu_compute_create(const char *file, const char *defines, gpu_compute **out);
swgl_status gpu_compute_create_from_source(const char *name, const char *source, const char *defines,
                                          gpu_compute **out);
void gpu_compute_destroy(gpu_compute *c);      /* NULL is fine */
/* The work-group size the shader declared. */
void gpu_compute_local_size(const gpu_compute *c, int *x, int *y);

void gpu_compute_begin(gpu_compute *c);                       /* glUseProgram */
/* sampler uniform name <- array on texture unit unit (-1 if the shader has no such uniform,
 * which is not an error: a driver removes unused ones) */
void gpu_compute_texture(gpu_compute *c, const char *name, int unit, const gpu_array2d *a);
/* image unit <- array (an RGBA32F array: layout(rgba32f); RGBA32UI: layout(rgba32ui)) */
void gpu_compute_image(gpu_compute *c, int unit, const gpu_array2d *a, enum gpu_image_access access);
void gpu_compute_uniform1i(gpu_compute *c, const char *name, int v);
void gpu_compute_uniform1f(gpu_compute *c, const char *name, float v);
/* ceil(nx / local x) x ceil(ny / local y) work groups, then a barrier so that what the
 * next pass fetches, loads or reads back sees the writes. */
swgl_status gpu_compute_dispatch(gpu_compute *c, int nx, int ny);

#endif
