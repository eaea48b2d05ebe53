/* test_gl_compute.c — gpu_compute, the compute passes under the compute-shader backend
 * (issue 13): a GL 4.3 context where the device offers one; the compute copy is bit-exact
 * on sizes that are not multiples of the work group (no element outside the array is
 * written, none inside missed); a compute 5-point stencil equals the fragment pass
 * stencil5 bit for bit (the same float operations in the same order); a compile error
 * names the pass; a kernel (gpu_program_create_kernel) with an #include, an extra image and
 * a dispatch with no draw outputs computes group_min.glsl's minima exactly, and misuse of
 * images and dispatches is refused; in a 3.3 context a compute pass is refused with a
 * message.  Skips (77)
 * without an EGL device, or where the device has no GL 4.3. */
#include <math.h>
#include <string.h>

#include "gl_util.h"
#include "gpu_array2d.h"
#include "gpu_buffer.h"
#include "gpu_compute.h"
#include "gpu_pass.h"
#include "gpu_program.h"

static const char *stencil_cs =
    "layout(local_size_x = 16, local_size_y = 16) in;\n"
    "uniform sampler2D u_in;\n"
    "layout(rgba32f, binding = 0) uniform writeonly image2D o_out;\n"
    "void main()\n"
    "{\n"
    "    ivec2 c = ivec2(gl_GlobalInvocationID.xy), n = textureSize(u_in, 0) - 1;\n"
    "    if (any(greaterThan(c, n))) return;\n"
    "    vec4 v = texelFetch(u_in, c, 0);\n"
    "    v += texelFetch(u_in, ivec2(max(c.x - 1, 0), c.y), 0);\n"
    "    v += texelFetch(u_in, ivec2(min(c.x + 1, n.x), c.y), 0);\n"
    "    v += texelFetch(u_in, ivec2(c.x, max(c.y - 1, 0)), 0);\n"
    "    v += texelFetch(u_in, ivec2(c.x, min(c.y + 1, n.y)), 0);\n"
    "    imageStore(o_out, c, 0.2 * v);\n"
    "}\n";

static void copy_case(int w, int h, uint64_t seed)
{
    gpu_array2d *a = NULL, *b = NULL;
    gpu_array2d_desc d = {w, h, GPU_RGBA32F, "cs in"}, db = {w, h, GPU_RGBA32F, "cs out"};
    size_t n = (size_t)4 * w * h;
    float *in = malloc(n * sizeof(float)), *out = malloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++) in[i] = test_rand_float(&seed) * 1e6f;
    in[0] = -0.0f;
    in[1] = 1e-40f;   /* a denormal: a copy must not flush it */
    CHECK(gpu_array2d_create(&d, &a) == SWGL_OK && gpu_array2d_create(&db, &b) == SWGL_OK, "arrays: %s",
          swgl_last_error());
    float marker[4] = {7, 7, 7, 7};
    gpu_array2d_upload(a, in);
    gpu_array2d_fill(b, marker);
    gpu_compute *cs = NULL;
    CHECK(gpu_compute_create("copy_cs", NULL, &cs) == SWGL_OK, "copy_cs builds: %s", swgl_last_error());
    if (cs) {
        int lx, ly;
        gpu_compute_local_size(cs, &lx, &ly);
        CHECK(lx == 16 && ly == 16, "the work group the shader declares: %d x %d", lx, ly);
        gpu_compute_begin(cs);
        gpu_compute_texture(cs, "u_in", 0, a);
        gpu_compute_image(cs, 0, b, GPU_IMAGE_WRITE);
        CHECK(gpu_compute_dispatch(cs, w, h) == SWGL_OK, "dispatch: %s", swgl_last_error());
        CHECK(gpu_array2d_download(b, out) == SWGL_OK, "download: %s", swgl_last_error());
        CHECK(memcmp(in, out, n * sizeof(float)) == 0,
              "%d x %d compute copy is bit-exact (tolerance 0: a copy converts nothing), every element written", w, h);
    }
    gpu_compute_destroy(cs);
    gpu_array2d_destroy(a);
    gpu_array2d_destroy(b);
    free(in);
    free(out);
}

static void stencil_case(int w, int h, uint64_t seed)
{
    gpu_array2d *a = NULL, *f = NULL, *c = NULL;
    gpu_array2d_desc d = {w, h, GPU_RGBA32F, "st"};
    size_t n = (size_t)4 * w * h;
    float *in = malloc(n * sizeof(float)), *of = malloc(n * sizeof(float)), *oc = malloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++) in[i] = test_rand_float(&seed);
    gpu_array2d_create(&d, &a);
    gpu_array2d_create(&d, &f);
    gpu_array2d_create(&d, &c);
    gpu_array2d_upload(a, in);
    gpu_program *p = NULL;
    gpu_compute *cs = NULL;
    CHECK(gpu_program_create("stencil5", NULL, &p) == SWGL_OK, "stencil5: %s", swgl_last_error());
    CHECK(gpu_compute_create_from_source("stencil5_cs", stencil_cs, NULL, &cs) == SWGL_OK, "stencil5_cs: %s",
          swgl_last_error());
    if (p && cs) {
        gpu_pass ps;
        gpu_pass_begin(&ps, p);
        gpu_pass_array(&ps, "u_in", a);
        gpu_pass_draw(&ps, f, NULL);
        gpu_compute_begin(cs);
        gpu_compute_texture(cs, "u_in", 0, a);
        gpu_compute_image(cs, 0, c, GPU_IMAGE_WRITE);
        gpu_compute_dispatch(cs, w, h);
        gpu_array2d_download(f, of);
        gpu_array2d_download(c, oc);
        size_t bad = 0;
        double worst = 0;
        for (size_t i = 0; i < n; i++) {
            if (of[i] != oc[i]) bad++;
            worst = fmax(worst, fabs((double)of[i] - (double)oc[i]));
        }
        /* the same operations in the same order; a compiler may still contract a*b+c
         * differently in the two stages, so allow 2 ulp of the values' scale (<= 1) */
        CHECK(worst <= 2.4e-7, "%d x %d: compute stencil vs fragment stencil5: %zu elements differ, largest %.3g "
              "(bound 2 ulp of 1)", w, h, bad, worst);
    }
    gpu_program_destroy(p);
    gpu_compute_destroy(cs);
    gpu_array2d_destroy(a);
    gpu_array2d_destroy(f);
    gpu_array2d_destroy(c);
    free(in), free(of), free(oc);
}

/* A kernel (gpu_program_create_kernel) of this test's own, registered as a shader folder:
 * each 16 x 16 group's min of channel 0 by group_min.glsl, written at the group's index
 * through an extra image (gpu_pass_image) of a dispatch with no draw outputs. */
static const struct swgl_embedded test_kernels[] = {
    {"test_group_min_cs.glsl",
     "layout(local_size_x = 16, local_size_y = 16) in;\n"
     "SWGL_INPUT(u_in);\n"
     "#include \"group_min.glsl\"\n"
     "SWGL_IMAGE(0, o_out);\n"
     "void main()\n"
     "{\n"
     "    if (gl_LocalInvocationIndex == 0u) swgl_group_min_init();\n"
     "    barrier();\n"
     "    swgl_group_min_add(swgl_in_rect() ? SWGL_LOAD(u_in, swgl_cell()).x : swgl_inf());\n"
     "    barrier();\n"
     "    if (gl_LocalInvocationIndex == 0u) imageStore(o_out, ivec2(gl_WorkGroupID.xy), vec4(swgl_group_min_value()));\n"
     "}\n"},
    /* a min over the whole dispatch by one atomicMin a group into a buffer word, a count of
     * the groups, and each group's key; then a second dispatch of as many groups as the
     * first one wrote into a dispatch command (indirect), each adding its index */
    {"test_buffer_cs.glsl",
     "layout(local_size_x = 16, local_size_y = 16) in;\n"
     "SWGL_INPUT(u_in);\n"
     "#include \"group_min.glsl\"\n"
     "layout(std430, binding = 2) buffer tb { uint word; uint count; uint cmd[3]; uint key[]; };\n"
     "void main()\n"
     "{\n"
     "    if (gl_LocalInvocationIndex == 0u) swgl_group_min_init();\n"
     "    barrier();\n"
     "    swgl_group_min_add(swgl_in_rect() ? SWGL_LOAD(u_in, swgl_cell()).x : swgl_inf());\n"
     "    barrier();\n"
     "    if (gl_LocalInvocationIndex == 0u) {\n"
     "        atomicMin(word, swgl_gmin);\n"
     "        atomicAdd(count, 1u);\n"
     "        atomicAdd(cmd[0], 1u);\n"
     "        key[gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x] = swgl_gmin;\n"
     "    }\n"
     "}\n"},
    {"test_indirect_cs.glsl",
     "layout(local_size_x = 4) in;\n"
     "layout(std430, binding = 2) buffer tb { uint word; uint count; uint cmd[3]; uint key[]; };\n"
     "void main() { if (gl_LocalInvocationIndex == 0u) atomicAdd(word, gl_WorkGroupID.x + 1u); }\n"},
    {NULL, NULL}};

/* gpu_buffer: a kernel's atomicMin over the whole dispatch (group_min.glsl's key), counts
 * and per-group words, read back exactly; a dispatch whose group count a kernel wrote
 * (indirect); misuse refused. */
static void buffer_case(void)
{
    enum { W = 40, H = 20, G = 6 };
    gpu_program *k = NULL, *ki = NULL, *frag = NULL;
    swgl_status st = gpu_program_create_kernel("test_buffer_cs", NULL, &k);
    if (st == SWGL_OK) st = gpu_program_create_kernel("test_indirect_cs", NULL, &ki);
    CHECK(st == SWGL_OK, "the buffer kernels build: %s", swgl_last_error());
    if (st != SWGL_OK) return;
    float in[4 * W * H];
    uint64_t seed = 11;
    for (int i = 0; i < 4 * W * H; i++) in[i] = 2.0f + test_rand_float(&seed);
    in[4 * (13 * W + 37)] = 0.75f;   /* the min, in the partial group (2, 0) */
    gpu_array2d *a = NULL;
    gpu_array2d_desc da = {W, H, GPU_RGBA32F, "buffer in"};
    gpu_buffer *b = NULL;
    unsigned init[5 + G] = {0xFFFFFFFFu, 0, 0, 1, 1};
    st = gpu_array2d_create(&da, &a);
    if (st == SWGL_OK) st = gpu_array2d_upload(a, in);
    if (st == SWGL_OK) st = gpu_buffer_create(sizeof init, "test words", &b);
    if (st == SWGL_OK) st = gpu_buffer_upload(b, 0, sizeof init, init);
    gpu_pass p;
    gpu_pass_begin(&p, k);
    gpu_pass_array(&p, "u_in", a);
    gpu_pass_buffer(&p, 2, b);
    if (st == SWGL_OK) st = gpu_pass_dispatch(&p, W, H);
    unsigned out[5 + G];
    if (st == SWGL_OK) st = gpu_buffer_download(b, 0, sizeof out, out);
    CHECK(st == SWGL_OK, "the buffer's dispatch: %s", swgl_last_error());
    float want = INFINITY;
    for (int i = 0; i < W * H; i++) want = fminf(want, in[4 * i]);
    int keys = 1;
    for (int g = 0; g < G && st == SWGL_OK; g++) {
        float m = INFINITY;
        for (int j = (g / 3) * 16; j < (g / 3 + 1) * 16 && j < H; j++)
            for (int i = (g % 3) * 16; i < (g % 3 + 1) * 16 && i < W; i++) m = fminf(m, in[4 * (j * W + i)]);
        unsigned key;
        memcpy(&key, &m, sizeof key);
        keys = keys && out[5 + g] == key + 1u;
    }
    float got;
    unsigned gk = out[0] - 1u;
    memcpy(&got, &gk, sizeof got);
    CHECK(st == SWGL_OK && got == want && out[1] == G && out[2] == G && keys,
          "one atomicMin a group gives the dispatch's min (%g, expected %g), %u groups counted, each group's key", got,
          want, out[1]);
    /* the second kernel: as many groups as the first counted into cmd[0] (6), each adding
     * its index + 1 to the word (set to 0): 21 */
    unsigned zero = 0;
    if (st == SWGL_OK) st = gpu_buffer_upload(b, 0, sizeof zero, &zero);
    gpu_pass_begin(&p, ki);
    gpu_pass_buffer(&p, 2, b);
    if (st == SWGL_OK) st = gpu_pass_dispatch_indirect(&p, b, 2 * sizeof(unsigned), 4, 1);
    if (st == SWGL_OK) st = gpu_buffer_download(b, 0, sizeof zero, &zero);
    CHECK(st == SWGL_OK && zero == 21, "an indirect dispatch runs the groups a kernel counted (sum %u, expected 21): %s",
          zero, swgl_last_error());
    gpu_pass_begin(&p, ki);
    gpu_pass_buffer(&p, 2, b);
    if (st == SWGL_OK) st = gpu_pass_dispatch_groups(&p, 3, 1, 12, 1);
    if (st == SWGL_OK) st = gpu_buffer_download(b, 0, sizeof zero, &zero);
    CHECK(st == SWGL_OK && zero == 27, "a dispatch of 3 groups given adds 1 + 2 + 3 (%u, expected 27)", zero);
    /* misuse */
    gpu_pass_begin(&p, ki);
    gpu_pass_buffer(&p, 2, b);
    CHECK(gpu_pass_dispatch_indirect(&p, b, sizeof init - 8, 4, 1) == SWGL_ERR_ARG,
          "an indirect command past the buffer's end is refused: %s", swgl_last_error());
    CHECK(gpu_buffer_upload(b, sizeof init - 4, 8, init) == SWGL_ERR_ARG, "an upload past the end is refused: %s",
          swgl_last_error());
    if (gpu_program_create("copy", NULL, &frag) == SWGL_OK) {
        gpu_pass_begin(&p, frag);
        gpu_pass_buffer(&p, 2, b);
        CHECK(gpu_pass_draw(&p, a, NULL) == SWGL_ERR_ARG && strstr(swgl_last_error(), "only a kernel binds buffers"),
              "a buffer on a pass that is not a kernel is refused: %s", swgl_last_error());
    }
    CHECK(gpu_buffer_create(0, "empty", &(gpu_buffer *){NULL}) == SWGL_ERR_ARG, "a buffer of 0 bytes is refused: %s",
          swgl_last_error());
    gpu_program_destroy(frag);
    gpu_program_destroy(k);
    gpu_program_destroy(ki);
    gpu_buffer_destroy(b);
    gpu_array2d_destroy(a);
}

static void kernel_case(void)
{
    enum { W = 40, H = 20, GX = 3, GY = 2 };   /* groups at the right and top are partly outside */
    gpu_shader_register("test", test_kernels);
    gpu_program *k = NULL, *frag = NULL;
    swgl_status st = gpu_program_create_kernel("test_group_min_cs", NULL, &k);
    CHECK(st == SWGL_OK, "a kernel builds with the prelude and an #include: %s", swgl_last_error());
    if (st != SWGL_OK) return;
    float in[4 * W * H], out[4 * GX * GY], want[GX * GY];
    uint64_t seed = 9;
    for (int i = 0; i < W * H; i++) in[4 * i] = in[4 * i + 1] = in[4 * i + 2] = in[4 * i + 3] =
        1.0f + 100.0f * test_rand_float(&seed);
    in[4 * (5 * W + 20)] = -0.0f;       /* group (1, 0): -0.0 is the smallest bound there, as 0.0 */
    in[4 * (17 * W + 35)] = -3.0f;      /* group (2, 1): a negative (a blow-up) gives -1 */
    for (int j = 16; j < H; j++)        /* group (0, 1): +inf only */
        for (int i = 0; i < 16; i++) in[4 * (j * W + i)] = INFINITY;
    for (int g = 0; g < GX * GY; g++) want[g] = INFINITY;
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) {
            int g = (j / 16) * GX + i / 16;
            float v = in[4 * (j * W + i)];
            want[g] = v < 0 || (v == 0 && want[g] > 0) ? (v < 0 ? -1.0f : 0.0f) : (want[g] < 0 ? want[g] : fminf(want[g], v));
        }
    gpu_array2d *a = NULL, *o = NULL;
    gpu_array2d_desc da = {W, H, GPU_RGBA32F, "kernel in"}, dout = {GX, GY, GPU_RGBA32F, "kernel out"};
    gpu_array2d_create(&da, &a);
    gpu_array2d_create(&dout, &o);
    gpu_array2d_upload(a, in);
    gpu_pass p;
    gpu_pass_begin(&p, k);
    gpu_pass_array(&p, "u_in", a);
    gpu_pass_image(&p, 0, o);
    st = gpu_pass_dispatch(&p, W, H);
    if (st == SWGL_OK) st = gpu_array2d_download(o, out);
    CHECK(st == SWGL_OK, "the kernel's dispatch: %s", swgl_last_error());
    int same = 1;
    for (int g = 0; g < GX * GY && st == SWGL_OK; g++) {
        same = same && out[4 * g] == want[g] && (want[g] != 0 || !signbit(out[4 * g]));
        if (out[4 * g] != want[g]) printf("      group %d: %g, expected %g\n", g, out[4 * g], want[g]);
    }
    CHECK(st == SWGL_OK && same, "group_min: each group's min exactly, -0.0 as +0.0, a negative as -1, +inf alone");
    /* misuse: an image on a fragment pass, a dispatch of a fragment pass, an image at a
     * draw's output unit */
    if (gpu_program_create("copy", NULL, &frag) == SWGL_OK) {
        gpu_pass_begin(&p, frag);
        gpu_pass_image(&p, 1, o);
        CHECK(gpu_pass_draw(&p, a, NULL) == SWGL_ERR_ARG, "an extra image on a pass that is not a kernel is refused: %s",
              swgl_last_error());
        gpu_pass_begin(&p, frag);
        CHECK(gpu_pass_dispatch(&p, W, H) == SWGL_ERR_ARG, "a pass that is not a kernel is not dispatched: %s",
              swgl_last_error());
    }
    gpu_pass_begin(&p, k);
    gpu_pass_array(&p, "u_in", a);
    gpu_pass_image(&p, 0, o);
    gpu_array2d *o2 = NULL;
    gpu_array2d_create(&dout, &o2);
    CHECK(gpu_pass_draw(&p, o2, NULL) == SWGL_ERR_ARG && strstr(swgl_last_error(), "outputs take units"),
          "an image at a unit the draw's output takes is refused: %s", swgl_last_error());
    gpu_array2d_destroy(o2);
    gpu_program_destroy(frag);
    gpu_program_destroy(k);
    gpu_array2d_destroy(a);
    gpu_array2d_destroy(o);
}

int main(void)
{
    gpu_context *ctx = NULL;
    gpu_context_desc desc = {.device = -1, .want_compute = 1};
    swgl_status st = gpu_context_create(&desc, &ctx);
    gpu_set_gl_check(1);
    if (st == SWGL_ERR_NO_DEVICE || st == SWGL_ERR_NO_CONTEXT) {
        static char why[2048];
        snprintf(why, sizeof why, "no EGL device with OpenGL: %s", swgl_last_error());
        check_skip(why);
    }
    if (st != SWGL_OK) {
        printf("FAIL  context: %s\n", swgl_last_error());
        return 1;
    }
    const gpu_info *info = gpu_context_info(ctx);
    printf("renderer: %s, GL %d.%d, compute context %d\n", info->renderer, info->gl_major, info->gl_minor,
           info->compute_context);
    if (!info->compute_context) {
        gpu_context_destroy(ctx);
        check_skip("this device offers no GL 4.3 core context: no compute passes");
    }
    CHECK(info->gl_major * 10 + info->gl_minor >= 43, "want_compute gives a GL >= 4.3 context (%d.%d)",
          info->gl_major, info->gl_minor);
    copy_case(64, 64, 1);
    copy_case(37, 23, 2);     /* not multiples of 16: the edge groups are partly outside */
    copy_case(1, 1, 3);
    stencil_case(50, 33, 4);
    kernel_case();
    buffer_case();

    gpu_compute *bad = NULL;
    st = gpu_compute_create_from_source("broken", "layout(local_size_x = 1) in;\nvoid main() { x = 1; }\n", NULL, &bad);
    CHECK(st == SWGL_ERR_COMPILE && bad == NULL && strstr(swgl_last_error(), "pass 'broken' (compute): "),
          "a compile error names the pass: %s", swgl_last_error());
    st = gpu_compute_create("no_such_cs", NULL, &bad);
    CHECK(st == SWGL_ERR_MISSING && strstr(swgl_last_error(), "no_such_cs.glsl not found"), "a missing file: %s",
          swgl_last_error());
    gpu_context_destroy(ctx);

    /* a 3.3 context: compute passes are refused, with the reason */
    gpu_context_desc d33 = {.device = -1};
    if (gpu_context_create(&d33, &ctx) == SWGL_OK) {
        const gpu_info *i33 = gpu_context_info(ctx);
        st = gpu_compute_create("copy_cs", NULL, &bad);
        if (i33->compute_context) {   /* Mesa: a 3.3 request gives 4.5 */
            CHECK(st == SWGL_OK, "a 3.3 request that got GL %d.%d builds compute passes: %s", i33->gl_major,
                  i33->gl_minor, swgl_last_error());
        } else {
            CHECK(st == SWGL_ERR_NO_CONTEXT && strstr(swgl_last_error(), "need a GL 4.3 core context"),
                  "a GL %d.%d context refuses a compute pass: %s", i33->gl_major, i33->gl_minor, swgl_last_error());
        }
        gpu_compute_destroy(bad);
        gpu_context_destroy(ctx);
    }
    return check_done();
}
