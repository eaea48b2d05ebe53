/* gpu_program.c — fragment passes from GLSL files.
 *
 * The source handed to the driver is
 *     #version 330 core            (first line of prelude.glsl)
 *     <defines>                    (source string 0)
 *     #line 2 1                    the rest of prelude.glsl (source string 1)
 *     #line 1 2                    NAME.glsl (source string 2), each
 *                                  #include "F.glsl" replaced by F's text (string 3, 4, ...)
 * so that the driver's "S:L" or "S(L)" locations map back to file:line, which is how
 * the error message is written.  The shader files and that assembly are gpu_source.c's;
 * here: the programs (fragment, own vertex shader, compute form, kernels). */
#include "gpu_program.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl.h"
#include "gpu_clock.h"
#include "gpu_internal.h"

#define MAX_UNIFORMS 64

struct gpu_program {
    GLuint prog;
    int compute;     /* a compute program (gpu_set_compute_passes, or a kernel): dispatched */
    int kernel;      /* written as a compute shader (gpu_program_create_kernel) */
    int lx, ly;      /* its work-group size */
    int cx, cy;      /* the cells an invocation covers (gpu_program_set_cells; 0: 1) */
    int hx;          /* invocations of a row that own no cell (gpu_program_set_helpers) */
    char name[64];
    int n_uniforms;
    struct { char name[64]; int loc; } uniforms[MAX_UNIFORMS];
};

static int g_live;
static int g_compute_passes;

void gpu_set_compute_passes(int on) { g_compute_passes = on != 0; }
int gpu_compute_passes(void) { return g_compute_passes; }
int gpu_program_is_compute(const gpu_program *p) { return p->compute; }
int gpu_program_is_kernel(const gpu_program *p) { return p->kernel; }
void gpu_program_local_size(const gpu_program *p, int *x, int *y)
{
    *x = p->lx > 0 ? p->lx : 16;
    *y = p->ly > 0 ? p->ly : 16;
}
void gpu_program_set_cells(gpu_program *p, int cx, int cy)
{
    p->cx = cx > 0 ? cx : 1;
    p->cy = cy > 0 ? cy : 1;
}
void gpu_program_set_helpers(gpu_program *p, int hx) { p->hx = hx > 0 ? hx : 0; }
void gpu_program_group_cells(const gpu_program *p, int *x, int *y)
{
    gpu_program_local_size(p, x, y);
    if (p->hx > 0 && p->hx < *x) *x -= p->hx;
    *x *= p->cx > 0 ? p->cx : 1;
    *y *= p->cy > 0 ? p->cy : 1;
}

static const char *vertex_src =
    "#version 330 core\n"
    "/* the full-screen quad: 4 vertices of a triangle strip, no vertex buffer */\n"
    "void main() {\n"
    "    vec2 p = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 2.0 - 1.0;\n"
    "    gl_Position = vec4(p, 0.0, 1.0);\n"
    "}\n";

static GLuint g_vs, g_vao;

unsigned gpu_internal_vertex_shader(void)
{
    if (!g_vs) {
        g_vs = glCreateShader(GL_VERTEX_SHADER);
        glShaderSource(g_vs, 1, &vertex_src, NULL);
        glCompileShader(g_vs);
    }
    return g_vs;
}

unsigned gpu_internal_vao(void)
{
    if (!g_vao) glGenVertexArrays(1, &g_vao);
    return g_vao;
}

void gpu_internal_release(void)
{
    if (g_vs) glDeleteShader(g_vs);
    if (g_vao) glDeleteVertexArrays(1, &g_vao);
    g_vs = g_vao = 0;
    gpu_internal_transfer_release();
}

/* Compiles the vertex shader of a program drawn with its own vertices: "#version 330
 * core", the defines, then the file (its #include lines expanded, #line kept, no
 * prelude).  0 with the message set on failure. */
static GLuint own_vertex_shader(const char *name, const char *vertex, const char *defines, swgl_status *st)
{
    char file[96];
    snprintf(file, sizeof file, "%s.glsl", vertex);
    const char *text = gpu_shader_source(file);
    if (!text) {
        *st = swgl_fail(SWGL_ERR_MISSING, "pass '%s': vertex shader file %s not found", name, file);
        return 0;
    }
    gpu_srcbuf b = {0};
    if (gpu_src_put(&b, "#version 330 core\n#line 1 0\n", 28) ||
        (defines && gpu_src_put(&b, defines, strlen(defines))) || gpu_src_put(&b, "\n", 1)) {
        free(b.s);
        *st = swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
        return 0;
    }
    b.files[b.nfiles++] = "(defines)";
    if ((*st = gpu_src_append(&b, name, file, text, 1, 0)) != SWGL_OK) {
        free(b.s);
        return 0;
    }
    GLuint vs = glCreateShader(GL_VERTEX_SHADER);
    const char *src = b.s;
    glShaderSource(vs, 1, &src, NULL);
    glCompileShader(vs);
    GLint ok = 0, loglen = 0;
    glGetShaderiv(vs, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        glGetShaderiv(vs, GL_INFO_LOG_LENGTH, &loglen);
        char *log = calloc((size_t)loglen + 1, 1), rewritten[6000], first[1024];
        if (log) glGetShaderInfoLog(vs, loglen, NULL, log);
        gpu_src_rewrite_log(&b, log ? log : "", rewritten, sizeof rewritten, first, sizeof first);
        *st = swgl_fail(SWGL_ERR_COMPILE, "pass '%s' (vertex shader): %s\n--- driver log ---\n%s", name,
                        first[0] ? first : "compile error", rewritten);
        free(log);
        glDeleteShader(vs);
        vs = 0;
    }
    free(b.s);
    return vs;
}

static swgl_status create_program(const char *name, const char *source, const char *defines, GLuint own_vs,
                                  int kernel, gpu_program **out);

swgl_status gpu_program_create_from_source(const char *name, const char *source, const char *defines,
                                          gpu_program **out)
{
    return create_program(name, source, defines, 0, 0, out);
}

swgl_status gpu_program_create_vs(const char *name, const char *vertex, const char *defines, gpu_program **out)
{
    char file[96];
    snprintf(file, sizeof file, "%s.glsl", name);
    const char *text = gpu_shader_source(file);
    *out = NULL;
    if (!text) return swgl_fail(SWGL_ERR_MISSING, "pass '%s': shader file %s not found", name, file);
    swgl_status st = SWGL_OK;
    GLuint vs = own_vertex_shader(name, vertex, defines, &st);
    if (!vs) return st;
    st = create_program(name, text, defines, vs, 0, out);
    glDeleteShader(vs);
    return st;
}

/* Compiles and links the compute shader src (whose #line directives b describes, for
 * the log's file names).  0 with the message set on failure. */
static GLuint compile_compute(const char *name, const gpu_srcbuf *b, const char *src, swgl_status *st)
{
    GLuint cs = glCreateShader(GL_COMPUTE_SHADER);
    glShaderSource(cs, 1, &src, NULL);
    glCompileShader(cs);
    GLint ok = 0;
    glGetShaderiv(cs, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        GLint loglen = 0;
        glGetShaderiv(cs, GL_INFO_LOG_LENGTH, &loglen);
        char *log = calloc((size_t)loglen + 1, 1), rewritten[6000], first[1024];
        if (log) glGetShaderInfoLog(cs, loglen, NULL, log);
        gpu_src_rewrite_log(b, log ? log : "", rewritten, sizeof rewritten, first, sizeof first);
        *st = swgl_fail(SWGL_ERR_COMPILE, "pass '%s' (compute): %s\n--- driver log ---\n%s", name,
                        first[0] ? first : "compile error", rewritten);
        free(log);
        glDeleteShader(cs);
        return 0;
    }
    GLuint prog = glCreateProgram();
    glAttachShader(prog, cs);
    glLinkProgram(prog);
    glDetachShader(prog, cs);
    glDeleteShader(cs);
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[4096] = "";
        glGetProgramInfoLog(prog, sizeof log, NULL, log);
        *st = swgl_fail(SWGL_ERR_COMPILE, "pass '%s' (compute): link error\n--- driver log ---\n%s", name, log);
        glDeleteProgram(prog);
        return 0;
    }
    return prog;
}

unsigned gpu_internal_compute_program(const char *name, const char *const *parts, int nparts, swgl_status *st)
{
    gpu_srcbuf b = {0};
    for (int i = 0; i < nparts; i++)
        if (gpu_src_put(&b, parts[i], strlen(parts[i]))) {
            free(b.s);
            *st = swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
            return 0;
        }
    b.files[b.nfiles++] = name;   /* source string 0 (its #line) */
    GLuint prog = compile_compute(name, &b, b.s, st);
    free(b.s);
    return prog;
}

/* The compute form of a fragment pass (prelude.glsl, SWGL_COMPUTE): the fragment
 * program frag, just linked, names its outputs (the GL 4.3 interface query: only the
 * active ones, with their locations and types); the same source, with the #version line
 * 430 and SWGL_COMPUTE defined, gets an epilogue that declares image k for output k and
 * stores every output there (swgl_store, called by SWGL_MAIN after the body).  0 with
 * the message set on failure. */
static GLuint compute_form(const char *name, const gpu_srcbuf *b, GLuint frag, swgl_status *st)
{
    GLint n = 0;
    glGetProgramInterfaceiv(frag, GL_PROGRAM_OUTPUT, GL_ACTIVE_RESOURCES, &n);
    gpu_srcbuf e = {0};
    char line[256], store[4096] = "void swgl_store()\n{\n";
    size_t so = strlen(store);
    int bad = gpu_src_put(&e, "\n#line 1 0\n", 11);
    for (GLint i = 0; i < n && !bad; i++) {
        char oname[128];
        const GLenum props[2] = {GL_LOCATION, GL_TYPE};
        GLint v[2] = {-1, 0};
        glGetProgramResourceName(frag, GL_PROGRAM_OUTPUT, (GLuint)i, sizeof oname, NULL, oname);
        glGetProgramResourceiv(frag, GL_PROGRAM_OUTPUT, (GLuint)i, 2, props, 2, NULL, v);
        int uint4 = v[1] == GL_UNSIGNED_INT_VEC4;
        if (v[0] < 0 || (!uint4 && v[1] != GL_FLOAT_VEC4)) {
            *st = swgl_fail(SWGL_ERR_COMPILE, "pass '%s': output '%s' is not a vec4 or uvec4 at a location: no compute "
                            "form", name, oname);
            free(e.s);
            return 0;
        }
        snprintf(line, sizeof line, "layout(%s, binding = %d) uniform writeonly %s swgl_img_%d;\n",
                 uint4 ? "rgba32ui" : "rgba32f", v[0], uint4 ? "uimage2D" : "image2D", v[0]);
        bad = gpu_src_put(&e, line, strlen(line));
        so += (size_t)snprintf(store + so, sizeof store - so, "    imageStore(swgl_img_%d, swgl_px, %s);\n", v[0], oname);
    }
    snprintf(store + so, sizeof store - so, "}\n");
    const char *body = strchr(b->s, '\n');   /* the source less its #version line */
    gpu_srcbuf c = {0};
    bad = bad || gpu_src_put(&c, "#version 430 core\n#define SWGL_COMPUTE 1\n", 41) || !body ||
          gpu_src_put(&c, body + 1, strlen(body + 1)) || gpu_src_put(&c, e.s, e.len) ||
          gpu_src_put(&c, store, strlen(store));
    free(e.s);
    if (bad) {
        free(c.s);
        *st = swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
        return 0;
    }
    GLuint prog = compile_compute(name, b, c.s, st);
    free(c.s);
    return prog;
}

/* The fragment pass of source with the full-screen quad's vertex shader (own_vs 0) or
 * with own_vs; with gpu_set_compute_passes(1) and no own vertex shader, its compute form
 * (compute_form). */
static swgl_status create_program(const char *name, const char *source, const char *defines, GLuint own_vs,
                                  int kernel, gpu_program **out)
{
    *out = NULL;
    const char *prelude = gpu_shader_source("prelude.glsl");
    if (!prelude) return swgl_fail(SWGL_ERR_MISSING, "pass '%s': prelude.glsl not found", name);
    gpu_srcbuf b = {0};
    swgl_status st = SWGL_OK;
    char file[96];
    snprintf(file, sizeof file, "%s.glsl", name);
    /* #version line, defines, then the prelude from its second line on */
    const char *nl = strchr(prelude, '\n');
    size_t vlen = nl ? (size_t)(nl - prelude) + 1 : strlen(prelude);
    static const char kernel_head[] = "#version 430 core\n#define SWGL_COMPUTE 1\n#define SWGL_KERNEL 1\n";
    /* (gpu_clock.h's window width, for every program that reads a clock) */
    if ((kernel ? gpu_src_put(&b, kernel_head, sizeof kernel_head - 1) : gpu_src_put(&b, prelude, vlen)) ||
        gpu_src_put(&b, GPU_CLOCK_GLSL, sizeof GPU_CLOCK_GLSL - 1) || gpu_src_put(&b, "#line 1 0\n", 10) ||
        (defines && gpu_src_put(&b, defines, strlen(defines))) || gpu_src_put(&b, "\n", 1)) {
        free(b.s);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    }
    b.files[b.nfiles++] = "(defines)";
    if ((st = gpu_src_append(&b, name, "prelude.glsl", prelude, 2, 0)) != SWGL_OK ||
        (st = gpu_src_append(&b, name, file, source, 1, 0)) != SWGL_OK) {
        free(b.s);
        return st;
    }

    gpu_program *p = calloc(1, sizeof *p);
    if (!p) {
        free(b.s);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    }
    snprintf(p->name, sizeof p->name, "%s", name);
    if (kernel) {   /* a compute shader as written: no fragment form to derive it from */
        p->prog = compile_compute(name, &b, b.s, &st);
        free(b.s);
        if (!p->prog) {
            free(p);
            return st;
        }
        GLint size[3] = {1, 1, 1};
        glGetProgramiv(p->prog, GL_COMPUTE_WORK_GROUP_SIZE, size);
        p->compute = p->kernel = 1;
        p->lx = size[0];
        p->ly = size[1];
        if ((st = gpu_check_gl("kernel build")) != SWGL_OK) {
            glDeleteProgram(p->prog);
            free(p);
            return st;
        }
        g_live++;
        *out = p;
        return SWGL_OK;
    }
    GLuint fs = glCreateShader(GL_FRAGMENT_SHADER);
    const char *src = b.s;
    glShaderSource(fs, 1, &src, NULL);
    glCompileShader(fs);
    GLint ok = 0, loglen = 0;
    glGetShaderiv(fs, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        glGetShaderiv(fs, GL_INFO_LOG_LENGTH, &loglen);
        char *log = calloc((size_t)loglen + 1, 1), rewritten[6000], first[1024];
        if (log) glGetShaderInfoLog(fs, loglen, NULL, log);
        gpu_src_rewrite_log(&b, log ? log : "", rewritten, sizeof rewritten, first, sizeof first);
        st = swgl_fail(SWGL_ERR_COMPILE, "pass '%s': %s\n--- driver log ---\n%s", name,
                      first[0] ? first : "compile error", rewritten);
        free(log);
        glDeleteShader(fs);
        free(b.s);
        free(p);
        return st;
    }
    GLuint vs = own_vs ? own_vs : gpu_internal_vertex_shader();
    p->prog = glCreateProgram();
    glAttachShader(p->prog, vs);
    glAttachShader(p->prog, fs);
    glLinkProgram(p->prog);
    glDetachShader(p->prog, vs);
    glDetachShader(p->prog, fs);
    glDeleteShader(fs);
    glGetProgramiv(p->prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[4096] = "";
        glGetProgramInfoLog(p->prog, sizeof log, NULL, log);
        st = swgl_fail(SWGL_ERR_COMPILE, "pass '%s': link error\n--- driver log ---\n%s", name, log);
        glDeleteProgram(p->prog);
        free(b.s);
        free(p);
        return st;
    }
    if (g_compute_passes && !own_vs) {
        GLuint cprog = compute_form(name, &b, p->prog, &st);
        glDeleteProgram(p->prog);
        if (!cprog) {
            free(b.s);
            free(p);
            return st;
        }
        p->prog = cprog;
        p->compute = 1;
    }
    free(b.s);
    if ((st = gpu_check_gl("program build")) != SWGL_OK) {
        glDeleteProgram(p->prog);
        free(p);
        return st;
    }
    g_live++;
    *out = p;
    return SWGL_OK;
}

swgl_status gpu_program_create(const char *name, const char *defines, gpu_program **out)
{
    char file[96];
    snprintf(file, sizeof file, "%s.glsl", name);
    const char *text = gpu_shader_source(file);
    *out = NULL;
    if (!text) {
        const char *dir = getenv("SWGL_SHADER_DIR");
        return swgl_fail(SWGL_ERR_MISSING, "pass '%s': shader file %s not found (%s%s)", name, file,
                        dir && *dir ? "looked in SWGL_SHADER_DIR=" : "not embedded in this build",
                        dir && *dir ? dir : "");
    }
    return gpu_program_create_from_source(name, text, defines, out);
}

swgl_status gpu_program_create_kernel(const char *name, const char *defines, gpu_program **out)
{
    char file[96];
    *out = NULL;
    GLint major = 0, minor = 0;
    glGetIntegerv(GL_MAJOR_VERSION, &major);
    glGetIntegerv(GL_MINOR_VERSION, &minor);
    if (major < 4 || (major == 4 && minor < 3))
        return swgl_fail(SWGL_ERR_NO_CONTEXT, "kernel '%s': compute shaders need a GL 4.3 core context (this one is "
                         "%s)", name, (const char *)glGetString(GL_VERSION));
    snprintf(file, sizeof file, "%s.glsl", name);
    const char *text = gpu_shader_source(file);
    if (!text) return swgl_fail(SWGL_ERR_MISSING, "kernel '%s': shader file %s not found", name, file);
    return create_program(name, text, defines, 0, 1, out);
}

void gpu_program_destroy(gpu_program *p)
{
    if (!p) return;
    if (p->prog) {
        glDeleteProgram(p->prog);
        g_live--;
    }
    free(p);
}

const char *gpu_program_name(const gpu_program *p) { return p->name; }
unsigned gpu_program_handle(const gpu_program *p) { return p->prog; }
int gpu_program_live_count(void) { return g_live; }

int gpu_program_uniform(gpu_program *p, const char *name)
{
    for (int i = 0; i < p->n_uniforms; i++)
        if (strcmp(p->uniforms[i].name, name) == 0) return p->uniforms[i].loc;
    int loc = glGetUniformLocation(p->prog, name);
    if (p->n_uniforms < MAX_UNIFORMS) {
        snprintf(p->uniforms[p->n_uniforms].name, sizeof p->uniforms[0].name, "%s", name);
        p->uniforms[p->n_uniforms++].loc = loc;
    }
    return loc;
}
