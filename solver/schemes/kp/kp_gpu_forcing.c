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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    if (g->devb) {
        /* the values once, or a series' by a pass at each stage's time; the sums zero */
        static const float zero[4] = {0, 0, 0, 0};
        size_t l = strlen(g->defs) + 32;
        char *d = malloc(l);
        if (!d) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
        snprintf(d, l, "%s#define SWE_RING_ACC 1\n", g->defs);
        rd.label = "kp boundary faces' sums";
        st = gpu_program_create("kp_ring", d, &g->p_racc);
        free(d);
        for (int k = 0; k < 2 && st == SWGL_OK; k++)
            if ((st = gpu_array2d_create(&rd, &g->racc[k])) == SWGL_OK) st = gpu_array2d_fill(g->racc[k], zero);
        if (st == SWGL_OK) st = kpg_forcing_values(g, 0);
        if (st == SWGL_OK && (g->bvary = swe_forcing_faces_vary(f)))
            st = gpu_bvals_create(&g->bv, f, g->defs);
        if (st != SWGL_OK) return st;
    }
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

/* A ring pass (kp_ring.glsl: prog, with or without SWE_RING_ACC) begun over the faces of
 * the state src */
static void ring_pass_begin(kp_gpu *g, gpu_pass *p, gpu_program *prog, gpu_mrt *src)
{
    gpu_pass_begin(p, prog);
    BIND(g, p, "u_state", src, 0);
    BIND(g, p, "u_bed", g->bed, 0);
    kpg_recon_uniforms(g, p);
    gpu_pass_int(p, "u_nx", g->nx);
    gpu_pass_int(p, "u_ny", g->ny);
}

/* The step on kernels' boundary sums (g->devb): a stage's faces from src (Q^n, or RK2's
 * Q*) with the step's dt from clock, weight 1/2 in RK2, added into the other sums array
 * (kp_ring.glsl under SWE_RING_ACC). */
swgl_status kpg_ring_acc(kp_gpu *g, gpu_mrt *src, const gpu_array2d *clock)
{
    gpu_pass p;
    ring_pass_begin(g, &p, g->p_racc, src);
    gpu_pass_array(&p, "u_acc", g->racc[g->ri]);
    gpu_pass_array(&p, "u_clock", clock);
    gpu_pass_float(&p, "u_w", g->rk2 ? 0.5f : 1.0f);
    swgl_status st = gpu_pass_draw(&p, g->racc[1 - g->ri], NULL);
    if (st == SWGL_OK) g->ri = 1 - g->ri;
    return st;
}

/* A series' values on the GPU (g->bvary): at t_cpu plus the k most recent steps of clock */
swgl_status kpg_forcing_values_gpu(kp_gpu *g, double t_cpu, const gpu_array2d *clock, int k)
{
    return gpu_bvals_pass(&g->bv, gpu_mrt_member(g->bvals, 0), t_cpu, clock, k);
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
    ring_pass_begin(g, &p, g->p_ring, k == 0 || !g->rk2 ? g->state[g->cur] : g->qstar);
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

int kp_gpu_host_clock(const kp_gpu *g) { return g->forcing && !g->devb; }

swgl_status kp_gpu_account(const kp_gpu *g, swe_account *a)
{
    if (!g->forcing) return SWGL_OK;
    swe_account_copy(&g->fclk.acc, a);
    /* the kernels' sums (g->devb): each face's in and out pairs, added in double */
    if (!g->devb) return SWGL_OK;
    swgl_status st = gpu_array2d_download(g->racc[g->ri], g->ringbuf);
    if (st == SWGL_OK) swe_account_pairs(a, g->forc, g->ringbuf, g->M);
    return st;
}

/* The flood maps' pass after a step (gpu_maps.h): the state after it, at time t (host
 * clock) or from the step's clock (run_to; t_known the CPU's time it counts from). */
swgl_status kpg_maps_pass(kp_gpu *g, double t, const gpu_array2d *clock, double t_known)
{
    gpu_pass p;
    if (!gpu_maps_begin(&g->maps, &p, t, clock, t_known)) return gpu_maps_status(&g->maps);
    BIND(g, &p, "u_state", g->state[g->cur], 0);
    BIND(g, &p, "u_bed", g->bed, 0);
    return gpu_maps_end(&g->maps, &p);
}

/* The maps' arrays and pass; with the step on kernels also its last kernel built again
 * to update them in place (SWE_MAPS_INLINE: no pass of their own; images after the
 * kernel's own: Euler's kp_integrate_cs writes the state and the clock, RK2's stage 1
 * kp_flux_cs the state). */
swgl_status kp_gpu_maps_start(kp_gpu *g, swe_maps *m)
{
    swgl_status st = gpu_maps_start(&g->maps, g->tw, g->th, "kp_maps", g->defs, m);
    if (st != SWGL_OK || !g->kstep || g->p_klast_maps) return st;
    size_t l = strlen(g->klast_defs) + 128;
    char *d = malloc(l);
    if (!d) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    snprintf(d, l, "%s#define SWE_MAPS_INLINE 1\n#define SWE_MAPS_DT_ON_GPU 1\n#define SWE_MAPS_UNIT %d\n"
             "#define SWE_MAPS_UNIT_B %d\n", g->klast_defs, g->rk2 ? 1 : 2, g->rk2 ? 2 : 3);
    st = gpu_program_create_kernel(g->rk2 ? "kp_flux_cs" : "kp_integrate_cs", d, &g->p_klast_maps);
    free(d);
    if (st == SWGL_OK && g->rk2) {
        gpu_program_set_cells(g->p_klast_maps, g->cx, g->cy);
        if (g->xshare) gpu_program_set_helpers(g->p_klast_maps, 2);
    }
    return st;
}

swgl_status kp_gpu_maps_read(kp_gpu *g, swe_maps *m) { return gpu_maps_read(&g->maps, g->code, m); }
