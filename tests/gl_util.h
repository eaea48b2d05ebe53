/* gl_util.h — shared by the GL tests: a context, or a skip (exit 77) with the reason
 * when this machine has no EGL device; random data. */
#ifndef SWGL_GL_UTIL_H
#define SWGL_GL_UTIL_H

#include <stdint.h>

#include "check.h"
#include "gpu_context.h"

static inline gpu_context *test_gl_context(void)
{
    gpu_context *ctx = NULL;
    swgl_status st = gpu_context_create(NULL, &ctx);
    if (st == SWGL_ERR_NO_DEVICE || st == SWGL_ERR_NO_CONTEXT) {
        static char why[2048];
        snprintf(why, sizeof why, "no EGL device with OpenGL 3.3 core: %s", swgl_last_error());
        check_skip(why);
    }
    if (st != SWGL_OK) {
        printf("FAIL  context: %s\n", swgl_last_error());
        exit(1);
    }
    const gpu_info *i = gpu_context_info(ctx);
    printf("renderer: %s (%s), GL %d.%d\n", i->renderer, i->vendor, i->gl_major, i->gl_minor);
    return ctx;
}

/* xorshift64*: reproducible random numbers, different per seed. */
static inline uint64_t test_rand_u64(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

/* uniform in [-1, 1) */
static inline float test_rand_float(uint64_t *s)
{
    return (float)((double)(test_rand_u64(s) >> 11) * (2.0 / 9007199254740992.0) - 1.0);
}

#endif
