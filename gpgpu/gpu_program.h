/* gpu_program.h — a fragment pass built from GLSL: the shared prelude
 * (shaders/prelude.glsl, which holds "#version 330 core"), optional defines, then the
 * pass's file shaders/NAME.glsl.  A line  #include "other.glsl"  in a pass pulls in a
 * shared file.  #line directives keep driver messages pointing at the right file and
 * line; a compile error reads
 *     pass 'NAME': roe_edge.glsl:42: <driver message>
 * followed by the driver's full log.
 *
 * Sources come from the copies embedded at build time, or from the folder named by
 * SWGL_SHADER_DIR when it is set (for development: the source tree's shaders/, whose
 * subfolders gpgpu/, roe/, sediment/ hold each module's files). */
#ifndef SWGL_GPU_PROGRAM_H
#define SWGL_GPU_PROGRAM_H

#include "gpu_error.h"

typedef struct gpu_program gpu_program;

/* name: the pass's file without ".glsl"; defines: extra lines placed after the
 * prelude (e.g. "#define PRECISION_DOUBLE 1\n"), may be NULL. */
swgl_status gpu_program_create(const char *name, const char *defines, gpu_program **out);
/* The same with the pass's source given as text (tests, tools); name is for messages. */
swgl_status gpu_program_create_from_source(const char *name, const char *source,
                                          const char *defines, gpu_program **out);
/* The same with its own vertex shader, the file shaders/VERTEX.glsl, in place of the
 * full-screen quad's: "#version 330 core", the defines, then the file with its #include
 * lines expanded (no prelude: the prelude's helpers are for fragments).  For a pass
 * drawn as many small quads (gpu_pass_draw_instanced): the vertex shader places them
 * (and may collapse one to nothing) from gl_VertexID and gl_InstanceID; its uniforms
 * and samplers are bound by name like the fragment pass's. */
swgl_status gpu_program_create_vs(const char *name, const char *vertex, const char *defines, gpu_program **out);
void gpu_program_destroy(gpu_program *p);      /* NULL is fine */
const char *gpu_program_name(const gpu_program *p);
unsigned gpu_program_handle(const gpu_program *p);
/* Location of a uniform (cached); -1 if the program has no such active uniform. */
int gpu_program_uniform(gpu_program *p, const char *name);

/* A table of shader files embedded at build time (shaders/embed.cmake makes one per
 * folder of shaders/), ended by {NULL, NULL}. */
struct swgl_embedded { const char *name; const char *text; };
/* Makes a table known to gpu_program_create and #include (gpgpu's own shaders are known
 * from the start; a scheme registers its folder before building its passes; registering
 * twice is harmless).  folder: its subfolder of SWGL_SHADER_DIR ("roe"). */
void gpu_shader_register(const char *folder, const struct swgl_embedded *files);

/* A shader file's text: from a registered table, or SWGL_SHADER_DIR/FOLDER/file; NULL if
 * it does not exist. */
const char *gpu_shader_source(const char *file);

/* Compute passes (the gpu-compute backend; GL 4.3): while on, gpu_program_create and
 * gpu_program_create_from_source build each pass's compute form from the same source
 * (prelude.glsl with SWGL_COMPUTE), which gpu_pass_draw and gpu_pass_draw_mrt dispatch
 * instead of drawing; passes with their own vertex shader stay fragment passes.  A
 * program keeps the form it was built in. */
void gpu_set_compute_passes(int on);
int gpu_compute_passes(void);
int gpu_program_is_compute(const gpu_program *p);

/* Kernels (GL 4.3): a compute shader written as one, for work a fragment pass cannot do
 * (shared memory across a work group, stores to several places, several stages of a
 * scheme fused into one dispatch).  Its source is "#version 430 core", SWGL_COMPUTE and
 * SWGL_KERNEL defined, the defines, the prelude, then shaders/NAME.glsl; the kernel
 * declares its work-group size and its own main(), its outputs as images
 * (SWGL_IMAGE(k, name): output k of the draw, or an image gpu_pass_image binds) and may
 * call the per-cell functions that the fragment passes call, so that no numerical code
 * is written twice.  gpu_pass_draw / _draw_mrt dispatch it over the rectangle (uniform
 * swgl_rect) in its work groups.  A clear error where the context is older than 4.3. */
swgl_status gpu_program_create_kernel(const char *name, const char *defines, gpu_program **out);
int gpu_program_is_kernel(const gpu_program *p);
/* The work-group size a compute program is dispatched in (16 x 16 for compute forms). */
void gpu_program_local_size(const gpu_program *p, int *x, int *y);
/* A kernel whose invocations each cover cx x cy cells (a loop of its own, e.g. a sweep
 * that carries values from one cell to the next): gpu_pass_draw then dispatches
 * ceil(w / (lx cx)) x ceil(h / (ly cy)) work groups over a w x h rectangle (default 1 x 1). */
void gpu_program_set_cells(gpu_program *p, int cx, int cy);
/* hx invocations of each row of a work group (its first and last, say) stand for cells beside
 * its tile and own none: a group then covers (local_size_x - hx) cx x local_size_y cy cells */
void gpu_program_set_helpers(gpu_program *p, int hx);
/* The cells one work group covers: the work-group size times the cells an invocation covers. */
void gpu_program_group_cells(const gpu_program *p, int *x, int *y);

/* Number of GL programs alive (for leak tests). */
int gpu_program_live_count(void);

#endif
