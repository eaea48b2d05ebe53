/* swgl_error.c — status strings and the thread-local last-error message. */
#include "swgl_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char last_error[8192];

SWGL_API const char *swgl_strerror(swgl_status s)
{
    switch (s) {
    case SWGL_OK: return "no error";
    case SWGL_ERR_ARG: return "bad argument";
    case SWGL_ERR_NO_MEMORY: return "out of host memory";
    case SWGL_ERR_NO_DEVICE: return "no EGL device";
    case SWGL_ERR_NO_CONTEXT: return "no OpenGL 3.3 core context";
    case SWGL_ERR_TOO_LARGE: return "beyond a GL limit";
    case SWGL_ERR_FRAMEBUFFER: return "incomplete framebuffer";
    case SWGL_ERR_COMPILE: return "GLSL compile or link error";
    case SWGL_ERR_MISSING: return "no such shader or uniform";
    case SWGL_ERR_ALIAS: return "a pass input is also its output";
    case SWGL_ERR_GL: return "OpenGL error";
    case SWGL_ERR_INPUT: return "bad input";
    case SWGL_ERR_IO: return "file error";
    case SWGL_ERR_BLOWUP: return "the solution blew up";
    case SWGL_ERR_INTERRUPTED: return "interrupted";
    }
    return "unknown status";
}

SWGL_API const char *swgl_last_error(void)
{
    return last_error;
}

swgl_status swgl_fail(swgl_status s, const char *fmt, ...)
{
    char buf[sizeof last_error];   /* the arguments may point into last_error */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    memcpy(last_error, buf, sizeof buf);
    return s;
}

void swgl_clear_error(void)
{
    last_error[0] = '\0';
}

const char *swgl_shown(const char *s, char *buf, size_t len)
{
    size_t o = 0;
    for (; *s && o + 5 < len && o < 40; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x20 && c < 0x7f) buf[o++] = (char)c;
        else o += (size_t)snprintf(buf + o, len - o, "\\x%02x", c);
    }
    if (*s) o += (size_t)snprintf(buf + o, len - o, "...");
    buf[o] = '\0';
    return buf;
}
