/* test_gl_array.c — gpu_array2d: upload/download round trips are bit-exact (whole
 * array and sub-rectangles, float and uint formats; the whole arrays mapped in place
 * through the layer's pixel buffers too), sizes are checked against
 * GL_MAX_TEXTURE_SIZE with a clear error, and 1000 create/destroy cycles leak no
 * texture or framebuffer. */
#include <string.h>

#include "gl_util.h"
#include "gpu_array2d.h"
#include "ram_array2d.h"
#include "../gpgpu/gl.h"

static void round_trip(int w, int h, uint64_t seed)
{
    gpu_array2d *a = NULL;
    gpu_array2d_desc d = {w, h, GPU_RGBA32F, "round trip"};
    ram_array2d *in = ram_array2d_create(w, h), *out = ram_array2d_create(w, h);
    CHECK(gpu_array2d_create(&d, &a) == SWGL_OK, "create %dx%d: %s", w, h, swgl_last_error());
    size_t n = (size_t)4 * w * h;
    for (size_t i = 0; i < n; i++) in->data[i] = test_rand_float(&seed) * 1e6f;
    in->data[0] = -0.0f;            /* signed zero and a denormal must survive too */
    if (n > 1) in->data[1] = 1e-40f;
    memset(out->data, 0xff, n * sizeof(float));
    CHECK(gpu_array2d_upload(a, in->data) == SWGL_OK, "upload: %s", swgl_last_error());
    CHECK(gpu_array2d_download(a, out->data) == SWGL_OK, "download: %s", swgl_last_error());
    CHECK(memcmp(in->data, out->data, n * sizeof(float)) == 0,
          "%dx%d float4 round trip is bit-exact (tolerance 0: no conversion may happen)", w, h);

    /* sub-rectangle: write a patch, read back a patch that straddles it */
    if (w >= 4 && h >= 4) {
        int rx = w / 4, ry = h / 3, rw = w / 2, rh = h / 2;
        float *patch = malloc((size_t)4 * rw * rh * sizeof(float)), *back = malloc((size_t)4 * rw * rh * sizeof(float));
        for (int i = 0; i < 4 * rw * rh; i++) patch[i] = test_rand_float(&seed);
        CHECK(gpu_array2d_upload_rect(a, rx, ry, rw, rh, patch) == SWGL_OK, "upload_rect: %s", swgl_last_error());
        CHECK(gpu_array2d_download_rect(a, rx, ry, rw, rh, back) == SWGL_OK, "download_rect: %s", swgl_last_error());
        CHECK(memcmp(patch, back, (size_t)4 * rw * rh * sizeof(float)) == 0,
              "%dx%d sub-rectangle (%d,%d) %dx%d round trip is bit-exact", w, h, rx, ry, rw, rh);
        /* and the rest of the array is untouched */
        CHECK(gpu_array2d_download(a, out->data) == SWGL_OK, "download: %s", swgl_last_error());
        int bad = 0;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int inside = x >= rx && x < rx + rw && y >= ry && y < ry + rh;
                const float *want = inside ? patch + 4 * ((y - ry) * rw + (x - rx)) : ram_array2d_at(in, x, y);
                if (memcmp(want, ram_array2d_at(out, x, y), 4 * sizeof(float))) bad++;
            }
        CHECK(bad == 0, "after a sub-rectangle upload, every element is the patch's or the original (%d wrong)", bad);
        free(patch);
        free(back);
    }
    gpu_array2d_destroy(a);
    ram_array2d_destroy(in);
    ram_array2d_destroy(out);
}

static void round_trip_uint(void)
{
    enum { W = 33, H = 17 };
    static uint32_t in[4 * W * H], out[4 * W * H];
    uint64_t seed = 99;
    gpu_array2d *a = NULL;
    gpu_array2d_desc d = {W, H, GPU_RGBA32UI, "uint"};
    for (int i = 0; i < 4 * W * H; i++) in[i] = (uint32_t)test_rand_u64(&seed);
    CHECK(gpu_array2d_create(&d, &a) == SWGL_OK, "create RGBA32UI: %s", swgl_last_error());
    CHECK(gpu_array2d_upload(a, in) == SWGL_OK && gpu_array2d_download(a, out) == SWGL_OK, "uint transfer: %s",
          swgl_last_error());
    CHECK(memcmp(in, out, sizeof in) == 0, "RGBA32UI round trip is bit-exact (doubles packed 2 per element)");
    gpu_array2d_destroy(a);
}

/* The whole-array transfers in place (gpu_array2d_upload_map ... download_unmap): the
 * texels written into the mapped buffer reach both arrays bit for bit, in either format;
 * the mapped download gives them back; an array of another size is refused with its name;
 * a larger array after a smaller one grows the buffers; rect_doubles of a whole array (the
 * mapped path from GPU_XFER_MAPPED_MIN elements) matches the element-by-element widening. */
static void mapped(void)
{
    for (int f = 0; f < 2; f++) {
        const int W = f ? 300 : 37, H = f ? 260 : 11;   /* (the second past GPU_XFER_MAPPED_MIN) */
        gpu_format fmt = f ? GPU_RGBA32F : GPU_RGBA32UI;
        gpu_array2d *a = NULL, *b = NULL, *other = NULL;
        gpu_array2d_desc d = {W, H, fmt, "mapped"}, od = {W + 1, H, fmt, "other size"};
        CHECK(gpu_array2d_create(&d, &a) == SWGL_OK && gpu_array2d_create(&d, &b) == SWGL_OK &&
                  gpu_array2d_create(&od, &other) == SWGL_OK,
              "create: %s", swgl_last_error());
        size_t n = (size_t)4 * W * H;
        uint32_t *want = malloc(n * sizeof *want), *got = malloc(n * sizeof *got);
        uint64_t seed = 7 + (uint64_t)f;
        for (size_t i = 0; i < n; i++) {
            float x = test_rand_float(&seed) * 1e3f;
            uint32_t u;
            memcpy(&u, &x, 4);
            want[i] = f ? u : (uint32_t)test_rand_u64(&seed);
        }
        swgl_status st = SWGL_OK;
        uint32_t *t = gpu_array2d_upload_map(a, &st);
        CHECK(t != NULL && st == SWGL_OK, "upload_map %s: %s", f ? "float" : "uint", swgl_last_error());
        if (t) memcpy(t, want, n * sizeof *want);
        gpu_array2d *to[2] = {a, b};
        CHECK(t && gpu_array2d_upload_unmap(to, 2) == SWGL_OK, "upload_unmap into two arrays: %s", swgl_last_error());
        for (int k = 0; k < 2; k++) {
            memset(got, 0xee, n * sizeof *got);
            CHECK(gpu_array2d_download(to[k], got) == SWGL_OK, "download: %s", swgl_last_error());
            CHECK(memcmp(want, got, n * sizeof *got) == 0,
                  "%s %dx%d: the mapped texels reach array %d bit for bit (tolerance 0: no conversion)",
                  f ? "RGBA32F" : "RGBA32UI", W, H, k);
        }
        const uint32_t *r = gpu_array2d_download_map(b, &st);
        CHECK(r != NULL && memcmp(r, want, n * sizeof *want) == 0, "download_map gives the texels back bit for bit");
        CHECK(gpu_array2d_download_unmap() == SWGL_OK, "download_unmap: %s", swgl_last_error());
        /* the texels mapped for a, uploaded into an array of another size: refused, named */
        t = gpu_array2d_upload_map(a, &st);
        st = t ? gpu_array2d_upload_unmap(&other, 1) : st;
        CHECK(st == SWGL_ERR_ARG && strstr(swgl_last_error(), "other size"),
              "uploading the mapped texels of a %dx%d array into a %dx%d one is refused: %s", W, H, W + 1, H,
              swgl_last_error());
        if (f) {   /* rect_doubles of the whole array: the mapped path, the same widening */
            double *dv = malloc(n * sizeof *dv);
            CHECK(gpu_array2d_rect_doubles(b, 0, 0, 0, W, H, dv, 4, 0) == SWGL_OK, "rect_doubles: %s",
                  swgl_last_error());
            size_t bad = 0;
            for (size_t i = 0; i < n; i++) {
                float x;
                memcpy(&x, &want[i], 4);
                bad += dv[i] != (double)x;
            }
            CHECK(bad == 0, "rect_doubles of a whole %dx%d array reads every value exactly (%zu wrong)", W, H, bad);
            for (size_t i = 0; i < n; i++) dv[i] = -0.5 * dv[i];
            CHECK(gpu_array2d_rect_doubles(b, 1, 0, 0, W, H, dv, 4, 0) == SWGL_OK &&
                      gpu_array2d_download(b, got) == SWGL_OK,
                  "rect_doubles set: %s", swgl_last_error());
            bad = 0;
            for (size_t i = 0; i < n; i++) {
                float x;
                memcpy(&x, &got[i], 4);
                bad += x != (float)dv[i];
            }
            CHECK(bad == 0, "rect_doubles writes a whole array as (float) of each double (%zu wrong)", bad);
            free(dv);
        }
        free(want);
        free(got);
        gpu_array2d_destroy(a);
        gpu_array2d_destroy(b);
        gpu_array2d_destroy(other);
    }
}

int main(void)
{
    gpu_context *ctx = test_gl_context();
    const gpu_info *info = gpu_context_info(ctx);
    static const int sizes[][2] = {{1, 1}, {1, 37}, {53, 1}, {3, 7}, {257, 129}, {1000, 1000}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        round_trip(sizes[i][0], sizes[i][1], 1234 + i);
    round_trip_uint();
    mapped();

    /* too large: a clear error naming the limit */
    gpu_array2d *a = NULL;
    gpu_array2d_desc big = {info->max_texture_size + 1, 4, GPU_RGBA32F, "too wide"};
    swgl_status st = gpu_array2d_create(&big, &a);
    CHECK(st == SWGL_ERR_TOO_LARGE && a == NULL, "width GL_MAX_TEXTURE_SIZE+1 is refused");
    CHECK(strstr(swgl_last_error(), "GL_MAX_TEXTURE_SIZE") && strstr(swgl_last_error(), "too wide"),
          "the message names the array and the limit: %s", swgl_last_error());
    gpu_array2d_desc zero = {0, 4, GPU_RGBA32F, "empty"};
    CHECK(gpu_array2d_create(&zero, &a) == SWGL_ERR_ARG, "a 0-wide array is refused: %s", swgl_last_error());
    float v[4] = {1, 2, 3, 4};
    gpu_array2d_desc small = {8, 8, GPU_RGBA32F, "small"};
    gpu_array2d_create(&small, &a);
    CHECK(gpu_array2d_upload_rect(a, 6, 6, 4, 4, v) == SWGL_ERR_ARG, "a rectangle past the edge is refused: %s",
          swgl_last_error());
    gpu_array2d_destroy(a);

    /* 1000 create/destroy cycles: every texture and framebuffer name is released */
    unsigned tex[1000], fbo[1000];
    for (int i = 0; i < 1000; i++) {
        gpu_array2d_desc d = {16, 16, GPU_RGBA32F, "cycle"};
        gpu_array2d_create(&d, &a);
        tex[i] = gpu_array2d_texture(a);
        fbo[i] = gpu_array2d_framebuffer(a);
        gpu_array2d_destroy(a);
    }
    int alive = 0;
    for (int i = 0; i < 1000; i++) alive += glIsTexture(tex[i]) || glIsFramebuffer(fbo[i]);
    CHECK(alive == 0, "after 1000 create/destroy cycles no texture or framebuffer is alive (%d)", alive);
    gpu_array2d_destroy(NULL);
    gpu_context_destroy(ctx);
    return check_done();
}
