/* gpu_context.h — a headless EGL display and a GL 3.3 core context.
 *
 * Device choice: desc.device >= 0, else the environment variable SWGL_DEVICE, else
 * the first hardware GPU among the EGL devices (EGL_EXT_device_enumeration), else the
 * software device (llvmpipe), else EGL_DEFAULT_DISPLAY.  The context is surfaceless
 * (EGL_KHR_surfaceless_context) or, where that is missing, bound to a 1x1 pbuffer.
 * One context per process is current on the calling thread. */
#ifndef SWGL_GPU_CONTEXT_H
#define SWGL_GPU_CONTEXT_H

#include <stdio.h>
#include "gpu_error.h"

typedef struct gpu_context_desc {
    int device;          /* EGL device index; -1 (or 0-filled desc with use_device 0): automatic */
    int use_device;      /* nonzero: device is meaningful */
    int want_compute;    /* nonzero: a GL 4.3 core context (compute shaders) where the device
                          * offers one, else the 3.3 one (info.compute_context says which) */
    int rotate;          /* automatic choice: start from hardware GPU number `rotate` (modulo
                          * their count): one GPU each for the ranks of a node (MPI) */
} gpu_context_desc;

typedef struct gpu_info {
    int device_index;          /* -1: EGL_DEFAULT_DISPLAY */
    int device_count;
    int software;              /* llvmpipe / softpipe / swrast */
    char device_name[128];     /* EGL device extensions or DRM node, for information */
    char vendor[128];
    char renderer[256];
    char version[256];         /* GL_VERSION */
    char glsl_version[128];
    int gl_major, gl_minor;    /* of this context (3.3 core, or 4.3 with want_compute) */
    int max_gl_major, max_gl_minor; /* highest core version the driver offered */
    int has_fp64;              /* GL_ARB_gpu_shader_fp64 in this context */
    int has_compute;           /* a GL >= 4.3 core context can be had */
    int compute_context;       /* this context is GL >= 4.3 (want_compute asks for one; Mesa
                                * gives its highest version to a 3.3 request too) */
    int max_texture_size;
    int max_draw_buffers;
    char egl_version[64];
    char egl_vendor[128];
} gpu_info;

typedef struct gpu_context gpu_context;

swgl_status gpu_context_create(const gpu_context_desc *desc, gpu_context **out);
void gpu_context_destroy(gpu_context *ctx);                 /* NULL is fine */
/* The GL context current on the calling thread (an application's: GLFW, GLX, EGL), 3.3 core
 * or later, as a gpu_context whose destroy releases only what swgl made in it. */
swgl_status gpu_context_adopt(gpu_context **out);
const gpu_info *gpu_context_info(const gpu_context *ctx);

/* Lists the EGL devices (index, kind, name) on f; returns their number, -1 if the
 * device extensions are missing. */
int gpu_list_devices(FILE *f);

/* Blocks until the GPU has finished all submitted work (glFinish). */
void gpu_finish(void);

#endif
