/* kp_gpu_step.c — a stage and a step of kp on fragment passes, in order: stage k's rates
 * (the boundary values up, kpg_flux_eval -> R, the ring's rates, stage 0's min reduction:
 * kp_gpu_rates), its integration pass (kp_integrate.glsl; kp_gpu_apply), and run_to's step
 * with dt chosen on the GPU (gpgpu's clock.glsl between the reduction and the
 * integration; the kernels' step instead where g->kstep: kp_gpu_kernels.c).
 *
 * One stage (Euler: stage 0; RK2: stages 0 and 1, Brodtkorb (7), (10)):
 *   [wet map]   kp_wet.glsl, one fragment per tile (early exit only)
 *   [fill]      early exit only: kp_fill.glsl writes R = (0, 0, 0, +inf) into the tiles
 *               skipped now that the last early-exit evaluation computed; the other
 *               skipped tiles still hold it, so no clear is needed; it also marks the
 *               depth buffer (kp_gpu_flux.c)
 *   flux        kp_flux_cell.glsl: R and cfl r per cell from its 9-cell cross; with early
 *               exit the dry tiles with dry neighbours are not run (early-Z on the depth
 *               marks): what they would compute is exactly the fill value, so the bits
 *               are the same with early exit on, off or auto
 *   reduction   stage 0 only: min of R.w over the grid (2x2 passes), the bound cfl min r;
 *               its 1x1 result is the only value read back (stage()), or stays on the
 *               GPU for the clock pass (run_to)
 *   [clock]     run_to: gpgpu's clock.glsl, dt = min(bound, time left); both stages of a
 *               RK2 step read it
 *   integration kp_integrate.glsl: Q* (stage 0) or Q^{n+1} (stage 1), friction, clip
 * Bytes a stage must move per cell, at the fewest (float4 = 16 B; the neighbours'
 * texels are other cells' own, from the cache):
 *   cell flux     reads state and bed (32), writes R (16)                        48
 *   reduction     reads R (16), stage 0 only (its 2x2 passes add a third)         16
 *   integration   reads Q, R, bed (48; stage 1 also Q*: 64), writes 16        64 / 80
 *   wet map       reads the state (16), early exit only                            16
 *   depth marks   4 B per cell of the tiles redrawn; early-Z reads 4 B per cell of the
 *                 flux pass (compressed / coarse on most GPUs)
 * Euler step: 48 + 16 + 64 = 128 B; RK2 step: 128 + 48 + 80 = 256 B; early exit adds 16 B per stage and saves the flux of every skipped tile.
 * (Brodtkorb: 11 floats per cell stored; here Q twice, Q*, R and bed: 20 floats.) */
#include "kp_gpu_internal.h"

#include <math.h>

swgl_status kp_gpu_rates(kp_gpu *g, int k, double *dt_stable)
{
    *dt_stable = INFINITY;
    if (k < 0 || k >= kp_gpu_stages(g)) return swgl_fail(SWGL_ERR_ARG, "kp gpu: no stage %d", k);
    swgl_status st = g->forcing ? kpg_forcing_values(g, k) : SWGL_OK;
    if (st == SWGL_OK) st = kpg_flux_eval(g, k);
    if (st == SWGL_OK && g->forcing && g->forc->n_seg) st = kpg_ring_rates(g, k);
    if (st != SWGL_OK || k > 0) return st;
    float mn[4];
    int sec = kpg_section_begin(g, KP_PASS_REDUCE, 0);
    st = gpu_reductor_run(g->red, kpg_bound_array(g), GPU_REDUCE_MIN, mn);
    kpg_section_end(g, sec);
    if (st != SWGL_OK) return st;
    *dt_stable = isinf(mn[3]) && mn[3] > 0 ? INFINITY : (double)mn[3];
    if (g->forcing && !isnan(*dt_stable)) *dt_stable = fmin(*dt_stable, g->fclk.dt_cap);   /* swe.h dt_cap */
    return SWGL_OK;
}

/* ---- the integration ---------------------------------------------------------------- */

/* The integration pass's inputs for stage k; dt from the uniform, or from the clock
 * texel when clock is not NULL; cell_add a cell's rise (m) where it is drawn again
 * (kpg_redraw: its sources' and its discharge faces'). */
void kpg_integrate_pass(kp_gpu *g, gpu_pass *p, int k, double dt, const gpu_array2d *clock, double rain_s,
                           double cell_add)
{
    gpu_pass_begin(p, g->p_int[k][clock != NULL]);
    BIND(g, p, "u_state", g->state[g->cur], 0);
    if (k == 1) BIND(g, p, "u_qstar", g->qstar, 0);
    BIND(g, p, "u_R", g->R, 0);
    BIND(g, p, "u_bed", g->bed, 0);
    if (g->manning == MAN_TEXTURE) BIND(g, p, "u_manning", g->man, 0);
    if (g->manning == MAN_UNIFORM) kpg_set_real(g, p, "u_gn2", g->gn2);
    if (clock) gpu_pass_array(p, "u_clock", clock);
    else kpg_set_real(g, p, "u_dt", dt);
    kpg_set_real(g, p, "u_eps", g->eps);
    kpg_set_real(g, p, "u_kappa", g->kappa);
    kpg_set_real(g, p, "u_kappa4", kpg_kappa4(g));
    kpg_set_real(g, p, "u_cap_depth", g->cap_depth);
    kpg_set_real(g, p, "u_cap_g", g->g);
    if (g->forcing && g->forc->rain) {
        BIND(g, p, "u_rain", g->rainf, 0);
        kpg_set_real(g, p, "u_rain_dt", rain_s);
    }
    if (g->forcing && g->redraw) kpg_set_real(g, p, "u_cell_add", cell_add);
}

/* Stage k's integration pass; then (host clock only) the cells of the point sources and
 * beside a discharge hydrograph's faces drawn again (kpg_redraw), and after the last
 * stage the maps' pass. */
static swgl_status integrate(kp_gpu *g, int k, double dt, const gpu_array2d *clock)
{
    g->tiles_stale = 1;   /* (a pass wrote the state: kpg_step_kernels sets the tiles afresh) */
    gpu_pass p;
    int last = k == 1 || !g->rk2;
    gpu_mrt *out = last ? g->state[1 - g->cur] : g->qstar;
    /* the series' means over the step (cpu_ref/swe.h "over a step"): the rain and the
     * sources by them, the discharge faces corrected to them by the redraw */
    if (g->forcing && !clock && k == 0) swe_clock_step(&g->fclk, dt);
    double rain_s = g->forcing && !clock ? swe_clock_rain(&g->fclk, k, kp_gpu_stages(g), dt) : 0.0;
    /* with boundary data (the host clock) the integration also writes each own cell's clip
     * (kp_integrate.glsl KP_CLIP) beside out: a view of out and the clip's array */
    if (g->forcing && !clock) out = g->clipv[out == g->state[0] ? 0 : out == g->state[1] ? 1 : 2];
    kpg_integrate_pass(g, &p, k, dt, clock, rain_s, 0.0);
    int sec = kpg_section_begin(g, KP_PASS_INTEGRATE, 0);
    swgl_status st = gpu_pass_draw_mrt(&p, out, NULL);
    kpg_section_end(g, sec);
    if (st == SWGL_OK && g->forcing && !clock) st = kpg_redraw(g, k, dt, rain_s, out);   /* kp_gpu_forcing.c */
    if (st == SWGL_OK && g->forcing && !clock) {
        /* the clip's volume, as the CPUs book it (cpu_ref/kp_fast.c: RK2's stage 0 a half,
         * Q* counting half in Q^{n+1}) */
        float sum[4];
        if ((st = gpu_reductor_run(g->red, g->clip, GPU_REDUCE_SUM, sum)) == SWGL_OK)
            g->fclk.acc.clip += (g->rk2 && k == 0 ? 0.5 : 1.0) * (double)sum[0] * g->dx * g->dy;
    }
    if (st == SWGL_OK && g->forcing && !clock) swe_clock_applied(&g->fclk, k, kp_gpu_stages(g), dt);
    if (st == SWGL_OK && last) {
        g->cur = 1 - g->cur;
        g->rest_hist = 1;   /* (Q^{n-1}, its Q* and the last R in the arrays: kp_wet.glsl) */
    }
    if (st == SWGL_OK && last && !clock) {
        g->t_now += dt;
        st = kpg_maps_pass(g, g->t_now, NULL, 0);
    }
    return st;
}

swgl_status kp_gpu_apply(kp_gpu *g, int k, double dt)
{
    if (k < 0 || k >= kp_gpu_stages(g)) return swgl_fail(SWGL_ERR_ARG, "kp gpu: no stage %d", k);
    if (!(dt >= 0) || isinf(dt)) return swgl_fail(SWGL_ERR_ARG, "kp gpu: dt = %g", dt);
    return integrate(g, k, dt, NULL);
}

/* ---- the step chosen on the GPU (run_to) --------------------------------------------- */

/* The clock pass (gpgpu's clock.glsl) from the bound's 1x1 array, then stage 0's
 * integration reading it, and for RK2 stage 1's flux and integration with the same
 * clock: the step on passes, after stage 0's flux and the bound's reduction. */
static swgl_status step_on_gpu(kp_gpu *g, const gpu_clock_args *a)
{
    if (g->kstep) return kpg_step_kernels(g, a);
    swgl_status st = kpg_flux_eval(g, 0);
    const gpu_array2d *bound;
    if (st != SWGL_OK) return st;
    int sec = kpg_section_begin(g, KP_PASS_REDUCE, 0);
    st = gpu_reductor_run_gpu(g->red, kpg_bound_array(g), GPU_REDUCE_MIN, &bound);
    kpg_section_end(g, sec);
    if (st != SWGL_OK) return st;
    sec = kpg_section_begin(g, KP_PASS_CLOCK, 0);
    st = gpu_clock_pass(g->clock, bound, a);
    kpg_section_end(g, sec);
    if (st != SWGL_OK) return st;
    const gpu_array2d *clock = gpu_clock_now(g->clock);
    if ((st = integrate(g, 0, 0, clock)) != SWGL_OK) return st;
    if (g->rk2 && ((st = kpg_flux_eval(g, 1)) != SWGL_OK || (st = integrate(g, 1, 0, clock)) != SWGL_OK)) return st;
    return kpg_maps_pass(g, 0, clock, a->t);
}

/* a step; in a span of many stops, the gauges' texels kept where it landed on one */
static swgl_status step_fn(void *self, const gpu_clock_args *a)
{
    kp_gpu *g = self;
    swgl_status st = step_on_gpu(g, a);
    if (st == SWGL_OK && a->multi)
        st = gpu_gather_capture(g->gauges, gpu_mrt_member(g->state[g->cur], 0), gpu_clock_now(g->clock), a->stop);
    return st;
}

swgl_status kp_gpu_run_stops(kp_gpu *g, double t, const double *stops, int n, int stop_index, double dt_floor,
                             const size_t *cells, int n_cells, timeloop_span *sp)
{
    g->stop_now = stops[n - 1];
    swgl_status st = gpu_gather_for(&g->gauges, gpu_mrt_member(g->state[g->cur], 0), cells, n_cells);
    if (st == SWGL_OK) st = gpu_gather_capture_begin(g->gauges, n);
    if (st == SWGL_OK && g->bvary && g->kstep) st = kpg_forcing_values_gpu(g, t, gpu_clock_now(g->clock), 0);
    if (st != SWGL_OK) return st;
    return gpu_steps_run_stops(g->clock, &g->dt_recent, step_fn, g, t, stops, n, stop_index, dt_floor, sp);
}

swgl_status kp_gpu_run_to(kp_gpu *g, double t, double stop, int stop_index, double dt_floor, timeloop_span *sp)
{
    g->stop_now = stop;
    /* a series' values at the span's start (the kernels' steps keep them after) */
    swgl_status st = g->bvary && g->kstep ? kpg_forcing_values_gpu(g, t, gpu_clock_now(g->clock), 0) : SWGL_OK;
    if (st != SWGL_OK) return st;
    return gpu_steps_run_to(g->clock, &g->dt_recent, step_fn, g, t, stop, stop_index, dt_floor, sp);
}
