/* gpu_readback.c — a ring of pixel-pack buffers with fences (gpu_readback.h). */
#include "gpu_readback.h"

#include <stdlib.h>
#include <string.h>

#include "gl.h"
#include "gpu_internal.h"

struct gpu_readback {
    int slots, max_elems, head, count;
    GLuint pbo[GPU_READBACK_MAX];
    GLsync fence[GPU_READBACK_MAX];
    int elems[GPU_READBACK_MAX];
};

swgl_status gpu_readback_create(int slots, int max_elems, gpu_readback **out)
{
    *out = NULL;
    if (slots < 1 || slots > GPU_READBACK_MAX || max_elems < 1)
        return swgl_fail(SWGL_ERR_ARG, "readback: %d slots of %d elements", slots, max_elems);
    gpu_readback *r = calloc(1, sizeof *r);
    if (!r) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    r->slots = slots;
    r->max_elems = max_elems;
    glGetError();
    glGenBuffers(slots, r->pbo);
    for (int k = 0; k < slots; k++) {
        glBindBuffer(GL_PIXEL_PACK_BUFFER, r->pbo[k]);
        glBufferData(GL_PIXEL_PACK_BUFFER, (GLsizeiptr)max_elems * 4 * sizeof(float), NULL, GL_STREAM_READ);
    }
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    swgl_status st = gpu_check_gl("readback buffers");
    if (st != SWGL_OK) {
        gpu_readback_destroy(r);
        return st;
    }
    *out = r;
    return SWGL_OK;
}

void gpu_readback_destroy(gpu_readback *r)
{
    if (!r) return;
    for (int k = 0; k < r->slots; k++)
        if (r->fence[k]) glDeleteSync(r->fence[k]);
    glDeleteBuffers(r->slots, r->pbo);
    free(r);
}

int gpu_readback_pending(const gpu_readback *r) { return r->count; }
int gpu_readback_next(const gpu_readback *r) { return r->count ? r->elems[r->head] : 0; }

swgl_status gpu_readback_request(gpu_readback *r, const gpu_array2d *a, int x, int y, int w, int h)
{
    if (r->count == r->slots) return swgl_fail(SWGL_ERR_ARG, "readback: all %d slots are in flight", r->slots);
    if (w * h > r->max_elems)
        return swgl_fail(SWGL_ERR_ARG, "readback of '%s': %dx%d elements, at most %d", gpu_array2d_label(a), w, h,
                         r->max_elems);
    int k = (r->head + r->count) % r->slots;
    glGetError();
    glBindBuffer(GL_PIXEL_PACK_BUFFER, r->pbo[k]);
    gpu_internal_read(a, x, y, w, h, (void *)0);   /* (the whole of a small array by glGetTexImage) */
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    r->fence[k] = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    glFlush();   /* the fence must reach the GPU, or a later wait on it never ends */
    r->elems[k] = w * h;
    r->count++;
    return gpu_check_gl("readback request (glGetTexImage or glReadPixels into a PBO)");
}

swgl_status gpu_readback_fetch(gpu_readback *r, int wait, void *out, int *ready)
{
    *ready = 0;
    if (r->count == 0) return swgl_fail(SWGL_ERR_ARG, "readback: nothing requested");
    int k = r->head;
    GLenum s = glClientWaitSync(r->fence[k], 0, 0);
    if (s == GL_TIMEOUT_EXPIRED && wait) s = glClientWaitSync(r->fence[k], GL_SYNC_FLUSH_COMMANDS_BIT, (GLuint64)60e9);
    if (s == GL_TIMEOUT_EXPIRED) return SWGL_OK;
    if (s == GL_WAIT_FAILED) return swgl_fail(SWGL_ERR_GL, "readback: glClientWaitSync failed");
    glDeleteSync(r->fence[k]);
    r->fence[k] = 0;
    glBindBuffer(GL_PIXEL_PACK_BUFFER, r->pbo[k]);
    const void *p = glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, (GLsizeiptr)r->elems[k] * 4 * sizeof(float),
                                     GL_MAP_READ_BIT);
    if (p) {
        memcpy(out, p, (size_t)r->elems[k] * 4 * sizeof(float));
        glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
    }
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    r->head = (r->head + 1) % r->slots;
    r->count--;
    if (!p) return swgl_fail(SWGL_ERR_GL, "readback: glMapBufferRange failed");
    *ready = 1;
    return gpu_check_gl("readback fetch");
}
