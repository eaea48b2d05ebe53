/* gpu_mrt.c — Lastra's MRTGPUArray2D: one framebuffer with 1..8 colour attachments,
 * each an ordinary gpu_array2d owned by the MRT. */
#include "gpu_mrt.h"

#include <stdio.h>
#include <stdlib.h>

#include "gl.h"
#include "gpu_internal.h"

struct gpu_mrt {
    int count;
    gpu_array2d *member[GPU_MRT_MAX];
    GLuint fbo;
    int view;   /* gpu_mrt_view: the members are the caller's */
};

/* A framebuffer *fbo over m's members (draw buffers 0..count-1), with the depth renderbuffer
 * rb where not 0; checked complete ("MRT 'label'<with>: framebuffer ...") */
static swgl_status make_fbo(const gpu_mrt *m, GLuint rb, GLuint *fbo, const char *label, const char *with)
{
    GLenum bufs[GPU_MRT_MAX];
    glGenFramebuffers(1, fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, *fbo);
    for (int k = 0; k < m->count; k++) {
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + (GLenum)k, GL_TEXTURE_2D,
                               gpu_array2d_texture(m->member[k]), 0);
        bufs[k] = GL_COLOR_ATTACHMENT0 + (GLenum)k;
    }
    if (rb) glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rb);
    glDrawBuffers(m->count, bufs);
    GLenum fs = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (fs != GL_FRAMEBUFFER_COMPLETE)
        return swgl_fail(SWGL_ERR_FRAMEBUFFER, "MRT '%s'%s: framebuffer %s", label, with, gpu_framebuffer_status_name(fs));
    return gpu_check_gl(rb ? "MRT depth framebuffer" : "MRT framebuffer");
}

static swgl_status framebuffer(gpu_mrt *m, const char *label) { return make_fbo(m, 0, &m->fbo, label, ""); }

swgl_status gpu_mrt_create(const gpu_mrt_desc *d, gpu_mrt **out)
{
    *out = NULL;
    const char *label = d && d->label ? d->label : "mrt";
    int maxdb = gpu_internal_max_draw_buffers();
    if (!d || d->count < 1 || d->count > GPU_MRT_MAX)
        return swgl_fail(SWGL_ERR_ARG, "MRT '%s': %d members asked for, 1..%d allowed", label,
                        d ? d->count : 0, GPU_MRT_MAX);
    if (maxdb > 0 && d->count > maxdb)
        return swgl_fail(SWGL_ERR_TOO_LARGE, "MRT '%s': %d members, but GL_MAX_DRAW_BUFFERS = %d", label,
                        d->count, maxdb);
    gpu_mrt *m = calloc(1, sizeof *m);
    if (!m) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    m->count = d->count;
    swgl_status st;
    for (int k = 0; k < d->count; k++) {
        char name[96];
        snprintf(name, sizeof name, "%s[%d]", label, k);
        gpu_array2d_desc ad = {d->width, d->height, d->format[k], name};
        if ((st = gpu_array2d_create(&ad, &m->member[k])) != SWGL_OK) {
            gpu_mrt_destroy(m);
            return st;
        }
    }
    if ((st = framebuffer(m, label)) != SWGL_OK) {
        gpu_mrt_destroy(m);
        return st;
    }
    *out = m;
    return SWGL_OK;
}

swgl_status gpu_mrt_view(gpu_array2d *const *arrays, int count, const char *label, gpu_mrt **out)
{
    *out = NULL;
    label = label ? label : "mrt view";
    int maxdb = gpu_internal_max_draw_buffers();
    if (count < 1 || count > GPU_MRT_MAX || (maxdb > 0 && count > maxdb))
        return swgl_fail(count < 1 || count > GPU_MRT_MAX ? SWGL_ERR_ARG : SWGL_ERR_TOO_LARGE,
                         "MRT view '%s': %d members (1..%d, GL_MAX_DRAW_BUFFERS %d)", label, count, GPU_MRT_MAX, maxdb);
    for (int k = 0; k < count; k++)
        if (!arrays[k] || gpu_array2d_width(arrays[k]) != gpu_array2d_width(arrays[0]) ||
            gpu_array2d_height(arrays[k]) != gpu_array2d_height(arrays[0]))
            return swgl_fail(SWGL_ERR_ARG, "MRT view '%s': member %d %s", label, k,
                             arrays[k] ? "is not the first one's size" : "is NULL");
    gpu_mrt *m = calloc(1, sizeof *m);
    if (!m) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    m->count = count;
    m->view = 1;
    for (int k = 0; k < count; k++) m->member[k] = arrays[k];
    swgl_status st = framebuffer(m, label);
    if (st != SWGL_OK) {
        gpu_mrt_destroy(m);
        return st;
    }
    *out = m;
    return SWGL_OK;
}

void gpu_mrt_destroy(gpu_mrt *m)
{
    if (!m) return;
    if (m->fbo) glDeleteFramebuffers(1, &m->fbo);
    for (int k = 0; k < GPU_MRT_MAX && !m->view; k++) gpu_array2d_destroy(m->member[k]);
    free(m);
}

int gpu_mrt_count(const gpu_mrt *m) { return m->count; }
gpu_array2d *gpu_mrt_member(gpu_mrt *m, int k) { return k >= 0 && k < m->count ? m->member[k] : NULL; }
unsigned gpu_mrt_framebuffer(const gpu_mrt *m) { return m->fbo; }

/* ---- an MRT with a depth buffer ----------------------------------------------------- */

struct gpu_mrt_depth {
    gpu_mrt *colour;
    GLuint fbo, rb;
};

swgl_status gpu_mrt_depth_create(gpu_mrt *m, gpu_mrt_depth **out)
{
    *out = NULL;
    if (!m) return swgl_fail(SWGL_ERR_ARG, "depth target without an MRT");
    gpu_mrt_depth *d = calloc(1, sizeof *d);
    if (!d) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    d->colour = m;
    int w = gpu_array2d_width(m->member[0]), h = gpu_array2d_height(m->member[0]);
    const char *label = gpu_array2d_label(m->member[0]);
    glGenRenderbuffers(1, &d->rb);
    glBindRenderbuffer(GL_RENDERBUFFER, d->rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, w, h);
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    swgl_status st = make_fbo(m, d->rb, &d->fbo, label ? label : "?", " with depth");
    if (st != SWGL_OK) {
        gpu_mrt_depth_destroy(d);
        return st;
    }
    *out = d;
    return SWGL_OK;
}

void gpu_mrt_depth_destroy(gpu_mrt_depth *d)
{
    if (!d) return;
    if (d->fbo) glDeleteFramebuffers(1, &d->fbo);
    if (d->rb) glDeleteRenderbuffers(1, &d->rb);
    free(d);
}

gpu_mrt *gpu_mrt_depth_colour(const gpu_mrt_depth *d) { return d->colour; }
unsigned gpu_mrt_depth_framebuffer(const gpu_mrt_depth *d) { return d->fbo; }

swgl_status gpu_mrt_depth_clear(gpu_mrt_depth *d, float depth)
{
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, d->fbo);
    glDisable(GL_SCISSOR_TEST);
    glDepthMask(GL_TRUE);
    glClearDepth(depth);
    glClear(GL_DEPTH_BUFFER_BIT);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    return gpu_check_gl("depth clear");
}
