/* kp_gpu_mpi.c — kp over MPI ranks (scheme_mpi.c drives it): stage k's flux in parts,
 * rectangles drawn while the halo is exchanged (the fused kernel, its groups' minima kept
 * where the rectangles lie on its tiling, or the cell pass without the early exit's tiles;
 * then the min reduction of the bound), the halo's
 * read-backs queued without waiting (gpgpu's strips, float or double), and the halo read
 * and written as the state's texels. */
#include "kp_gpu_internal.h"

#include "gpu_readback.h"

#include <math.h>
#include <stdlib.h>

int kp_gpu_overlap(const kp_gpu *g)
{
    /* no boundary data (its accounts read every face of the stage at once), and the strips
     * (tune mpi.pack: the direct path has no read-back without waiting); the flux draws
     * over a rectangle: the kernel, or the cell pass without the early exit's tiles */
    return g->strips && !g->forcing ? 2 : 0;
}

swgl_status kp_gpu_rates_rects(kp_gpu *g, int k, const int (*r)[4], int n, double *bound)
{
    if (k < 0 || k >= kp_gpu_stages(g)) return swgl_fail(SWGL_ERR_ARG, "kp gpu: no stage %d", k);
    if (!kp_gpu_overlap(g)) return swgl_fail(SWGL_ERR_ARG, "kp gpu: this instance evaluates its stages whole");
    if (!g->parts_open) {   /* the step's early exit: in the kernel, or off for the passes */
        if (k == 0) kpg_choose_early_exit(g);
        if (!g->fused) g->step_ee = 0;
        g->last_ee = g->step_ee;
        g->prev_valid = 0;   /* (no wet map describes R now) */
        g->parts_open = 1;
        g->parts_tiled = g->fused;
    }
    gpu_mrt *src = k == 0 || !g->rk2 ? g->state[g->cur] : g->qstar;
    swgl_status st = SWGL_OK;
    for (int i = 0; i < n && st == SWGL_OK; i++) {
        gpu_rect rect = {r[i][0], r[i][1], r[i][2], r[i][3]};
        if (rect.w < 1 || rect.h < 1) continue;
        if (g->fused && (rect.x % g->tx || rect.y % g->ty)) g->parts_tiled = 0;
        gpu_pass p;
        gpu_pass_begin(&p, g->fused ? g->p_fused : g->p_flux);
        BIND(g, &p, "u_state", src, 0);
        BIND(g, &p, "u_bed", g->bed, 0);
        kpg_recon_uniforms(g, &p);
        kpg_set_real(g, &p, "u_cfl", g->cfl);
        if (g->fused) {   /* (its groups' minima: the bound below, where every rectangle is on its tiling) */
            gpu_pass_int(&p, "u_skip_dry", g->step_ee);
            gpu_pass_image(&p, 1, g->part);
        }
        int sec = kpg_section_begin(g, KP_PASS_FLUX, i == n - 1 && bound);
        st = gpu_pass_draw_mrt(&p, g->R, &rect);
        kpg_section_end(g, sec);
    }
    *(bound ? bound : &(double){0}) = INFINITY;
    if (st != SWGL_OK || !bound) return st;
    g->parts_open = 0;
    if (k > 0) return SWGL_OK;
    float mn[4];
    int sec = kpg_section_begin(g, KP_PASS_REDUCE, 0);
    /* the fused kernel's group minima where every rectangle's corner lay on its tiling (each
     * group's minimum then goes to its own tile's slot: the whole stage's values and work),
     * else cfl r in R's w (double: R's bound member), every cell's */
    st = gpu_reductor_run(g->red, g->parts_tiled ? g->part : gpu_mrt_member(g->R, g->dbl ? 2 : 0), GPU_REDUCE_MIN, mn);
    kpg_section_end(g, sec);
    if (st == SWGL_OK) *bound = isinf(mn[3]) && mn[3] > 0 ? INFINITY : (double)mn[3];
    return st;
}

swgl_status kp_gpu_halo_room(kp_gpu *g, int strips, long max_cells)
{
    if (!g->strips) return swgl_fail(SWGL_ERR_ARG, "kp gpu: the halo goes directly (tune mpi.pack=off)");
    if (strips * (g->dbl ? 2 : 1) > GPU_READBACK_MAX)   /* (a read-back a member in double) */
        return swgl_fail(SWGL_ERR_ARG, "kp gpu: %d halo strips in flight, at most %d read-backs", strips,
                         GPU_READBACK_MAX);
    return gpu_strips_reserve(g->strips, max_cells);
}

swgl_status kp_gpu_halo_request(kp_gpu *g, int x, int y, int w, int h)
{
    return gpu_strips_request_mrt(g->strips, g->state[g->cur], g->dbl ? 2 : 1, x, y, w, h);
}

swgl_status kp_gpu_halo_fetch(kp_gpu *g, void *buf) { return gpu_strips_fetch_mrt_raw(g->strips, g->dbl ? 2 : 1, buf); }

/* the strip in place where the strips' buffers are mapped (float: one read-back a strip),
 * else copied into fallback (double: its two members one after the other) */
swgl_status kp_gpu_halo_view(kp_gpu *g, void *fallback, const void **p)
{
    *p = fallback;
    if (!g->strips) return swgl_fail(SWGL_ERR_ARG, "kp gpu: no strips (tune mpi.pack=off): nothing requested");
    return gpu_strips_view_mrt_raw(g->strips, g->dbl ? 2 : 1, fallback, p);
}

swgl_status kp_gpu_halo_area(kp_gpu *g, long bytes, void **p)
{
    *p = NULL;   /* (none without the strips: tune mpi.pack=off) */
    return g->strips ? gpu_strips_area(g->strips, (size_t)bytes, p) : SWGL_OK;
}

int kp_gpu_halo_members(const kp_gpu *g) { return g->dbl ? 2 : 1; }

/* the halo of a run over MPI ranks (the backend's halo_get, halo_set): the state texels
 * (w, hu, hv, l or code: kp_real.glsl) as stored, member after member in double */
swgl_status kpg_halo_get(kp_gpu *g, int x, int y, int w, int h, void *buf)
{
    return gpu_strips_rect_mrt_raw(g->strips, g->state[g->cur], g->dbl ? 2 : 1, 0, x, y, w, h, buf);
}

swgl_status kpg_halo_set(kp_gpu *g, int x, int y, int w, int h, const void *buf)
{
    g->tiles_stale = 1;
    g->rest_hist = 0;
    return gpu_strips_rect_mrt_raw(g->strips, g->state[g->cur], g->dbl ? 2 : 1, 1, x, y, w, h, (void *)buf);
}

/* the fused kernel's tiles (kp_flux_cs.glsl: a rectangle from one of their corners fills its
 * own groups' slots of the minima); the passes' stage has no tiling (1 x 1) */
void kp_gpu_tiling(const kp_gpu *g, int tile[2])
{
    tile[0] = g->fused ? g->tx : 1;
    tile[1] = g->fused ? g->ty : 1;
}
