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

/* swgl_status, swgl_strerror and swgl_last_error are public (include/swgl_status.h). */
#include "swgl_status.h"

/* Sets the message (printf-style; the arguments may include swgl_last_error()) and
 * returns s. */
swgl_status swgl_fail(swgl_status s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Forgets the message. */
void swgl_clear_error(void);
/* A piece of input as a message shows it: its first 40 bytes, printable ASCII kept, any
 * other byte written \xNN, "..." when cut; into buf (len >= 48), which it returns. */
const char *swgl_shown(const char *s, char *buf, size_t len);

#endif
