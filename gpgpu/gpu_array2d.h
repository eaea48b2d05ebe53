/* gpu_array2d.h — Lastra's GPUArray2D: one texture and the framebuffer that renders
 * into it.  Elements are RGBA32F (four floats, the default) or RGBA32UI (four 32-bit
 * unsigned ints, which hold two doubles packed with packDouble2x32: GPU_RGBA32UI). */
#ifndef SWGL_GPU_ARRAY2D_H
#define SWGL_GPU_ARRAY2D_H

#include "gpu_error.h"

typedef enum gpu_format { GPU_RGBA32F = 0, GPU_RGBA32UI = 1 } gpu_format;

typedef struct gpu_array2d_desc {
    int width, height;
    gpu_format format;        /* 0: RGBA32F */
    const char *label;        /* for messages; may be NULL */
} gpu_array2d_desc;

typedef struct gpu_array2d gpu_array2d;

/* Sizes above GL_MAX_TEXTURE_SIZE are refused with SWGL_ERR_TOO_LARGE. */
swgl_status gpu_array2d_create(const gpu_array2d_desc *desc, gpu_array2d **out);
void gpu_array2d_destroy(gpu_array2d *a);     /* NULL is fine */

int gpu_array2d_width(const gpu_array2d *a);
int gpu_array2d_height(const gpu_array2d *a);
gpu_format gpu_array2d_format(const gpu_array2d *a);
const char *gpu_array2d_label(const gpu_array2d *a);

/* data: 4 values (float or uint32 by format) per element, row-major, row 0 first
 * (row 0 is y = 0, the first row a pass sees in gl_FragCoord). */
swgl_status gpu_array2d_upload(gpu_array2d *a, const void *data);
swgl_status gpu_array2d_download(const gpu_array2d *a, void *data);
/* The same for the sub-rectangle [x, x+w) x [y, y+h); data holds w*h elements. */
swgl_status gpu_array2d_upload_rect(gpu_array2d *a, int x, int y, int w, int h, const void *data);
swgl_status gpu_array2d_download_rect(const gpu_array2d *a, int x, int y, int w, int h, void *data);
/* The sub-rectangle's elements as doubles, element k's at buf[stride k + offset ...]: an
 * RGBA32F element 4 values (widened; set: rounded back to float), an RGBA32UI element 2
 * (the bits of two doubles, as packDouble2x32 stores them).  set 0 reads the array into
 * buf, set 1 writes buf into the array. */
swgl_status gpu_array2d_rect_doubles(gpu_array2d *a, int set, int x, int y, int w, int h, double *buf, int stride,
                                     int offset);
/* The conversion rect_doubles makes, of n elements (16 bytes each, format f) in t: to buf
 * (widen) or from it (narrow). */
void gpu_elems_to_doubles(gpu_format f, const void *t, size_t n, double *buf, int stride, int offset);
void gpu_elems_from_doubles(gpu_format f, void *t, size_t n, const double *buf, int stride, int offset);
/* Whole arrays at the bus's speed, through two pixel buffers the layer keeps (grown to the
 * largest array; released with the context), read or written in place: no copy in host
 * memory and none of the driver's own.
 *   upload_map: the texels of a (w * h elements of 16 bytes, as upload's data) to fill;
 *   NULL with *st (and the message) set when the GL cannot map them.  upload_unmap: those texels into
 *   the n arrays to[] (each of a's size and format), in the order of the GPU's work.
 *   download_map: a's texels, read only, once the GPU has written them; NULL with *st set
 *   on failure.  download_unmap: done with them.
 * One map of each kind at a time. */
void *gpu_array2d_upload_map(const gpu_array2d *a, swgl_status *st);
swgl_status gpu_array2d_upload_unmap(gpu_array2d *const *to, int n);
const void *gpu_array2d_download_map(const gpu_array2d *a, swgl_status *st);
swgl_status gpu_array2d_download_unmap(void);   /* SWGL_ERR_GL where the GL lost the texels */
/* rect_doubles of a whole array of this many elements or more goes through the pixel
 * buffers, and the gpu_elems_ conversions of as many run on every core */
#define GPU_XFER_MAPPED_MIN ((size_t)1 << 16)
/* Fills every element with one value (4 floats or 4 uint32). */
swgl_status gpu_array2d_fill(gpu_array2d *a, const void *value);

/* For the gpgpu layer itself. */
unsigned gpu_array2d_texture(const gpu_array2d *a);
unsigned gpu_array2d_framebuffer(const gpu_array2d *a);

#endif
