/* gl_util.h — shared by the GL tests: a context, or a skip (exit 77) with the reason
 * when this machine has no EGL device; random data. */
#ifndef SWGL_GL_UTIL_H
#define SWGL_GL_UTIL_H

#include <stdint.h>
#include <string.h>

#include "check.h"
#include "gpu_context.h"
#include "gpu_pass.h"
#include "gpu_program.h"

/* Whether the program was started with --compute (gl_zcompute.cmake: the GL tests again with
 * every pass a GL 4.3 compute pass): read from the process's command line, so that every
 * test using test_gl_context follows it without parsing its own arguments. */
static inline int test_gl_compute_flag(void)
{
    static int known, on;
    if (!known) {
        char buf[8192];
        FILE *f = fopen("/proc/self/cmdline", "rb");
        size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
        if (f) fclose(f);
        buf[n] = '\0';
        for (size_t i = 0; i < n; i += strlen(buf + i) + 1) on |= strcmp(buf + i, "--compute") == 0;
        known = 1;
    }
    return on;
}

/* A context (GL 4.3 with every pass a compute pass under --compute), or a skip. */
static inline gpu_context *test_gl_context(void)
{
    gpu_context *ctx = NULL;
    const int compute = test_gl_compute_flag();
    gpu_context_desc want = {.device = -1, .want_compute = compute};
    swgl_status st = gpu_context_create(&want, &ctx);
    gpu_set_gl_check(1);   /* (every pass checks glGetError: the tests name the pass a GL error comes from) */
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
    if (compute) {
        if (!i->compute_context) check_skip("--compute: this device offers no GL 4.3 core context");
        gpu_set_compute_passes(1);
    }
    printf("renderer: %s (%s), GL %d.%d%s\n", i->renderer, i->vendor, i->gl_major, i->gl_minor,
           compute ? ", compute passes" : "");
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
