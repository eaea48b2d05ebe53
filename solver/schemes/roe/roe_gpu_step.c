/* roe_gpu_step.c — a step of roe on fragment passes, in order: the edge and dt passes
 * and the min reduction (roe_gpu_rates, the boundary values up first), the update pass
 * (roe_update.glsl; roe_gpu_apply, on the host clock through roe_gpu_forcing.c with
 * boundary data), and run_to's step with dt chosen on the GPU (gpgpu's clock.glsl
 * between the reduction and the update).
 *
 * One step (one stage: Euler, Lastra (4)):
 *   stage    edge pass -> dt pass -> min reduction of dt_i (its 1x1 result is the only
 *            value read back) -> the bound (8)
 *   advance  update pass with the dt the time loop chose (roe_update.glsl)
 *   run_to   the same, with the step chosen on the GPU (gpgpu's clock.glsl) and read back
 *            a few steps late through a ring of pixel buffers: no stall per step
 * Bytes a step must move per cell, at the fewest (float4 = 16 B): edge pass reads the
 * state and bed of the cell (32) and writes 2 edges x 2 targets (64); dt pass reads 4
 * edge texels (64) and the state (16) and writes 16; the reduction reads 16; update
 * reads state, sums and 4 edge texels (96) and writes 16: 320 B (288 B with
 * the removed cell-mass variant; 352 B before the limiter, when the update re-read all four edges
 * and a constant texture, and the edge pass read an edge texture).
 *
 * Double (roe_gpu.c: each float4 array two arrays of packed doubles), bytes per cell and
 * step: edge reads 48 and writes 128, dt reads 160 and writes 48, the reduction 16, the
 * update reads 128 and writes 32: 560 B (float: 320). */
#include "roe_gpu_internal.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* the state arrays of ping-pong side `side` as a pass's inputs */
void rog_bind_state(roe_gpu *r, gpu_pass *p, int side)
{
    if (r->dbl) {
        gpu_pass_array(p, "u_state_a", gpu_mrt_member(r->state_d[side], 0));
        gpu_pass_array(p, "u_state_b", gpu_mrt_member(r->state_d[side], 1));
    } else {
        gpu_pass_array(p, "u_state", r->state[side]);
    }
}

/* a double for the double passes: its low and high 32 bits as two int uniforms */
void rog_pass_double(gpu_pass *p, const char *lo, const char *hi, double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    gpu_pass_int(p, lo, (int)(int32_t)(uint32_t)(b & 0xffffffffu));
    gpu_pass_int(p, hi, (int)(int32_t)(uint32_t)(b >> 32));
}

/* the array whose channel 2 is the per-cell bound dt_i (float): the reduction's input (the
 * fused kernel's group minima, or each cell's: cells, as a stage in parts needs) */
gpu_array2d *rog_bound_array(roe_gpu *r, int cells)
{
    return r->fused && !cells ? r->part : gpu_mrt_member(r->cell, r->dbl ? 2 : 0);
}

/* edge pass and dt pass of the current state over the cells of rect (NULL: all; fused: the
 * one kernel roe_step_cs, which also leaves each work group's min of dt_i in r->part, and
 * computes the edges it shares with the cells west and south of the rectangle itself); the
 * dt pass of a cell reads the edges of its west and south neighbours too, so the edge pass
 * covers the rectangle and one more column and row of cells on its low sides, in the edge
 * arrays' columns (two a cell: its east and north edges) */
swgl_status rog_edge_and_cell(roe_gpu *r, const gpu_rect *rect)
{
    swgl_status st;
    gpu_pass p;
    if (r->fused) {
        gpu_pass_begin(&p, r->p_step);
        rog_bind_state(r, &p, r->cur);
        gpu_pass_array(&p, "u_bed", r->bed);
        gpu_pass_vec2(&p, "u_len", (float)r->dy, (float)r->dx);
        gpu_pass_float(&p, "u_g", (float)r->g);
        gpu_pass_float(&p, "u_hdry", (float)r->h_dry);
        gpu_pass_float(&p, "u_cfl", (float)r->cfl);
        gpu_pass_float(&p, "u_area", (float)(r->dx * r->dy));
        if (r->forcing && r->forc->n_seg && !r->plain) gpu_pass_array(&p, "u_bvals", r->bvals);
        gpu_pass_image(&p, 2, r->part);
        return gpu_pass_draw_mrt(&p, r->cell, rect);
    }
    gpu_rect grown;
    if (rect) {
        int x0 = rect->x > 0 ? rect->x - 1 : 0, y0 = rect->y > 0 ? rect->y - 1 : 0;
        grown = (gpu_rect){2 * x0, y0, 2 * (rect->x + rect->w - x0), rect->y + rect->h - y0};
    }

    /* 1. edges: what each edge gives the cells on its two sides, through two targets
     *    (four in double); the double passes have the constants compiled in */
    gpu_pass_begin(&p, r->p_edge);
    rog_bind_state(r, &p, r->cur);
    gpu_pass_array(&p, "u_bed", r->bed);
    if (r->forcing && r->forc->n_seg && !r->plain) gpu_pass_array(&p, "u_bvals", r->bvals);
    if (!r->dbl) {
        gpu_pass_vec2(&p, "u_len", (float)r->dy, (float)r->dx);
        gpu_pass_float(&p, "u_g", (float)r->g);
        gpu_pass_float(&p, "u_hdry", (float)r->h_dry);
    }
    if ((st = gpu_pass_draw_mrt(&p, r->flux, rect ? &grown : NULL)) != SWGL_OK) return st;

    /* 2. per cell: the gathered sums, the local dt (8) and the drain time */
    gpu_pass_begin(&p, r->p_dt);
    if (r->dbl) {
        gpu_pass_array(&p, "u_low_a", gpu_mrt_member(r->flux, 0));
        gpu_pass_array(&p, "u_low_b", gpu_mrt_member(r->flux, 1));
        gpu_pass_array(&p, "u_high_a", gpu_mrt_member(r->flux, 2));
        gpu_pass_array(&p, "u_high_b", gpu_mrt_member(r->flux, 3));
    } else {
        gpu_pass_array(&p, "u_low", gpu_mrt_member(r->flux, 0));
        gpu_pass_array(&p, "u_high", gpu_mrt_member(r->flux, 1));
    }
    rog_bind_state(r, &p, r->cur);
    if (!r->dbl) {
        gpu_pass_float(&p, "u_cfl", (float)r->cfl);
        gpu_pass_float(&p, "u_area", (float)(r->dx * r->dy));
    }
    return gpu_pass_draw_mrt(&p, r->cell, rect);
}

/* the update's mass fluxes: the dt pass's second target, or the edges themselves */
static void bind_mass(roe_gpu *r, gpu_pass *p)
{
    if (r->dbl) {   /* the mass fluxes' halves of the edge arrays */
        gpu_pass_array(p, "u_low_a", gpu_mrt_member(r->flux, 0));
        gpu_pass_array(p, "u_high_a", gpu_mrt_member(r->flux, 2));
    } else if (r->mass_from_edges) {
        gpu_pass_array(p, "u_low", gpu_mrt_member(r->flux, 0));
        gpu_pass_array(p, "u_high", gpu_mrt_member(r->flux, 1));
    } else {
        gpu_pass_array(p, "u_mass", gpu_mrt_member(r->cell, 1));
    }
}

swgl_status roe_gpu_rates(roe_gpu *r, double *dt_stable)
{
    swgl_status st = r->forcing ? rog_forcing_values(r) : SWGL_OK;
    if (st == SWGL_OK) st = rog_edge_and_cell(r, NULL);
    if (st != SWGL_OK) return st;
    /* 3. dt = min over volumes (channel z): the only value that comes back to the CPU */
    float mn[4];
    if ((st = gpu_reductor_run(r->red, rog_bound_array(r, 0), GPU_REDUCE_MIN, mn)) != SWGL_OK) return st;
    *dt_stable = isinf(mn[2]) ? INFINITY : (double)mn[2];
    if (r->forcing && !isnan(*dt_stable)) *dt_stable = fmin(*dt_stable, r->fclk.dt_cap);   /* swe.h dt_cap */
    return SWGL_OK;
}

/* The update pass (roe_update.glsl); dt from the uniform, or, when clock is not NULL,
 * from the clock texel (the program built with ROE_DT_ON_GPU; in double the landing
 * step is recomputed from left, the previous clock prev and unknown, as the clock pass
 * got them).  With boundary data: the rain rain_s (swe_clock_rain: s x rain[]), and a
 * cell's rise cell_add (its sources' and its discharge faces': gpu_redraw.h) drawn
 * into rect (NULL: the whole array, no rise).  Leaves the new state in
 * 1 - r->cur (the caller flips r->cur). */
swgl_status rog_update_pass(roe_gpu *r, double dt, const gpu_array2d *clock, const gpu_array2d *prev, double left,
                            int unknown, const gpu_rect *rect, double rain_s, double cell_add)
{
    gpu_pass p;
    /* (the clock's update with the flood maps in it, float: roe_gpu_maps_start) */
    int maps = clock && !r->dbl && r->p_update_maps && gpu_maps_on(&r->maps);
    gpu_pass_begin(&p, maps ? r->p_update_maps : clock ? r->p_update_clock : r->p_update);
    if (maps) gpu_maps_bind(&r->maps, &p, 1, r->t_known);
    rog_bind_state(r, &p, r->cur);
    if (r->forcing && r->forc->rain) gpu_pass_array(&p, "u_rain", r->rainf);
    if (r->manning) {   /* the face's friction (ROE_MANNING) */
        gpu_pass_array(&p, "u_manning", r->manning);
        if (!r->dbl) gpu_pass_float(&p, "u_g", (float)r->g);
    }
    if (r->dbl) {
        gpu_pass_array(&p, "u_sums_d", gpu_mrt_member(r->cell, 0));
        gpu_pass_array(&p, "u_tau", gpu_mrt_member(r->cell, 1));
        bind_mass(r, &p);
        if (clock) {
            gpu_pass_array(&p, "u_clock", clock);
            gpu_pass_array(&p, "u_prev", prev);
            rog_pass_double(&p, "u_left_lo", "u_left_hi", left);
            gpu_pass_int(&p, "u_unknown", unknown);
        } else {
            rog_pass_double(&p, "u_dt_lo", "u_dt_hi", dt);
        }
        if (r->forcing && r->forc->rain) rog_pass_double(&p, "u_rain_dt_lo", "u_rain_dt_hi", rain_s);
        if (r->forcing && r->redraw) rog_pass_double(&p, "u_cell_add_lo", "u_cell_add_hi", cell_add);
        return gpu_pass_draw_mrt(&p, r->state_d[1 - r->cur], rect);
    }
    gpu_pass_array(&p, "u_sums", gpu_mrt_member(r->cell, 0));
    bind_mass(r, &p);
    if (clock) gpu_pass_array(&p, "u_clock", clock);
    else gpu_pass_float(&p, "u_dt", (float)dt);
    gpu_pass_float(&p, "u_area", (float)(r->dx * r->dy));
    gpu_pass_float(&p, "u_hdry", (float)r->h_dry);
    gpu_pass_float(&p, "u_kappa", (float)r->kappa);
    if (r->forcing && r->forc->rain) gpu_pass_float(&p, "u_rain_dt", (float)rain_s);
    if (r->forcing && r->redraw) gpu_pass_float(&p, "u_cell_add", (float)cell_add);
    return gpu_pass_draw(&p, r->state[1 - r->cur], rect);
}

static swgl_status update(roe_gpu *r, double dt, const gpu_array2d *clock, const gpu_array2d *prev, double left,
                          int unknown)
{
    swgl_status st = rog_update_pass(r, dt, clock, prev, left, unknown, NULL, 0.0, 0.0);
    if (st == SWGL_OK) r->cur = 1 - r->cur;
    return st;
}

swgl_status roe_gpu_apply(roe_gpu *r, double dt)
{
    swgl_status st = r->forcing ? rog_forcing_update(r, dt) : update(r, dt, NULL, NULL, 0, 0);
    r->t_now += dt;
    return st == SWGL_OK ? rog_maps_pass(r, r->t_now, NULL, 0) : st;
}

/* One step with dt chosen on the GPU: edge, dt, reduction (left on the GPU), clock
 * (clock.glsl), update reading the clock (gpu_steps.c reads the clocks back). */
static swgl_status step_fn(void *self, const gpu_clock_args *a)
{
    roe_gpu *r = self;
    r->t_known = a->t;
    swgl_status st = rog_edge_and_cell(r, NULL);
    const gpu_array2d *bound;
    if (st != SWGL_OK || (st = gpu_reductor_run_gpu(r->red, rog_bound_array(r, 0), GPU_REDUCE_MIN, &bound)) != SWGL_OK ||
        (st = gpu_clock_pass(r->clock, bound, a)) != SWGL_OK)
        return st;
    const gpu_array2d *now = gpu_clock_now(r->clock);
    if (r->devb && (st = rog_ring_acc(r, now)) != SWGL_OK) return st;   /* (roe_gpu_forcing.c) */
    if ((st = update(r, 0, now, gpu_clock_next(r->clock), a->left, a->unknown)) != SWGL_OK) return st;
    /* a series' values at the next step's time: this step's clock, its steps the CPU has
     * not read and this one (gpu_bvals.h) */
    if (r->bvary && (st = gpu_bvals_pass(&r->bv, r->bvals, a->t, now, a->unknown + 1)) != SWGL_OK)
        return st;
    /* a span of many stops: the gauges' texels kept where this step landed on one */
    if (a->multi && (st = gpu_gather_capture(r->gauges, r->state[r->cur], now, a->stop)) != SWGL_OK) return st;
    /* (the maps, where the update did not keep them) */
    return r->p_update_maps && !r->dbl ? SWGL_OK : rog_maps_pass(r, 0, now, a->t);
}

swgl_status roe_gpu_run_stops(roe_gpu *r, double t, const double *stops, int n, int stop_index, double dt_floor,
                              const size_t *cells, int n_cells, timeloop_span *sp)
{
    r->stop_now = stops[n - 1];
    swgl_status st = gpu_gather_for(&r->gauges, r->state[r->cur], cells, n_cells);
    if (st == SWGL_OK) st = gpu_gather_capture_begin(r->gauges, n);
    if (st == SWGL_OK && r->bvary) st = gpu_bvals_pass(&r->bv, r->bvals, t, gpu_clock_now(r->clock), 0);
    if (st != SWGL_OK) return st;
    return gpu_steps_run_stops(r->clock, &r->dt_recent, step_fn, r, t, stops, n, stop_index, dt_floor, sp);
}

swgl_status roe_gpu_run_to(roe_gpu *r, double t, double stop, int stop_index, double dt_floor, timeloop_span *sp)
{
    r->stop_now = stop;
    /* a series' values at the span's start (the steps keep them after) */
    swgl_status st = r->bvary ? gpu_bvals_pass(&r->bv, r->bvals, t, gpu_clock_now(r->clock), 0) : SWGL_OK;
    if (st != SWGL_OK) return st;
    return gpu_steps_run_to(r->clock, &r->dt_recent, step_fn, r, t, stop, stop_index, dt_floor, sp);
}
