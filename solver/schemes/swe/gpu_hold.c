/* gpu_hold.c — the held step's copies and bound slots on the GPU (gpu_hold.h). */
#include "gpu_hold.h"

#include <math.h>
#include <string.h>

/* dst's w x h elements from (dx, dy) = src's from (sx, sy), bits unchanged (strip.glsl) */
static swgl_status copy(gpu_hold *h, gpu_array2d *dst, int dx, int dy, const gpu_array2d *src, int sx, int sy, int w,
                        int hh)
{
    int u = gpu_array2d_format(src) == GPU_RGBA32UI;
    if (gpu_array2d_format(dst) != gpu_array2d_format(src))
        return swgl_fail(SWGL_ERR_ARG, "gpu_hold: a copy between arrays of two formats");
    swgl_status st = SWGL_OK;
    if (!h->copy_prog[u]) st = gpu_program_create("strip", u ? "#define STRIP_UINT 1\n" : NULL, &h->copy_prog[u]);
    if (st != SWGL_OK) return st;
    gpu_pass p;
    gpu_pass_begin(&p, h->copy_prog[u]);
    gpu_pass_array(&p, "u_in", src);
    gpu_pass_int(&p, "u_sx", sx - dx);
    gpu_pass_int(&p, "u_sy", sy - dy);
    gpu_rect r = {dx, dy, w, hh};
    return gpu_pass_draw(&p, dst, &r);
}

swgl_status gpu_hold_save(gpu_hold *h, gpu_array2d *const *a, int n)
{
    if (n > GPU_HOLD_ARRAYS) return swgl_fail(SWGL_ERR_ARG, "gpu_hold_save: %d arrays (at most %d)", n, GPU_HOLD_ARRAYS);
    swgl_status st = SWGL_OK;
    for (int k = 0; k < n && st == SWGL_OK; k++) {
        if (!h->copy[k]) {
            gpu_array2d_desc d = {gpu_array2d_width(a[k]), gpu_array2d_height(a[k]), gpu_array2d_format(a[k]),
                                  "a held window's saved state"};
            st = gpu_array2d_create(&d, &h->copy[k]);
        }
        if (st == SWGL_OK)
            st = copy(h, h->copy[k], 0, 0, a[k], 0, 0, gpu_array2d_width(a[k]), gpu_array2d_height(a[k]));
    }
    if (st == SWGL_OK) h->n = n;
    return st;
}

swgl_status gpu_hold_restore(gpu_hold *h, gpu_array2d *const *a, int n)
{
    if (n != h->n) return swgl_fail(SWGL_ERR_ARG, "gpu_hold_restore: %d arrays, %d saved", n, h->n);
    swgl_status st = SWGL_OK;
    for (int k = 0; k < n && st == SWGL_OK; k++)
        st = copy(h, a[k], 0, 0, h->copy[k], 0, 0, gpu_array2d_width(a[k]), gpu_array2d_height(a[k]));
    return st;
}

swgl_status gpu_hold_record(gpu_hold *h, int slot, const gpu_array2d *bound)
{
    if (slot < 0 || slot >= SCHEME_HOLD_SLOTS) return swgl_fail(SWGL_ERR_ARG, "gpu_hold_record: slot %d", slot);
    swgl_status st = SWGL_OK;
    if (!h->slots) {
        gpu_array2d_desc d = {SCHEME_HOLD_SLOTS, 1, GPU_RGBA32F, "a held window's bounds"};
        st = gpu_array2d_create(&d, &h->slots);
    }
    if (st == SWGL_OK) st = copy(h, h->slots, slot, 0, bound, 0, 0, 1, 1);
    if (st == SWGL_OK) h->recorded[slot] = 1;
    return st;
}

void gpu_hold_skip(gpu_hold *h, int slot)
{
    if (slot >= 0 && slot < SCHEME_HOLD_SLOTS) h->recorded[slot] = 0;
}

swgl_status gpu_hold_read(gpu_hold *h, int n, int channel, double *out)
{
    if (n < 0 || n > SCHEME_HOLD_SLOTS) return swgl_fail(SWGL_ERR_ARG, "gpu_hold_read: %d slots", n);
    float v[4 * SCHEME_HOLD_SLOTS];
    int any = 0;
    for (int k = 0; k < n; k++) any |= h->recorded[k];
    /* (the whole row, 2 KiB: a whole array's download is a glGetTexImage, far faster than a
     * glReadPixels of part of one in NVIDIA's GL 4.3 contexts, gpu_array2d.c) */
    swgl_status st = any ? gpu_array2d_download(h->slots, v) : SWGL_OK;
    for (int k = 0; k < n; k++) {
        double b = h->recorded[k] && st == SWGL_OK ? (double)v[4 * k + channel] : INFINITY;
        out[k] = isinf(b) && b > 0 ? INFINITY : b;
        h->recorded[k] = 0;
    }
    return st;
}

void gpu_hold_destroy(gpu_hold *h)
{
    for (int k = 0; k < GPU_HOLD_ARRAYS; k++) gpu_array2d_destroy(h->copy[k]);
    gpu_array2d_destroy(h->slots);
    gpu_program_destroy(h->copy_prog[0]);
    gpu_program_destroy(h->copy_prog[1]);
    memset(h, 0, sizeof *h);
}
