/* test_gl_strips.c — the halo's way through the GPU (gpgpu/gpu_strips.c, gpu_readback.c):
 * rectangles of an array read back and written through small arrays, raw (the texels as
 * stored) and as doubles, on fragment passes and (--compute) compute passes.
 *
 * Every comparison is exact: a strip is a copy of texels, and the halo of a run over MPI
 * ranks is the same bits as one rank's only if the copy changes none (docs/mpi.md).  The
 * read-back of a whole small array goes by glGetTexImage, of part of one by glReadPixels
 * (gpu_readback.c): both are checked, and the ring's requests come back in order; where the
 * context maps buffers for good, the strips taken in place and received into the way in's
 * ring (no copies), against the copies' way. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_util.h"
#include "gpu_array2d.h"
#include "gpu_mrt.h"
#include "gpu_readback.h"
#include "gpu_strips.h"

#define W 37
#define H 29

/* texel (x, y) of a W x H float4 array, 4 floats at t + 4 (y W + x) */
static const float *at(const float *t, int x, int y) { return t + 4 * ((size_t)y * W + x); }

static int same_rect(const float *big, const float *strip, int x, int y, int w, int h)
{
    for (int j = 0; j < h; j++)
        if (memcmp(at(big, x, y + j), strip + 4 * (size_t)j * w, 16 * (size_t)w) != 0) return 0;
    return 1;
}

int main(void)
{
    gpu_context *ctx = test_gl_context();
    uint64_t seed = 26;
    size_t n = (size_t)W * H;
    float *init = malloc(16 * n), *back = malloc(16 * n), *strip = malloc(16 * n);
    double *dbl = malloc(32 * n);
    CHECK(init && back && strip && dbl, "memory");
    /* values whose float bits matter: a NaN's payload, a denormal, -0, ordinary numbers */
    for (size_t i = 0; i < 4 * n; i++) init[i] = test_rand_float(&seed) * 1e3f;
    unsigned nan_bits = 0x7fc01234u, den_bits = 0x00000321u, negz = 0x80000000u;
    memcpy(&init[5], &nan_bits, 4);
    memcpy(&init[6], &den_bits, 4);
    memcpy(&init[7], &negz, 4);

    gpu_array2d *a;
    gpu_array2d_desc d = {W, H, GPU_RGBA32F, "strips test"};
    CHECK(gpu_array2d_create(&d, &a) == SWGL_OK && gpu_array2d_upload(a, init) == SWGL_OK, "array: %s",
          swgl_last_error());
    gpu_strips *s;
    CHECK(gpu_strips_create(&s) == SWGL_OK, "strips");

    /* raw read of a strip: the same bytes as the array's (NaN payload, denormal, -0 kept,
     * where a pass copies them bit for bit: the strip pass loads and stores the texel) */
    CHECK(gpu_strips_rect_raw(s, a, 0, 3, 2, 11, 4, strip) == SWGL_OK, "raw read: %s", swgl_last_error());
    CHECK(same_rect(init, strip, 3, 2, 11, 4), "raw read of (3,2) 11x4 gives the array's bytes");
    CHECK(gpu_strips_rect_raw(s, a, 0, 0, 0, 5, 1, strip) == SWGL_OK && memcmp(strip + 5, &init[5], 12) == 0,
          "the NaN's payload, the denormal and -0 come back as they are");

    /* several requests in flight, fetched in order (the overlapped exchange's way) */
    const int r[3][4] = {{0, 0, W, 2}, {0, H - 3, W, 3}, {W - 4, 0, 4, H}};
    CHECK(gpu_strips_reserve(s, 4L * H) == SWGL_OK, "room for the largest strip first (a backend's halo room)");
    for (int k = 0; k < 3; k++) CHECK(gpu_strips_request(s, a, r[k][0], r[k][1], r[k][2], r[k][3]) == SWGL_OK, "request %d: %s", k, swgl_last_error());
    CHECK(gpu_strips_pending(s) == 3, "3 read-backs in flight (got %d)", gpu_strips_pending(s));
    for (int k = 0; k < 3; k++) {
        CHECK(gpu_strips_fetch_raw(s, strip) == SWGL_OK, "fetch %d: %s", k, swgl_last_error());
        CHECK(same_rect(init, strip, r[k][0], r[k][1], r[k][2], r[k][3]), "request %d comes back in its turn", k);
    }
    CHECK(gpu_strips_fetch_raw(s, strip) != SWGL_OK, "a fetch with nothing in flight is refused");

    /* raw write: a strip of new values into (20, 9) 9x5, the rest of the array untouched */
    for (size_t i = 0; i < 4 * 45; i++) strip[i] = (float)i + 0.25f;
    CHECK(gpu_strips_rect_raw(s, a, 1, 20, 9, 9, 5, strip) == SWGL_OK, "raw write: %s", swgl_last_error());
    float *want = malloc(16 * n);
    memcpy(want, init, 16 * n);
    for (int j = 0; j < 5; j++) memcpy(want + 4 * ((size_t)(9 + j) * W + 20), strip + 4 * 9 * j, 16 * 9);
    CHECK(gpu_array2d_download(a, back) == SWGL_OK, "download");
    CHECK(memcmp(back, want, 16 * n) == 0, "the raw write changed its rectangle alone, to the bytes written");

    /* three writes queued before anything waits, two into the same rectangle: they land in
     * the order written, each with its own bytes (through one upload buffer) */
    float *two = malloc(16 * 45);
    for (size_t i = 0; i < 4 * 45; i++) two[i] = -(float)i;
    CHECK(gpu_strips_write_raw(s, a, 20, 9, 9, 5, strip) == SWGL_OK && gpu_strips_write_raw(s, a, 0, 0, 9, 5, two) == SWGL_OK &&
          gpu_strips_write_raw(s, a, 20, 9, 9, 5, two) == SWGL_OK, "writes queued");
    for (int j = 0; j < 5; j++) {
        memcpy(want + 4 * ((size_t)(9 + j) * W + 20), two + 4 * 9 * j, 16 * 9);
        memcpy(want + 4 * ((size_t)j * W), two + 4 * 9 * j, 16 * 9);
    }
    CHECK(gpu_array2d_download(a, back) == SWGL_OK && memcmp(back, want, 16 * n) == 0,
          "three queued writes land in order, each with its own bytes");

    /* the direct way (no strips: tune mpi.pack=off), raw: the same bytes as through the strips */
    CHECK(gpu_strips_rect_raw(NULL, a, 0, 20, 9, 9, 5, strip) == SWGL_OK && memcmp(strip, two, 16 * 45) == 0,
          "a direct raw read gives what was written through the strips");
    CHECK(gpu_strips_rect_raw(NULL, a, 1, 20, 9, 9, 5, init) == SWGL_OK && gpu_strips_rect_raw(s, a, 0, 20, 9, 9, 5, strip) == SWGL_OK &&
          memcmp(strip, init, 16 * 45) == 0, "a direct raw write read back through the strips");
    for (int j = 0; j < 5; j++) memcpy(want + 4 * ((size_t)(9 + j) * W + 20), init + 4 * 9 * j, 16 * 9);

    /* the doubles' way: widened on the way out, rounded to float on the way in (exact here:
     * the values are floats) */
    CHECK(gpu_strips_rect(s, a, 0, 1, 1, 6, 3, dbl, 4, 0) == SWGL_OK, "doubles read");
    int ok = 1;
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 6; i++)
            for (int c = 0; c < 4; c++) ok &= dbl[4 * (j * 6 + i) + c] == (double)at(want, 1 + i, 1 + j)[c];
    CHECK(ok, "the doubles are the floats widened");
    for (size_t i = 0; i < 4 * 18; i++) dbl[i] = (double)i * 0.5;
    CHECK(gpu_strips_rect(s, a, 1, 30, 20, 6, 3, dbl, 4, 0) == SWGL_OK, "doubles write");
    CHECK(gpu_array2d_download(a, back) == SWGL_OK, "download");
    ok = 1;
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 6; i++)
            for (int c = 0; c < 4; c++) ok &= at(back, 30 + i, 20 + j)[c] == (float)dbl[4 * (j * 6 + i) + c];
    CHECK(ok, "the doubles written are the floats read back");

    /* an MRT of two uint4 members (the double-precision states): member after member, bits */
    gpu_mrt *m;
    gpu_mrt_desc md = {W, H, 2, {GPU_RGBA32UI, GPU_RGBA32UI}, "strips mrt"};
    CHECK(gpu_mrt_create(&md, &m) == SWGL_OK, "mrt: %s", swgl_last_error());
    unsigned *u = malloc(16 * n), *u2 = malloc(16 * n), *ub = malloc(2 * 32 * 12);
    for (size_t i = 0; i < 4 * n; i++) u[i] = (unsigned)test_rand_u64(&seed), u2[i] = (unsigned)test_rand_u64(&seed);
    CHECK(gpu_array2d_upload(gpu_mrt_member(m, 0), u) == SWGL_OK && gpu_array2d_upload(gpu_mrt_member(m, 1), u2) == SWGL_OK,
          "mrt upload");
    CHECK(gpu_strips_rect_mrt_raw(s, m, 2, 0, 5, 7, 4, 3, ub) == SWGL_OK, "mrt raw read: %s", swgl_last_error());
    ok = 1;
    for (int j = 0; j < 3; j++) {
        ok &= memcmp(ub + 4 * (j * 4), u + 4 * ((size_t)(7 + j) * W + 5), 16 * 4) == 0;
        ok &= memcmp(ub + 48 + 4 * (j * 4), u2 + 4 * ((size_t)(7 + j) * W + 5), 16 * 4) == 0;
    }
    CHECK(ok, "member 0's texels, then member 1's, bit for bit");
    CHECK(gpu_strips_request_mrt(s, m, 2, 5, 7, 4, 3) == SWGL_OK && gpu_strips_fetch_mrt_raw(s, 2, ub + 96) == SWGL_OK &&
          memcmp(ub, ub + 96, 384) == 0, "requested and fetched: the same bytes as read at once");
    for (size_t i = 0; i < 96; i++) ub[i] = 0xdead0000u + (unsigned)i;
    CHECK(gpu_strips_rect_mrt_raw(s, m, 2, 1, 0, 0, 4, 3, ub) == SWGL_OK, "mrt raw write");
    CHECK(gpu_array2d_download(gpu_mrt_member(m, 1), u2) == SWGL_OK, "download member 1");
    CHECK(memcmp(u2 + 4 * W, ub + 48 + 16, 64) == 0 && u2[0] == 0xdead0000u + 48, "member 1 got the second half");

    /* the strips without copies (docs/mpi.md, "The strips mapped"): where the context has
     * persistently mapped buffers (Mesa and NVIDIA do), a strip is taken in place and
     * received into room of the way in's ring; the same bytes as copied, and each view stays
     * where it is while the next ones are taken (an exchange sends every strip before any
     * send completes) */
    if (gpu_strips_mapped(s)) {
        float *v0 = malloc(16 * n), *w0 = malloc(16 * n);
        const void *p[3];
        CHECK(gpu_array2d_download(a, v0) == SWGL_OK, "download");
        for (int k = 0; k < 3; k++) CHECK(gpu_strips_request(s, a, r[k][0], r[k][1], r[k][2], r[k][3]) == SWGL_OK, "request");
        for (int k = 0; k < 3; k++)
            CHECK(gpu_strips_view_raw(s, strip, &p[k]) == SWGL_OK && p[k] && p[k] != (const void *)strip,
                  "view %d: in place (%s)", k, swgl_last_error());
        ok = 1;
        for (int k = 0; k < 3; k++) ok &= same_rect(v0, p[k], r[k][0], r[k][1], r[k][2], r[k][3]);
        CHECK(ok, "three views, each its rectangle's bytes, all still in place after the last");
        /* room in the ring, filled and written from: no copy, the bytes land */
        void *room[2];
        CHECK(gpu_strips_area(s, 16 * 45, &room[0]) == SWGL_OK && room[0] && gpu_strips_area(s, 16 * 45, &room[1]) == SWGL_OK &&
              room[1] && room[1] != room[0], "two rooms of the ring");
        for (size_t i = 0; i < 4 * 45; i++) ((float *)room[0])[i] = 7.0f + (float)i, ((float *)room[1])[i] = -7.0f - (float)i;
        CHECK(gpu_strips_write_raw(s, a, 20, 9, 9, 5, room[0]) == SWGL_OK && gpu_strips_write_raw(s, a, 0, 20, 9, 5, room[1]) == SWGL_OK,
              "written from the rooms");
        memcpy(w0, v0, 16 * n);
        for (int j = 0; j < 5; j++) {
            memcpy(w0 + 4 * ((size_t)(9 + j) * W + 20), (float *)room[0] + 4 * 9 * j, 16 * 9);
            memcpy(w0 + 4 * ((size_t)(20 + j) * W), (float *)room[1] + 4 * 9 * j, 16 * 9);
        }
        CHECK(gpu_array2d_download(a, back) == SWGL_OK && memcmp(back, w0, 16 * n) == 0, "the rooms' bytes landed");
        /* round the ring many times (1 MiB; writes of 17 KB), with one room given out and never
         * written: the writes that would land on it go by a copy of their own, and every write
         * lands, in order */
        void *held;
        CHECK(gpu_strips_area(s, 16 * 45, &held) == SWGL_OK && held, "a room held");
        float *big = malloc(16 * n);
        int rooms = 0;
        ok = 1;
        for (int it = 0; it < 200 && ok; it++) {
            for (size_t i = 0; i < 4 * n; i++) big[i] = (float)it + 1e-3f * (float)i;
            void *rm = NULL;
            if (it % 2 && (gpu_strips_area(s, 16 * n, &rm) != SWGL_OK)) ok = 0;
            if (rm) memcpy(rm, big, 16 * n), rooms++;
            ok &= gpu_strips_write_raw(s, a, 0, 0, W, H, rm ? rm : big) == SWGL_OK;
            if (it % 37 == 0 || it == 199) ok &= gpu_array2d_download(a, back) == SWGL_OK && memcmp(back, big, 16 * n) == 0;
        }
        CHECK(ok, "200 whole-array writes round the ring (half from rooms), each landed (%s)", swgl_last_error());
        CHECK(rooms == 100, "every room asked for round the ring was given, the held one stepped past (%d of 100)", rooms);
        free(big);
        free(v0);
        free(w0);
    } else {
        printf("# the strips' buffers are not mapped in this context (no GL 4.4 or GL_ARB_buffer_storage): the copies' way only\n");
    }
    /* mpi.mapped=off: the copies' way, the same bytes; a view is then the copy */
    gpu_strips *c;
    CHECK(gpu_strips_create(&c) == SWGL_OK, "strips");
    gpu_strips_set_mapped(c, 0);
    const void *pv = NULL;
    CHECK(gpu_strips_request(c, a, 3, 2, 11, 4) == SWGL_OK && gpu_strips_view_raw(c, strip, &pv) == SWGL_OK &&
          pv == (const void *)strip && !gpu_strips_mapped(c), "not mapped: the view is the copy into the caller's buffer");
    CHECK(gpu_array2d_download(a, back) == SWGL_OK && same_rect(back, strip, 3, 2, 11, 4), "with its rectangle's bytes");
    void *none = (void *)1;
    CHECK(gpu_strips_area(c, 16, &none) == SWGL_OK && none == NULL, "not mapped: no room of the ring");
    gpu_strips_destroy(c);

    /* the ring alone: a whole small array (glGetTexImage) and part of one (glReadPixels) */
    gpu_readback *rb;
    CHECK(gpu_readback_create(2, (int)n, &rb) == SWGL_OK, "readback");
    int ready = 0;
    CHECK(gpu_readback_request(rb, a, 0, 0, W, H) == SWGL_OK && gpu_readback_request(rb, a, 2, 3, 5, 4) == SWGL_OK,
          "requests");
    CHECK(gpu_readback_fetch(rb, 1, back, &ready) == SWGL_OK && ready, "the whole array came back");
    CHECK(gpu_array2d_download(a, want) == SWGL_OK && memcmp(back, want, 16 * n) == 0, "the whole array read back as it is");
    CHECK(gpu_readback_fetch(rb, 1, strip, &ready) == SWGL_OK && ready && same_rect(want, strip, 2, 3, 5, 4),
          "part of it: its rectangle");
    gpu_readback_destroy(rb);

    free(u);
    free(u2);
    free(ub);
    free(two);
    free(want);
    gpu_mrt_destroy(m);
    gpu_strips_destroy(s);
    gpu_array2d_destroy(a);
    free(init);
    free(back);
    free(strip);
    free(dbl);
    gpu_context_destroy(ctx);
    return check_done();
}
