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
#include "gpu_mrt.h"
#include "gpu_program.h"

#define GPU_PASS_MAX_INPUTS 16
#define GPU_PASS_MAX_UNIFORMS 32

typedef struct gpu_rect { int x, y, w, h; } gpu_rect;

typedef struct gpu_pass {
    gpu_program *program;
    int n_inputs, n_uniforms;
    swgl_status error;          /* first error met while binding (reported by draw) */
    struct { const char *name; const gpu_array2d *array; } inputs[GPU_PASS_MAX_INPUTS];
    struct { const char *name; int kind; float f[4]; int i; } uniforms[GPU_PASS_MAX_UNIFORMS];
} gpu_pass;

void gpu_pass_begin(gpu_pass *p, gpu_program *prog);
void gpu_pass_array(gpu_pass *p, const char *name, const gpu_array2d *a);
void gpu_pass_float(gpu_pass *p, const char *name, float v);
void gpu_pass_int(gpu_pass *p, const char *name, int v);
void gpu_pass_vec2(gpu_pass *p, const char *name, float x, float y);
void gpu_pass_vec4(gpu_pass *p, const char *name, float x, float y, float z, float w);

/* rect NULL: the whole output. */
swgl_status gpu_pass_draw(gpu_pass *p, gpu_array2d *out, const gpu_rect *rect);
swgl_status gpu_pass_draw_mrt(gpu_pass *p, gpu_mrt *out, const gpu_rect *rect);

#endif
