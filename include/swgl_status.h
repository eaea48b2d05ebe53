/* swgl_status.h — the one status type of swgl, shared by the public API (swgl.h) and every
 * layer inside (gpgpu/base/swgl_error.h includes it); installed beside swgl.h.  It needs
 * no other header. */
#ifndef SWGL_STATUS_H
#define SWGL_STATUS_H

/* The functions of the public API: exported from libswgl.so (everything else is hidden). */
#if defined(__GNUC__) || defined(__clang__)
#define SWGL_API __attribute__((visibility("default")))
#else
#define SWGL_API
#endif

typedef enum swgl_status {
    SWGL_OK = 0,
    SWGL_ERR_ARG,          /* a bad argument or problem (size, parameter out of range, NULL) */
    SWGL_ERR_NO_MEMORY,    /* host allocation failed */
    SWGL_ERR_NO_DEVICE,    /* no EGL display / device could be opened */
    SWGL_ERR_NO_CONTEXT,   /* no GL 3.3 core context */
    SWGL_ERR_TOO_LARGE,    /* beyond a GL limit (texture size, draw buffers) */
    SWGL_ERR_FRAMEBUFFER,  /* incomplete framebuffer */
    SWGL_ERR_COMPILE,      /* GLSL compile or link error */
    SWGL_ERR_MISSING,      /* a shader file or uniform that does not exist */
    SWGL_ERR_ALIAS,        /* a pass input is also its output */
    SWGL_ERR_GL,           /* any other GL error */
    SWGL_ERR_INPUT,        /* bad input: a scenario file, key, grid or expression */
    SWGL_ERR_IO,           /* a file could not be read, written or moved */
    SWGL_ERR_BLOWUP,       /* the solution blew up: NaN, or a time step that collapsed */
    SWGL_ERR_INTERRUPTED   /* stopped by a request (swgl_sim_request_stop, a signal) */
} swgl_status;

/* "invalid argument", ... for a status. */
SWGL_API const char *swgl_strerror(swgl_status s);
/* The message of the last failure on the calling thread ("" if none): one line naming the
 * file, line, key or call and what was expected. */
SWGL_API const char *swgl_last_error(void);

#endif
