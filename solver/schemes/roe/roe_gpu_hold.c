/* roe_gpu_hold.c — the held time step on the edge engine (scheme_hold_ops; timeloop.c):
 * stage 0 with its bound left on the GPU in a slot, the slots read back at a window's
 * end, and the state and flood maps saved and restored on the device (gpu_hold.h).  Not
 * with boundary data, rain or sources: their accounts come back every step, so those runs
 * keep the host's clock and the held rule step by step. */
#include "roe_gpu_internal.h"

#include <math.h>

int rog_be_hold_able(const void *self) { return !((const roe_gpu *)self)->forcing; }

swgl_status rog_be_stage_quiet(void *self, int k, int slot)
{
    roe_gpu *r = self;
    (void)k;   /* (one stage) */
    const gpu_array2d *bound;
    swgl_status st = rog_edge_and_cell(r, NULL);
    if (st == SWGL_OK) st = gpu_reductor_run_gpu(r->red, rog_bound_array(r, 0), GPU_REDUCE_MIN, &bound);
    if (st == SWGL_OK) st = gpu_hold_record(&r->hold, slot, bound);
    return st;
}

swgl_status rog_be_bounds(void *self, int n, double *b)
{
    roe_gpu *r = self;
    swgl_status st = gpu_hold_read(&r->hold, n, 2, b);
    for (int k = 0; k < n; k++)
        if (isinf(b[k])) b[k] = INFINITY;   /* (as roe_gpu_rates reads it) */
    return st;
}

/* the arrays a step changes: the state (float, or double's two members), the maps' */
static int held_arrays(roe_gpu *r, gpu_array2d **a)
{
    int n = 0;
    if (r->dbl) {
        a[n++] = gpu_mrt_member(r->state_d[r->cur], 0);
        a[n++] = gpu_mrt_member(r->state_d[r->cur], 1);
    } else {
        a[n++] = r->state[r->cur];
    }
    if (r->maps.maps[0]) {
        a[n++] = gpu_mrt_member(r->maps.maps[r->maps.mi], 0);
        a[n++] = gpu_mrt_member(r->maps.maps[r->maps.mi], 1);
    }
    return n;
}

swgl_status rog_be_save(void *self)
{
    roe_gpu *r = self;
    gpu_array2d *a[GPU_HOLD_ARRAYS];
    r->held_cur = r->cur;
    r->held_mi = r->maps.mi;
    r->held_t = r->t_now;
    return gpu_hold_save(&r->hold, a, held_arrays(r, a));
}

swgl_status rog_be_restore(void *self)
{
    roe_gpu *r = self;
    gpu_array2d *a[GPU_HOLD_ARRAYS];
    r->cur = r->held_cur;
    r->maps.mi = r->held_mi;
    r->t_now = r->held_t;
    return gpu_hold_restore(&r->hold, a, held_arrays(r, a));
}

const scheme_hold_ops rog_hold = {.able = rog_be_hold_able, .stage_quiet = rog_be_stage_quiet, .bounds = rog_be_bounds,
                                  .save = rog_be_save, .restore = rog_be_restore};
