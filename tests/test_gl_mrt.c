/* test_gl_mrt.c — gpu_mrt: a pass with N outputs writes every member, every element
 * (members are poisoned first), for N = 1..max; passes draw into sub-rectangles only. */
#include <string.h>

#include "gl_util.h"
#include "gpu_mrt.h"
#include "gpu_pass.h"

/* output k at (x, y) = (k, x, y, k + u_base) */
static const char *mrt_src =
    "uniform sampler2D u_in;\n"
    "uniform float u_base;\n"
    "layout(location = 0) out vec4 o0;\n"
    "layout(location = 1) out vec4 o1;\n"
    "layout(location = 2) out vec4 o2;\n"
    "layout(location = 3) out vec4 o3;\n"
    "#if N > 4\n"
    "layout(location = 4) out vec4 o4;\n"
    "layout(location = 5) out vec4 o5;\n"
    "layout(location = 6) out vec4 o6;\n"
    "layout(location = 7) out vec4 o7;\n"
    "#endif\n"
    "void main() {\n"
    "    ivec2 c = swgl_cell();\n"
    "    vec4 v = texelFetch(u_in, c, 0);\n"
    "    o0 = vec4(0.0, c, v.x + u_base);\n"
    "    o1 = vec4(1.0, c, v.x + u_base + 1.0);\n"
    "    o2 = vec4(2.0, c, v.x + u_base + 2.0);\n"
    "    o3 = vec4(3.0, c, v.x + u_base + 3.0);\n"
    "#if N > 4\n"
    "    o4 = vec4(4.0, c, v.x + u_base + 4.0);\n"
    "    o5 = vec4(5.0, c, v.x + u_base + 5.0);\n"
    "    o6 = vec4(6.0, c, v.x + u_base + 6.0);\n"
    "    o7 = vec4(7.0, c, v.x + u_base + 7.0);\n"
    "#endif\n"
    "}\n";

int main(void)
{
    gpu_context *ctx = test_gl_context();
    int maxdb = gpu_context_info(ctx)->max_draw_buffers;
    enum { W = 37, H = 23 };
    int nmax = maxdb < 8 ? maxdb : 8;
    gpu_array2d *in = NULL;
    gpu_array2d_desc d = {W, H, GPU_RGBA32F, "zeros"};
    gpu_array2d_create(&d, &in);
    float zero[4] = {0, 0, 0, 0}, poison[4] = {-777.f, -777.f, -777.f, -777.f};
    gpu_array2d_fill(in, zero);
    static float buf[4 * W * H];

    gpu_program *prog = NULL;
    char defs[32];
    snprintf(defs, sizeof defs, "#define N %d\n", nmax > 4 ? 8 : 4);
    CHECK(gpu_program_create_from_source("mrt_test", mrt_src, defs, &prog) == SWGL_OK, "build: %s", swgl_last_error());
    for (int n = 1; n <= nmax; n++) {
        gpu_mrt *m = NULL;
        gpu_mrt_desc md = {W, H, n, {0}, "mrt"};
        CHECK(gpu_mrt_create(&md, &m) == SWGL_OK, "MRT of %d: %s", n, swgl_last_error());
        for (int k = 0; k < n; k++) gpu_array2d_fill(gpu_mrt_member(m, k), poison);
        gpu_pass p;
        gpu_pass_begin(&p, prog);
        gpu_pass_array(&p, "u_in", in);
        gpu_pass_float(&p, "u_base", 10.0f);
        CHECK(gpu_pass_draw_mrt(&p, m, NULL) == SWGL_OK, "draw into %d targets: %s", n, swgl_last_error());
        int bad = 0;
        for (int k = 0; k < n; k++) {
            gpu_array2d_download(gpu_mrt_member(m, k), buf);
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) {
                    const float *e = buf + 4 * (y * W + x);
                    if (e[0] != (float)k || e[1] != (float)x || e[2] != (float)y || e[3] != 10.0f + (float)k) bad++;
                }
        }
        CHECK(bad == 0, "MRT of %d: every element of every member written with its own output (%d wrong, exact: small integers)", n, bad);

        /* a sub-rectangle draw writes only inside it */
        for (int k = 0; k < n; k++) gpu_array2d_fill(gpu_mrt_member(m, k), poison);
        gpu_rect r = {5, 3, 11, 7};
        gpu_pass_begin(&p, prog);
        gpu_pass_array(&p, "u_in", in);
        gpu_pass_float(&p, "u_base", 0.0f);
        CHECK(gpu_pass_draw_mrt(&p, m, &r) == SWGL_OK, "sub-rectangle draw: %s", swgl_last_error());
        bad = 0;
        gpu_array2d_download(gpu_mrt_member(m, n - 1), buf);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int inside = x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;
                float want = inside ? (float)(n - 1) : -777.f;
                if (buf[4 * (y * W + x)] != want) bad++;
            }
        CHECK(bad == 0, "MRT of %d: a sub-rectangle draw writes exactly its %dx%d elements (%d wrong)", n, r.w, r.h, bad);
        gpu_mrt_destroy(m);
    }
    gpu_mrt *m = NULL;
    gpu_mrt_desc md9 = {W, H, 9, {0}, "nine"};
    CHECK(gpu_mrt_create(&md9, &m) == SWGL_ERR_ARG && !m, "an MRT of 9 is refused: %s", swgl_last_error());
    gpu_mrt_destroy(NULL);
    gpu_program_destroy(prog);
    gpu_array2d_destroy(in);
    gpu_context_destroy(ctx);
    return check_done();
}
