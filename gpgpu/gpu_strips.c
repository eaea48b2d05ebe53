/* gpu_strips.c — rectangles of an array to and from the host by passes through small
 * arrays (gpu_strips.h). */
#include "gpu_strips.h"

#include <stdlib.h>
#include <string.h>

#include "gl.h"
#include "gpu_pass.h"
#include "gpu_readback.h"

#define N_IN 16   /* small arrays for the way in: up to IN_SHAPE of each shape, taken in turn */
#define IN_SHAPE 8   /* (an exchange writes up to 8 strips of a shape: 4 sides x 2 members in
                      * double; each array taken again the next exchange, its copy long done) */
#define N_REGIONS 64   /* the mapped way in's regions in use at once */

typedef struct small {
    gpu_array2d *a;
    int w, h;
    gpu_format f;
    long used;   /* (the way in) when it was last written, for taking them in turn */
} small;

struct gpu_strips {
    gpu_program *prog[2];          /* strip.glsl, by format */
    gpu_readback *rb;              /* the read-backs' pixel-pack buffers, in flight in order */
    int rb_max;                    /* elements a buffer holds */
    small out[GPU_READBACK_MAX];   /* the packed strip of each request in flight (ring order) */
    int head, count;
    small in[N_IN];
    long clock;
    float *tmp;                    /* a fetched strip, 16 bytes an element */
    size_t tmp_elems;
    unsigned upload;               /* the way in's pixel-unpack buffer (0 until the first) */
    int mapped;                    /* the buffers mapped for good where the context can (gpu_strips_set_mapped) */
    /* mapped: the way in's ring, a pixel-unpack buffer mapped for good; its regions given out
     * (gpu_strips_area) or written from, each free again once its upload's fence has signalled */
    GLuint ring;
    char *ring_ptr;
    size_t ring_size, wr;
    struct region {
        size_t a, b;   /* [a, b) of the ring; b = 0: a free entry */
        GLsync fence;  /* after the upload from it (0: given out, not uploaded yet) */
    } reg[N_REGIONS];
};

swgl_status gpu_strips_create(gpu_strips **out)
{
    *out = calloc(1, sizeof **out);
    if (*out) (*out)->mapped = 1;
    return *out ? SWGL_OK : swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
}

void gpu_strips_set_mapped(gpu_strips *s, int on) { s->mapped = on != 0; }

int gpu_strips_mapped(const gpu_strips *s) { return s->rb && gpu_readback_mapped(s->rb) && s->ring_ptr; }

/* ---- the way in's ring (mapped) -------------------------------------------------------- */

/* whether region g (in use) lies in the way of [off, off + n) */
static int in_way(const struct region *g, size_t off, size_t n) { return g->b && g->b > off && g->a < off + n; }

/* whether the n bytes at b lie in the ring */
static int in_ring(const gpu_strips *s, const char *b, size_t n)
{
    return s->ring_ptr && b >= s->ring_ptr && b + n <= s->ring_ptr + s->ring_size;
}

static void ring_drop(gpu_strips *s)
{
    for (int k = 0; k < N_REGIONS; k++) {
        if (s->reg[k].fence) glDeleteSync(s->reg[k].fence);
        s->reg[k] = (struct region){0, 0, 0};
    }
    if (s->ring) glDeleteBuffers(1, &s->ring);
    s->ring = 0;
    s->ring_ptr = NULL;
    s->ring_size = s->wr = 0;
}

/* a ring of `bytes` (nothing given out from the old one may be in use: called by reserve,
 * with no read-back in flight, before an exchange) */
static swgl_status ring_make(gpu_strips *s, size_t bytes)
{
    for (int k = 0; k < N_REGIONS; k++)   /* (a region given out is kept where it is: the old ring stays) */
        if (s->reg[k].b && !s->reg[k].fence) return SWGL_OK;
    if (s->ring_ptr) glFinish();   /* (the old ring's uploads done) */
    ring_drop(s);
    GLbitfield f = GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
    glGetError();
    glGenBuffers(1, &s->ring);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, s->ring);
    glBufferStorage(GL_PIXEL_UNPACK_BUFFER, (GLsizeiptr)bytes, NULL, f);
    s->ring_ptr = glMapBufferRange(GL_PIXEL_UNPACK_BUFFER, 0, (GLsizeiptr)bytes, f);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    swgl_status st = gpu_check_gl("strips: the way in's mapped buffer");
    if (st == SWGL_OK && !s->ring_ptr) st = swgl_fail(SWGL_ERR_GL, "strips: glMapBufferRange of the way in's buffer failed");
    if (st != SWGL_OK) {
        ring_drop(s);
        return st;
    }
    s->ring_size = bytes;
    return SWGL_OK;
}

/* a region of n bytes of the ring, or NULL (no ring, or no room): a room given out and not yet
 * uploaded from is stepped past (once round the ring at most: a room a failed exchange never
 * used stays given out), and so, without wait, is a region whose upload the GPU has not done;
 * with wait, the uploads of the regions in the way are waited for (they are an exchange or
 * more old: done) */
static char *ring_take(gpu_strips *s, size_t n, int wait)
{
    if (!s->ring_ptr || n == 0 || n > s->ring_size) return NULL;
    size_t off = s->wr + n <= s->ring_size ? s->wr : 0;
    for (int tries = 0;; tries++) {
        const struct region *stop = NULL;
        for (int k = 0; k < N_REGIONS && !stop; k++) {
            const struct region *g = &s->reg[k];
            if (in_way(g, off, n) && (!g->fence || (!wait && glClientWaitSync(g->fence, 0, 0) == GL_TIMEOUT_EXPIRED)))
                stop = g;
        }
        if (!stop) break;
        if (tries == N_REGIONS) return NULL;
        off = (stop->b + 255) & ~(size_t)255;
        if (off + n > s->ring_size) off = 0;
    }
    int slot = -1;
    for (int k = 0; k < N_REGIONS; k++) {
        struct region *g = &s->reg[k];
        if (!g->b) {
            if (slot < 0) slot = k;
            continue;
        }
        if (!in_way(g, off, n)) continue;
        GLenum r = glClientWaitSync(g->fence, GL_SYNC_FLUSH_COMMANDS_BIT, wait ? (GLuint64)60e9 : 0);
        if (r == GL_TIMEOUT_EXPIRED || r == GL_WAIT_FAILED) return NULL;   /* (still the GPU's) */
        glDeleteSync(g->fence);
        *g = (struct region){0, 0, 0};
        if (slot < 0) slot = k;
    }
    for (int k = 0; slot < 0 && k < N_REGIONS; k++) {   /* all taken: those uploaded and done freed */
        struct region *g = &s->reg[k];
        if (g->fence && glClientWaitSync(g->fence, 0, 0) != GL_TIMEOUT_EXPIRED) {
            glDeleteSync(g->fence);
            *g = (struct region){0, 0, 0};
            slot = k;
        }
    }
    if (slot < 0) return NULL;
    s->reg[slot] = (struct region){off, off + n, 0};
    s->wr = (off + n + 255) & ~(size_t)255;
    return s->ring_ptr + off;
}

swgl_status gpu_strips_area(gpu_strips *s, size_t bytes, void **p)
{
    *p = ring_take(s, bytes, 1);
    return SWGL_OK;
}

void gpu_strips_destroy(gpu_strips *s)
{
    if (!s) return;
    for (int k = 0; k < 2; k++) gpu_program_destroy(s->prog[k]);
    gpu_readback_destroy(s->rb);
    for (int k = 0; k < GPU_READBACK_MAX; k++) gpu_array2d_destroy(s->out[k].a);
    for (int k = 0; k < N_IN; k++) gpu_array2d_destroy(s->in[k].a);
    if (s->upload) glDeleteBuffers(1, &s->upload);
    ring_drop(s);
    free(s->tmp);
    free(s);
}

int gpu_strips_pending(const gpu_strips *s) { return s->count; }

/* the small array sm made w x h of format f (kept where it is so already) */
static swgl_status shape(small *sm, int w, int h, gpu_format f)
{
    if (sm->a && sm->w == w && sm->h == h && sm->f == f) return SWGL_OK;
    gpu_array2d_destroy(sm->a);
    sm->a = NULL;
    gpu_array2d_desc d = {w, h, f, "halo strip"};
    swgl_status st = gpu_array2d_create(&d, &sm->a);
    if (st == SWGL_OK) sm->w = w, sm->h = h, sm->f = f;
    return st;
}

/* the pass out(c) = in(c + shift) over rect r of out */
static swgl_status copy(gpu_strips *s, const gpu_array2d *in, gpu_array2d *out, const gpu_rect *r, int sx, int sy)
{
    gpu_format f = gpu_array2d_format(in);
    swgl_status st;
    if (!s->prog[f] &&
        (st = gpu_program_create("strip", f == GPU_RGBA32UI ? "#define STRIP_UINT 1\n" : NULL, &s->prog[f])) != SWGL_OK)
        return st;
    gpu_pass p;
    gpu_pass_begin(&p, s->prog[f]);
    gpu_pass_array(&p, "u_in", in);
    gpu_pass_int(&p, "u_sx", sx);
    gpu_pass_int(&p, "u_sy", sy);
    return gpu_pass_draw(&p, out, r);
}

static swgl_status check(const gpu_array2d *a, int x, int y, int w, int h, const char *what)
{
    if (x < 0 || y < 0 || w < 1 || h < 1 || x + w > gpu_array2d_width(a) || y + h > gpu_array2d_height(a))
        return swgl_fail(SWGL_ERR_ARG, "%s of '%s': rectangle (%d,%d) %dx%d is not inside %dx%d", what,
                         gpu_array2d_label(a), x, y, w, h, gpu_array2d_width(a), gpu_array2d_height(a));
    return SWGL_OK;
}

swgl_status gpu_strips_reserve(gpu_strips *s, long max_elems)
{
    if (s->rb && max_elems <= s->rb_max) return SWGL_OK;
    if (s->count) return swgl_fail(SWGL_ERR_ARG, "strips: a larger strip while read-backs are in flight");
    if (max_elems < 1 || max_elems > 1L << 26) return swgl_fail(SWGL_ERR_ARG, "strips: %ld elements a strip", max_elems);
    gpu_readback_destroy(s->rb);
    s->rb = NULL;
    s->rb_max = 0;
    swgl_status st = s->mapped ? gpu_readback_create_mapped(GPU_READBACK_MAX, (int)max_elems, &s->rb)
                               : gpu_readback_create(GPU_READBACK_MAX, (int)max_elems, &s->rb);
    if (st == SWGL_OK) s->rb_max = (int)max_elems;
    /* the way in's ring where the way out is mapped: eight strips of the largest in float (four
     * of two members in double), at least 1 MiB (a strip with no room comes through a copy) */
    size_t ring = (size_t)max_elems * 16 * 8;
    if (ring < 1u << 20) ring = 1u << 20;
    /* (the ring is a speed-up: without it the way in copies, as unmapped) */
    if (st == SWGL_OK && gpu_readback_mapped(s->rb) && ring > s->ring_size) (void)ring_make(s, ring);
    return st;
}

swgl_status gpu_strips_request(gpu_strips *s, const gpu_array2d *a, int x, int y, int w, int h)
{
    swgl_status st = check(a, x, y, w, h, "strip read-back");
    if (st != SWGL_OK) return st;
    if (s->count == GPU_READBACK_MAX)
        return swgl_fail(SWGL_ERR_ARG, "strips: all %d read-backs are in flight", GPU_READBACK_MAX);
    if ((st = gpu_strips_reserve(s, (long)w * h)) != SWGL_OK) return st;
    small *sm = &s->out[(s->head + s->count) % GPU_READBACK_MAX];
    gpu_rect r = {0, 0, w, h};
    if ((st = shape(sm, w, h, gpu_array2d_format(a))) != SWGL_OK || (st = copy(s, a, sm->a, &r, x, y)) != SWGL_OK)
        return st;
    int before = gpu_readback_pending(s->rb);
    st = gpu_readback_request(s->rb, sm->a, 0, 0, w, h);
    s->count += gpu_readback_pending(s->rb) - before;   /* (in step with the ring, a GL error too) */
    return st;
}

/* room for a strip of n elements in s->tmp */
static swgl_status tmp_room(gpu_strips *s, size_t n)
{
    if (n <= s->tmp_elems) return SWGL_OK;
    free(s->tmp);
    s->tmp_elems = 0;
    if (!(s->tmp = malloc(16 * n))) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory for a halo strip");
    s->tmp_elems = n;
    return SWGL_OK;
}

/* The oldest request's elements: in place where view is not NULL and the buffers are mapped
 * (*view = the mapping), else copied into buf (and *view = buf) */
static swgl_status take(gpu_strips *s, void *buf, const void **view)
{
    if (view) *view = NULL;
    if (!s->count) return swgl_fail(SWGL_ERR_ARG, "strips: no read-back queued");
    int ready = 0, before = gpu_readback_pending(s->rb);
    swgl_status st = view && gpu_readback_mapped(s->rb) ? gpu_readback_view(s->rb, 1, view, &ready)
                                                         : gpu_readback_fetch(s->rb, 1, buf, &ready);
    if (gpu_readback_pending(s->rb) < before) {   /* the ring let it go (a GL error too): so do these */
        s->head = (s->head + 1) % GPU_READBACK_MAX;
        s->count--;
    }
    if (st == SWGL_OK && !ready) st = swgl_fail(SWGL_ERR_GL, "strips: a read-back did not come back");
    if (st == SWGL_OK && view && !*view) *view = buf;
    return st;
}

swgl_status gpu_strips_fetch_raw(gpu_strips *s, void *buf) { return take(s, buf, NULL); }

swgl_status gpu_strips_view_raw(gpu_strips *s, void *fallback, const void **p) { return take(s, fallback, p); }

swgl_status gpu_strips_fetch(gpu_strips *s, double *buf, int stride, int offset)
{
    if (!s->count) return swgl_fail(SWGL_ERR_ARG, "strips: no read-back queued");
    small sm = s->out[s->head];
    size_t n = (size_t)sm.w * (size_t)sm.h;
    swgl_status st = tmp_room(s, n);
    if (st == SWGL_OK) st = gpu_strips_fetch_raw(s, s->tmp);
    if (st == SWGL_OK) gpu_elems_to_doubles(sm.f, s->tmp, n, buf, stride, offset);
    return st;
}

swgl_status gpu_strips_read(gpu_strips *s, const gpu_array2d *a, int x, int y, int w, int h, double *buf, int stride,
                            int offset)
{
    if (s->count) return swgl_fail(SWGL_ERR_ARG, "strips: a read while read-backs are in flight");
    swgl_status st = gpu_strips_request(s, a, x, y, w, h);
    return st == SWGL_OK ? gpu_strips_fetch(s, buf, stride, offset) : st;
}

swgl_status gpu_strips_rect(gpu_strips *s, gpu_array2d *a, int set, int x, int y, int w, int h, double *buf, int stride,
                            int offset)
{
    if (!s) return gpu_array2d_rect_doubles(a, set, x, y, w, h, buf, stride, offset);
    return set ? gpu_strips_write(s, a, x, y, w, h, buf, stride, offset)
               : gpu_strips_read(s, a, x, y, w, h, buf, stride, offset);
}

swgl_status gpu_strips_rect_mrt(gpu_strips *s, gpu_mrt *m, int members, int set, int x, int y, int w, int h,
                                double *buf)
{
    swgl_status st = SWGL_OK;
    for (int k = 0; k < members && st == SWGL_OK; k++)
        st = gpu_strips_rect(s, gpu_mrt_member(m, k), set, x, y, w, h, buf, 4, 2 * k);
    return st;
}

swgl_status gpu_strips_request_mrt(gpu_strips *s, gpu_mrt *m, int members, int x, int y, int w, int h)
{
    swgl_status st = SWGL_OK;
    for (int k = 0; k < members && st == SWGL_OK; k++) st = gpu_strips_request(s, gpu_mrt_member(m, k), x, y, w, h);
    return st;
}

/* the elements of buf into the whole of small array sm, through a pixel-unpack buffer: the
 * upload is then queued, not copied by the driver at the call (on NVIDIA's driver, a 4096
 * x 8 float4 strip: 78-83 us with its unpack pass against 185 us from client memory) */
static swgl_status upload(gpu_strips *s, small *sm, const void *buf)
{
    GLsizeiptr bytes = (GLsizeiptr)sm->w * sm->h * 16;
    int ui = sm->f == GPU_RGBA32UI;
    const char *b = buf;
    struct region *g = NULL;
    glGetError();
    /* mapped: from where buf lies in the ring (a region given out: no copy), or copied into a
     * region of it; else into new storage of the unpack buffer (the last upload may be
     * queued still) */
    if (s->ring_ptr && !in_ring(s, b, (size_t)bytes)) {
        char *r = ring_take(s, (size_t)bytes, 0);   /* (no wait: else the driver's copy below) */
        if (r) {
            memcpy(r, buf, (size_t)bytes);
            b = r;
        }
    }
    size_t off = 0;
    if (in_ring(s, b, (size_t)bytes)) {
        off = (size_t)(b - s->ring_ptr);
        for (int k = 0; k < N_REGIONS && !g; k++)
            if (s->reg[k].b && s->reg[k].a <= off && off < s->reg[k].b) g = &s->reg[k];
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, s->ring);
    } else {
        if (!s->upload) glGenBuffers(1, &s->upload);
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, s->upload);
        glBufferData(GL_PIXEL_UNPACK_BUFFER, bytes, NULL, GL_STREAM_DRAW);
        glBufferSubData(GL_PIXEL_UNPACK_BUFFER, 0, bytes, buf);
    }
    glBindTexture(GL_TEXTURE_2D, gpu_array2d_texture(sm->a));
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, sm->w, sm->h, ui ? GL_RGBA_INTEGER : GL_RGBA, ui ? GL_UNSIGNED_INT : GL_FLOAT,
                    (void *)off);
    glBindTexture(GL_TEXTURE_2D, 0);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    if (g) {   /* (the region free again once the GPU has read it; a later member's upload moves the fence on) */
        if (g->fence) glDeleteSync(g->fence);
        g->fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    }
    return gpu_check_gl("strip upload (glTexSubImage2D from a pixel-unpack buffer)");
}

swgl_status gpu_strips_write_raw(gpu_strips *s, gpu_array2d *a, int x, int y, int w, int h, const void *buf)
{
    swgl_status st = check(a, x, y, w, h, "strip write");
    if (st != SWGL_OK) return st;
    gpu_format f = gpu_array2d_format(a);
    /* the least recently written small array of this shape, once there are IN_SHAPE; else a new one */
    small *sm = NULL;
    int same = 0, free_k = -1;
    for (int k = 0; k < N_IN; k++) {
        small *c = &s->in[k];
        if (!c->a) {
            if (free_k < 0) free_k = k;
            continue;
        }
        if (c->w != w || c->h != h || c->f != f) continue;
        same++;
        if (!sm || c->used < sm->used) sm = c;
    }
    if (same < IN_SHAPE && free_k >= 0) sm = &s->in[free_k];
    if (!sm) {   /* every one taken by other shapes: the least recently written */
        sm = &s->in[0];
        for (int k = 1; k < N_IN; k++)
            if (s->in[k].used < sm->used) sm = &s->in[k];
    }
    if ((st = shape(sm, w, h, f)) != SWGL_OK) return st;
    sm->used = ++s->clock;
    gpu_rect r = {x, y, w, h};
    if ((st = upload(s, sm, buf)) != SWGL_OK) return st;
    return copy(s, sm->a, a, &r, -x, -y);
}

swgl_status gpu_strips_write(gpu_strips *s, gpu_array2d *a, int x, int y, int w, int h, const double *buf, int stride,
                             int offset)
{
    size_t n = (size_t)w * (size_t)h;
    swgl_status st = check(a, x, y, w, h, "strip write");
    if (st == SWGL_OK) st = tmp_room(s, n);
    if (st != SWGL_OK) return st;
    gpu_elems_from_doubles(gpu_array2d_format(a), s->tmp, n, buf, stride, offset);
    return gpu_strips_write_raw(s, a, x, y, w, h, s->tmp);
}

swgl_status gpu_strips_rect_raw(gpu_strips *s, gpu_array2d *a, int set, int x, int y, int w, int h, void *buf)
{
    if (!s) return set ? gpu_array2d_upload_rect(a, x, y, w, h, buf) : gpu_array2d_download_rect(a, x, y, w, h, buf);
    if (set) return gpu_strips_write_raw(s, a, x, y, w, h, buf);
    if (s->count) return swgl_fail(SWGL_ERR_ARG, "strips: a read while read-backs are in flight");
    swgl_status st = gpu_strips_request(s, a, x, y, w, h);
    return st == SWGL_OK ? gpu_strips_fetch_raw(s, buf) : st;
}

swgl_status gpu_strips_rect_mrt_raw(gpu_strips *s, gpu_mrt *m, int members, int set, int x, int y, int w, int h,
                                    void *buf)
{
    swgl_status st = SWGL_OK;
    size_t member = (size_t)w * (size_t)h * 16;
    for (int k = 0; k < members && st == SWGL_OK; k++)
        st = gpu_strips_rect_raw(s, gpu_mrt_member(m, k), set, x, y, w, h, (char *)buf + k * member);
    return st;
}

swgl_status gpu_strips_fetch_mrt_raw(gpu_strips *s, int members, void *buf)
{
    swgl_status st = SWGL_OK;
    size_t member = s->count ? (size_t)s->out[s->head].w * (size_t)s->out[s->head].h * 16 : 0;
    for (int k = 0; k < members; k++) {   /* (each member fetched, after a failure too: none left in flight) */
        swgl_status f = gpu_strips_fetch_raw(s, (char *)buf + k * member);
        if (st == SWGL_OK) st = f;
    }
    return st;
}

swgl_status gpu_strips_view_mrt_raw(gpu_strips *s, int members, void *fallback, const void **p)
{
    if (members == 1) return gpu_strips_view_raw(s, fallback, p);
    *p = fallback;   /* (several read-backs: laid one after the other by a copy) */
    return gpu_strips_fetch_mrt_raw(s, members, fallback);
}
