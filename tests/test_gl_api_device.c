/* test_gl_api_device.c — a field drawn from the device in the caller's own GL context
 * (swgl_sim_desc.use_current_context, swgl_sim_device_field), as a viewer draws it: this
 * program makes its own EGL context (plain EGL, no swgl), runs roe and kp on the gpu backend
 * in it, decodes each field with a shader of its own into a float texture, reads that back
 * and compares it with swgl_sim_field.  Skips (77) where no EGL device gives GL 3.3 core. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <GL/glcorearb.h>

#include "check.h"
#include "swgl.h"

static EGLDisplay g_dpy = EGL_NO_DISPLAY;
static EGLContext g_ctx = EGL_NO_CONTEXT;

/* the application's context, GL 3.3 core, surfaceless: on the first EGL device that gives one
 * (EGL_EXT_device_enumeration: a GPU, or Mesa's software device), else the default display */
static int try_display(EGLDisplay dpy)
{
    EGLint maj, min, n = 0;
    EGLConfig cfg;
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &maj, &min)) return 0;
    const EGLint ca[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    const EGLint attr[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3, EGL_CONTEXT_OPENGL_PROFILE_MASK,
                           EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    if (eglBindAPI(EGL_OPENGL_API) && eglChooseConfig(dpy, ca, &cfg, 1, &n) && n == 1 &&
        (g_ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, attr)) != EGL_NO_CONTEXT &&
        eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, g_ctx)) {
        g_dpy = dpy;
        return 1;
    }
    if (g_ctx != EGL_NO_CONTEXT) eglDestroyContext(dpy, g_ctx);
    g_ctx = EGL_NO_CONTEXT;
    eglTerminate(dpy);
    return 0;
}

typedef EGLBoolean (*query_devices_fn)(EGLint, void **, EGLint *);
typedef EGLDisplay (*platform_display_fn)(EGLenum, void *, const EGLint *);

static int own_context(void)
{
    query_devices_fn qd = (query_devices_fn)eglGetProcAddress("eglQueryDevicesEXT");
    platform_display_fn pd = (platform_display_fn)eglGetProcAddress("eglGetPlatformDisplayEXT");
    void *devs[16];
    EGLint n = 0;
    if (qd && pd && qd(16, devs, &n))
        for (EGLint i = 0; i < n; i++)
            if (try_display(pd(0x313F /* EGL_PLATFORM_DEVICE_EXT */, devs[i], NULL))) return 1;
    return try_display(eglGetDisplay(EGL_DEFAULT_DISPLAY));
}

static const char *vs_src = "#version 330 core\n"
                            "void main() { vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);\n"
                            "              gl_Position = vec4(p, 0.0, 1.0); }\n";
/* the decoding of swgl.h: value = tex[comp] + scale2 * tex2[comp2] at the cell's texel */
static const char *fs_src = "#version 330 core\n"
                            "uniform sampler2D u_a, u_b; uniform int u_ca, u_cb, u_two; uniform float u_s2;\n"
                            "uniform ivec2 u_off; out vec4 o;\n"
                            "void main() { ivec2 p = ivec2(gl_FragCoord.xy) + u_off;\n"
                            "  float v = texelFetch(u_a, p, 0)[u_ca];\n"
                            "  if (u_two != 0) v += u_s2 * texelFetch(u_b, p, 0)[u_cb];\n"
                            "  o = vec4(v, 0.0, 0.0, 1.0); }\n";

static GLuint shader(GLenum kind, const char *src)
{
    GLuint s = glCreateShader(kind);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024];
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        printf("shader: %s\n", log);
    }
    return s;
}

/* draws field f's decoding into an nx x ny R32F target and reads it back into v */
static int draw_field(GLuint prog, const swgl_device_field *f, float *v)
{
    GLuint tex, fbo, vao;
    glGenVertexArrays(1, &vao);
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, f->nx, f->ny, 0, GL_RED, GL_FLOAT, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    int ok = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    glViewport(0, 0, f->nx, f->ny);
    glUseProgram(prog);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, f->texture);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, f->texture2 ? f->texture2 : f->texture);
    glUniform1i(glGetUniformLocation(prog, "u_a"), 0);
    glUniform1i(glGetUniformLocation(prog, "u_b"), 1);
    glUniform1i(glGetUniformLocation(prog, "u_ca"), f->component);
    glUniform1i(glGetUniformLocation(prog, "u_cb"), f->component2);
    glUniform1i(glGetUniformLocation(prog, "u_two"), f->texture2 != 0);
    glUniform1f(glGetUniformLocation(prog, "u_s2"), (float)f->scale2);
    glUniform2i(glGetUniformLocation(prog, "u_off"), f->x0, f->y0);
    glBindVertexArray(vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glReadPixels(0, 0, f->nx, f->ny, GL_RED, GL_FLOAT, v);
    ok &= glGetError() == GL_NO_ERROR;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
    glDeleteTextures(1, &tex);
    glDeleteVertexArrays(1, &vao);
    glActiveTexture(GL_TEXTURE0);
    return ok;
}

static void scheme(GLuint prog, const char *backend, const char *casename, const char *const *set, double t)
{
    swgl_sim_desc d = {.case_name = casename, .backend = backend, .set = set, .use_current_context = 1,
                       .tune = "gl_check=on"};
    if (strncmp(casename, "sediment", 8) == 0) d.precision = "single";   /* (its default is double where fp64 is) */
    swgl_sim *sim = NULL;
    if (!CHECK(swgl_sim_create(&d, &sim) == SWGL_OK, "%s in this program's context: %s", casename, swgl_last_error()))
        return;
    swgl_sim_info info;
    swgl_sim_get_info(sim, &info);
    printf("%s on %s\n", casename, info.solver);
    CHECK(swgl_sim_run_to(sim, t) == SWGL_OK, "run_to(%g)", t);
    /* a second GPU sim in the process is refused, and the first goes on unharmed (the device
     * fields below are read after it) */
    swgl_sim *other = NULL;
    CHECK(swgl_sim_create(&d, &other) == SWGL_ERR_ARG && other == NULL && strstr(swgl_last_error(), "one at a time"),
          "a second GPU sim: refused (%s)", swgl_last_error());
    int nx, ny;
    swgl_sim_size(sim, &nx, &ny, NULL, NULL);
    double *ref = malloc((size_t)nx * ny * sizeof(double)), *eta = malloc((size_t)nx * ny * sizeof(double));
    float *v = malloc((size_t)nx * ny * sizeof(float));
    static const char *sw[] = {"h", "eta", "qx", "qy", "bed"}, *sed[] = {"h", "s"};
    int sediment = strcmp(info.scheme, "sediment") == 0, nf = sediment ? 2 : 5;
    const char *const *names = sediment ? sed : sw;
    swgl_sim_field(sim, sediment ? "h" : "eta", eta);
    double scale = 0;   /* the largest |eta| and |bed|: what a float rounding is relative to */
    for (int k = 0; k < nx * ny; k++)
        if (isfinite(eta[k])) scale = fmax(scale, fabs(eta[k]));
    for (int q = 0; q < nf; q++) {
        swgl_device_field f;
        swgl_status st = swgl_sim_device_field(sim, names[q], &f);
        if (!CHECK(st == SWGL_OK && f.texture != 0 && f.nx == nx && f.ny == ny, "device field %s: %s", names[q],
                   st ? swgl_last_error() : "ok"))
            continue;
        CHECK(swgl_sim_field(sim, names[q], ref) == SWGL_OK, "field %s", names[q]);
        CHECK(draw_field(prog, &f, v), "drawn in this program's context without a GL error");
        double worst = 0;
        long n = 0, moving = 0;
        for (int k = 0; k < nx * ny; k++) {
            if (isnan(ref[k])) continue;
            n++;
            moving += !sediment && q >= 2 && q <= 3 && fabs(ref[k]) > 1e-6;
            worst = fmax(worst, fabs((double)v[k] - ref[k]));
        }
        /* the state is float on the device: a field that is one texel's component of it comes
         * back exactly; h = w - B (kp) and eta = h + z (roe) are one float operation on the
         * device and exact in double on the host, and the bed is the float of the scenario's
         * double bed, so those may differ by half an ulp of the larger operand, 2^-24 x scale;
         * kp's eta is its w, the host's w + l (its float low word, issue 27: within half an
         * ulp of w) */
        int kp = strcmp(info.scheme, "kp") == 0;
        int rounded = f.texture2 || (!sediment && q == 4) || (kp && q == 1);
        double tol = rounded ? ldexp(scale, -23) : 0;
        CHECK_LE(worst, tol, "%s: the device's values are swgl_sim_field's over %ld cells (tolerance: %s)", names[q], n,
                 rounded ? "one float rounding" : "exact");
        if (q == 2 && !sediment) CHECK(moving > 0, "qx moves somewhere (%ld cells): the comparison is not of zeros", moving);
    }
    free(ref);
    free(eta);
    free(v);
    swgl_sim_destroy(sim);
    CHECK(eglGetCurrentContext() == g_ctx, "the application's context is still current after destroy");
}

int main(void)
{
    if (!own_context()) check_skip("no EGL display with a desktop OpenGL 3.3 core context");
    printf("this program's context: %s, GL %s\n", (const char *)glGetString(GL_RENDERER),
           (const char *)glGetString(GL_VERSION));
    GLuint prog = glCreateProgram();
    glAttachShader(prog, shader(GL_VERTEX_SHADER, vs_src));
    glAttachShader(prog, shader(GL_FRAGMENT_SHADER, fs_src));
    glLinkProgram(prog);
    GLint linked = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &linked);
    if (!CHECK(linked, "this program's decoding shader links")) return check_done();
    const char *kp[] = {"domain.nx=40", "domain.ny=30", "domain.dx=1", "domain.dy=1.3", NULL};
    GLint major = 0, minor = 0;
    glGetIntegerv(GL_MAJOR_VERSION, &major);
    glGetIntegerv(GL_MINOR_VERSION, &minor);
    int compute = major > 4 || (major == 4 && minor >= 3);   /* gpu-compute needs GL 4.3 */
    scheme(prog, "gpu", "circular-dambreak", kp, 0.3);
    const char *roe[] = {"domain.nx=60", "domain.ny=40", "domain.dx=4", "domain.dy=5", NULL};   /* the dam at x = 100 m */
    scheme(prog, "gpu", "dambreak", roe, 0.3);
    const char *sed[] = {"domain.nx=16", "domain.ny=16", "domain.dx=250", "domain.dy=250", NULL};
    scheme(prog, "gpu", "sediment-basin", sed, 1e4);
    if (compute) {   /* the same GLSL as compute kernels: the state in the same textures */
        scheme(prog, "gpu-compute", "circular-dambreak", kp, 0.3);
        scheme(prog, "gpu-compute", "dambreak", roe, 0.3);
    } else {
        printf("(GL %d.%d: no gpu-compute here)\n", major, minor);
    }
    /* without a current context, use_current_context is refused by name */
    eglMakeCurrent(g_dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    swgl_sim_desc d = {.case_name = "dambreak", .backend = "gpu", .use_current_context = 1, .tune = "gl_check=on"};
    swgl_sim *sim = NULL;
    CHECK(swgl_sim_create(&d, &sim) == SWGL_ERR_NO_CONTEXT && sim == NULL && strstr(swgl_last_error(), "current"),
          "no current context: refused (%s)", swgl_last_error());
    /* a CPU backend keeps no device field */
    d = (swgl_sim_desc){.case_name = "dambreak", .backend = "cpu-scalar"};
    if (swgl_sim_create(&d, &sim) == SWGL_OK) {
        swgl_device_field f;
        CHECK(swgl_sim_device_field(sim, "h", &f) == SWGL_ERR_ARG, "cpu-scalar: no device field (%s)", swgl_last_error());
        swgl_sim_destroy(sim);
    }
    eglDestroyContext(g_dpy, g_ctx);
    eglTerminate(g_dpy);
    return check_done();
}
