/* kp_gpu.c — the Kurganov-Petrova scheme as Brodtkorb et al. (2011) run it (their
 * (3)-(10), the equations of cpu_ref/kp_cpu.h), as fragment passes (shaders/kp/), and its
 * backend behind scheme.h.  This file: the arrays in either precision, create and
 * destroy, the state up and down; the passes are in the files kp_gpu_internal.h lists
 * (a stage drawn through them: kp_gpu_step.c).
 *
 * Arrays, (nx+2) x (ny+2) texels with the ghost ring (swgl_grid.h), float4:
 *   state[2]  (w, hu, hv, x), ping-pong; x = l, the surface's low word, for an active cell
 *             (issue 27: its surface is w + l and its depth (w - B_ij) + l, the float update
 *             compensated, kp_integrate_fn.glsl; 0 in double) and -(1 + code) for a
 *             non-active one (so the flux pass knows the code of the cells two away without
 *             reading their bed texel)
 *   qstar     Q* of RK2 (same layout)
 *   bed       (B_E, B_N, B_ij, code), constant; B_W, B_S are the west / south
 *             neighbour's B_E / B_N (kp_cell_bed: a ghost holds the faces it shares)
 *   R         (R_w, R_hu, R_hv, cfl r) of the stage's state: the flux pass's output
 *   faces     MRT (east face, north face, source) of the "faces" flux variant only
 *   wet[2]    ceil(nx/16) x ceil(ny/16): 1 where a tile holds water (early exit); the
 *             last two evaluations' maps
 *   depth     depth methods: a 24-bit depth buffer with R (and one with the faces MRT),
 *             each in a framebuffer of its own (gpu_mrt_depth): 0 on skipped tiles, 1 else
 *   manning   (g n^2) per cell, only when n varies (one n: a uniform; none: no friction)
 *   clock     the step chosen on the GPU (gpgpu's gpu_clock, run_to)
 * Double precision (--precision double, GL_ARB_gpu_shader_fp64; shaders/kp/kp_real.glsl):
 * the same passes with real = double; each array is an MRT of two RGBA32UI members (two
 * doubles per texel: (x, y) and (z, w)), R has a third, RGBA32F, member (0, 0, 0, cfl r)
 * for the float min reduction and the clock (the step is a float there, as in single);
 * constants are double uniforms; h^(1/3) of the friction is float's pow refined by two
 * Newton steps.  Twice the bytes of single. */
#include "kp_gpu_internal.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_context.h"
#include "kp.h"
#include "scheme_shaders.h"

#define KP_TIMER_SLOTS 512

int kp_gpu_stages(const kp_gpu *g) { return g->rk2 ? 2 : 1; }

int kp_gpu_fused(const kp_gpu *g) { return g->fused; }

int kp_gpu_is_double(const kp_gpu *g) { return g->dbl; }

void kp_gpu_destroy(kp_gpu *g)
{
    if (!g) return;
    gpu_hold_destroy(&g->hold);
    for (int v = 0; v < 3; v++) gpu_mrt_destroy(g->clipv[v]);   /* (views: before their arrays) */
    gpu_array2d_destroy(g->clip);
    gpu_mrt_destroy(g->state[0]);
    gpu_mrt_destroy(g->state[1]);
    gpu_mrt_destroy(g->qstar);
    gpu_mrt_destroy(g->bed);
    gpu_mrt_destroy(g->R);
    gpu_array2d_destroy(g->wet[0]);
    gpu_array2d_destroy(g->wet[1]);
    gpu_mrt_destroy(g->man);
    gpu_mrt_depth_destroy(g->dR);
    gpu_reductor_destroy(g->red);
    gpu_program_destroy(g->p_flux);
    gpu_program_destroy(g->p_fill);
    for (int s = 0; s < 2; s++)
        for (int c = 0; c < 2; c++) gpu_program_destroy(g->p_int[s][c]);
    gpu_program_destroy(g->p_wet);
    gpu_program_destroy(g->p_fused);
    gpu_program_destroy(g->p_kflux);
    gpu_program_destroy(g->p_kint);
    gpu_program_destroy(g->p_kfused1);
    gpu_program_destroy(g->p_krest);
    gpu_program_destroy(g->p_klast_maps);
    gpu_buffer_destroy(g->tiles);
    gpu_array2d_destroy(g->part);
    gpu_clock_destroy(g->clock);
    gpu_strips_destroy(g->strips);
    gpu_timer_destroy(g->timer);
    gpu_maps_destroy(&g->maps);
    gpu_gather_destroy(g->gauges);
    gpu_mrt_destroy(g->bvals);
    gpu_mrt_destroy(g->rainf);
    gpu_array2d_destroy(g->ring);
    gpu_program_destroy(g->p_ring);
    gpu_program_destroy(g->p_racc);
    gpu_bvals_destroy(&g->bv);
    gpu_array2d_destroy(g->racc[0]);
    gpu_array2d_destroy(g->racc[1]);
    swe_clock_free(&g->fclk);
    free(g->ringbuf);
    free(g->bvbuf);
    free(g->code);
    free(g->bij);
    free(g);
}

/* ---- arrays in either precision ------------------------------------------------------- */

/* An array of `count` float4 elements per texel: single, count RGBA32F members; double,
 * 2 count RGBA32UI members (each element's (x, y) and (z, w) as doubles); `bound`: one
 * more RGBA32F member in double, the (0, 0, 0, cfl r) the min reduction reads (in single,
 * R's own .w). */
swgl_status kpg_arr_create(const kp_gpu *g, int w, int h, int count, int bound, const char *label, gpu_mrt **out)
{
    gpu_mrt_desc d = {w, h, g->dbl ? 2 * count : count, {0}, label};
    for (int k = 0; g->dbl && k < 2 * count; k++) d.format[k] = GPU_RGBA32UI;
    if (g->dbl && bound) d.format[d.count++] = GPU_RGBA32F;
    return gpu_mrt_create(&d, out);
}

/* The w x h texels from (x, y) of an array, 4 doubles a texel (double: the halves (x, y)
 * and (z, w) in the two members), from v (single: rounded to float) or into v */
static swgl_status arr_rect(const kp_gpu *g, gpu_mrt *m, int set, int x, int y, int w, int h, double *v)
{
    return gpu_strips_rect_mrt(NULL, m, g->dbl ? 2 : 1, set, x, y, w, h, v);   /* (NULL: directly) */
}

swgl_status kpg_arr_upload_rect(const kp_gpu *g, gpu_mrt *m, int x, int y, int w, int h, const double *v)
{
    return arr_rect(g, m, 1, x, y, w, h, (double *)v);
}

swgl_status kpg_arr_download_rect(const kp_gpu *g, gpu_mrt *m, int x, int y, int w, int h, double *v)
{
    return arr_rect(g, m, 0, x, y, w, h, v);
}

/* Element k of an array as 4 doubles per texel from v (single: rounded to float). */
swgl_status kpg_arr_upload(const kp_gpu *g, gpu_mrt *m, const double *v)
{
    const gpu_array2d *a = gpu_mrt_member(m, 0);
    return kpg_arr_upload_rect(g, m, 0, 0, gpu_array2d_width(a), gpu_array2d_height(a), v);
}

static swgl_status arr_download(const kp_gpu *g, gpu_mrt *m, double *v)
{
    const gpu_array2d *a = gpu_mrt_member(m, 0);
    return kpg_arr_download_rect(g, m, 0, 0, gpu_array2d_width(a), gpu_array2d_height(a), v);
}

/* BIND (kp_gpu_internal.h) */
void kpg_bind_arr(const kp_gpu *g, gpu_pass *p, const char *name, const char *na, const char *nb, gpu_mrt *m, int k)
{
    if (!g->dbl) {
        gpu_pass_array(p, name, gpu_mrt_member(m, k));
        return;
    }
    if (gpu_program_uniform(p->program, na) >= 0) gpu_pass_array(p, na, gpu_mrt_member(m, 2 * k));
    if (gpu_program_uniform(p->program, nb) >= 0) gpu_pass_array(p, nb, gpu_mrt_member(m, 2 * k + 1));
}

/* A constant uniform in the passes' precision. */
void kpg_set_real(const kp_gpu *g, gpu_pass *p, const char *name, double v)
{
    if (g->dbl) gpu_pass_double(p, name, v);
    else gpu_pass_float(p, name, (float)v);
}

/* kappa^4 as each precision's CPU twin computes it */
double kpg_kappa4(const kp_gpu *g)
{
    if (g->dbl) return (g->kappa * g->kappa) * (g->kappa * g->kappa);
    float k2 = (float)(g->kappa * g->kappa);
    return k2 * k2;
}

/* the cell size, u_dxy */
void kpg_set_dxy(kp_gpu *g, gpu_pass *p)
{
    if (g->dbl) gpu_pass_dvec2(p, "u_dxy", g->dx, g->dy);
    else gpu_pass_vec2(p, "u_dxy", (float)g->dx, (float)g->dy);
}

/* the reconstruction's and the flux's constants */
void kpg_recon_uniforms(kp_gpu *g, gpu_pass *p)
{
    kpg_set_real(g, p, "u_theta", g->theta);
    kpg_set_real(g, p, "u_eps", g->eps);
    kpg_set_real(g, p, "u_kappa4", kpg_kappa4(g));
    kpg_set_real(g, p, "u_g", g->g);
    kpg_set_dxy(g, p);
    if (g->forcing && g->forc->n_seg && !g->plain) BIND(g, p, "u_bvals", g->bvals, 0);   /* (kp_recon.glsl kp_bv) */
}

/* The clip's scratch array and the views the integration draws into with boundary data
 * (kp_gpu_internal.h clip): each array's members, then the scratch */
static swgl_status clip_views(kp_gpu *g)
{
    gpu_array2d_desc cd = {g->tw, g->th, GPU_RGBA32F, "kp clip"};
    swgl_status st = gpu_array2d_create(&cd, &g->clip);
    gpu_mrt *of[3] = {g->state[0], g->state[1], g->qstar};
    for (int v = 0; v < 3 && st == SWGL_OK; v++) {
        if (!of[v]) continue;
        gpu_array2d *m[GPU_MRT_MAX];
        int n = gpu_mrt_count(of[v]);
        for (int k = 0; k < n; k++) m[k] = gpu_mrt_member(of[v], k);
        m[n] = g->clip;
        st = gpu_mrt_view(m, n + 1, "kp state and clip", &g->clipv[v]);
    }
    return st;
}

/* texel k of the bed (B_E, B_N, B_ij, code), with B_ij kept in g->bij */
static void bed_texel(kp_gpu *g, const kp_problem *p, size_t k, double *v)
{
    int i = (int)(k % (size_t)g->tw), j = (int)(k / (size_t)g->tw);
    double BE, BW, BN, BS, Bij;
    kp_cell_bed(p, i, j, &BE, &BW, &BN, &BS, &Bij);
    v[0] = BE;
    v[1] = BN;
    v[2] = Bij;
    v[3] = g->code[k];
    g->bij[k] = Bij;
}

/* the bed and (a texture of) Manning's g n^2: in float, the texels in place on every core
 * (gpu_array2d.h); in double through a buffer of doubles */
static swgl_status upload_constants(kp_gpu *g, const kp_problem *p)
{
    long n = (long)grid_size(g->nx, g->ny);
    swgl_status st = SWGL_OK;
    int man = g->manning == MAN_TEXTURE;
    if (!g->dbl) {
        gpu_array2d *bed = gpu_mrt_member(g->bed, 0);
        float *t = gpu_array2d_upload_map(bed, &st);
        if (!t) return st;
#pragma omp parallel for schedule(static)
        for (long k = 0; k < n; k++) {
            double v[4];
            bed_texel(g, p, (size_t)k, v);
            for (int c = 0; c < 4; c++) t[4 * k + c] = (float)v[c];
        }
        if ((st = gpu_array2d_upload_unmap(&bed, 1)) != SWGL_OK || !man) return st;
        gpu_array2d *mt = gpu_mrt_member(g->man, 0);
        if (!(t = gpu_array2d_upload_map(mt, &st))) return st;
#pragma omp parallel for schedule(static)
        for (long k = 0; k < n; k++) {
            t[4 * k] = (float)(g->code[k] == CELL_ACTIVE ? p->sw.g * p->manning[k] * p->manning[k] : 0.0);
            t[4 * k + 1] = t[4 * k + 2] = t[4 * k + 3] = 0.0f;
        }
        return gpu_array2d_upload_unmap(&mt, 1);
    }
    double *b = malloc(4 * (size_t)n * sizeof(double));
    if (!b) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
#pragma omp parallel for schedule(static)
    for (long k = 0; k < n; k++) bed_texel(g, p, (size_t)k, b + 4 * k);
    st = kpg_arr_upload(g, g->bed, b);
    if (st == SWGL_OK && man) {
#pragma omp parallel for schedule(static)
        for (long k = 0; k < n; k++) {
            b[4 * k] = g->code[k] == CELL_ACTIVE ? p->sw.g * p->manning[k] * p->manning[k] : 0.0;
            b[4 * k + 1] = b[4 * k + 2] = b[4 * k + 3] = 0.0;
        }
        st = kpg_arr_upload(g, g->man, b);
    }
    free(b);
    return st;
}

swgl_status kp_gpu_create(const kp_problem *p, kp_gpu **out) { return kp_gpu_create_prec(p, 0, out); }

swgl_status kp_gpu_create_prec(const kp_problem *p, int dbl, kp_gpu **out)
{
    return kp_gpu_create_tuned(p, dbl, NULL, out);
}

swgl_status kp_gpu_create_tuned(const kp_problem *p, int dbl, const swgl_tuning *tune, kp_gpu **out)
{
    swgl_status st;
    *out = NULL;
    if (!p) return swgl_fail(SWGL_ERR_ARG, "kp: no problem");
    if ((st = swe_problem_check(&p->sw)) != SWGL_OK || (st = kp_problem_check(p)) != SWGL_OK) return st;
    scheme_register_shaders();
    kp_gpu *g = calloc(1, sizeof *g);
    if (!g) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    g->compute = gpu_compute_passes();
    g->tune = *tuning_or_default(tune);
    if (g->tune.mpi_pack && gpu_strips_create(&g->strips) != SWGL_OK) {
        free(g);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    }
    if (g->strips) gpu_strips_set_mapped(g->strips, g->tune.mpi_mapped);
    g->nx = p->sw.nx;
    g->ny = p->sw.ny;
    g->tw = grid_stride(g->nx);
    g->th = grid_rows(g->ny);
    g->ntx = (g->nx + KP_TILE - 1) / KP_TILE;
    g->nty = (g->ny + KP_TILE - 1) / KP_TILE;
    g->dx = p->sw.dx;
    g->dy = p->sw.dy;
    g->g = p->sw.g;
    g->cfl = p->sw.cfl;
    g->eps = p->sw.h_dry;
    g->kappa = p->sw.kappa;
    g->cap_depth = p->cap_depth > 0.0 ? p->cap_depth : 0.0;
    g->theta = p->theta;
    g->rk2 = p->rk2 != 0;
    g->dbl = dbl != 0;
    size_t n = grid_size(g->nx, g->ny);
    g->code = malloc(n);
    g->bij = malloc(n * sizeof(double));
    if (!g->code || !g->bij) {
        kp_gpu_destroy(g);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    }
    memcpy(g->code, p->sw.code, n);
    /* Manning: none, one value, or a texture */
    g->manning = MAN_NONE;
    if (p->manning) {
        double n0 = -1;
        for (size_t k = 0; k < n; k++) {
            if (g->code[k] != CELL_ACTIVE) continue;
            if (n0 < 0) n0 = p->manning[k];
            else if (p->manning[k] != n0) g->manning = MAN_TEXTURE;
        }
        if (g->manning != MAN_TEXTURE && n0 > 0) {
            g->manning = MAN_UNIFORM;
            g->gn2 = p->sw.g * n0 * n0;
        }
    }
    snprintf(g->defs, sizeof g->defs,
             "%s%s%s#define KP_TILE %d\n#define KP_NX %d\n#define KP_NY %d\n#define KP_NTX %d\n#define KP_NTY %d\n"
             "#define KP_MANNING %d\n%s",
             /* (`precise` for the compensated update in GLSL 3.30 where the driver has it:
              * kp_real.glsl KP_PRECISE; a driver without it only warns) */
             "#extension GL_ARB_gpu_shader5 : enable\n",
             g->dbl ? "#extension GL_ARB_gpu_shader_fp64 : require\n#define KP_DOUBLE 1\n" : "", CELL_CODE_GLSL,
             KP_TILE, g->nx, g->ny, g->ntx, g->nty, g->manning,
             (g->plain = !grid_has_value_codes(g->code, n)) ? GRID_PLAIN_GLSL : "");
    if (p->sw.own[2]) {   /* a rank's block over MPI: the bound of its own cells only (kp_rates.glsl) */
        size_t l = strlen(g->defs);
        snprintf(g->defs + l, sizeof g->defs - l, "#define KP_OWN ivec4(%d, %d, %d, %d)\n", p->sw.own[0] + 1,
                 p->sw.own[1] + 1, p->sw.own[2] + 1, p->sw.own[3] + 1);
    }
    g->forc = p->sw.forcing;
    g->sw = &p->sw;
    g->forcing = swe_forcing_any(g->forc);
    /* open, level and depth boundaries (numbers or series) and a steady discharge stay on
     * the kernels, their faces' volumes summed there (swe_forcing_faces_on_gpu, kpg_ring_acc;
     * a series' values by a pass on the GPU's clock, gpu_bvals.h); other boundary data (a
     * discharge hydrograph), rain and sources run the host clock on the passes */
    g->devb = g->compute && !g->dbl && g->forcing && swe_forcing_faces_on_gpu(g->forc) &&
              g->tune.kp_fused != TUNE_KP_FUSED_OFF;
    g->fused = g->compute && !g->dbl && (!g->forcing || g->devb) && g->tune.kp_fused != TUNE_KP_FUSED_OFF;
    /* run_to steps on kernels that skip dry tiles outright (kpg_step_kernels; measured on an
     * H200, docs/performance.md); tune kp.fused=flux keeps the reduction, the clock and
     * the integration as passes after the flux kernel, to measure the choice */
    int flux_only = g->tune.kp_fused == TUNE_KP_FUSED_FLUX;
    g->M = g->nx > g->ny ? g->nx : g->ny;
    if (g->forcing) {
        size_t l = strlen(g->defs);
        if (g->forc->n_seg) l += (size_t)snprintf(g->defs + l, sizeof g->defs - l, "#define KP_NSEG %d\n", g->forc->n_seg);
        if (g->forc->rain) l += (size_t)snprintf(g->defs + l, sizeof g->defs - l, "#define KP_RAIN 1\n");
        g->redraw = gpu_redraw_any(g->forc);
        if (g->redraw) snprintf(g->defs + l, sizeof g->defs - l, "#define KP_CELL_ADD 1\n");
    }
    char di[4][1200];
    /* kp_flux_cs's shape and the step on kernels (kp_gpu_kernels.c) */
    if ((st = kpg_kernels_shape(g, flux_only)) != SWGL_OK) {
        kp_gpu_destroy(g);
        return st;
    }
    /* the GPU's sums of the boundary faces follow the step on kernels (kpg_step_kernels); the
     * flux kernel alone (tune kp.fused=flux, a tile under 2 cells a side) steps on the host
     * clock, which books the faces itself */
    if (!g->kstep) g->devb = 0;
    int w = g->tw, h = g->th;
    for (int s = 0; s < 2; s++)
        for (int c = 0; c < 2; c++)
            snprintf(di[2 * s + c], sizeof di[0], "%s%s%s%s", g->defs, s ? "#define KP_STAGE1 1\n" : "",
                     c ? "#define KP_DT_ON_GPU 1\n" : "", g->forcing && !c ? "#define KP_CLIP 1\n" : "");
    gpu_array2d_desc wd = {g->ntx, g->nty, GPU_RGBA32F, "kp wet tiles"};
    char wdefs[1100];   /* the wet map's: the second rule's inputs in float (kp_wet.glsl) */
    snprintf(wdefs, sizeof wdefs, "%s%s%s", g->defs, g->dbl ? "" : "#define KP_REST 1\n",
             !g->dbl && g->rk2 ? "#define KP_RK2 1\n" : "");
    static const float zero[4] = {0, 0, 0, 0};
    if ((st = kpg_arr_create(g, w, h, 1, 0, "kp state 0", &g->state[0])) ||
        (st = kpg_arr_create(g, w, h, 1, 0, "kp state 1", &g->state[1])) ||
        (g->rk2 && (st = kpg_arr_create(g, w, h, 1, 0, "kp Q*", &g->qstar))) ||
        (st = kpg_arr_create(g, w, h, 1, 0, "kp bed (B_E, B_N, B_ij, code)", &g->bed)) ||
        (st = kpg_arr_create(g, w, h, 1, 1, "kp R", &g->R)) ||
        (st = gpu_mrt_depth_create(g->R, &g->dR)) ||
        (st = gpu_array2d_create(&wd, &g->wet[0])) ||
        (st = gpu_array2d_create(&wd, &g->wet[1])) ||
        (g->manning == MAN_TEXTURE && (st = kpg_arr_create(g, w, h, 1, 0, "kp manning g n^2", &g->man))) ||
        (st = gpu_clock_create(3, &g->clock)) ||
        (st = gpu_array2d_fill(g->wet[0], zero)) || (st = gpu_array2d_fill(g->wet[1], zero)) ||
        (st = gpu_reductor_create(&g->red)) || (st = kpg_build_flux(g)) ||
        (st = gpu_program_create("kp_wet", wdefs, &g->p_wet)) ||
        (st = kpg_kernels_create(g)) ||
        (st = gpu_program_create("kp_integrate", di[0], &g->p_int[0][0])) ||
        (st = gpu_program_create("kp_integrate", di[1], &g->p_int[0][1])) ||
        (g->rk2 && (st = gpu_program_create("kp_integrate", di[2], &g->p_int[1][0]))) ||
        (g->rk2 && (st = gpu_program_create("kp_integrate", di[3], &g->p_int[1][1]))) ||
        (st = upload_constants(g, p)) || (g->forcing && (st = kpg_forcing_create(g, p))) ||
        (g->forcing && (st = clip_views(g)) != SWGL_OK)) {
        kp_gpu_destroy(g);
        return st;
    }
    g->tiles_stale = 1;
    if (gpu_timer_create(KP_TIMER_SLOTS, &g->timer) != SWGL_OK) g->timer = NULL;   /* auto then stays on */
    swgl_clear_error();
    /* early exit would skip the dry tiles that rain, a source or an inflow wets, and so
     * would a ghost of a value code without boundary data (through the API only: a level
     * above a dry edge's bed gives it water; cpu_ref/kp_fast.c does the same) */
    int value_ghost = 0;
    for (size_t k = 0; k < n && !value_ghost; k++)
        value_ghost = g->code[k] == CELL_LEVEL || g->code[k] == CELL_DEPTH || g->code[k] == CELL_DISCHARGE;
    /* (open boundaries alone take no water in: a free ghost copies the cell beside it, so a
     * dry edge stays dry) */
    int open_only = g->forcing && !g->forc->rain && g->forc->n_src == 0 && !g->forc->forced;
    for (int s = 0; open_only && s < g->forc->n_seg; s++) open_only = g->forc->seg[s].code == CELL_FREE;
    g->ee_forbidden = (g->forcing && !open_only) || value_ghost;
    /* the second rule on the passes (float: kp_wet.glsl compares texels' bits; free outlets
     * alone: a value changed at the boundary would change a tile at rest) */
    g->rest_frag = g->tune.kp_rest && !g->dbl && !g->compute && !g->fused && !g->ee_forbidden;
    kp_gpu_set_early_exit(g, p->early_exit);
    *out = g;
    return SWGL_OK;
}

/* ---- state --------------------------------------------------------------------------- */

/* Texel k of the state (w, hu, hv, l; a ghost's B_ij, segment, 0, code) from the depth and
 * discharges of cell k */
static void state_texel(const kp_gpu *g, size_t k, const double *h, const double *qx, const double *qy, double *v)
{
    if (g->code[k] != CELL_ACTIVE) {
        v[0] = g->bij[k];
        if (g->forcing) {   /* a ghost's .y: its segment, -1 for none (kp_recon.glsl kp_bv) */
            size_t r;
            int i = (int)(k % (size_t)g->tw), j = (int)(k / (size_t)g->tw);
            v[1] = swe_ring_of(g->forc, g->nx, g->ny, g->M, i, j, &r);
        } else
            v[1] = 0.0;
        v[2] = 0.0;
        v[3] = -1.0 - g->code[k];
        return;
    }
    /* as on the CPU: w = B_ij + h; a dry cell has no momentum.  In float the surface is
     * w + l over the float bed the passes hold, l its low word (cpu_ref/kp_fast_update.h
     * split: the pair an update's TwoSum would give), so that a depth read back and set
     * again is the same state, and a depth of 0 is w = B_ij, l = 0; h < 0 reads as 0 as
     * on the CPU, but in float a deficit within h_dry, which the integration carries
     * (kp_integrate_fn.glsl), is kept; dry is decided on the depth with its low word, in
     * the passes' precision, as the integration decides it (a NaN stays: the wet map
     * counts it) */
    double hd = h[k] > 0.0 || isnan(h[k]) || (!g->dbl && h[k] >= -g->eps) ? h[k] : 0.0;
    double w, l = 0.0, x;
    if (g->dbl) {
        w = g->bij[k] + hd;
        x = w - g->bij[k];
    } else {
        float bf = (float)g->bij[k];
        double wd = (double)bf + hd;
        float hi = (float)wd, lo = (float)(wd - (double)hi), sm = hi + lo;
        float lf = lo - (sm - hi);
        w = sm;
        l = lf;
        x = (sm - bf) + lf;
        if (isnan(hd)) w = wd, l = 0.0;
    }
    int wet = !(x <= (g->dbl ? g->eps : (double)(float)g->eps));
    v[0] = w;
    v[1] = wet ? qx[k] : 0.0;
    v[2] = wet ? qy[k] : 0.0;
    v[3] = l;
}

swgl_status kp_gpu_set_state(kp_gpu *g, const double *h, const double *qx, const double *qy)
{
    long n = (long)grid_size(g->nx, g->ny);
    g->cur = 0;
    g->tiles_stale = 1;
    g->rest_hist = 0;
    /* float keeps w in float: the rain comes in pulses (cpu_ref/swe.h swe_clock_rain) */
    if (g->forcing && !g->dbl) swe_clock_rain_quantum(&g->fclk, g->sw, FLT_EPSILON, h);
    swgl_status st = SWGL_OK;
    if (!g->dbl) {   /* the texels in place, every core (gpu_array2d.h), into both states */
        gpu_array2d *to[2] = {gpu_mrt_member(g->state[0], 0), gpu_mrt_member(g->state[1], 0)};
        float *t = gpu_array2d_upload_map(to[0], &st);
        if (!t) return st;
#pragma omp parallel for schedule(static)
        for (long k = 0; k < n; k++) {
            double v[4];
            state_texel(g, (size_t)k, h, qx, qy, v);
            for (int c = 0; c < 4; c++) t[4 * k + c] = (float)v[c];
        }
        return gpu_array2d_upload_unmap(to, 2);
    }
    double *s = malloc(4 * (size_t)n * sizeof(double));
    if (!s) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
#pragma omp parallel for schedule(static)
    for (long k = 0; k < n; k++) state_texel(g, (size_t)k, h, qx, qy, s + 4 * k);
    st = kpg_arr_upload(g, g->state[0], s);
    if (st == SWGL_OK) st = kpg_arr_upload(g, g->state[1], s);
    free(s);
    return st;
}

swgl_status kp_gpu_get_state(kp_gpu *g, double *h, double *qx, double *qy)
{
    size_t n = grid_size(g->nx, g->ny);
    double *s = malloc(4 * n * sizeof(double));
    if (!s) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    swgl_status st = arr_download(g, g->state[g->cur], s);
    if (st == SWGL_OK) {
#pragma omp parallel for schedule(static)
        for (size_t k = 0; k < n; k++) {
            int a = g->code[k] == CELL_ACTIVE;
            /* the depth the GPU's own w, l and B_ij hold, (w - B_ij) + l in double */
            double bij = g->dbl ? g->bij[k] : (double)(float)g->bij[k];
            h[k] = a ? (s[4 * k] - bij) + s[4 * k + 3] : 0.0;
            qx[k] = a ? s[4 * k + 1] : 0.0;
            qy[k] = a ? s[4 * k + 2] : 0.0;
        }
    }
    free(s);
    return st;
}
