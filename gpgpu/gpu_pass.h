/* gpu_pass.h — Lastra's BindAndEnable*Param + DrawQuad: bind a program's inputs by
 * name and draw the full-screen quad (or a sub-rectangle) into an array or an MRT.
 *
 *     gpu_pass p;
 *     gpu_pass_begin(&p, prog);
 *     gpu_pass_array(&p, "u_state", state);
 *     gpu_pass_float(&p, "u_dt", dt);
 *     st = gpu_pass_draw(&p, next, NULL);
 *
 * A draw binds everything it needs and assumes no GL state left by another one.  An
 * input that is also an output is refused with SWGL_ERR_ALIAS (ping-pong instead).
 * A uniform name the program does not have is an error (SWGL_ERR_MISSING), so a typo
 * cannot pass silently. */
#ifndef SWGL_GPU_PASS_H
#define SWGL_GPU_PASS_H

#include "gpu_array2d.h"
#include "gpu_buffer.h"
#include "gpu_mrt.h"
#include "gpu_program.h"

#define GPU_PASS_MAX_INPUTS 16
#define GPU_PASS_MAX_UNIFORMS 48
#define GPU_PASS_MAX_IMAGES 4
#define GPU_PASS_MAX_BUFFERS 4

typedef struct gpu_rect { int x, y, w, h; } gpu_rect;

typedef struct gpu_pass {
    gpu_program *program;
    int n_inputs, n_uniforms;
    swgl_status error;          /* first error met while binding (reported by draw) */
    struct { const char *name; const gpu_array2d *array; } inputs[GPU_PASS_MAX_INPUTS];
    struct { const char *name; int kind; float f[4]; int i; unsigned u; double d[2]; } uniforms[GPU_PASS_MAX_UNIFORMS];
    int n_images;
    struct { int unit, rw; gpu_array2d *array; } images[GPU_PASS_MAX_IMAGES];
    int n_buffers;
    struct { int binding; gpu_buffer *buffer; } buffers[GPU_PASS_MAX_BUFFERS];
    /* the work groups of gpu_pass_dispatch_groups / _indirect (set: 1), else from the rectangle */
    struct { int set, gx, gy; const gpu_buffer *indirect; size_t offset; } groups;
} gpu_pass;

void gpu_pass_begin(gpu_pass *p, gpu_program *prog);
void gpu_pass_array(gpu_pass *p, const char *name, const gpu_array2d *a);
void gpu_pass_float(gpu_pass *p, const char *name, float v);
void gpu_pass_int(gpu_pass *p, const char *name, int v);
void gpu_pass_uint(gpu_pass *p, const char *name, unsigned v);
void gpu_pass_vec2(gpu_pass *p, const char *name, float x, float y);
void gpu_pass_vec4(gpu_pass *p, const char *name, float x, float y, float z, float w);
/* double and dvec2 uniforms (GL_ARB_gpu_shader_fp64: only for programs that enable it) */
void gpu_pass_double(gpu_pass *p, const char *name, double v);
void gpu_pass_dvec2(gpu_pass *p, const char *name, double x, double y);

/* An extra image for a kernel (gpu_program_create_kernel) at image unit `unit`, written
 * by the kernel where it pleases (e.g. one element per work group: a partial reduction);
 * units 0 .. outputs-1 are the draw's outputs. */
void gpu_pass_image(gpu_pass *p, int unit, gpu_array2d *a);
/* An image read and written in place (imageLoad and imageStore; SWGL_IMAGE_RW), by a kernel
 * or a compute pass (beside its outputs, at a unit above theirs): each invocation reads and
 * writes only its own elements. */
void gpu_pass_image_rw(gpu_pass *p, int unit, gpu_array2d *a);

/* A shader storage buffer for a kernel at `layout(std430, binding = binding)`, which the
 * kernel reads, writes or updates atomically; each dispatch is followed by a barrier, so
 * the next draw, dispatch or download sees what it wrote. */
void gpu_pass_buffer(gpu_pass *p, int binding, gpu_buffer *b);

/* A kernel dispatched over the index space nx x ny (swgl_rect = (0, 0, nx, ny)) in its
 * work groups, with no draw outputs: it writes only the images gpu_pass_image bound. */
swgl_status gpu_pass_dispatch(gpu_pass *p, int nx, int ny);

/* The same with the work groups given: gx x gy of them, or (indirect) the three counts a
 * buffer holds at byte offset (a multiple of 4), as glDispatchComputeIndirect reads them,
 * which an earlier kernel may have written; swgl_rect = (0, 0, nx, ny) either way (the
 * kernel decides which elements a group covers). */
swgl_status gpu_pass_dispatch_groups(gpu_pass *p, int gx, int gy, int nx, int ny);
swgl_status gpu_pass_dispatch_indirect(gpu_pass *p, const gpu_buffer *b, size_t offset, int nx, int ny);

/* rect NULL: the whole output. */
/* Every draw and dispatch from now on followed by a glGetError check (debugging the GL
 * layer; always so in a build without NDEBUG): the tuning's gl_check, the GL tests. */
void gpu_set_gl_check(int on);
swgl_status gpu_pass_draw(gpu_pass *p, gpu_array2d *out, const gpu_rect *rect);
swgl_status gpu_pass_draw_mrt(gpu_pass *p, gpu_mrt *out, const gpu_rect *rect);
/* For a program with its own vertex shader (gpu_program_create_vs): `instances`
 * instances of a triangle strip of `vertices` vertices (glDrawArraysInstanced, no vertex
 * buffer: the shader works from gl_VertexID and gl_InstanceID) into the whole output,
 * e.g. one small quad per tile, some collapsed to nothing. */
swgl_status gpu_pass_draw_instanced(gpu_pass *p, gpu_array2d *out, int vertices, int instances);
swgl_status gpu_pass_draw_mrt_instanced(gpu_pass *p, gpu_mrt *out, int vertices, int instances);

/* Drawn with a depth test into an MRT with a depth buffer (gpu_mrt_depth_create).
 * instances 0: the full-screen quad of the internal vertex shader, at window depth 0.5
 * (clip z = 0); instances > 0: as gpu_pass_draw_mrt_instanced (the program's vertex
 * shader sets the depth).  A fragment is kept where func(its depth, the stored one)
 * holds; write_depth stores its depth there; no_colour writes no colour (a depth-only
 * pass).  For the depth test to reject fragments before the shader runs (early-Z), the
 * program must neither write gl_FragDepth nor discard.  The state is restored after. */
typedef enum gpu_depth_func {
    GPU_DEPTH_ALWAYS = 0, GPU_DEPTH_LESS, GPU_DEPTH_LEQUAL, GPU_DEPTH_EQUAL, GPU_DEPTH_GREATER, GPU_DEPTH_GEQUAL,
    GPU_DEPTH_NEVER
} gpu_depth_func;
typedef struct gpu_depth_test {
    gpu_depth_func func;
    int write_depth, no_colour;
} gpu_depth_test;
swgl_status gpu_pass_draw_mrt_depth(gpu_pass *p, gpu_mrt_depth *out, const gpu_depth_test *test, int vertices,
                                    int instances);

/* Tracing (swgl trace): fn is called after every draw with the pass (its program and
 * inputs) and its output arrays; NULL turns it off.  For teaching and debugging: the
 * caller may read the arrays back (gpu_array2d_download). */
typedef void (*gpu_trace_fn)(void *user, const gpu_pass *p, gpu_array2d *const *outs, int n_outs);
void gpu_pass_trace(gpu_trace_fn fn, void *user);

#endif
