/* roe_gpu_forcing.c — roe's boundary data, rain and point sources on the GPU
 * (cpu_ref/swe.h; docs/boundaries.md): the arrays and the ring pass, the segment values
 * up per step, the boundary edges' volume rates back per step (roe_ring.glsl), the
 * step's update on the host clock with the sources' cells and the discharge faces' cells
 * drawn again (gpu_redraw.h), the accounts; and
 * the flood maps (gpu_maps.h; shaders/roe/roe_maps.glsl). */
#include "roe_gpu_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An array of n doubles per texel (1 or 2) from v: RGBA32F (x of 4 floats) in single, RGBA32UI
 * (two doubles) in double; the passes read its first value (roe_bv, roe_rain). */
static swgl_status put_pairs(roe_gpu *r, gpu_array2d *a, const double *v2, size_t n)
{
    if (r->dbl) return gpu_array2d_upload(a, v2);
    float *f = calloc(4 * n, sizeof(float));
    if (!f) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    for (size_t k = 0; k < n; k++) f[4 * k] = (float)v2[2 * k], f[4 * k + 1] = (float)v2[2 * k + 1];
    swgl_status st = gpu_array2d_upload(a, f);
    free(f);
    return st;
}

/* The boundary data's arrays and pass (r->forcing). */
swgl_status rog_forcing_create(roe_gpu *r, const swe_problem *p, const char *defs)
{
    const swe_forcing *f = r->forc;
    swgl_status st = swe_clock_init(&r->fclk, p);
    if (st != SWGL_OK) return st;
    enum gpu_format fmt = r->dbl ? GPU_RGBA32UI : GPU_RGBA32F;
    gpu_array2d_desc bd = {f->n_seg > 0 ? f->n_seg : 1, 1, fmt, "roe boundary values"};
    gpu_array2d_desc rd = {r->M, 4, GPU_RGBA32F, "roe boundary edges' rates"};
    gpu_array2d_desc wd = {r->tex_w, r->tex_h, fmt, "roe rain"};
    if (!(r->ringbuf = malloc(16 * (size_t)r->M * sizeof(float)))) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    if ((st = gpu_array2d_create(&bd, &r->bvals)) != SWGL_OK || (st = gpu_array2d_create(&rd, &r->ring)) != SWGL_OK ||
        (st = gpu_program_create("roe_ring", defs, &r->p_ring)) != SWGL_OK)
        return st;
    if (r->devb) {
        /* the values once (a series': a pass at each step's time, gpu_bvals.h); the sums
         * zero; the sums' pass with `precise` and fma where the driver has them
         * (swe_ring_acc.glsl) */
        static const float zero[4] = {0, 0, 0, 0};
        size_t l = strlen(defs) + 96;
        char *d = malloc(l);
        if (!d) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
        snprintf(d, l, "#extension GL_ARB_gpu_shader5 : enable\n%s#define SWE_RING_ACC 1\n", defs);
        rd.label = "roe boundary edges' sums";
        st = gpu_program_create("roe_ring", d, &r->p_racc);
        free(d);
        for (int k = 0; k < 2 && st == SWGL_OK; k++)
            if ((st = gpu_array2d_create(&rd, &r->racc[k])) == SWGL_OK) st = gpu_array2d_fill(r->racc[k], zero);
        if (st == SWGL_OK) st = rog_forcing_values(r);
        if (st == SWGL_OK && (r->bvary = swe_forcing_faces_vary(f))) st = gpu_bvals_create(&r->bv, f, defs);
        if (st != SWGL_OK) return st;
    }
    if (f->rain) {
        size_t n = (size_t)r->tex_w * r->tex_h;
        double *v = calloc(2 * n, sizeof(double));
        if (!v) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
        for (size_t k = 0; k < n; k++) v[2 * k] = r->code[k] == CELL_ACTIVE ? f->rain[k] : 0.0;
        if ((st = gpu_array2d_create(&wd, &r->rainf)) == SWGL_OK) st = put_pairs(r, r->rainf, v, n);
        free(v);
    }
    return st;
}

/* The step's segment values at its time (the host clock's), up to the GPU. */
swgl_status rog_forcing_values(roe_gpu *r)
{
    swe_clock_stage(&r->fclk, 0);
    int n = r->forc->n_seg;
    if (!n) return SWGL_OK;
    double *v = malloc(2 * (size_t)n * sizeof(double));
    if (!v) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    for (int q = 0; q < n; q++) v[2 * q] = r->fclk.seg_val[q], v[2 * q + 1] = r->forc->seg[q].vmax;
    swgl_status st = put_pairs(r, r->bvals, v, (size_t)n);
    free(v);
    return st;
}

/* The boundary edges' volume rates of the step with dt (roe_ring.glsl) into the clock's
 * ring_rate, each the sum of the two floats the pass writes. */
static swgl_status ring_rates(roe_gpu *r, double dt)
{
    gpu_pass p;
    gpu_pass_begin(&p, r->p_ring);
    rog_bind_state(r, &p, r->cur);
    if (r->dbl) {
        gpu_pass_array(&p, "u_low_a", gpu_mrt_member(r->flux, 0));
        gpu_pass_array(&p, "u_high_a", gpu_mrt_member(r->flux, 2));
        gpu_pass_array(&p, "u_tau", gpu_mrt_member(r->cell, 1));
        rog_pass_double(&p, "u_dt_lo", "u_dt_hi", dt);
    } else {
        if (r->mass_from_edges) {
            gpu_pass_array(&p, "u_low", gpu_mrt_member(r->flux, 0));
            gpu_pass_array(&p, "u_high", gpu_mrt_member(r->flux, 1));
        } else {
            gpu_pass_array(&p, "u_mass", gpu_mrt_member(r->cell, 1));
        }
        gpu_pass_array(&p, "u_sums", gpu_mrt_member(r->cell, 0));
        gpu_pass_float(&p, "u_dt", (float)dt);
    }
    gpu_pass_int(&p, "u_nx", r->nx);
    gpu_pass_int(&p, "u_ny", r->ny);
    swgl_status st = gpu_pass_draw(&p, r->ring, NULL);
    if (st == SWGL_OK) st = gpu_array2d_download(r->ring, r->ringbuf);
    for (size_t k = 0; st == SWGL_OK && k < 4 * (size_t)r->M; k++)
        r->fclk.ring_rate[k] = (double)r->ringbuf[4 * k] + (double)r->ringbuf[4 * k + 1];
    return st;
}

/* The step on the kernel's boundary sums (r->devb): the step's edges (the cells' mass
 * fluxes and drain times) with its dt from the clock, added into the other sums array
 * (roe_ring.glsl under SWE_RING_ACC); before the update, while r->cur is the state they
 * were computed from. */
swgl_status rog_ring_acc(roe_gpu *r, const gpu_array2d *clock)
{
    gpu_pass p;
    gpu_pass_begin(&p, r->p_racc);
    rog_bind_state(r, &p, r->cur);
    gpu_pass_array(&p, "u_mass", gpu_mrt_member(r->cell, 1));
    gpu_pass_array(&p, "u_sums", gpu_mrt_member(r->cell, 0));
    gpu_pass_array(&p, "u_acc", r->racc[r->ri]);
    gpu_pass_array(&p, "u_clock", clock);
    gpu_pass_float(&p, "u_w", 1.0f);
    gpu_pass_int(&p, "u_nx", r->nx);
    gpu_pass_int(&p, "u_ny", r->ny);
    swgl_status st = gpu_pass_draw(&p, r->racc[1 - r->ri], NULL);
    if (st == SWGL_OK) r->ri = 1 - r->ri;
    return st;
}

/* The flood maps' pass after a step (gpu_maps.h): the state after it, at time t (host
 * clock) or from the clock texels (run_to). */
swgl_status rog_maps_pass(roe_gpu *r, double t, const gpu_array2d *clock, double t_known)
{
    gpu_pass p;
    if (!gpu_maps_begin(&r->maps, &p, t, clock, t_known)) return gpu_maps_status(&r->maps);
    rog_bind_state(r, &p, r->cur);
    return gpu_maps_end(&r->maps, &p);
}

/* The maps' arrays and pass; on the compute backend in float also the clock's update built
 * again to update them in place (SWE_MAPS_INLINE, images 1 and 2 after its output): the
 * step on the GPU's clock then has no maps pass. */
swgl_status roe_gpu_maps_start(roe_gpu *r, swe_maps *m)
{
    swgl_status st = gpu_maps_start(&r->maps, r->tex_w, r->tex_h, "roe_maps", r->maps_defs, m);
    if (st != SWGL_OK || !r->compute || r->dbl || r->p_update_maps) return st;
    size_t l = strlen(r->maps_defs) + 160;
    char *d = malloc(l);
    if (!d) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    snprintf(d, l, "%s#define ROE_DT_ON_GPU 1\n#define SWE_MAPS_INLINE 1\n#define SWE_MAPS_DT_ON_GPU 1\n"
             "#define SWE_MAPS_UNIT 1\n#define SWE_MAPS_UNIT_B 2\n", r->maps_defs);
    st = gpu_program_create("roe_update", d, &r->p_update_maps);
    free(d);
    return st;
}

swgl_status roe_gpu_maps_read(roe_gpu *r, swe_maps *m) { return gpu_maps_read(&r->maps, r->code, m); }

/* h of cell k of the state array side, as the GPU holds it */
static swgl_status read_h(roe_gpu *r, int side, size_t k, double *h)
{
    int x = (int)(k % (size_t)r->tex_w), y = (int)(k / (size_t)r->tex_w);
    if (r->dbl) {
        double v[2];
        swgl_status st = gpu_array2d_download_rect(gpu_mrt_member(r->state_d[side], 0), x, y, 1, 1, v);
        *h = v[0];
        return st;
    }
    float v[4];
    swgl_status st = gpu_array2d_download_rect(r->state[side], x, y, 1, 1, v);
    *h = v[0];
    return st;
}

/* A redraw of the update (gpu_redraw.h) with the step's dt and rain */
typedef struct redraw_step {
    roe_gpu *r;
    double dt, rain_s;
} redraw_step;

static swgl_status redraw_draw(void *self, const gpu_rect *rc, double add)
{
    redraw_step *a = self;
    return rog_update_pass(a->r, a->dt, NULL, NULL, 0, 0, rc, a->rain_s, add);
}

static swgl_status redraw_read(void *self, size_t k, double *v)
{
    redraw_step *a = self;
    return read_h(a->r, 1 - a->r->cur, k, v);
}

static const gpu_redraw_ops redraw_ops = {redraw_draw, redraw_read};

/* The step's update on the host clock: the boundary edges' accounts, the update, then
 * the cells with point sources or beside a discharge hydrograph's faces drawn again with
 * their summed rise (gpu_redraw.h: what a taking source took read back; the faces bring
 * in dt times the series' mean over the step), the step on the clock. */
swgl_status rog_forcing_update(roe_gpu *r, double dt)
{
    const swe_forcing *f = r->forc;
    swgl_status st = f->n_seg ? ring_rates(r, dt) : SWGL_OK;
    /* the series' means over the step (cpu_ref/swe.h "over a step"): the rain and the
     * sources by them, the discharge faces corrected to them by the redraw */
    swe_clock_step(&r->fclk, dt);
    redraw_step a = {r, dt, swe_clock_rain(&r->fclk, 0, 1, dt)};
    if (st == SWGL_OK) st = rog_update_pass(r, dt, NULL, NULL, 0, 0, NULL, a.rain_s, 0.0);
    if (st == SWGL_OK && r->redraw) st = gpu_redraw_stage(&r->fclk, r->tex_w, dt, 1.0, &redraw_ops, &a);
    if (st == SWGL_OK) {
        r->cur = 1 - r->cur;
        swe_clock_applied(&r->fclk, 0, 1, dt);
    }
    return st;
}

void roe_gpu_set_time(roe_gpu *r, double t, double stop)
{
    r->t_now = t;
    if (r->forcing) swe_clock_set_time(&r->fclk, t, stop);
}

int roe_gpu_host_clock(const roe_gpu *r) { return r->forcing && !r->devb; }

swgl_status roe_gpu_account(const roe_gpu *r, swe_account *a)
{
    if (!r->forcing) return SWGL_OK;
    swe_account_copy(&r->fclk.acc, a);
    /* the kernel's sums (r->devb): each face's in and out pairs, added in double */
    if (!r->devb) return SWGL_OK;
    swgl_status st = gpu_array2d_download(r->racc[r->ri], r->ringbuf);
    if (st == SWGL_OK) swe_account_pairs(a, r->forc, r->ringbuf, r->M);
    return st;
}
