/* gpu_error.c — GL's error queue turned into a swgl_status with a message. */
#include "gpu_error.h"

#include "gl.h"

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

swgl_status gpu_check_gl(const char *what)
{
    GLenum e = glGetError(), first = e;
    if (e == GL_NO_ERROR) return SWGL_OK;
    while (e != GL_NO_ERROR) e = glGetError();   /* drain the queue */
    return swgl_fail(SWGL_ERR_GL, "%s: %s (0x%04x)", what, gl_enum_name(first), first);
}
