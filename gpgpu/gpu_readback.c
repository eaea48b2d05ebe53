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
    void *map[GPU_READBACK_MAX];   /* each buffer's persistent mapping (gpu_readback_create_mapped), else NULL */
};

static swgl_status create(int slots, int max_elems, int mapped, gpu_readback **out)
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
    GLsizeiptr bytes = (GLsizeiptr)max_elems * 4 * sizeof(float);
    /* mapped: in the host's cached memory (client storage), readable while the GPU writes
     * other slots; what a request wrote is seen once its fence has signalled (coherent) */
    GLbitfield f = GL_MAP_READ_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
    for (int k = 0; k < slots; k++) {
        glBindBuffer(GL_PIXEL_PACK_BUFFER, r->pbo[k]);
        if (mapped) {
            glBufferStorage(GL_PIXEL_PACK_BUFFER, bytes, NULL, f | GL_CLIENT_STORAGE_BIT);
            if (!(r->map[k] = glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, bytes, f))) break;
        } else {
            glBufferData(GL_PIXEL_PACK_BUFFER, bytes, NULL, GL_STREAM_READ);
        }
    }
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    swgl_status st = gpu_check_gl("readback buffers");
    for (int k = 0; mapped && st == SWGL_OK && k < slots; k++)
        if (!r->map[k]) st = swgl_fail(SWGL_ERR_GL, "readback buffers: glMapBufferRange of a persistent buffer failed");
    if (st != SWGL_OK) {
        gpu_readback_destroy(r);
        return st;
    }
    *out = r;
    return SWGL_OK;
}

swgl_status gpu_readback_create(int slots, int max_elems, gpu_readback **out)
{
    return create(slots, max_elems, 0, out);
}

swgl_status gpu_readback_create_mapped(int slots, int max_elems, gpu_readback **out)
{
    return create(slots, max_elems, gpu_internal_buffer_storage(), out);
}

int gpu_readback_mapped(const gpu_readback *r) { return r->map[0] != NULL; }

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

/* the oldest request's fence: 1 when signalled (deleted), 0 not yet (wait 0), -1 failed */
static int arrived(gpu_readback *r, int wait)
{
    int k = r->head;
    GLenum s = glClientWaitSync(r->fence[k], 0, 0);
    if (s == GL_TIMEOUT_EXPIRED && wait) s = glClientWaitSync(r->fence[k], GL_SYNC_FLUSH_COMMANDS_BIT, (GLuint64)60e9);
    if (s == GL_TIMEOUT_EXPIRED) return 0;
    if (s == GL_WAIT_FAILED) return -1;
    glDeleteSync(r->fence[k]);
    r->fence[k] = 0;
    return 1;
}

swgl_status gpu_readback_view(gpu_readback *r, int wait, const void **p, int *ready)
{
    *ready = 0;
    *p = NULL;
    if (r->count == 0) return swgl_fail(SWGL_ERR_ARG, "readback: nothing requested");
    if (!r->map[0]) return swgl_fail(SWGL_ERR_ARG, "readback: the buffers are not mapped");
    int a = arrived(r, wait);
    if (a < 0) return swgl_fail(SWGL_ERR_GL, "readback: glClientWaitSync failed");
    if (a == 0) return SWGL_OK;
    *p = r->map[r->head];
    r->head = (r->head + 1) % r->slots;
    r->count--;
    *ready = 1;
    return SWGL_OK;
}

swgl_status gpu_readback_fetch(gpu_readback *r, int wait, void *out, int *ready)
{
    *ready = 0;
    if (r->count == 0) return swgl_fail(SWGL_ERR_ARG, "readback: nothing requested");
    int k = r->head;
    if (r->map[0]) {   /* (mapped: copied from the mapping) */
        const void *p;
        swgl_status st = gpu_readback_view(r, wait, &p, ready);
        if (st == SWGL_OK && *ready) memcpy(out, p, (size_t)r->elems[k] * 4 * sizeof(float));
        return st;
    }
    int a = arrived(r, wait);
    if (a == 0) return SWGL_OK;
    if (a < 0) return swgl_fail(SWGL_ERR_GL, "readback: glClientWaitSync failed");
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
