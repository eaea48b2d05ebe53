/* roe_gpu_mpi.c — roe (and hllc, on the same edge engine) over MPI ranks
 * (scheme_mpi_halo.c drives it): stage 0 in rectangles, the cells that read no halo cell
 * computed while the halo is exchanged, as kp_gpu_mpi.c does for kp.
 *
 * A cell's stage reads the state of its own and its four neighbours' cells (its edges, and
 * its west and south neighbours' edges); the reach is 2 cells, kept as the halo's width of
 * a step (roe_scheme's halo: the update's positivity limit reads the neighbours' drain
 * times).  The halo's strips go by the gpgpu strips (gpu_strips.c), read back without
 * waiting; the bound, once every rectangle is drawn, is the min of the fused kernel's
 * group minima where every rectangle's corner lay on its tiling (each group's minimum then
 * goes to its own tile's slot: the whole stage's values, and no more work), else the min
 * over every cell's dt_i (rog_bound_array(r, 1)). */
#include "roe_gpu_internal.h"

#include "gpu_readback.h"

#include <math.h>

int rog_be_overlap(void *self, int strips, long max_cells, int forced)
{
    roe_gpu *r = self;
    /* only when forced (tune mpi.overlap=on): on two H200s, with the stage in parts on the
     * fused kernel's tiling (its groups' minima kept) and the strips mapped, roe on
     * gpu-compute at 4096^2 a GPU stepped at 85.6% of one GPU's speed overlapped and 85.2% not
     * (medians of three), 8192^2 over two in 0.880-0.912 s overlapped and 0.887-0.938 s not:
     * no gain to tell from the runs' spread; on the fragment path its overlap is not measured
     * yet (docs/mpi.md) */
    if (!forced) return 0;
    /* no boundary data (its ring's rates are drawn for the whole stage at once), and the
     * strips (tune mpi.pack: the direct path has no read-back without waiting), room for
     * all of them at once (a read-back a member in double) */
    if (r->forcing || !r->strips || strips * (r->dbl ? 2 : 1) > GPU_READBACK_MAX) return 0;
    return gpu_strips_reserve(r->strips, max_cells) == SWGL_OK ? 2 : 0;
}

swgl_status rog_be_halo_room(void *self, int strips, long max_cells)
{
    roe_gpu *r = self;
    if (!r->strips) return swgl_fail(SWGL_ERR_ARG, "%s gpu: the halo goes directly (tune mpi.pack=off)", r->scheme);
    if (strips * (r->dbl ? 2 : 1) > GPU_READBACK_MAX)   /* (a read-back a member in double) */
        return swgl_fail(SWGL_ERR_ARG, "%s gpu: %d halo strips in flight, at most %d read-backs", r->scheme, strips,
                         GPU_READBACK_MAX);
    return gpu_strips_reserve(r->strips, max_cells);
}

swgl_status rog_be_halo_request(void *self, int x, int y, int w, int h)
{
    roe_gpu *r = self;
    if (!r->dbl) return gpu_strips_request(r->strips, r->state[r->cur], x, y, w, h);
    return gpu_strips_request_mrt(r->strips, r->state_d[r->cur], 2, x, y, w, h);
}

swgl_status rog_be_halo_fetch(void *self, void *buf)
{
    roe_gpu *r = self;
    return r->dbl ? gpu_strips_fetch_mrt_raw(r->strips, 2, buf) : gpu_strips_fetch_raw(r->strips, buf);
}

/* the strip in place where the strips' buffers are mapped (float: one read-back a strip),
 * else copied into fallback (double: its two members one after the other) */
swgl_status rog_be_halo_view(void *self, void *fallback, const void **p)
{
    roe_gpu *r = self;
    *p = fallback;
    if (!r->strips) return swgl_fail(SWGL_ERR_ARG, "%s gpu: no strips (tune mpi.pack=off): nothing requested", r->scheme);
    return gpu_strips_view_mrt_raw(r->strips, r->dbl ? 2 : 1, fallback, p);
}

swgl_status rog_be_halo_area(void *self, long bytes, void **p)
{
    roe_gpu *r = self;
    *p = NULL;   /* (none without the strips: tune mpi.pack=off) */
    return r->strips ? gpu_strips_area(r->strips, (size_t)bytes, p) : SWGL_OK;
}

swgl_status rog_be_stage_rects(void *self, int k, const int (*rects)[4], int n, double *bound)
{
    roe_gpu *r = self;
    if (k != 0) return swgl_fail(SWGL_ERR_ARG, "%s gpu: no stage %d", r->scheme, k);
    if (!rog_be_overlap(r, 1, 1, 1)) return swgl_fail(SWGL_ERR_ARG, "%s gpu: this instance evaluates its stage whole", r->scheme);
    if (!r->parts_open) r->parts_open = r->parts_tiled = 1;
    swgl_status st = SWGL_OK;
    for (int i = 0; i < n && st == SWGL_OK; i++) {
        gpu_rect rect = {rects[i][0], rects[i][1], rects[i][2], rects[i][3]};
        if (rect.w < 1 || rect.h < 1) continue;
        if (!r->fused || rect.x % r->gx || rect.y % r->gy) r->parts_tiled = 0;
        st = rog_edge_and_cell(r, &rect);
    }
    if (st != SWGL_OK) r->parts_open = 0;
    if (st != SWGL_OK || !bound) return st;
    r->parts_open = 0;
    float mn[4];
    if ((st = gpu_reductor_run(r->red, rog_bound_array(r, !r->parts_tiled), GPU_REDUCE_MIN, mn)) != SWGL_OK) return st;
    *bound = isinf(mn[2]) ? INFINITY : (double)mn[2];
    return SWGL_OK;
}

/* the fused kernel's tiles: a rectangle from one of their corners fills its own groups'
 * slots of the minima (roe_step_cs.glsl); the passes' stage has no tiling (1 x 1) */
void rog_be_tiling(const void *self, int tile[2])
{
    const roe_gpu *r = self;
    tile[0] = r->fused ? r->gx : 1;
    tile[1] = r->fused ? r->gy : 1;
}
