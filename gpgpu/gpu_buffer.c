/* gpu_buffer.c — a shader storage buffer (gpu_buffer.h). */
#include "gpu_buffer.h"

#include <stdio.h>
#include <stdlib.h>

#include "gl.h"
#include "gpu_compute.h"

struct gpu_buffer {
    GLuint buf;
    size_t bytes;
    char label[64];
};

swgl_status gpu_buffer_create(size_t bytes, const char *label, gpu_buffer **out)
{
    *out = NULL;
    if (!label) label = "buffer";
    if (bytes == 0 || bytes > (size_t)1 << 31) return swgl_fail(SWGL_ERR_ARG, "buffer '%s': %zu bytes", label, bytes);
    if (!gpu_compute_available())
        return swgl_fail(SWGL_ERR_NO_CONTEXT, "buffer '%s': shader storage buffers need a GL 4.3 core context (this "
                         "one is %s)", label, (const char *)glGetString(GL_VERSION));
    gpu_buffer *b = calloc(1, sizeof *b);
    void *zero = calloc(1, bytes);
    if (!b || !zero) {
        free(b);
        free(zero);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    }
    b->bytes = bytes;
    snprintf(b->label, sizeof b->label, "%s", label);
    glGetError();
    glGenBuffers(1, &b->buf);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, b->buf);
    glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)bytes, zero, GL_DYNAMIC_DRAW);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    free(zero);
    swgl_status st = gpu_check_gl("shader storage buffer");
    if (st != SWGL_OK) {
        gpu_buffer_destroy(b);
        return swgl_fail(st, "buffer '%s' (%zu bytes): %s", label, bytes, swgl_last_error());
    }
    *out = b;
    return SWGL_OK;
}

void gpu_buffer_destroy(gpu_buffer *b)
{
    if (!b) return;
    if (b->buf) glDeleteBuffers(1, &b->buf);
    free(b);
}

size_t gpu_buffer_size(const gpu_buffer *b) { return b->bytes; }
const char *gpu_buffer_label(const gpu_buffer *b) { return b->label; }
unsigned gpu_buffer_handle(const gpu_buffer *b) { return b->buf; }

static swgl_status range(const gpu_buffer *b, size_t offset, size_t bytes, const char *what)
{
    if (offset > b->bytes || bytes > b->bytes - offset)
        return swgl_fail(SWGL_ERR_ARG, "buffer '%s': %s of %zu bytes at %zu past its %zu", b->label, what, bytes,
                         offset, b->bytes);
    return SWGL_OK;
}

swgl_status gpu_buffer_upload(gpu_buffer *b, size_t offset, size_t bytes, const void *data)
{
    swgl_status st = range(b, offset, bytes, "upload");
    if (st != SWGL_OK || bytes == 0) return st;
    glGetError();
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, b->buf);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, (GLintptr)offset, (GLsizeiptr)bytes, data);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    return gpu_check_gl("buffer upload");
}

swgl_status gpu_buffer_download(const gpu_buffer *b, size_t offset, size_t bytes, void *data)
{
    swgl_status st = range(b, offset, bytes, "download");
    if (st != SWGL_OK || bytes == 0) return st;
    /* through a copy into a buffer of its own: NVIDIA's driver (580, H200) answers a
     * glGetBufferSubData of a storage buffer that was read back before without what the
     * kernels wrote into it since (tests/test_gl_compute.c); a fresh buffer that the GPU
     * copied into reads as it is.  Downloads are rare (tests, a bench's tile count). */
    GLuint staging = 0;
    glGetError();
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glGenBuffers(1, &staging);
    glBindBuffer(GL_COPY_WRITE_BUFFER, staging);
    glBufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)bytes, NULL, GL_STREAM_READ);
    glBindBuffer(GL_COPY_READ_BUFFER, b->buf);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, (GLintptr)offset, 0, (GLsizeiptr)bytes);
    glGetBufferSubData(GL_COPY_WRITE_BUFFER, 0, (GLsizeiptr)bytes, data);
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    glDeleteBuffers(1, &staging);
    return gpu_check_gl("buffer download");
}
