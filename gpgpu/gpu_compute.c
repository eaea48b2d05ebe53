/* gpu_compute.c — compute passes over 2-D arrays (gpu_compute.h). */
#include "gpu_compute.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl.h"
#include "gpu_internal.h"
#include "gpu_program.h"

struct gpu_compute {
    GLuint prog;
    char name[64];
    int lx, ly;
};

int gpu_compute_available(void)
{
    GLint major = 0, minor = 0;
    glGetIntegerv(GL_MAJOR_VERSION, &major);
    glGetIntegerv(GL_MINOR_VERSION, &minor);
    return major > 4 || (major == 4 && minor >= 3);
}

swgl_status gpu_compute_create_from_source(const char *name, const char *source, const char *defines,
                                          gpu_compute **out)
{
    *out = NULL;
    if (!gpu_compute_available())
        return swgl_fail(SWGL_ERR_NO_CONTEXT, "compute pass '%s': compute shaders need a GL 4.3 core context "
                         "(this one is %s)", name, (const char *)glGetString(GL_VERSION));
    const char *parts[4] = {"#version 430 core\n", defines ? defines : "", "#line 1 0\n", source};
    swgl_status st = SWGL_OK;
    GLuint prog = gpu_internal_compute_program(name, parts, 4, &st);
    if (!prog) return st;
    gpu_compute *c = calloc(1, sizeof *c);
    if (!c) {
        glDeleteProgram(prog);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "compute pass '%s': out of memory", name);
    }
    c->prog = prog;
    snprintf(c->name, sizeof c->name, "%s", name);
    GLint size[3] = {1, 1, 1};
    glGetProgramiv(prog, GL_COMPUTE_WORK_GROUP_SIZE, size);
    c->lx = size[0];
    c->ly = size[1];
    st = gpu_check_gl("compute program");
    if (st != SWGL_OK) {
        gpu_compute_destroy(c);
        return st;
    }
    *out = c;
    return SWGL_OK;
}

swgl_status gpu_compute_create(const char *file, const char *defines, gpu_compute **out)
{
    char name[96];
    snprintf(name, sizeof name, "%s.glsl", file);
    const char *text = gpu_shader_source(name);
    *out = NULL;
    if (!text) return swgl_fail(SWGL_ERR_MISSING, "compute pass '%s': shader file %s not found", file, name);
    return gpu_compute_create_from_source(file, text, defines, out);
}

void gpu_compute_destroy(gpu_compute *c)
{
    if (!c) return;
    if (c->prog) glDeleteProgram(c->prog);
    free(c);
}

void gpu_compute_local_size(const gpu_compute *c, int *x, int *y)
{
    *x = c->lx;
    *y = c->ly;
}

void gpu_compute_begin(gpu_compute *c)
{
    glUseProgram(c->prog);
}

void gpu_compute_texture(gpu_compute *c, const char *name, int unit, const gpu_array2d *a)
{
    GLint loc = glGetUniformLocation(c->prog, name);
    if (loc < 0) return;
    glActiveTexture(GL_TEXTURE0 + (GLenum)unit);
    glBindTexture(GL_TEXTURE_2D, gpu_array2d_texture(a));
    glUniform1i(loc, unit);
}

void gpu_compute_image(gpu_compute *c, int unit, const gpu_array2d *a, enum gpu_image_access access)
{
    (void)c;
    GLenum acc = access == GPU_IMAGE_READ ? GL_READ_ONLY : access == GPU_IMAGE_WRITE ? GL_WRITE_ONLY : GL_READ_WRITE;
    GLenum fmt = gpu_array2d_format(a) == GPU_RGBA32F ? GL_RGBA32F : GL_RGBA32UI;
    glBindImageTexture((GLuint)unit, gpu_array2d_texture(a), 0, GL_FALSE, 0, acc, fmt);
}

void gpu_compute_uniform1i(gpu_compute *c, const char *name, int v)
{
    GLint loc = glGetUniformLocation(c->prog, name);
    if (loc >= 0) glUniform1i(loc, v);
}

void gpu_compute_uniform1f(gpu_compute *c, const char *name, float v)
{
    GLint loc = glGetUniformLocation(c->prog, name);
    if (loc >= 0) glUniform1f(loc, v);
}

swgl_status gpu_compute_dispatch(gpu_compute *c, int nx, int ny)
{
    glDispatchCompute((GLuint)((nx + c->lx - 1) / c->lx), (GLuint)((ny + c->ly - 1) / c->ly), 1);
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT |
                    GL_TEXTURE_UPDATE_BARRIER_BIT | GL_PIXEL_BUFFER_BARRIER_BIT);
    return gpu_check_gl(c->name);
}
