/* kp_gpu_forcing.c — boundary data, rain and point sources on kp's passes (cpu_ref/swe.h;
 * docs/boundaries.md), and the flood maps.  The host clock (swe_clock) runs the steps
 * (stage and advance with the time known); each stage's boundary values go up (the
 * segments' array the flux passes read, kp_recon.glsl kp_bv), the boundary faces' volume
 * rates come back (kp_ring.glsl), the rain field is read by the integration pass
 * (KP_RAIN), the cells of the point sources and beside a discharge hydrograph's faces
 * are drawn again with their rises (KP_CELL_ADD, gpu_redraw.h); the
 * accounts are the clock's.  The maps: a pass after every step (kp_maps.glsl, gpu_maps.h).
 * (Early exit is off with any of these: kp_gpu_create says why.) */
#include "kp_gpu_internal.h"

#include <stdlib.h>

/* The boundary data's arrays and pass (g->forcing). */
swgl_status kpg_forcing_create(kp_gpu *g, const kp_problem *p)
{
    const swe_forcing *f = g->forc;
    swgl_status st = swe_clock_init(&g->fclk, &p->sw);
    if (st != SWGL_OK) return st;
    int ns = f->n_seg > 0 ? f->n_seg : 1;
    gpu_array2d_desc rd = {g->M, 4, GPU_RGBA32F, "kp boundary faces' rates"};
    g->ringbuf = malloc(4 * 4 * (size_t)g->M * sizeof(float));
    g->bvbuf = calloc(4 * (size_t)ns, sizeof(double));
    if (!g->ringbuf || !g->bvbuf) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    if ((st = kpg_arr_create(g, ns, 1, 1, 0, "kp boundary values", &g->bvals)) != SWGL_OK ||
        (st = gpu_array2d_create(&rd, &g->ring)) != SWGL_OK ||
        (st = gpu_program_create("kp_ring", g->defs, &g->p_ring)) != SWGL_OK)
        return st;
    if (f->rain) {
        size_t n = grid_size(g->nx, g->ny);
        double *r = calloc(4 * n, sizeof(double));
        if (!r) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
        for (size_t k = 0; k < n; k++) r[4 * k] = g->code[k] == CELL_ACTIVE ? f->rain[k] : 0.0;
        st = kpg_arr_create(g, g->tw, g->th, 1, 0, "kp rain", &g->rainf);
        if (st == SWGL_OK) st = kpg_arr_upload(g, g->rainf, r);
        free(r);
    }
    return st;
}

/* Stage k's boundary values at its time (the host clock's), up to the GPU. */
swgl_status kpg_forcing_values(kp_gpu *g, int k)
{
    swe_clock_stage(&g->fclk, k);
    if (!g->forc->n_seg) return SWGL_OK;
    for (int s = 0; s < g->forc->n_seg; s++) {
        g->bvbuf[4 * s] = g->fclk.seg_val[s];
        g->bvbuf[4 * s + 1] = g->forc->seg[s].vmax;
    }
    return kpg_arr_upload(g, g->bvals, g->bvbuf);
}

/* The boundary faces' volume rates of stage k's state (kp_ring.glsl) into the clock's
 * ring_rate, each the sum of the two floats the pass writes. */
swgl_status kpg_ring_rates(kp_gpu *g, int k)
{
    gpu_pass p;
    gpu_mrt *src = k == 0 || !g->rk2 ? g->state[g->cur] : g->qstar;
    gpu_pass_begin(&p, g->p_ring);
    BIND(g, &p, "u_state", src, 0);
    BIND(g, &p, "u_bed", g->bed, 0);
    BIND(g, &p, "u_bvals", g->bvals, 0);
    kpg_recon_uniforms(g, &p);
    gpu_pass_int(&p, "u_nx", g->nx);
    gpu_pass_int(&p, "u_ny", g->ny);
    swgl_status st = gpu_pass_draw(&p, g->ring, NULL);
    if (st == SWGL_OK) st = gpu_array2d_download(g->ring, g->ringbuf);
    for (size_t r = 0; st == SWGL_OK && r < 4 * (size_t)g->M; r++)
        g->fclk.ring_rate[r] = (double)g->ringbuf[4 * r] + (double)g->ringbuf[4 * r + 1];
    return st;
}

/* the surface of active cell k of an array, as the GPU holds it (float: w + its low word) */
static swgl_status read_w(kp_gpu *g, gpu_mrt *m, size_t k, double *w)
{
    int x = (int)(k % (size_t)g->tw), y = (int)(k / (size_t)g->tw);
    if (g->dbl) {
        double v[2];
        swgl_status st = gpu_array2d_download_rect(gpu_mrt_member(m, 0), x, y, 1, 1, v);
        *w = v[0];
        return st;
    }
    float v[4];
    swgl_status st = gpu_array2d_download_rect(gpu_mrt_member(m, 0), x, y, 1, 1, v);
    *w = (double)v[0] + v[3];   /* (the surface with its low word: kp_real.glsl) */
    return st;
}

/* A redraw of stage k's integration into out (gpu_redraw.h) with its dt and rain */
typedef struct redraw_stage {
    kp_gpu *g;
    int k;
    double dt, rain_s;
    gpu_mrt *out;
} redraw_stage;

static swgl_status redraw_draw(void *self, const gpu_rect *r, double add)
{
    redraw_stage *a = self;
    gpu_pass p;
    kpg_integrate_pass(a->g, &p, a->k, a->dt, NULL, a->rain_s, add);
    return gpu_pass_draw_mrt(&p, a->out, r);
}

static swgl_status redraw_read(void *self, size_t k, double *w)
{
    redraw_stage *a = self;
    return read_w(a->g, a->out, k, w);
}

static const gpu_redraw_ops redraw_ops = {redraw_draw, redraw_read};

/* Stage k's redraws (host clock), after its integration pass into out: the cells of the
 * point sources and beside a discharge hydrograph's faces drawn again with their rises
 * (gpu_redraw.h; kpg_integrate_pass's u_cell_add), with the sources' weights: stage 0's
 * rise dt (it enters Q^{n+1} by 1/2 in RK2, booked so), RK2's stage 1 dt/2. */
swgl_status kpg_redraw(kp_gpu *g, int k, double dt, double rain_s, gpu_mrt *out)
{
    if (!g->redraw) return SWGL_OK;
    redraw_stage a = {g, k, dt, rain_s, out};
    const double cw = k == 1 ? 0.5 : 1.0, wsrc = g->rk2 && k == 0 ? 0.5 : 1.0;
    return gpu_redraw_stage(&g->fclk, g->tw, cw * dt, wsrc, &redraw_ops, &a);
}

void kp_gpu_set_time(kp_gpu *g, double t, double stop)
{
    g->t_now = t;
    if (g->forcing) swe_clock_set_time(&g->fclk, t, stop);
}

int kp_gpu_host_clock(const kp_gpu *g) { return g->forcing; }

void kp_gpu_account(const kp_gpu *g, swe_account *a)
{
    if (g->forcing) swe_account_copy(&g->fclk.acc, a);
}

/* The flood maps' pass after a step (gpu_maps.h): the state after it, at time t (host
 * clock) or from the step's clock (run_to; t_known the CPU's time it counts from). */
swgl_status kpg_maps_pass(kp_gpu *g, double t, const gpu_array2d *clock, double t_known)
{
    gpu_pass p;
    if (!gpu_maps_begin(&g->maps, &p, t, clock, t_known)) return SWGL_OK;
    BIND(g, &p, "u_state", g->state[g->cur], 0);
    BIND(g, &p, "u_bed", g->bed, 0);
    return gpu_maps_end(&g->maps, &p);
}

swgl_status kp_gpu_maps_start(kp_gpu *g, const swe_maps *m)
{
    return gpu_maps_start(&g->maps, g->tw, g->th, "kp_maps", g->defs, m);
}

swgl_status kp_gpu_maps_read(kp_gpu *g, swe_maps *m) { return gpu_maps_read(&g->maps, g->code, m); }
