/* swgl_error.h — the one error type of swgl, shared by every layer (gpgpu, cpu_ref,
 * solver).  It includes no GL header, so cpu_ref uses it on machines with no EGL.
 *
 * A function that can fail returns a swgl_status (or NULL for a constructor) and leaves
 * one line in a thread-local message, read with swgl_last_error(); the program prints
 * that line.  A caller that adds context does so with swgl_fail(code, "what: %s",
 * swgl_last_error()), which is safe (the message is copied before it is rewritten). */
#ifndef SWGL_ERROR_H
#define SWGL_ERROR_H

#include <stddef.h>

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
    SWGL_ERR_INTERRUPTED   /* stopped by a signal (SIGINT, SIGTERM) */
} swgl_status;

const char *swgl_strerror(swgl_status s);
/* The message of the last failure in this thread ("" if none). */
const char *swgl_last_error(void);
/* Sets the message (printf-style; the arguments may include swgl_last_error()) and
 * returns s. */
swgl_status swgl_fail(swgl_status s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Forgets the message. */
void swgl_clear_error(void);
/* A piece of input as a message shows it: its first 40 bytes, printable ASCII kept, any
 * other byte written \xNN, "..." when cut; into buf (len >= 48), which it returns. */
const char *swgl_shown(const char *s, char *buf, size_t len);

#endif
