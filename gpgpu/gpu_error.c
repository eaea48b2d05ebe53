/* gpu_error.c — status strings and the thread-local last-error message. */
#include "gpu_error.h"

#include <stdarg.h>
#include <stdio.h>

#include "gl.h"

static _Thread_local char last_error[8192];

const char *gpu_strerror(gpu_status s)
{
    switch (s) {
    case GPU_OK: return "no error";
    case GPU_ERR_ARG: return "bad argument";
    case GPU_ERR_NO_MEMORY: return "out of host memory";
    case GPU_ERR_NO_DEVICE: return "no EGL device";
    case GPU_ERR_NO_CONTEXT: return "no OpenGL 3.3 core context";
    case GPU_ERR_TOO_LARGE: return "beyond a GL limit";
    case GPU_ERR_FRAMEBUFFER: return "incomplete framebuffer";
    case GPU_ERR_COMPILE: return "GLSL compile or link error";
    case GPU_ERR_MISSING: return "no such shader or uniform";
    case GPU_ERR_ALIAS: return "a pass input is also its output";
    case GPU_ERR_GL: return "OpenGL error";
    }
    return "unknown status";
}

const char *gpu_last_error(void)
{
    return last_error;
}

gpu_status gpu_fail(gpu_status s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return s;
}

static const char *gl_enum_name(GLenum e)
{
    switch (e) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    default: return "GL error";
    }
}

gpu_status gpu_check_gl(const char *what)
{
    GLenum e = glGetError(), first = e;
    if (e == GL_NO_ERROR) return GPU_OK;
    while (e != GL_NO_ERROR) e = glGetError();   /* drain the queue */
    return gpu_fail(GPU_ERR_GL, "%s: %s (0x%04x)", what, gl_enum_name(first), first);
}
