/* gpu_clock.c — the time step chosen on the GPU (gpu_clock.h). */
#include "gpu_clock.h"

#include <stdio.h>
#include <stdlib.h>

#include "gpu_readback.h"

struct gpu_clock {
    gpu_array2d *k[2];
    int now;
    gpu_program *prog;
    gpu_readback *rb;
};

swgl_status gpu_clock_create(int bound_channel, gpu_clock **out)
{
    *out = NULL;
    if (bound_channel < 0 || bound_channel > 3)
        return swgl_fail(SWGL_ERR_ARG, "clock: bound channel %d (0 to 3)", bound_channel);
    gpu_clock *c = calloc(1, sizeof *c);
    if (!c) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    char defs[64];
    snprintf(defs, sizeof defs, "#define BOUND_CHANNEL %d\n", bound_channel);
    gpu_array2d_desc d = {GPU_CLOCK_TEXELS, 1, GPU_RGBA32F, "clock"};
    swgl_status st;
    if ((st = gpu_array2d_create(&d, &c->k[0])) != SWGL_OK || (st = gpu_array2d_create(&d, &c->k[1])) != SWGL_OK ||
        (st = gpu_program_create("clock", defs, &c->prog)) != SWGL_OK ||
        (st = gpu_readback_create(GPU_READBACK_MAX, GPU_CLOCK_TEXELS, &c->rb)) != SWGL_OK ||
        (st = gpu_clock_reset(c)) != SWGL_OK) {
        gpu_clock_destroy(c);
        return st;
    }
    *out = c;
    return SWGL_OK;
}

void gpu_clock_destroy(gpu_clock *c)
{
    if (!c) return;
    gpu_array2d_destroy(c->k[0]);
    gpu_array2d_destroy(c->k[1]);
    gpu_program_destroy(c->prog);
    gpu_readback_destroy(c->rb);
    free(c);
}

swgl_status gpu_clock_reset(gpu_clock *c)
{
    static const float zero[4] = {0, 0, 0, 0};
    swgl_status st = gpu_array2d_fill(c->k[0], zero);
    return st == SWGL_OK ? gpu_array2d_fill(c->k[1], zero) : st;
}

gpu_array2d *gpu_clock_now(gpu_clock *c) { return c->k[c->now]; }
gpu_array2d *gpu_clock_next(gpu_clock *c) { return c->k[1 - c->now]; }
void gpu_clock_flip(gpu_clock *c) { c->now = 1 - c->now; }

static void bind(gpu_clock *c, gpu_pass *p, const gpu_clock_args *a, int unknown, int texel)
{
    gpu_pass_array(p, "u_prev", c->k[c->now]);
    if (unknown) {
        float m[8] = {0};   /* the window's times (gpu_clock.h) */
        for (int k = 0; a->multi && k < a->n_more && k < 8; k++) m[k] = (float)a->more[k];
        gpu_pass_float(p, "u_left", (float)a->left);
        gpu_pass_int(p, "u_unknown", a->unknown);
        gpu_pass_vec4(p, "u_more[0]", m[0], m[1], m[2], m[3]);
        gpu_pass_vec4(p, "u_more[1]", m[4], m[5], m[6], m[7]);
    }
    if (texel) gpu_pass_float(p, "u_floor", (float)a->floor);
    /* the stops (both: swgl_clock_target): one, or a span's window (gpu_clock.h) */
    gpu_pass_float(p, "u_stop", (float)a->stop);
    gpu_pass_float(p, "u_last", (float)(a->multi ? a->last : a->stop));
    gpu_pass_float(p, "u_wfirst", (float)(a->multi ? a->wfirst : a->stop));
}
void gpu_clock_bind_rule(gpu_clock *c, gpu_pass *p, const gpu_clock_args *a) { bind(c, p, a, 1, 1); }
void gpu_clock_bind_unknown(gpu_clock *c, gpu_pass *p, const gpu_clock_args *a) { bind(c, p, a, 1, 0); }
void gpu_clock_bind_texel(gpu_clock *c, gpu_pass *p, const gpu_clock_args *a) { bind(c, p, a, 0, 1); }

swgl_status gpu_clock_pass(gpu_clock *c, const gpu_array2d *bound, const gpu_clock_args *a)
{
    gpu_pass p;
    gpu_pass_begin(&p, c->prog);
    gpu_pass_array(&p, "u_bound", bound);
    gpu_clock_bind_rule(c, &p, a);
    swgl_status st = gpu_pass_draw(&p, gpu_clock_next(c), NULL);
    if (st == SWGL_OK) gpu_clock_flip(c);
    return st;
}

swgl_status gpu_clock_request(gpu_clock *c) { return gpu_readback_request(c->rb, gpu_clock_now(c), 0, 0, GPU_CLOCK_TEXELS, 1); }
int gpu_clock_pending(const gpu_clock *c) { return gpu_readback_pending(c->rb); }
swgl_status gpu_clock_fetch(gpu_clock *c, int wait, float *out, int *ready)
{
    return gpu_readback_fetch(c->rb, wait, out, ready);
}

float gpu_clock_dt(const float *texels, int k)
{
    int p = k < 3 ? k : k + 1;   /* texel 0's w holds the flags */
    return texels[p];
}
