/* gpu_context.c — headless EGL: pick a device, make a GL 3.3 core context current.
 *
 * libEGL (GLVND) exports only core EGL, so the device extensions
 * (EGL_EXT_device_enumeration, EGL_EXT_device_query, EGL_EXT_platform_device) are
 * looked up with eglGetProcAddress.  Order of choice: an explicit index (argument or
 * SWGL_DEVICE), else the first hardware device, else the software one (llvmpipe),
 * else EGL_DEFAULT_DISPLAY. */
#include "gpu_context.h"
#include "gpu_program.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include "gl.h"
#include "gpu_internal.h"

#define MAX_DEVICES 32

struct gpu_context {
    EGLDisplay dpy;
    EGLContext ctx;
    EGLSurface surf;
    gpu_info info;
    int adopted;         /* gpu_context_adopt: the caller's context, not ours to destroy */
};

static int g_max_texture_size, g_max_draw_buffers;

int gpu_internal_max_texture_size(void) { return g_max_texture_size; }
int gpu_internal_max_draw_buffers(void) { return g_max_draw_buffers; }

typedef struct egl_ext {
    PFNEGLQUERYDEVICESEXTPROC query_devices;
    PFNEGLQUERYDEVICESTRINGEXTPROC query_device_string;
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_platform_display;
} egl_ext;

static int has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; p && (p = strstr(p, word)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return 1;
    return 0;
}

static void load_ext(egl_ext *e)
{
    const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    memset(e, 0, sizeof *e);
    if (!client) return;
    if (has_word(client, "EGL_EXT_device_enumeration") || has_word(client, "EGL_EXT_device_base"))
        e->query_devices = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    if (has_word(client, "EGL_EXT_device_query") || has_word(client, "EGL_EXT_device_base"))
        e->query_device_string =
            (PFNEGLQUERYDEVICESTRINGEXTPROC)eglGetProcAddress("eglQueryDeviceStringEXT");
    if (has_word(client, "EGL_EXT_platform_device") || has_word(client, "EGL_EXT_platform_base"))
        e->get_platform_display =
            (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
}

static int enumerate(const egl_ext *e, EGLDeviceEXT *devs)
{
    EGLint n = 0;
    if (!e->query_devices || !e->get_platform_display) return -1;
    if (!e->query_devices(MAX_DEVICES, devs, &n)) return -1;
    return n;
}

static int device_is_software(const egl_ext *e, EGLDeviceEXT d)
{
    const char *ext = e->query_device_string ? e->query_device_string(d, EGL_EXTENSIONS) : NULL;
    return ext && has_word(ext, "EGL_MESA_device_software");
}

static void device_name(const egl_ext *e, EGLDeviceEXT d, char *buf, size_t n)
{
    const char *ext = e->query_device_string ? e->query_device_string(d, EGL_EXTENSIONS) : NULL;
    const char *drm = NULL;
    if (ext && has_word(ext, "EGL_EXT_device_drm"))
        drm = e->query_device_string(d, EGL_DRM_DEVICE_FILE_EXT);
    if (device_is_software(e, d))
        snprintf(buf, n, "Mesa software rasteriser%s%s", drm ? " " : "", drm ? drm : "");
    else if (ext && has_word(ext, "EGL_NV_device_cuda"))
        snprintf(buf, n, "NVIDIA GPU%s%s", drm ? " " : "", drm ? drm : "");
    else
        snprintf(buf, n, "%s", drm ? drm : "hardware device");
}

int gpu_list_devices(FILE *f)
{
    egl_ext e;
    EGLDeviceEXT devs[MAX_DEVICES];
    load_ext(&e);
    int n = enumerate(&e, devs);
    if (n < 0) {
        fprintf(f, "  (EGL device enumeration is not available: only EGL_DEFAULT_DISPLAY)\n");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        char name[128];
        device_name(&e, devs[i], name, sizeof name);
        fprintf(f, "  device %d: %-8s %s\n", i, device_is_software(&e, devs[i]) ? "software" : "hardware",
                name);
    }
    return n;
}

void gpu_context_destroy(gpu_context *c)
{
    if (!c) return;
    if (c->adopted) {   /* the caller's context stays as it was, less what we made in it */
        gpu_internal_release();
        free(c);
        return;
    }
    if (c->ctx != EGL_NO_CONTEXT) {
        gpu_pass_profile_report();
        gpu_internal_release();
        eglMakeCurrent(c->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(c->dpy, c->ctx);
    }
    if (c->surf != EGL_NO_SURFACE) eglDestroySurface(c->dpy, c->surf);
    if (c->dpy != EGL_NO_DISPLAY) eglTerminate(c->dpy);
    free(c);
}

/* Initialises dpy and makes a GL major.minor core context current on it. */
static swgl_status make_context(gpu_context *c, EGLDisplay dpy, int want_compute)
{
    EGLint maj, min, n = 0;
    EGLConfig cfg;
    c->dpy = dpy;
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &maj, &min))
        return swgl_fail(SWGL_ERR_NO_DEVICE, "eglInitialize failed (EGL error 0x%x)", eglGetError());
    if (!eglBindAPI(EGL_OPENGL_API))
        return swgl_fail(SWGL_ERR_NO_CONTEXT, "this EGL has no desktop OpenGL (eglBindAPI failed)");
    const char *dext = eglQueryString(dpy, EGL_EXTENSIONS);
    int surfaceless = dext && has_word(dext, "EGL_KHR_surfaceless_context");
    const EGLint cfg_pbuffer[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                  EGL_OPENGL_BIT, EGL_RED_SIZE, 8, EGL_NONE};
    const EGLint cfg_any[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    if (!(eglChooseConfig(dpy, cfg_pbuffer, &cfg, 1, &n) && n == 1) &&
        !(surfaceless && eglChooseConfig(dpy, cfg_any, &cfg, 1, &n) && n == 1))
        return swgl_fail(SWGL_ERR_NO_CONTEXT, "no EGL config with desktop OpenGL rendering");
    const EGLint attr[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                           EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                           EGL_NONE};
    /* Can a 4.3 core context (compute shaders) be had? Ask; keep it when compute is
     * wanted (a 4.3 core context runs every 3.3 pass too), else let it go. */
    const EGLint attr43[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 3,
                             EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                             EGL_NONE};
    c->info.compute_context = 0;
    EGLContext c43 = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, attr43);
    c->info.has_compute = c43 != EGL_NO_CONTEXT;
    eglGetError();
    if (c43 != EGL_NO_CONTEXT && want_compute) {
        c->ctx = c43;
        c->info.compute_context = 1;
    } else {
        if (c43 != EGL_NO_CONTEXT) eglDestroyContext(dpy, c43);
        c->ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, attr);
        if (c->ctx == EGL_NO_CONTEXT)
            return swgl_fail(SWGL_ERR_NO_CONTEXT, "no OpenGL 3.3 core context (EGL error 0x%x)",
                            eglGetError());
    }
    if (!surfaceless) {
        const EGLint pb[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
        c->surf = eglCreatePbufferSurface(dpy, cfg, pb);
        if (c->surf == EGL_NO_SURFACE)
            return swgl_fail(SWGL_ERR_NO_CONTEXT, "no surfaceless contexts and no 1x1 pbuffer (EGL error 0x%x)",
                            eglGetError());
    }
    if (!eglMakeCurrent(dpy, c->surf, c->surf, c->ctx))
        return swgl_fail(SWGL_ERR_NO_CONTEXT, "eglMakeCurrent failed (EGL error 0x%x)", eglGetError());
    snprintf(c->info.egl_version, sizeof c->info.egl_version, "%d.%d", maj, min);
    const char *ev = eglQueryString(dpy, EGL_VENDOR);
    snprintf(c->info.egl_vendor, sizeof c->info.egl_vendor, "%s", ev ? ev : "?");
    return SWGL_OK;
}

static void fill_info(gpu_info *info)
{
    const char *s;
    snprintf(info->vendor, sizeof info->vendor, "%s", (s = (const char *)glGetString(GL_VENDOR)) ? s : "?");
    snprintf(info->renderer, sizeof info->renderer, "%s",
             (s = (const char *)glGetString(GL_RENDERER)) ? s : "?");
    snprintf(info->version, sizeof info->version, "%s", (s = (const char *)glGetString(GL_VERSION)) ? s : "?");
    snprintf(info->glsl_version, sizeof info->glsl_version, "%s",
             (s = (const char *)glGetString(GL_SHADING_LANGUAGE_VERSION)) ? s : "?");
    glGetIntegerv(GL_MAJOR_VERSION, &info->gl_major);
    glGetIntegerv(GL_MINOR_VERSION, &info->gl_minor);
    /* Mesa gives its highest core version whatever was asked: a 3.3 request may be 4.5 */
    info->compute_context = info->gl_major > 4 || (info->gl_major == 4 && info->gl_minor >= 3);
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &info->max_texture_size);
    glGetIntegerv(GL_MAX_DRAW_BUFFERS, &info->max_draw_buffers);
    GLint next = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &next);
    for (GLint i = 0; i < next; i++) {
        const char *e = (const char *)glGetStringi(GL_EXTENSIONS, (GLuint)i);
        if (e && strcmp(e, "GL_ARB_gpu_shader_fp64") == 0) info->has_fp64 = 1;
    }
    const char *r = info->renderer;
    info->software = strstr(r, "llvmpipe") || strstr(r, "softpipe") || strstr(r, "swrast");
    g_max_texture_size = info->max_texture_size;
    g_max_draw_buffers = info->max_draw_buffers;
}

static const char *install_hint =
    "swgl needs an EGL driver with desktop OpenGL 3.3 core: on Debian/Ubuntu install Mesa's "
    "(apt-get install libegl1 libegl-mesa0 libgl1-mesa-dri), which also gives the llvmpipe "
    "software renderer, or a GPU driver with EGL (NVIDIA: the driver's libEGL_nvidia).";

swgl_status gpu_context_create(const gpu_context_desc *desc, gpu_context **out)
{
    egl_ext e;
    EGLDeviceEXT devs[MAX_DEVICES];
    gpu_context *c = calloc(1, sizeof *c);
    swgl_status st;
    char why[1024] = "";
    *out = NULL;
    if (!c) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    c->dpy = EGL_NO_DISPLAY;
    c->ctx = EGL_NO_CONTEXT;
    c->surf = EGL_NO_SURFACE;
    c->info.device_index = -1;

    gpu_context_desc local = desc ? *desc : (gpu_context_desc){.device = -1};
    desc = &local;
    int want = -1;
    const char *env = getenv("SWGL_DEVICE");
    if (desc && desc->use_device) want = desc->device;
    else if (env && *env) {
        char *end;
        long v = strtol(env, &end, 10);
        if (*end || v < 0) {
            free(c);
            return swgl_fail(SWGL_ERR_ARG, "SWGL_DEVICE=%s: expected a device index 0, 1, ... (see 'swgl info')", env);
        }
        want = (int)v;
    }

    load_ext(&e);
    int n = enumerate(&e, devs);
    c->info.device_count = n < 0 ? 0 : n;
    if (want >= 0 && want >= c->info.device_count) {
        free(c);
        n = n < 0 ? 0 : n;
        return swgl_fail(SWGL_ERR_ARG, "device %d asked for, but EGL lists %d device%s (see 'swgl info')",
                        want, n, n == 1 ? "" : "s");
    }
    /* Candidates in order of preference. */
    int order[MAX_DEVICES], no = 0;
    if (want >= 0) order[no++] = want;
    else {
        int hw[MAX_DEVICES], nhw = 0;
        for (int i = 0; i < n; i++) if (!device_is_software(&e, devs[i])) hw[nhw++] = i;
        for (int k = 0; k < nhw; k++) order[no++] = hw[(k + (desc->rotate > 0 ? desc->rotate : 0)) % nhw];
        for (int i = 0; i < n; i++) if (device_is_software(&e, devs[i])) order[no++] = i;
    }
    for (int k = 0; k < no; k++) {
        int i = order[k];
        EGLDisplay dpy = e.get_platform_display(EGL_PLATFORM_DEVICE_EXT, devs[i], NULL);
        st = make_context(c, dpy, desc && desc->want_compute);
        if (st == SWGL_OK) {
            c->info.device_index = i;
            device_name(&e, devs[i], c->info.device_name, sizeof c->info.device_name);
            goto ready;
        }
        snprintf(why + strlen(why), sizeof why - strlen(why), "%sdevice %d: %s", *why ? "; " : "", i,
                 swgl_last_error());
        if (c->ctx != EGL_NO_CONTEXT) eglDestroyContext(c->dpy, c->ctx);
        if (c->surf != EGL_NO_SURFACE) eglDestroySurface(c->dpy, c->surf);
        if (c->dpy != EGL_NO_DISPLAY) eglTerminate(c->dpy);
        c->ctx = EGL_NO_CONTEXT;
        c->surf = EGL_NO_SURFACE;
        c->dpy = EGL_NO_DISPLAY;
        if (want >= 0) break;
    }
    if (want < 0) {
        st = make_context(c, eglGetDisplay(EGL_DEFAULT_DISPLAY), desc && desc->want_compute);
        if (st == SWGL_OK) {
            snprintf(c->info.device_name, sizeof c->info.device_name, "EGL_DEFAULT_DISPLAY");
            goto ready;
        }
        snprintf(why + strlen(why), sizeof why - strlen(why), "%sEGL_DEFAULT_DISPLAY: %s",
                 *why ? "; " : "", swgl_last_error());
    }
    gpu_context_destroy(c);
    return swgl_fail(st == SWGL_ERR_NO_CONTEXT ? SWGL_ERR_NO_CONTEXT : SWGL_ERR_NO_DEVICE,
                    "no OpenGL 3.3 core context could be created (%s). %s", why, install_hint);
ready:
    fill_info(&c->info);
    if ((st = gpu_check_gl("context set-up")) != SWGL_OK) {
        gpu_context_destroy(c);
        return st;
    }
    *out = c;
    return SWGL_OK;
}

swgl_status gpu_context_adopt(gpu_context **out)
{
    *out = NULL;
    const char *v = (const char *)glGetString(GL_VERSION);
    glGetError();
    if (!v)
        return swgl_fail(SWGL_ERR_NO_CONTEXT, "no GL context is current on this thread (use_current_context: make "
                         "the application's context current first)");
    gpu_context *c = calloc(1, sizeof *c);
    if (!c) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    c->dpy = EGL_NO_DISPLAY;
    c->ctx = EGL_NO_CONTEXT;
    c->surf = EGL_NO_SURFACE;
    c->adopted = 1;
    c->info.device_index = -1;
    snprintf(c->info.device_name, sizeof c->info.device_name, "the application's context");
    fill_info(&c->info);
    if (c->info.gl_major < 3 || (c->info.gl_major == 3 && c->info.gl_minor < 3)) {
        int maj = c->info.gl_major, min = c->info.gl_minor;
        free(c);
        return swgl_fail(SWGL_ERR_NO_CONTEXT, "the current GL context is %d.%d: swgl needs 3.3 core or later", maj, min);
    }
    c->info.max_gl_major = c->info.gl_major;
    c->info.max_gl_minor = c->info.gl_minor;
    c->info.has_compute = c->info.compute_context;
    swgl_status st = gpu_check_gl("adopting the current context");
    if (st != SWGL_OK) {
        free(c);
        return st;
    }
    *out = c;
    return SWGL_OK;
}

const gpu_info *gpu_context_info(const gpu_context *c)
{
    return &c->info;
}

void gpu_finish(void)
{
    glFinish();
}
