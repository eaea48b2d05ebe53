/* gpu_error.h — status codes of the gpgpu layer and the last-error message.
 * Every function that can fail returns a gpu_status; the detail (GL enum, framebuffer
 * status, EGL error, shader log) is kept in one thread-local message. */
#ifndef SWGL_GPU_ERROR_H
#define SWGL_GPU_ERROR_H

typedef enum gpu_status {
    GPU_OK = 0,
    GPU_ERR_ARG,          /* a bad argument (size, name, NULL) */
    GPU_ERR_NO_MEMORY,    /* host allocation failed */
    GPU_ERR_NO_DEVICE,    /* no EGL display / device could be opened */
    GPU_ERR_NO_CONTEXT,   /* no GL 3.3 core context */
    GPU_ERR_TOO_LARGE,    /* beyond GL_MAX_TEXTURE_SIZE or GL_MAX_DRAW_BUFFERS */
    GPU_ERR_FRAMEBUFFER,  /* incomplete framebuffer */
    GPU_ERR_COMPILE,      /* GLSL compile or link error */
    GPU_ERR_MISSING,      /* a shader file or uniform that does not exist */
    GPU_ERR_ALIAS,        /* a pass input is also its output */
    GPU_ERR_GL            /* any other GL error */
} gpu_status;

const char *gpu_strerror(gpu_status s);
/* The message of the last failure in this thread ("" if none). */
const char *gpu_last_error(void);

/* Internal: set the message (printf-style) and return s. */
gpu_status gpu_fail(gpu_status s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Internal: if glGetError() reports an error, set a message naming what and return GPU_ERR_GL. */
gpu_status gpu_check_gl(const char *what);

#endif
