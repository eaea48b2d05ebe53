/* gpu_internal.h — what the gpgpu files share with each other and nobody else. */
#ifndef SWGL_GPU_INTERNAL_H
#define SWGL_GPU_INTERNAL_H

/* The vertex array object and the full-screen vertex shader every pass draws with;
 * created on first use in the current context, released by gpu_context_destroy. */
unsigned gpu_internal_vao(void);
unsigned gpu_internal_vertex_shader(void);
void gpu_internal_release(void);
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
