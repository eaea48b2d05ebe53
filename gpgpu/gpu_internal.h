/* gpu_internal.h — what the gpgpu files share with each other and nobody else. */
#ifndef SWGL_GPU_INTERNAL_H
#define SWGL_GPU_INTERNAL_H

#include <stddef.h>

#include "swgl_error.h"

/* ---- a program's source as it is assembled (gpu_source.c) ---- */

#define GPU_MAX_SOURCES 32

typedef struct gpu_srcbuf {
    char *s;
    size_t len, cap;
    const char *files[GPU_MAX_SOURCES];   /* source-string number -> file name */
    int nfiles;
} gpu_srcbuf;

/* Appends n bytes of s (formatted: fmt with two ints); 0, or -1 out of memory. */
int gpu_src_put(gpu_srcbuf *b, const char *s, size_t n);
int gpu_src_putf(gpu_srcbuf *b, const char *fmt, int a, int c);
/* Appends file text (source string id), expanding #include "x.glsl" lines. */
swgl_status gpu_src_append(gpu_srcbuf *b, const char *pass, const char *file, const char *text,
                           int first_line, int depth);
/* Rewrites "S:L(C): msg" (Mesa) and "S(L) : msg" (NVIDIA) as "file:L: msg"; first gets
 * the first error line. */
void gpu_src_rewrite_log(const gpu_srcbuf *b, const char *log, char *out, size_t outlen, char *first,
                         size_t firstlen);

/* ---- the rest ---- */

/* A rectangle of array a read into dst (client memory, or an offset into the pixel-pack
 * buffer bound), its elements as stored: the whole array by glGetTexImage (on NVIDIA's
 * driver in a GL 4.3 context a glReadPixels took 2.7 ms for a 4096 x 8 float4 array and
 * 8.7 ms for 4096 x 16 where glGetTexImage took 0.11 and 0.16 ms; in a 3.3 context both are
 * fast: docs/mpi.md, "The strips' path measured"), a part of it by glReadPixels from its
 * framebuffer (gpu_array2d.c).  The GL error is the caller's to check. */
struct gpu_array2d;
void gpu_internal_read(const struct gpu_array2d *a, int x, int y, int w, int h, void *dst);
/* Whether the current context has persistently mapped buffers (glBufferStorage: GL 4.4 or
 * GL_ARB_buffer_storage). */
int gpu_internal_buffer_storage(void);

/* The vertex array object and the full-screen vertex shader every pass draws with;
 * created on first use in the current context, released by gpu_context_destroy. */
unsigned gpu_internal_vao(void);
unsigned gpu_internal_vertex_shader(void);
void gpu_internal_release(void);
/* the pixel buffers of whole-array transfers (gpu_array2d.c), released with the rest */
void gpu_internal_transfer_release(void);
/* A compute program linked from the concatenated source parts (gpu_compute.c); 0 with the
 * message set (naming the pass, the line and the driver's log) on failure. */
unsigned gpu_internal_compute_program(const char *name, const char *const *parts, int nparts, swgl_status *st);
/* SWGL_PASS_PROFILE: prints the table of GPU time by program (gpu_pass.c); the context's
 * destroy calls it while the context is current. */
void gpu_pass_profile_report(void);

/* Limits of the current context (cached at context creation). */
int gpu_internal_max_texture_size(void);
int gpu_internal_max_draw_buffers(void);

/* Name of a glCheckFramebufferStatus result. */
const char *gpu_framebuffer_status_name(unsigned status);

#endif
