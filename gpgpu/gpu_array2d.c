/* gpu_array2d.c — Lastra's GPUArray2D: a texture (RGBA32F or RGBA32UI, nearest
 * sampling, no mipmaps) and a framebuffer object with that texture as its only colour
 * attachment, so that the array can be both a pass input and a pass output. */
#include "gpu_array2d.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl.h"
#include "gpu_internal.h"

struct gpu_array2d {
    int width, height;
    gpu_format format;
    GLuint tex, fbo;
    char label[64];
};

static GLenum internal_format(gpu_format f) { return f == GPU_RGBA32UI ? GL_RGBA32UI : GL_RGBA32F; }
static GLenum pixel_format(gpu_format f) { return f == GPU_RGBA32UI ? GL_RGBA_INTEGER : GL_RGBA; }
static GLenum pixel_type(gpu_format f) { return f == GPU_RGBA32UI ? GL_UNSIGNED_INT : GL_FLOAT; }

const char *gpu_framebuffer_status_name(unsigned s)
{
    switch (s) {
    case GL_FRAMEBUFFER_UNDEFINED: return "GL_FRAMEBUFFER_UNDEFINED";
    case GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT: return "GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT";
    case GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT: return "GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT";
    case GL_FRAMEBUFFER_UNSUPPORTED: return "GL_FRAMEBUFFER_UNSUPPORTED";
    case GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE: return "GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE";
    default: return "incomplete";
    }
}

swgl_status gpu_array2d_create(const gpu_array2d_desc *d, gpu_array2d **out)
{
    *out = NULL;
    const char *label = d && d->label ? d->label : "array";
    if (!d || d->width < 1 || d->height < 1)
        return swgl_fail(SWGL_ERR_ARG, "array '%s': size %dx%d: width and height must be >= 1", label,
                        d ? d->width : 0, d ? d->height : 0);
    int max = gpu_internal_max_texture_size();
    if (max > 0 && (d->width > max || d->height > max))
        return swgl_fail(SWGL_ERR_TOO_LARGE,
                        "array '%s': size %dx%d exceeds GL_MAX_TEXTURE_SIZE = %d of this renderer",
                        label, d->width, d->height, max);
    gpu_array2d *a = calloc(1, sizeof *a);
    if (!a) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    a->width = d->width;
    a->height = d->height;
    a->format = d->format;
    snprintf(a->label, sizeof a->label, "%s", label);
    glGetError();
    glGenTextures(1, &a->tex);
    glBindTexture(GL_TEXTURE_2D, a->tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    glTexImage2D(GL_TEXTURE_2D, 0, (GLint)internal_format(a->format), a->width, a->height, 0,
                 pixel_format(a->format), pixel_type(a->format), NULL);
    glBindTexture(GL_TEXTURE_2D, 0);
    swgl_status st = gpu_check_gl("glTexImage2D");
    if (st != SWGL_OK) {
        swgl_fail(st, "array '%s' (%dx%d): %s", a->label, a->width, a->height, swgl_last_error());
        gpu_array2d_destroy(a);
        return st;
    }
    glGenFramebuffers(1, &a->fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, a->fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, a->tex, 0);
    GLenum fs = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (fs != GL_FRAMEBUFFER_COMPLETE) {
        gpu_array2d_destroy(a);
        return swgl_fail(SWGL_ERR_FRAMEBUFFER, "array '%s': framebuffer %s", label,
                        gpu_framebuffer_status_name(fs));
    }
    *out = a;
    return SWGL_OK;
}

void gpu_array2d_destroy(gpu_array2d *a)
{
    if (!a) return;
    if (a->fbo) glDeleteFramebuffers(1, &a->fbo);
    if (a->tex) glDeleteTextures(1, &a->tex);
    free(a);
}

int gpu_array2d_width(const gpu_array2d *a) { return a->width; }
int gpu_array2d_height(const gpu_array2d *a) { return a->height; }
gpu_format gpu_array2d_format(const gpu_array2d *a) { return a->format; }
const char *gpu_array2d_label(const gpu_array2d *a) { return a->label; }
unsigned gpu_array2d_texture(const gpu_array2d *a) { return a->tex; }
unsigned gpu_array2d_framebuffer(const gpu_array2d *a) { return a->fbo; }

static swgl_status check_rect(const gpu_array2d *a, int x, int y, int w, int h, const void *data,
                             const char *what)
{
    if (!data) return swgl_fail(SWGL_ERR_ARG, "%s of '%s': no data", what, a->label);
    if (x < 0 || y < 0 || w < 1 || h < 1 || x + w > a->width || y + h > a->height)
        return swgl_fail(SWGL_ERR_ARG, "%s of '%s': rectangle (%d,%d) %dx%d is not inside %dx%d", what,
                        a->label, x, y, w, h, a->width, a->height);
    return SWGL_OK;
}

swgl_status gpu_array2d_upload_rect(gpu_array2d *a, int x, int y, int w, int h, const void *data)
{
    swgl_status st = check_rect(a, x, y, w, h, data, "upload");
    if (st != SWGL_OK) return st;
    glGetError();
    glBindTexture(GL_TEXTURE_2D, a->tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glTexSubImage2D(GL_TEXTURE_2D, 0, x, y, w, h, pixel_format(a->format), pixel_type(a->format), data);
    glBindTexture(GL_TEXTURE_2D, 0);
    return gpu_check_gl("upload (glTexSubImage2D)");
}

void gpu_internal_read(const gpu_array2d *a, int x, int y, int w, int h, void *dst)
{
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glPixelStorei(GL_PACK_ROW_LENGTH, 0);
    if (x == 0 && y == 0 && w == a->width && h == a->height) {
        glBindTexture(GL_TEXTURE_2D, a->tex);
        glGetTexImage(GL_TEXTURE_2D, 0, pixel_format(a->format), pixel_type(a->format), dst);
        glBindTexture(GL_TEXTURE_2D, 0);
        return;
    }
    glBindFramebuffer(GL_READ_FRAMEBUFFER, a->fbo);
    glReadBuffer(GL_COLOR_ATTACHMENT0);
    glReadPixels(x, y, w, h, pixel_format(a->format), pixel_type(a->format), dst);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
}

int gpu_internal_buffer_storage(void)
{
    GLint major = 0, minor = 0, n = 0;
    glGetIntegerv(GL_MAJOR_VERSION, &major);
    glGetIntegerv(GL_MINOR_VERSION, &minor);
    if (major > 4 || (major == 4 && minor >= 4)) return 1;
    glGetIntegerv(GL_NUM_EXTENSIONS, &n);
    for (GLint i = 0; i < n; i++) {
        const char *e = (const char *)glGetStringi(GL_EXTENSIONS, (GLuint)i);
        if (e && strcmp(e, "GL_ARB_buffer_storage") == 0) return 1;
    }
    return 0;
}

swgl_status gpu_array2d_download_rect(const gpu_array2d *a, int x, int y, int w, int h, void *data)
{
    swgl_status st = check_rect(a, x, y, w, h, data, "download");
    if (st != SWGL_OK) return st;
    glGetError();
    gpu_internal_read(a, x, y, w, h, data);
    return gpu_check_gl("download (glGetTexImage or glReadPixels)");
}

void gpu_elems_to_doubles(gpu_format fmt, const void *t, size_t n, double *buf, int stride, int offset)
{
    const float *f = t;
    const double *d = t;
    int dbl = fmt == GPU_RGBA32UI, nv = dbl ? 2 : 4;
#pragma omp parallel for schedule(static) if (n >= GPU_XFER_MAPPED_MIN)
    for (size_t k = 0; k < n; k++)
        for (int c = 0; c < nv; c++)
            buf[(size_t)stride * k + (size_t)offset + (size_t)c] = dbl ? d[nv * k + (size_t)c] : f[nv * k + (size_t)c];
}

void gpu_elems_from_doubles(gpu_format fmt, void *t, size_t n, const double *buf, int stride, int offset)
{
    float *f = t;
    double *d = t;
    int dbl = fmt == GPU_RGBA32UI, nv = dbl ? 2 : 4;
#pragma omp parallel for schedule(static) if (n >= GPU_XFER_MAPPED_MIN)
    for (size_t k = 0; k < n; k++)
        for (int c = 0; c < nv; c++) {
            double v = buf[(size_t)stride * k + (size_t)offset + (size_t)c];
            if (dbl) d[nv * k + (size_t)c] = v;
            else f[nv * k + (size_t)c] = (float)v;
        }
}

/* ---- whole arrays through the layer's pixel buffers ---------------------------------- */

/* [0] the way up (GL_PIXEL_UNPACK_BUFFER, written by the host), [1] the way down (pack,
 * read by the host), each grown to the largest array mapped; the mapped size */
static struct {
    GLuint buf[2];
    size_t cap[2];
    int w, h;
    gpu_format fmt;
} g_xfer;

void gpu_internal_transfer_release(void)
{
    for (int k = 0; k < 2; k++)
        if (g_xfer.buf[k]) glDeleteBuffers(1, &g_xfer.buf[k]);
    memset(&g_xfer, 0, sizeof g_xfer);
}

/* binds buffer k to target, grown to bytes (its size kept only once the GL has it) */
static void xfer_bind(int k, GLenum target, size_t bytes)
{
    if (!g_xfer.buf[k]) glGenBuffers(1, &g_xfer.buf[k]);
    glBindBuffer(target, g_xfer.buf[k]);
    if (g_xfer.cap[k] < bytes) {
        glGetError();
        glBufferData(target, (GLsizeiptr)bytes, NULL, k ? GL_STREAM_READ : GL_STREAM_DRAW);
        g_xfer.cap[k] = glGetError() == GL_NO_ERROR ? bytes : 0;
    }
}

/* a map that failed: the buffer let go if the GL mapped it all the same, unbound */
static void *xfer_failed(GLenum target, void *p)
{
    if (p) glUnmapBuffer(target);
    glBindBuffer(target, 0);
    return NULL;
}

void *gpu_array2d_upload_map(const gpu_array2d *a, swgl_status *stp)
{
    size_t bytes = (size_t)a->width * (size_t)a->height * 16;
    glGetError();
    xfer_bind(0, GL_PIXEL_UNPACK_BUFFER, bytes);
    void *p = g_xfer.cap[0] >= bytes ? glMapBufferRange(GL_PIXEL_UNPACK_BUFFER, 0, (GLsizeiptr)bytes,
                                                         GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT)
                                     : NULL;
    swgl_status st = gpu_check_gl("upload (glBufferData, glMapBufferRange)");
    if (!p || st != SWGL_OK) {
        *stp = swgl_fail(st != SWGL_OK ? st : SWGL_ERR_GL, "upload of '%s' (%dx%d): the pixel buffer could not be mapped",
                         a->label, a->width, a->height);
        return xfer_failed(GL_PIXEL_UNPACK_BUFFER, p);
    }
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    g_xfer.w = a->width;
    g_xfer.h = a->height;
    g_xfer.fmt = a->format;
    return p;
}

swgl_status gpu_array2d_upload_unmap(gpu_array2d *const *to, int n)
{
    glGetError();
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, g_xfer.buf[0]);
    GLboolean kept = glUnmapBuffer(GL_PIXEL_UNPACK_BUFFER);
    swgl_status st = SWGL_OK;
    for (int k = 0; k < n && st == SWGL_OK; k++) {
        const gpu_array2d *a = to[k];
        if (a->width != g_xfer.w || a->height != g_xfer.h || a->format != g_xfer.fmt) {
            st = swgl_fail(SWGL_ERR_ARG, "upload of '%s' (%dx%d): the texels mapped are of a %dx%d array", a->label,
                           a->width, a->height, g_xfer.w, g_xfer.h);
            break;
        }
        glBindTexture(GL_TEXTURE_2D, a->tex);
        glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
        glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, a->width, a->height, pixel_format(a->format), pixel_type(a->format),
                        (const void *)0);
        glBindTexture(GL_TEXTURE_2D, 0);
    }
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    if (st != SWGL_OK) return st;
    if (!kept) return swgl_fail(SWGL_ERR_GL, "upload: the pixel buffer's texels were lost while mapped (glUnmapBuffer)");
    return gpu_check_gl("upload (glTexSubImage2D from the pixel buffer)");
}

const void *gpu_array2d_download_map(const gpu_array2d *a, swgl_status *stp)
{
    size_t bytes = (size_t)a->width * (size_t)a->height * 16;
    glGetError();
    xfer_bind(1, GL_PIXEL_PACK_BUFFER, bytes);
    void *p = NULL;
    if (g_xfer.cap[1] >= bytes) {
        gpu_internal_read(a, 0, 0, a->width, a->height, (void *)0);
        p = glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, (GLsizeiptr)bytes, GL_MAP_READ_BIT);
    }
    swgl_status st = gpu_check_gl("download (glGetTexImage into the pixel buffer, glMapBufferRange)");
    if (!p || st != SWGL_OK) {
        *stp = swgl_fail(st != SWGL_OK ? st : SWGL_ERR_GL,
                         "download of '%s' (%dx%d): the pixel buffer could not be mapped", a->label, a->width, a->height);
        return xfer_failed(GL_PIXEL_PACK_BUFFER, p);
    }
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    return p;
}

swgl_status gpu_array2d_download_unmap(void)
{
    glGetError();
    glBindBuffer(GL_PIXEL_PACK_BUFFER, g_xfer.buf[1]);
    GLboolean kept = glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    swgl_status st = gpu_check_gl("download (glUnmapBuffer)");
    if (st == SWGL_OK && !kept)
        st = swgl_fail(SWGL_ERR_GL, "download: the pixel buffer's texels were lost while mapped (glUnmapBuffer)");
    return st;
}

swgl_status gpu_array2d_rect_doubles(gpu_array2d *a, int set, int x, int y, int w, int h, double *buf, int stride,
                                     int offset)
{
    size_t n = w > 0 && h > 0 ? (size_t)w * (size_t)h : 0;
    if (x == 0 && y == 0 && w == a->width && h == a->height && n >= GPU_XFER_MAPPED_MIN) {   /* in place */
        swgl_status st = SWGL_OK;
        if (set) {
            void *t = gpu_array2d_upload_map(a, &st);
            if (!t) return st;
            gpu_elems_from_doubles(a->format, t, n, buf, stride, offset);
            return gpu_array2d_upload_unmap(&a, 1);
        }
        const void *t = gpu_array2d_download_map(a, &st);
        if (!t) return st;
        gpu_elems_to_doubles(a->format, t, n, buf, stride, offset);
        return gpu_array2d_download_unmap();
    }
    void *t = malloc(16 * n + 1);   /* 16 bytes an element either way */
    if (!t) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory for '%s'", a->label);
    swgl_status st = SWGL_OK;
    if (set) {
        gpu_elems_from_doubles(a->format, t, n, buf, stride, offset);
        st = gpu_array2d_upload_rect(a, x, y, w, h, t);
    } else if ((st = gpu_array2d_download_rect(a, x, y, w, h, t)) == SWGL_OK) {
        gpu_elems_to_doubles(a->format, t, n, buf, stride, offset);
    }
    free(t);
    return st;
}

swgl_status gpu_array2d_upload(gpu_array2d *a, const void *data)
{
    return gpu_array2d_upload_rect(a, 0, 0, a->width, a->height, data);
}

swgl_status gpu_array2d_download(const gpu_array2d *a, void *data)
{
    return gpu_array2d_download_rect(a, 0, 0, a->width, a->height, data);
}

swgl_status gpu_array2d_fill(gpu_array2d *a, const void *value)
{
    glGetError();
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, a->fbo);
    glDisable(GL_SCISSOR_TEST);
    if (a->format == GPU_RGBA32UI) glClearBufferuiv(GL_COLOR, 0, value);
    else glClearBufferfv(GL_COLOR, 0, value);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    return gpu_check_gl("fill (glClearBuffer)");
}
