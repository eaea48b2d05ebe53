/* kp_gpu_hold.c — the held time step on kp's GPU backend (scheme_hold_ops; timeloop.c):
 * a stage with stage 0's bound left on the GPU in a slot, the slots read back at a
 * window's end, and the state and flood maps saved and restored on the device
 * (gpu_hold.h).  Not with boundary data, rain or sources: their accounts come back every
 * stage, so those runs keep the host's clock and the held rule step by step. */
#include "kp_gpu_internal.h"

int kpg_hold_able(const void *self) { return !((const kp_gpu *)self)->forcing; }

swgl_status kpg_stage_quiet(void *self, int k, int slot)
{
    kp_gpu *g = self;
    if (k < 0 || k >= kp_gpu_stages(g)) return swgl_fail(SWGL_ERR_ARG, "kp gpu: no stage %d", k);
    swgl_status st = kpg_flux_eval(g, k);
    if (st != SWGL_OK) return st;
    if (k > 0) {   /* (stage 1's bound is not reduced: kp_gpu_rates) */
        gpu_hold_skip(&g->hold, slot);
        return SWGL_OK;
    }
    const gpu_array2d *bound;
    int sec = kpg_section_begin(g, KP_PASS_REDUCE, 0);
    st = gpu_reductor_run_gpu(g->red, kpg_bound_array(g), GPU_REDUCE_MIN, &bound);
    kpg_section_end(g, sec);
    return st == SWGL_OK ? gpu_hold_record(&g->hold, slot, bound) : st;
}

swgl_status kpg_bounds(void *self, int n, double *b) { return gpu_hold_read(&((kp_gpu *)self)->hold, n, 3, b); }

/* the arrays a step changes: the state's members, the maps' */
static int held_arrays(kp_gpu *g, gpu_array2d **a)
{
    int n = 0;
    for (int k = 0; k < gpu_mrt_count(g->state[g->cur]); k++) a[n++] = gpu_mrt_member(g->state[g->cur], k);
    if (g->maps.maps[0]) {
        a[n++] = gpu_mrt_member(g->maps.maps[g->maps.mi], 0);
        a[n++] = gpu_mrt_member(g->maps.maps[g->maps.mi], 1);
    }
    return n;
}

swgl_status kpg_save(void *self)
{
    kp_gpu *g = self;
    gpu_array2d *a[GPU_HOLD_ARRAYS];
    g->held_cur = g->cur;
    g->held_mi = g->maps.mi;
    g->held_t = g->t_now;
    return gpu_hold_save(&g->hold, a, held_arrays(g, a));
}

swgl_status kpg_restore(void *self)
{
    kp_gpu *g = self;
    gpu_array2d *a[GPU_HOLD_ARRAYS];
    g->cur = g->held_cur;
    g->maps.mi = g->held_mi;
    g->t_now = g->held_t;
    g->tiles_stale = 1;   /* (the state changed behind the tile lists) */
    g->rest_hist = 0;     /* (and behind the passes' history) */
    return gpu_hold_restore(&g->hold, a, held_arrays(g, a));
}
