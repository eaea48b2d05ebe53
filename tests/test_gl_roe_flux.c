/* test_gl_roe_flux.c — the Roe scheme's edge flux on the GPU (Lastra et al. 2009): the
 * GLSL roe_edge equals the C one (cpu_ref/roe_flux.c) point by point on random edges
 * (wet, dry, at rest, 4 normals), in float and, where the renderer has
 * GL_ARB_gpu_shader_fp64, in double. */
#include "gl_roe_util.h"
#include "keys.h"

/* ---------- GLSL flux vs C flux ---------- */
static const char *flux_src =
    "#include \"roe_flux.glsl\"\n"
    "SWGL_INPUT(u_wi);   // (h, qx, qy, H)\n"
    "SWGL_INPUT(u_wj);\n"
    "SWGL_INPUT(u_e);    // (ex, ey, g, h_dry)\n"
    "SWGL_OUTPUT(0, o_fi);\n"
    "SWGL_OUTPUT(1, o_fj);\n"
    "SWGL_MAIN {\n"
    "    ivec2 c = swgl_cell();\n"
    "    vec4 a = SWGL_LOAD(u_wi, c), b = SWGL_LOAD(u_wj, c), e = SWGL_LOAD(u_e, c);\n"
    "    vec3 fi, fj;\n"
    "    float s = roe_edge(a.xyz, b.xyz, a.w, b.w, e.xy, e.z, e.w, fi, fj);\n"
    "    o_fi = vec4(fi, s);\n"
    "    o_fj = vec4(fj, s);\n"
    "}\n";

/* the same probe in double (roe_real.glsl: ROE_DOUBLE): inputs are floats (exact in
 * double), g and h_dry the C reference's doubles, outputs packed doubles */
static const char *flux_src_d =
    "#include \"roe_flux.glsl\"\n"
    "SWGL_INPUT(u_wi);\n"
    "SWGL_INPUT(u_wj);\n"
    "SWGL_INPUT(u_e);\n"
    "SWGL_OUTPUT_U(0, o_fi_a);   // (fi.x, fi.y)\n"
    "SWGL_OUTPUT_U(1, o_fi_b);   // (fi.z, speed)\n"
    "SWGL_OUTPUT_U(2, o_fj_a);\n"
    "SWGL_OUTPUT_U(3, o_fj_b);\n"
    "SWGL_MAIN {\n"
    "    ivec2 c = swgl_cell();\n"
    "    vec4 a = SWGL_LOAD(u_wi, c), b = SWGL_LOAD(u_wj, c), e = SWGL_LOAD(u_e, c);\n"
    "    dvec3 fi, fj;\n"
    "    double s = roe_edge(dvec3(a.xyz), dvec3(b.xyz), double(a.w), double(b.w), dvec2(e.xy), 9.81LF, 1e-5LF,\n"
    "                        fi, fj);\n"
    "    o_fi_a = roe_pack2(fi.xy);\n"
    "    o_fi_b = roe_pack2(dvec2(fi.z, s));\n"
    "    o_fj_a = roe_pack2(fj.xy);\n"
    "    o_fj_b = roe_pack2(dvec2(fj.z, s));\n"
    "}\n";

#define FP64_DEFINES "#extension GL_ARB_gpu_shader_fp64 : require\n#define ROE_DOUBLE 1\n"

/* The GLSL roe_edge (float, or double with dbl) vs the C one on random edges; returns
 * the largest error relative to the flux scale. */
static double flux_points_run(int dbl)
{
    enum { N = 64 * 64 };
    static float wi[4 * N], wj[4 * N], ee[4 * N];
    static double fi[3 * N], fj[3 * N], sp[N];
    uint64_t seed = 2024;
    for (int k = 0; k < N; k++) {
        float *a = wi + 4 * k, *b = wj + 4 * k, *e = ee + 4 * k;
        int kind = k % 4;      /* 0 wet-wet, 1 i dry, 2 j dry, 3 lake at rest */
        a[3] = 1.0f + 0.5f * test_rand_float(&seed);
        b[3] = 1.0f + 0.5f * test_rand_float(&seed);
        a[0] = 1.0f + 0.9f * test_rand_float(&seed);
        b[0] = 1.0f + 0.9f * test_rand_float(&seed);
        a[1] = 2.0f * test_rand_float(&seed);
        a[2] = 2.0f * test_rand_float(&seed);
        b[1] = 2.0f * test_rand_float(&seed);
        b[2] = 2.0f * test_rand_float(&seed);
        if (kind == 1) a[0] = a[1] = a[2] = 0.0f;
        if (kind == 2) b[0] = b[1] = b[2] = 0.0f;
        if (kind == 3) {
            a[1] = a[2] = b[1] = b[2] = 0.0f;
            b[0] = a[0] + (b[3] - a[3]);
        }
        int dir = (k / 4) % 4;
        e[0] = dir == 0 ? 1.0f : dir == 1 ? -1.0f : 0.0f;
        e[1] = dir == 2 ? 1.0f : dir == 3 ? -1.0f : 0.0f;
        e[2] = 9.81f;
        e[3] = 1e-5f;
    }
    gpu_array2d *A = NULL, *B = NULL, *E = NULL;
    gpu_mrt *out = NULL;
    gpu_program *prog = NULL;
    gpu_array2d_desc d = {64, 64, GPU_RGBA32F, "flux in"};
    gpu_mrt_desc md = {64, 64, 2, {0}, "flux out"};
    gpu_mrt_desc mdd = {64, 64, 4, {GPU_RGBA32UI, GPU_RGBA32UI, GPU_RGBA32UI, GPU_RGBA32UI}, "flux out (double)"};
    gpu_array2d_create(&d, &A);
    gpu_array2d_create(&d, &B);
    gpu_array2d_create(&d, &E);
    gpu_mrt_create(dbl ? &mdd : &md, &out);
    gpu_array2d_upload(A, wi);
    gpu_array2d_upload(B, wj);
    gpu_array2d_upload(E, ee);
    scheme_register_shaders();
    swgl_clear_error();
    CHECK(gpu_program_create_from_source(dbl ? "roe_flux_probe_d" : "roe_flux_probe", dbl ? flux_src_d : flux_src,
                                         dbl ? FP64_DEFINES : NULL, &prog) == SWGL_OK,
          "build (%s): %s", dbl ? "double" : "float", swgl_last_error());
    gpu_pass p;
    gpu_pass_begin(&p, prog);
    gpu_pass_array(&p, "u_wi", A);
    gpu_pass_array(&p, "u_wj", B);
    gpu_pass_array(&p, "u_e", E);
    CHECK(gpu_pass_draw_mrt(&p, out, NULL) == SWGL_OK, "draw: %s", swgl_last_error());
    if (dbl) {
        static double t[4][2 * N];
        for (int m = 0; m < 4; m++) gpu_array2d_download(gpu_mrt_member(out, m), t[m]);
        for (int k = 0; k < N; k++) {
            fi[3 * k] = t[0][2 * k];
            fi[3 * k + 1] = t[0][2 * k + 1];
            fi[3 * k + 2] = t[1][2 * k];
            fj[3 * k] = t[2][2 * k];
            fj[3 * k + 1] = t[2][2 * k + 1];
            fj[3 * k + 2] = t[3][2 * k];
            sp[k] = t[1][2 * k + 1];
        }
    } else {
        static float t[2][4 * N];
        for (int m = 0; m < 2; m++) gpu_array2d_download(gpu_mrt_member(out, m), t[m]);
        for (int k = 0; k < N; k++) {
            for (int c = 0; c < 3; c++) {
                fi[3 * k + c] = t[0][4 * k + c];
                fj[3 * k + c] = t[1][4 * k + c];
            }
            sp[k] = t[0][4 * k + 3];
        }
    }
    double worst = 0;
    int worst_k = 0;
    for (int k = 0; k < N; k++) {
        double a[3] = {wi[4 * k], wi[4 * k + 1], wi[4 * k + 2]}, b[3] = {wj[4 * k], wj[4 * k + 1], wj[4 * k + 2]};
        double ci[3], cj[3];
        double s = roe_edge(a, b, wi[4 * k + 3], wj[4 * k + 3], ee[4 * k], ee[4 * k + 1], 9.81, 1e-5, ci, cj);
        /* the natural size of a flux here: c (h + |dH|) + |q| for mass, times (|u| + c) for momentum */
        double scale = s * (a[0] + b[0] + fabs(wi[4 * k + 3] - wj[4 * k + 3])) + fabs(a[1]) + fabs(a[2]) +
                       fabs(b[1]) + fabs(b[2]);
        double err = fabs(sp[k] - s) / (s + 1);
        for (int m = 0; m < 3; m++) {
            double sc = m == 0 ? scale : scale * (s + 1);
            err = fmax(err, fabs(fi[3 * k + m] - ci[m]) / sc);
            err = fmax(err, fabs(fj[3 * k + m] - cj[m]) / sc);
        }
        if (err > worst) {
            worst = err;
            worst_k = k;
        }
    }
    printf("      roe_edge %s: worst at #%d\n", dbl ? "double" : "float", worst_k);
    gpu_program_destroy(prog);
    gpu_mrt_destroy(out);
    gpu_array2d_destroy(A);
    gpu_array2d_destroy(B);
    gpu_array2d_destroy(E);
    return worst;
}

static void flux_points(void)
{
    /* inputs are floats, the C flux runs in double on the same floats: the GPU's error is
       float rounding through ~60 operations with cancellation in dW, about 1e-6 of the scale */
    CHECK_LE(flux_points_run(0), 2e-5, "GLSL roe_edge vs C roe_edge on %d random edges (wet, dry, at rest, 4 "
                                       "normals): max error relative to the flux scale, bound 2e-5 (float)", 64 * 64);
}

static void flux_points_double(const gpu_info *info)
{
    if (!info->has_fp64) {
        printf("skip  the GLSL flux in double: the renderer '%s' lacks GL_ARB_gpu_shader_fp64\n", info->renderer);
        return;
    }
    /* double rounding through ~60 operations with the cancellation in dW: measured ~1e-16 */
    CHECK_LE(flux_points_run(1), 1e-13, "GLSL roe_edge in double vs C roe_edge on %d random edges: max error "
                                        "relative to the flux scale, bound 1e-13 (double)", 64 * 64);
}

int main(void)
{
    scheme_keys_install();   /* the schemes' keys, before a scenario is read */
    gpu_context *ctx = test_gl_context();
    flux_points();
    flux_points_double(gpu_context_info(ctx));
    gpu_context_destroy(ctx);
    return check_done();
}
