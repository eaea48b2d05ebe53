/* gpu_program.h — a fragment pass built from GLSL: the shared prelude
 * (shaders/prelude.glsl, which holds "#version 330 core"), optional defines, then the
 * pass's file shaders/NAME.glsl.  A line  #include "other.glsl"  in a pass pulls in a
 * shared file.  #line directives keep driver messages pointing at the right file and
 * line; a compile error reads
 *     pass 'NAME': roe_edge.glsl:42: <driver message>
 * followed by the driver's full log.
 *
 * Sources come from the copies embedded at build time, or from the folder named by
 * SWGL_SHADER_DIR when it is set (for development). */
#ifndef SWGL_GPU_PROGRAM_H
#define SWGL_GPU_PROGRAM_H

#include "gpu_error.h"

typedef struct gpu_program gpu_program;

/* name: the pass's file without ".glsl"; defines: extra lines placed after the
 * prelude (e.g. "#define PRECISION_DOUBLE 1\n"), may be NULL. */
gpu_status gpu_program_create(const char *name, const char *defines, gpu_program **out);
/* The same with the pass's source given as text (tests, tools); name is for messages. */
gpu_status gpu_program_create_from_source(const char *name, const char *source,
                                          const char *defines, gpu_program **out);
void gpu_program_destroy(gpu_program *p);      /* NULL is fine */
const char *gpu_program_name(const gpu_program *p);
unsigned gpu_program_handle(const gpu_program *p);
/* Location of a uniform (cached); -1 if the program has no such active uniform. */
int gpu_program_uniform(gpu_program *p, const char *name);

/* A shader file's text: embedded copy or SWGL_SHADER_DIR; NULL if it does not exist. */
const char *gpu_shader_source(const char *file);

/* Number of GL programs alive (for leak tests). */
int gpu_program_live_count(void);

#endif
