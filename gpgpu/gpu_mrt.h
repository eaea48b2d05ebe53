/* gpu_mrt.h — Lastra's MRTGPUArray2D: 1 to 8 arrays of one size written by one pass
 * (multiple render targets).  Output k of the pass (layout(location = k)) goes to
 * member k.  The members are ordinary arrays, readable by later passes. */
#ifndef SWGL_GPU_MRT_H
#define SWGL_GPU_MRT_H

#include "gpu_array2d.h"

#define GPU_MRT_MAX 8

typedef struct gpu_mrt_desc {
    int width, height;
    int count;                       /* 1..8 (and at most GL_MAX_DRAW_BUFFERS) */
    gpu_format format[GPU_MRT_MAX];  /* per member; 0: RGBA32F */
    const char *label;
} gpu_mrt_desc;

typedef struct gpu_mrt gpu_mrt;

swgl_status gpu_mrt_create(const gpu_mrt_desc *desc, gpu_mrt **out);
void gpu_mrt_destroy(gpu_mrt *m);              /* NULL is fine; destroys the members (not a view's) */
/* An MRT over arrays the caller owns (count of them, one size; they outlive it): a pass
 * drawn into it writes them together, output k to arrays[k] (e.g. a state's members and a
 * scratch array of the same pass's by-product) */
swgl_status gpu_mrt_view(gpu_array2d *const *arrays, int count, const char *label, gpu_mrt **out);
int gpu_mrt_count(const gpu_mrt *m);
gpu_array2d *gpu_mrt_member(gpu_mrt *m, int k);
unsigned gpu_mrt_framebuffer(const gpu_mrt *m);

/* An MRT's members and a depth buffer of their size (24-bit, owned) in a framebuffer of
 * its own, for passes drawn with a depth test (gpu_pass_draw_mrt_depth): e.g. tiles
 * marked in the depth buffer, then a full-screen pass whose fragments there the depth
 * test rejects before the shader runs (early-Z).  The MRT must outlive it; the MRT's
 * own framebuffer is not changed.  The depth buffer's content is undefined until
 * cleared or drawn. */
typedef struct gpu_mrt_depth gpu_mrt_depth;
swgl_status gpu_mrt_depth_create(gpu_mrt *m, gpu_mrt_depth **out);
void gpu_mrt_depth_destroy(gpu_mrt_depth *d);   /* NULL is fine; not the MRT */
gpu_mrt *gpu_mrt_depth_colour(const gpu_mrt_depth *d);
unsigned gpu_mrt_depth_framebuffer(const gpu_mrt_depth *d);
/* Sets every depth value to `depth` (0..1). */
swgl_status gpu_mrt_depth_clear(gpu_mrt_depth *d, float depth);

#endif
