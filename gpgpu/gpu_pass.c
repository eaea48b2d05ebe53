/* gpu_pass.c — bind a program's inputs by name and draw the full-screen quad into an
 * array or an MRT.  Every draw sets all the GL state it depends on: framebuffer,
 * viewport, program, texture units, vertex array; blending, depth and scissor off.
 * With gpu_set_gl_check(1) (the tuning's gl_check; the GL test programs always), or in a
 * build without NDEBUG, each draw also checks glGetError. */
#include "gpu_pass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl.h"
#include "gpu_internal.h"

/* ---- SWGL_PASS_PROFILE=1: the GPU time of every draw and dispatch, by program ----------
 * Each draw is bracketed by two GL_TIMESTAMP queries (glQueryCounter: unlike an elapsed-
 * time query, any number may be in flight and they nest inside a scheme's own timer
 * sections); the results are gathered as the ring fills and when the context is
 * destroyed (gpu_pass_profile_report), which prints a table to stderr.  For measuring
 * (docs/performance.md), not for production runs: each gathering waits for the GPU. */
#define PROF_MAX 64
#define PROF_RING 512
static struct {
    int on;               /* -1: not yet read from the environment */
    GLuint q[2 * PROF_RING];
    int tag[PROF_RING], head, count;
    int n;
    struct { char name[64]; double sec; long count; } p[PROF_MAX];
} g_prof = {-1, {0}, {0}, 0, 0, 0, {{"", 0, 0}}};

static int prof_slot(const char *name)
{
    for (int i = 0; i < g_prof.n; i++)
        if (strcmp(g_prof.p[i].name, name) == 0) return i;
    if (g_prof.n == PROF_MAX) return -1;   /* counted as "(other programs)" below */
    snprintf(g_prof.p[g_prof.n].name, sizeof g_prof.p[0].name, "%s", name);
    return g_prof.n++;
}

static void prof_harvest(int keep)
{
    while (g_prof.count > keep) {
        int k = g_prof.head;
        GLuint64 t0 = 0, t1 = 0;
        glGetQueryObjectui64v(g_prof.q[2 * k], GL_QUERY_RESULT, &t0);
        glGetQueryObjectui64v(g_prof.q[2 * k + 1], GL_QUERY_RESULT, &t1);
        int slot = g_prof.tag[k];
        /* a bogus sample (llvmpipe has given thousands of seconds) is dropped */
        if (slot >= 0 && t1 >= t0 && t1 - t0 < 60000000000ull) {
            g_prof.p[slot].sec += 1e-9 * (double)(t1 - t0);
            g_prof.p[slot].count++;
        }
        g_prof.head = (g_prof.head + 1) % PROF_RING;
        g_prof.count--;
    }
}

/* Marks the start of a draw of program name; returns the ring slot to end, or -1. */
static int prof_begin(const char *name)
{
    if (g_prof.on < 0) {
        const char *e = getenv("SWGL_PASS_PROFILE");
        g_prof.on = e && *e && *e != '0';
        if (g_prof.on) glGenQueries(2 * PROF_RING, g_prof.q);
    }
    if (!g_prof.on) return -1;
    if (g_prof.count == PROF_RING) prof_harvest(PROF_RING / 2);
    int k = (g_prof.head + g_prof.count) % PROF_RING;
    g_prof.tag[k] = prof_slot(name);
    glQueryCounter(g_prof.q[2 * k], GL_TIMESTAMP);
    return k;
}

static void prof_end(int k)
{
    if (k < 0) return;
    glQueryCounter(g_prof.q[2 * k + 1], GL_TIMESTAMP);
    g_prof.count++;
}

void gpu_pass_profile_report(void)
{
    if (g_prof.on <= 0) return;
    prof_harvest(0);
    double total = 0;
    for (int i = 0; i < g_prof.n; i++) total += g_prof.p[i].sec;
    fprintf(stderr, "SWGL_PASS_PROFILE: GPU time of each program's draws and dispatches (GL_TIMESTAMP pairs)\n"
                    "%-24s %10s %12s %10s %7s\n", "program", "count", "total ms", "us each", "share");
    for (int i = 0; i < g_prof.n; i++)
        fprintf(stderr, "%-24s %10ld %12.3f %10.2f %6.1f%%\n", g_prof.p[i].name, g_prof.p[i].count,
                1e3 * g_prof.p[i].sec, g_prof.p[i].count ? 1e6 * g_prof.p[i].sec / (double)g_prof.p[i].count : 0.0,
                total > 0 ? 100 * g_prof.p[i].sec / total : 0.0);
    fprintf(stderr, "%-24s %10s %12.3f%s\n", "all", "", 1e3 * total,
            g_prof.n == PROF_MAX ? "   (programs past the 64th are not in the table)" : "");
    glDeleteQueries(2 * PROF_RING, g_prof.q);
    g_prof.on = -1;
    g_prof.n = g_prof.head = g_prof.count = 0;
}

enum { U_FLOAT, U_INT, U_UINT, U_VEC2, U_VEC4, U_DOUBLE, U_DVEC2 };

void gpu_pass_begin(gpu_pass *p, gpu_program *prog)
{
    memset(p, 0, sizeof *p);
    p->program = prog;
    if (!prog) p->error = swgl_fail(SWGL_ERR_ARG, "pass without a program");
}

void gpu_pass_array(gpu_pass *p, const char *name, const gpu_array2d *a)
{
    if (p->error) return;
    if (!a) {
        p->error = swgl_fail(SWGL_ERR_ARG, "pass '%s': input '%s' is NULL", gpu_program_name(p->program), name);
        return;
    }
    if (p->n_inputs == GPU_PASS_MAX_INPUTS) {
        p->error = swgl_fail(SWGL_ERR_ARG, "pass '%s': more than %d array inputs", gpu_program_name(p->program),
                            GPU_PASS_MAX_INPUTS);
        return;
    }
    p->inputs[p->n_inputs].name = name;
    p->inputs[p->n_inputs++].array = a;
}

static void bind_image(gpu_pass *p, int unit, gpu_array2d *a, int rw)
{
    if (p->error) return;
    int ok = rw ? gpu_program_is_compute(p->program) : gpu_program_is_kernel(p->program);
    if (!ok || !a || unit < 0 || p->n_images == GPU_PASS_MAX_IMAGES) {
        p->error = swgl_fail(SWGL_ERR_ARG, "pass '%s': image unit %d: %s", gpu_program_name(p->program), unit,
                            !a ? "NULL array" : p->n_images == GPU_PASS_MAX_IMAGES ? "too many images"
                            : unit < 0 ? "negative unit"
                            : rw ? "only a compute pass or kernel binds read-write images"
                                 : "only a kernel binds extra images");
        return;
    }
    p->images[p->n_images].unit = unit;
    p->images[p->n_images].rw = rw;
    p->images[p->n_images++].array = a;
}

void gpu_pass_image(gpu_pass *p, int unit, gpu_array2d *a) { bind_image(p, unit, a, 0); }
void gpu_pass_image_rw(gpu_pass *p, int unit, gpu_array2d *a) { bind_image(p, unit, a, 1); }

void gpu_pass_buffer(gpu_pass *p, int binding, gpu_buffer *b)
{
    if (p->error) return;
    if (!gpu_program_is_kernel(p->program) || !b || binding < 0 || binding >= 8 || p->n_buffers == GPU_PASS_MAX_BUFFERS) {
        p->error = swgl_fail(SWGL_ERR_ARG, "pass '%s': buffer binding %d: %s", gpu_program_name(p->program), binding,
                            !b ? "NULL buffer" : p->n_buffers == GPU_PASS_MAX_BUFFERS ? "too many buffers"
                            : binding < 0 || binding >= 8 ? "bindings 0 to 7 only (GL guarantees 8)"
                                                          : "only a kernel binds buffers");
        return;
    }
    p->buffers[p->n_buffers].binding = binding;
    p->buffers[p->n_buffers++].buffer = b;
}

static void add_uniform(gpu_pass *p, const char *name, int kind, float x, float y, float z, float w, int i)
{
    if (p->error) return;
    if (p->n_uniforms == GPU_PASS_MAX_UNIFORMS) {
        p->error = swgl_fail(SWGL_ERR_ARG, "pass '%s': more than %d uniforms", gpu_program_name(p->program),
                            GPU_PASS_MAX_UNIFORMS);
        return;
    }
    p->uniforms[p->n_uniforms].name = name;
    p->uniforms[p->n_uniforms].kind = kind;
    p->uniforms[p->n_uniforms].f[0] = x;
    p->uniforms[p->n_uniforms].f[1] = y;
    p->uniforms[p->n_uniforms].f[2] = z;
    p->uniforms[p->n_uniforms].f[3] = w;
    p->uniforms[p->n_uniforms++].i = i;
}

void gpu_pass_float(gpu_pass *p, const char *name, float v) { add_uniform(p, name, U_FLOAT, v, 0, 0, 0, 0); }
void gpu_pass_int(gpu_pass *p, const char *name, int v) { add_uniform(p, name, U_INT, 0, 0, 0, 0, v); }
void gpu_pass_uint(gpu_pass *p, const char *name, unsigned v)
{
    add_uniform(p, name, U_UINT, 0, 0, 0, 0, 0);
    if (!p->error) p->uniforms[p->n_uniforms - 1].u = v;
}
void gpu_pass_vec2(gpu_pass *p, const char *name, float x, float y) { add_uniform(p, name, U_VEC2, x, y, 0, 0, 0); }
void gpu_pass_vec4(gpu_pass *p, const char *name, float x, float y, float z, float w)
{
    add_uniform(p, name, U_VEC4, x, y, z, w, 0);
}

void gpu_pass_double(gpu_pass *p, const char *name, double v)
{
    add_uniform(p, name, U_DOUBLE, 0, 0, 0, 0, 0);
    if (!p->error) p->uniforms[p->n_uniforms - 1].d[0] = v;
}

void gpu_pass_dvec2(gpu_pass *p, const char *name, double x, double y)
{
    add_uniform(p, name, U_DVEC2, 0, 0, 0, 0, 0);
    if (!p->error) {
        p->uniforms[p->n_uniforms - 1].d[0] = x;
        p->uniforms[p->n_uniforms - 1].d[1] = y;
    }
}

static int g_gl_check;

void gpu_set_gl_check(int on) { g_gl_check = on != 0; }

static int gl_check_enabled(void)
{
#ifndef NDEBUG
    return 1;
#else
    return g_gl_check;
#endif
}

/* vertices, instances: the triangle strip drawn (4, 0: the full-screen quad of the
 * internal vertex shader; instances > 0: glDrawArraysInstanced with the program's own
 * vertex shader) */
static gpu_trace_fn g_trace;
static void *g_trace_user;

void gpu_pass_trace(gpu_trace_fn fn, void *user)
{
    g_trace = fn;
    g_trace_user = user;
}

static swgl_status draw(gpu_pass *p, unsigned fbo, int width, int height, gpu_array2d *const *outs,
                       int nouts, const gpu_rect *rect, int vertices, int instances, const gpu_depth_test *dt)
{
    const char *pname = p->program ? gpu_program_name(p->program) : "?";
    if (p->error) return p->error;
    for (int i = 0; i < p->n_inputs; i++)
        for (int k = 0; k < nouts; k++)
            if (p->inputs[i].array == outs[k])
                return swgl_fail(SWGL_ERR_ALIAS,
                                "pass '%s': input '%s' (array '%s') is also the pass's output: a pass "
                                "never reads the array it writes (use a second array, ping-pong)",
                                pname, p->inputs[i].name, gpu_array2d_label(outs[k]));
    for (int k = 0; k < p->n_images; k++) {
        int same = 0;
        for (int o = 0; o < nouts; o++) same = same || outs[o] == p->images[k].array;
        if (p->images[k].unit < nouts || p->images[k].unit >= 8 || same)
            return swgl_fail(SWGL_ERR_ARG, "pass '%s': image unit %d: %s", pname, p->images[k].unit,
                             same ? "the array is also an output of the draw"
                             : p->images[k].unit < nouts ? "the draw's outputs take units 0 to outputs - 1"
                                                         : "units 0 to 7 only (GL guarantees 8)");
    }
    for (int i = 0; i < p->n_inputs; i++)
        for (int k = 0; k < p->n_images; k++)
            if (p->inputs[i].array == p->images[k].array)
                return swgl_fail(SWGL_ERR_ALIAS, "pass '%s': input '%s' (array '%s') is also an image it writes",
                                 pname, p->inputs[i].name, gpu_array2d_label(p->images[k].array));
    gpu_rect r = rect ? *rect : (gpu_rect){0, 0, width, height};
    if (r.x < 0 || r.y < 0 || r.w < 1 || r.h < 1 || r.x + r.w > width || r.y + r.h > height)
        return swgl_fail(SWGL_ERR_ARG, "pass '%s': rectangle (%d,%d) %dx%d is not inside the %dx%d output",
                        pname, r.x, r.y, r.w, r.h, width, height);

    GLuint prog = gpu_program_handle(p->program);
    int compute = gpu_program_is_compute(p->program);
    if (compute && (dt || instances > 0))
        return swgl_fail(SWGL_ERR_ARG, "pass '%s': a compute pass is dispatched over a rectangle, not drawn %s", pname,
                         dt ? "with a depth test" : "as instanced quads");
    if (compute) {   /* the same bindings, then a dispatch over r; outputs are images */
        glUseProgram(prog);
        goto bind;
    }
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo);
    glViewport(r.x, r.y, r.w, r.h);
    glDisable(GL_BLEND);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_CULL_FACE);
    glUseProgram(prog);
bind:
    for (int i = 0; i < p->n_inputs; i++) {
        int loc = gpu_program_uniform(p->program, p->inputs[i].name);
        if (loc < 0)
            return swgl_fail(SWGL_ERR_MISSING, "pass '%s' has no active sampler '%s'", pname, p->inputs[i].name);
        glActiveTexture(GL_TEXTURE0 + (GLenum)i);
        glBindTexture(GL_TEXTURE_2D, gpu_array2d_texture(p->inputs[i].array));
        glUniform1i(loc, i);
    }
    for (int i = 0; i < p->n_uniforms; i++) {
        int loc = gpu_program_uniform(p->program, p->uniforms[i].name);
        const float *f = p->uniforms[i].f;
        if (loc < 0)
            return swgl_fail(SWGL_ERR_MISSING, "pass '%s' has no active uniform '%s'", pname, p->uniforms[i].name);
        switch (p->uniforms[i].kind) {
        case U_FLOAT: glUniform1f(loc, f[0]); break;
        case U_INT: glUniform1i(loc, p->uniforms[i].i); break;
        case U_UINT: glUniform1ui(loc, p->uniforms[i].u); break;
        case U_VEC2: glUniform2f(loc, f[0], f[1]); break;
        case U_DOUBLE: glUniform1d(loc, p->uniforms[i].d[0]); break;
        case U_DVEC2: glUniform2d(loc, p->uniforms[i].d[0], p->uniforms[i].d[1]); break;
        default: glUniform4f(loc, f[0], f[1], f[2], f[3]); break;
        }
    }
    if (compute) {
        for (int k = 0; k < nouts; k++)
            glBindImageTexture((GLuint)k, gpu_array2d_texture(outs[k]), 0, GL_FALSE, 0, GL_WRITE_ONLY,
                               gpu_array2d_format(outs[k]) == GPU_RGBA32UI ? GL_RGBA32UI : GL_RGBA32F);
        for (int k = 0; k < p->n_images; k++)
            glBindImageTexture((GLuint)p->images[k].unit, gpu_array2d_texture(p->images[k].array), 0, GL_FALSE, 0,
                               p->images[k].rw ? GL_READ_WRITE : GL_WRITE_ONLY,
                               gpu_array2d_format(p->images[k].array) == GPU_RGBA32UI ? GL_RGBA32UI : GL_RGBA32F);
        for (int k = 0; k < p->n_buffers; k++)
            glBindBufferBase(GL_SHADER_STORAGE_BUFFER, (GLuint)p->buffers[k].binding,
                             gpu_buffer_handle(p->buffers[k].buffer));
        int lx, ly;
        gpu_program_group_cells(p->program, &lx, &ly);
        glUniform4i(gpu_program_uniform(p->program, "swgl_rect"), r.x, r.y, r.w, r.h);
        int timed = prof_begin(pname);
        if (p->groups.indirect) {
            glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, gpu_buffer_handle(p->groups.indirect));
            glDispatchComputeIndirect((GLintptr)p->groups.offset);
            glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, 0);
        } else if (p->groups.set) {
            glDispatchCompute((GLuint)p->groups.gx, (GLuint)p->groups.gy, 1);
        } else {
            glDispatchCompute((GLuint)((r.w + lx - 1) / lx), (GLuint)((r.h + ly - 1) / ly), 1);
        }
        prof_end(timed);
        /* what later passes fetch, read back, clear or upload, and later indirect
         * dispatches, see these writes */
        glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT |
                        GL_TEXTURE_UPDATE_BARRIER_BIT | GL_PIXEL_BUFFER_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT |
                        GL_COMMAND_BARRIER_BIT);
        for (int i = 0; i < p->n_inputs; i++) {
            glActiveTexture(GL_TEXTURE0 + (GLenum)i);
            glBindTexture(GL_TEXTURE_2D, 0);
        }
        glActiveTexture(GL_TEXTURE0);
        glUseProgram(0);
        if (gl_check_enabled()) {
            swgl_status st = gpu_check_gl("dispatch");
            if (st != SWGL_OK) return swgl_fail(st, "pass '%s': %s", pname, swgl_last_error());
        }
        if (g_trace) {   /* a kernel's extra images are outputs too */
            gpu_array2d *all[8 + GPU_PASS_MAX_IMAGES];
            int n = 0;
            for (int k = 0; k < nouts && n < 8; k++) all[n++] = outs[k];
            for (int k = 0; k < p->n_images; k++) all[n++] = p->images[k].array;
            g_trace(g_trace_user, p, all, n);
        }
        return SWGL_OK;
    }
    if (dt) {   /* set after every early return above */
        static const GLenum func[] = {GL_ALWAYS, GL_LESS, GL_LEQUAL, GL_EQUAL, GL_GREATER, GL_GEQUAL, GL_NEVER};
        glEnable(GL_DEPTH_TEST);
        glDepthFunc(func[dt->func]);
        glDepthMask(dt->write_depth ? GL_TRUE : GL_FALSE);
        if (dt->no_colour) glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
    }
    glBindVertexArray(gpu_internal_vao());
    int timed = prof_begin(pname);
    if (instances > 0) glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, vertices, instances);
    else glDrawArrays(GL_TRIANGLE_STRIP, 0, vertices);
    prof_end(timed);
    glBindVertexArray(0);
    for (int i = 0; i < p->n_inputs; i++) {
        glActiveTexture(GL_TEXTURE0 + (GLenum)i);
        glBindTexture(GL_TEXTURE_2D, 0);
    }
    glActiveTexture(GL_TEXTURE0);
    if (dt) {
        glDisable(GL_DEPTH_TEST);
        glDepthFunc(GL_LESS);
        glDepthMask(GL_TRUE);
        glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    }
    glUseProgram(0);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    if (gl_check_enabled()) {
        swgl_status st = gpu_check_gl("draw");
        if (st != SWGL_OK) return swgl_fail(st, "pass '%s': %s", pname, swgl_last_error());
    }
    if (g_trace) g_trace(g_trace_user, p, outs, nouts);
    return SWGL_OK;
}

swgl_status gpu_pass_dispatch(gpu_pass *p, int nx, int ny)
{
    if (p->error) return p->error;
    if (!gpu_program_is_kernel(p->program) || nx < 1 || ny < 1)
        return swgl_fail(SWGL_ERR_ARG, "pass '%s': only a kernel is dispatched without outputs (%dx%d)",
                         gpu_program_name(p->program), nx, ny);
    return draw(p, 0, nx, ny, NULL, 0, NULL, 4, 0, NULL);
}

swgl_status gpu_pass_dispatch_groups(gpu_pass *p, int gx, int gy, int nx, int ny)
{
    if (!p->error && (gx < 1 || gy < 1))
        p->error = swgl_fail(SWGL_ERR_ARG, "pass '%s': %d x %d work groups", gpu_program_name(p->program), gx, gy);
    p->groups.set = 1;
    p->groups.gx = gx;
    p->groups.gy = gy;
    return gpu_pass_dispatch(p, nx, ny);
}

swgl_status gpu_pass_dispatch_indirect(gpu_pass *p, const gpu_buffer *b, size_t offset, int nx, int ny)
{
    if (!p->error && (!b || offset % 4 != 0 || offset > gpu_buffer_size(b) || gpu_buffer_size(b) - offset < 12))
        p->error = swgl_fail(SWGL_ERR_ARG, "pass '%s': indirect dispatch: %s at byte %zu", gpu_program_name(p->program),
                             !b ? "no buffer" : "three group counts do not fit", offset);
    p->groups.set = 1;
    p->groups.indirect = b;
    p->groups.offset = offset;
    return gpu_pass_dispatch(p, nx, ny);
}

swgl_status gpu_pass_draw(gpu_pass *p, gpu_array2d *out, const gpu_rect *rect)
{
    if (!out) return swgl_fail(SWGL_ERR_ARG, "pass without an output");
    return draw(p, gpu_array2d_framebuffer(out), gpu_array2d_width(out), gpu_array2d_height(out), &out, 1,
                rect, 4, 0, NULL);
}

swgl_status gpu_pass_draw_mrt(gpu_pass *p, gpu_mrt *out, const gpu_rect *rect)
{
    gpu_array2d *outs[GPU_MRT_MAX];
    if (!out) return swgl_fail(SWGL_ERR_ARG, "pass without an output");
    int n = gpu_mrt_count(out);
    for (int k = 0; k < n; k++) outs[k] = gpu_mrt_member(out, k);
    return draw(p, gpu_mrt_framebuffer(out), gpu_array2d_width(outs[0]), gpu_array2d_height(outs[0]), outs, n,
                rect, 4, 0, NULL);
}

swgl_status gpu_pass_draw_instanced(gpu_pass *p, gpu_array2d *out, int vertices, int instances)
{
    if (!out) return swgl_fail(SWGL_ERR_ARG, "pass without an output");
    if (vertices < 1 || instances < 1)
        return swgl_fail(SWGL_ERR_ARG, "pass '%s': %d instances of %d vertices",
                         p->program ? gpu_program_name(p->program) : "?", instances, vertices);
    return draw(p, gpu_array2d_framebuffer(out), gpu_array2d_width(out), gpu_array2d_height(out), &out, 1, NULL,
                vertices, instances, NULL);
}

swgl_status gpu_pass_draw_mrt_instanced(gpu_pass *p, gpu_mrt *out, int vertices, int instances)
{
    gpu_array2d *outs[GPU_MRT_MAX];
    if (!out) return swgl_fail(SWGL_ERR_ARG, "pass without an output");
    if (vertices < 1 || instances < 1)
        return swgl_fail(SWGL_ERR_ARG, "pass '%s': %d instances of %d vertices",
                         p->program ? gpu_program_name(p->program) : "?", instances, vertices);
    int n = gpu_mrt_count(out);
    for (int k = 0; k < n; k++) outs[k] = gpu_mrt_member(out, k);
    return draw(p, gpu_mrt_framebuffer(out), gpu_array2d_width(outs[0]), gpu_array2d_height(outs[0]), outs, n,
                NULL, vertices, instances, NULL);
}

swgl_status gpu_pass_draw_mrt_depth(gpu_pass *p, gpu_mrt_depth *out, const gpu_depth_test *test, int vertices,
                                    int instances)
{
    gpu_array2d *outs[GPU_MRT_MAX];
    if (!out || !test) return swgl_fail(SWGL_ERR_ARG, "depth pass without an output or a depth test");
    if (test->func < GPU_DEPTH_ALWAYS || test->func > GPU_DEPTH_NEVER)
        return swgl_fail(SWGL_ERR_ARG, "pass '%s': depth function %d", p->program ? gpu_program_name(p->program) : "?",
                         (int)test->func);
    if (instances > 0 && vertices < 1)
        return swgl_fail(SWGL_ERR_ARG, "pass '%s': %d instances of %d vertices",
                         p->program ? gpu_program_name(p->program) : "?", instances, vertices);
    gpu_mrt *m = gpu_mrt_depth_colour(out);
    int n = gpu_mrt_count(m);
    for (int k = 0; k < n; k++) outs[k] = gpu_mrt_member(m, k);
    return draw(p, gpu_mrt_depth_framebuffer(out), gpu_array2d_width(outs[0]), gpu_array2d_height(outs[0]), outs,
                n, NULL, instances > 0 ? vertices : 4, instances > 0 ? instances : 0, test);
}
