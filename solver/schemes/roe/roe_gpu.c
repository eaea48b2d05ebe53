/* roe_gpu.c — the Roe scheme of Lastra et al. (2009) as fragment passes (Lastra 4.3,
 * 4.4, Figure 8), with the mass-conservative positivity limiter of cpu_ref/roe_cpu.h, and
 * its backend behind scheme.h.  It is the first-order edge engine of the schemes whose
 * update is this draining one: the face is the scheme's (roe_gpu_create_face: roe's
 * roe_face.glsl, hllc's shaders/hllc/hllc_face.glsl, in the shared signature of
 * shaders/swe/swe_face.glsl), with Manning friction in the update where the scheme has a
 * field (hllc).  This file: the arrays in either precision, create and destroy, the state
 * up and down; the passes are in the files roe_gpu_internal.h lists (a step drawn through
 * them: roe_gpu_step.c).
 *
 * Arrays, (nx+2) x (ny+2) volumes with the ghost ring (swgl_grid.h):
 *   state[2]  (h, qx, qy, cell code), ping-pong; the code rides along in w, so the
 *             passes that need it read no constant texture
 *   bed       (H, 0, 0, 0): Lastra's depth function H = -z_b (the faces take z = -H)
 *   manning   (n, 0, 0, 0) per cell, only with a friction field (hllc's)
 *   flux      MRT of two edge arrays (2(nx+2)) x (ny+2): what each edge gives the cell
 *             on its low side and on its high side (shaders/roe/roe_edge.glsl)
 *   cell      (sum F-[qx, qy], dt_i, tau_i) per volume (roe_dt.glsl), which the update
 *             reads instead of re-gathering the momentum from the four edges; the mass
 *             fluxes it re-reads from the edges' x channels (the dt pass writing them
 *             as a second target instead, fewer bytes but one more render target,
 *             measured slower on an H100 at 0.8-1M cells, was removed: its figures
 *             are in docs/performance.md)
 * Double (`--precision double`, roe_gpu_create_ex; GL_ARB_gpu_shader_fp64, refused
 * without it): the same passes from the same sources (shaders/roe/roe_real.glsl: real =
 * double), each float4 array two RGBA32UI arrays of packed doubles, as the sediment
 * passes store theirs:
 *   state[2]  MRT (h, qx) + (qy, code);  bed (H, 0)
 *   flux      MRT of 4: low (Phi, F-[qx]) + (F-[qy], ||D||), high the same
 *   cell      MRT of 3: (sum F-[qx], sum F-[qy]), (tau_i, dt_i), and a float4 (-, -,
 *             dt_i, -) that gpgpu's min reduction and clock read (float4 only): the
 *             step is chosen from a float image of the bound (any step up to the bound
 *             is a step; the state does not depend on how dt is rounded), the update
 *             takes the chosen dt as a double (two int uniforms), and run_to's landing
 *             step is recomputed in double by the update (roe_update.glsl), so a stop
 *             is reached as exactly as by the time loop on the CPU
 *   mass fluxes always from the edges
 *   the problem's constants compiled in as exact decimal images (%.17e LF) */
#include "roe_gpu_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_context.h"
#include "roe.h"
#include "scheme_shaders.h"
#include "tuning.h"

void roe_gpu_destroy(roe_gpu *r)
{
    if (!r) return;
    gpu_strips_destroy(r->strips);
    gpu_array2d_destroy(r->state[0]);
    gpu_array2d_destroy(r->state[1]);
    gpu_mrt_destroy(r->state_d[0]);
    gpu_mrt_destroy(r->state_d[1]);
    gpu_array2d_destroy(r->bed);
    gpu_mrt_destroy(r->flux);
    gpu_mrt_destroy(r->cell);
    gpu_reductor_destroy(r->red);
    gpu_program_destroy(r->p_edge);
    gpu_program_destroy(r->p_dt);
    gpu_program_destroy(r->p_update);
    gpu_program_destroy(r->p_step);
    gpu_array2d_destroy(r->part);
    gpu_clock_destroy(r->clock);
    gpu_program_destroy(r->p_update_clock);
    gpu_maps_destroy(&r->maps);
    gpu_gather_destroy(r->gauges);
    gpu_hold_destroy(&r->hold);
    gpu_array2d_destroy(r->bvals);
    gpu_array2d_destroy(r->rainf);
    gpu_array2d_destroy(r->ring);
    gpu_program_destroy(r->p_ring);
    gpu_program_destroy(r->p_racc);
    gpu_program_destroy(r->p_update_maps);
    gpu_bvals_destroy(&r->bv);
    gpu_array2d_destroy(r->racc[0]);
    gpu_array2d_destroy(r->racc[1]);
    gpu_array2d_destroy(r->manning);
    swe_clock_free(&r->fclk);
    free(r->ringbuf);
    free(r);
}

/* A per-cell field v (the bed's H, Manning's n) into channel 0 of a: (v, 0) as two
 * doubles a texel, or (v, 0, 0, 0) in float */
static swgl_status upload_field(roe_gpu *r, gpu_array2d *a, const double *v)
{
    long n = (long)r->tex_w * (long)r->tex_h;
    swgl_status st = SWGL_OK;
    void *t = gpu_array2d_upload_map(a, &st);   /* (the texels in place: gpu_array2d.h) */
    if (!t) return st;
    if (r->dbl) {
        double *b = t;
#pragma omp parallel for schedule(static)
        for (long k = 0; k < n; k++) b[2 * k] = v[k], b[2 * k + 1] = 0.0;
    } else {
        float *b = t;
#pragma omp parallel for schedule(static)
        for (long k = 0; k < n; k++) b[4 * k] = (float)v[k], b[4 * k + 1] = b[4 * k + 2] = b[4 * k + 3] = 0.0f;
    }
    return gpu_array2d_upload_unmap(&a, 1);
}

/* Walls and free outlets only, no ghost with a value (whose segment values the passes would
 * read): the passes are built with SWGL_PLAIN_BOUNDARIES (swgl_grid.h) */
static int roe_plain(const roe_gpu *r)
{
    /* (a free outlet's segment is only for the accounts: its faces are plain) */
    return !grid_has_value_codes(r->code, (size_t)r->tex_w * (size_t)r->tex_h);
}

/* The double passes' defines: fp64, ROE_DOUBLE, the codes, and the problem's constants
 * in place of the float uniforms, as exact decimal images of the doubles. */
static swgl_status double_defines(const roe_gpu *r, char *defs, size_t len)
{
    int n = snprintf(defs, len,
                     "#extension GL_ARB_gpu_shader_fp64 : require\n#define ROE_DOUBLE 1\n%s"
                     "#define ROE_MASS_FROM_EDGES 1\n"
                     "#define u_len dvec2(%.17eLF, %.17eLF)\n#define u_g %.17eLF\n#define u_hdry %.17eLF\n"
                     "#define u_cfl %.17eLF\n#define u_area %.17eLF\n#define u_kappa %.17eLF\n",
                     CELL_CODE_GLSL, r->dy, r->dx, r->g, r->h_dry, r->cfl, r->dx * r->dy, r->kappa);
    if (n >= 0 && (size_t)n < len && roe_plain(r))
        n += snprintf(defs + n, len - (size_t)n, "%s", GRID_PLAIN_GLSL);
    if (n < 0 || (size_t)n >= len) return swgl_fail(SWGL_ERR_ARG, "roe: defines too long");
    return SWGL_OK;
}

/* What a ghost's state texel holds in h: its segment with boundary data (-1 for none),
 * else 0. */
static double ghost_h(const roe_gpu *r, size_t k)
{
    if (!r->forcing) return 0.0;
    int i = (int)(k % (size_t)r->tex_w), j = (int)(k / (size_t)r->tex_w);
    size_t ring;
    return swe_ring_of(r->forc, r->nx, r->ny, r->M, i, j, &ring);
}

swgl_status roe_gpu_create(const swe_problem *p, roe_gpu **out) { return roe_gpu_create_ex(p, 0, out); }

swgl_status roe_gpu_create_ex(const swe_problem *p, int use_double, roe_gpu **out)
{
    return roe_gpu_create_face(p, use_double, NULL, NULL, out);
}

swgl_status roe_gpu_create_face(const swe_problem *p, int use_double, const roe_gpu_face *face,
                                const swgl_tuning *tune, roe_gpu **out)
{
    const swgl_tuning *tn = tuning_or_default(tune);
    swgl_status st;
    *out = NULL;
    if ((st = swe_problem_check(p)) != SWGL_OK) return st;
    scheme_register_shaders();
    roe_gpu *r = calloc(1, sizeof *r);
    if (!r) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    r->compute = gpu_compute_passes();
    if (tn->mpi_pack && (st = gpu_strips_create(&r->strips)) != SWGL_OK) {
        free(r);
        return st;
    }
    if (r->strips) gpu_strips_set_mapped(r->strips, tn->mpi_mapped);
    r->scheme = face && face->scheme ? face->scheme : "roe";
    r->nx = p->nx;
    r->ny = p->ny;
    r->tex_w = grid_stride(p->nx);
    r->tex_h = grid_rows(p->ny);
    r->dbl = use_double != 0;
    r->g = p->g;
    r->cfl = p->cfl;
    r->h_dry = p->h_dry;
    r->kappa = p->kappa;
    r->dx = p->dx;
    r->dy = p->dy;
    /* The state arrays hold the codes, which set_state writes; the programs get the
     * codes' numbers as #defines from the one enum (swgl_grid.h). */
    r->code = p->code;
    r->forc = p->forcing;
    r->forcing = swe_forcing_any(r->forc);
    /* the fused kernel: gpu-compute, float, no boundary data or only open, level and depth
     * faces, numbers or series (whose volumes the ring pass sums on the GPU: devb); tune
     * roe.fused=off keeps the passes (to measure the choice) */
    r->devb = r->compute && !r->dbl && r->forcing && swe_forcing_faces_on_gpu(r->forc) && tn->roe_fused;
    r->fused = r->compute && !r->dbl && (!r->forcing || r->devb) && tn->roe_fused;
    r->mass_from_edges = r->dbl || !r->fused;
    char defs[1024];
    if (r->dbl) {
        if ((st = double_defines(r, defs, sizeof defs)) != SWGL_OK) {
            roe_gpu_destroy(r);
            return st;
        }
    } else {
        snprintf(defs, sizeof defs, "%s%s%s", CELL_CODE_GLSL,
                 r->mass_from_edges ? "#define ROE_MASS_FROM_EDGES 1\n" : "",
                 roe_plain(r) ? GRID_PLAIN_GLSL : "");
    }
    r->plain = roe_plain(r);
    r->M = r->nx > r->ny ? r->nx : r->ny;
    if (p->own[2]) {   /* a rank's block over MPI: the bound of its own cells only (roe_cell.glsl) */
        size_t l = strlen(defs);
        snprintf(defs + l, sizeof defs - l, "#define ROE_OWN ivec4(%d, %d, %d, %d)\n", p->own[0] + 1, p->own[1] + 1,
                 p->own[2] + 1, p->own[3] + 1);
    }
    if (r->forcing) {
        size_t l = strlen(defs);
        if (r->forc->n_seg) l += (size_t)snprintf(defs + l, sizeof defs - l, "#define ROE_NSEG %d\n", r->forc->n_seg);
        if (r->forc->rain) l += (size_t)snprintf(defs + l, sizeof defs - l, "#define ROE_RAIN 1\n");
        r->redraw = gpu_redraw_any(r->forc);
        if (r->redraw) snprintf(defs + l, sizeof defs - l, "#define ROE_CELL_ADD 1\n");
    }
    /* the scheme's face (roe_edges.glsl) and its friction (roe_update.glsl); none for roe,
     * whose programs are then as they were */
    if (face && face->face_define) {
        size_t l = strlen(defs);
        snprintf(defs + l, sizeof defs - l, "#define %s 1\n", face->face_define);
    }
    if (face && face->manning) {
        size_t l = strlen(defs);
        snprintf(defs + l, sizeof defs - l, "#define ROE_MANNING 1\n");
    }
    char defs_clock[1200], defs_step[1300];
    /* tune roe.group=AxB: the fused kernel's work group (default 8x16, the fastest measured
     * on the H200: docs/performance.md), to measure the choice */
    r->gx = tn->roe_group[0];
    r->gy = tn->roe_group[1];
    /* shared memory: the border edges' two vec4 arrays */
    if (r->fused && (st = tuning_check_group("roe.group", tn->roe_group, 2)) != SWGL_OK) {
        roe_gpu_destroy(r);
        return st;
    }
    snprintf(defs_step, sizeof defs_step, "%s#define ROE_GX %d\n#define ROE_GY %d\n", defs, r->gx, r->gy);
    snprintf(defs_clock, sizeof defs_clock, "%s#define ROE_DT_ON_GPU 1\n", defs);
    snprintf(r->maps_defs, sizeof r->maps_defs, "%s", defs);
    if (r->dbl) {
        gpu_mrt_desc s0 = {r->tex_w, r->tex_h, 2, {GPU_RGBA32UI, GPU_RGBA32UI}, "roe state 0 (double)"};
        gpu_mrt_desc s1 = {r->tex_w, r->tex_h, 2, {GPU_RGBA32UI, GPU_RGBA32UI}, "roe state 1 (double)"};
        gpu_array2d_desc bd = {r->tex_w, r->tex_h, GPU_RGBA32UI, "roe bed H (double)"};
        gpu_mrt_desc fd = {2 * r->tex_w, r->tex_h, 4, {GPU_RGBA32UI, GPU_RGBA32UI, GPU_RGBA32UI, GPU_RGBA32UI},
                           "roe edge fluxes (double)"};
        gpu_mrt_desc cd = {r->tex_w, r->tex_h, 3, {GPU_RGBA32UI, GPU_RGBA32UI, GPU_RGBA32F}, "roe cell sums (double)"};
        if ((st = gpu_mrt_create(&s0, &r->state_d[0])) || (st = gpu_mrt_create(&s1, &r->state_d[1])) ||
            (st = gpu_array2d_create(&bd, &r->bed)) || (st = gpu_mrt_create(&fd, &r->flux)) ||
            (st = gpu_mrt_create(&cd, &r->cell))) {
            roe_gpu_destroy(r);
            return st;
        }
    } else {
        gpu_array2d_desc s0 = {r->tex_w, r->tex_h, GPU_RGBA32F, "roe state 0"};
        gpu_array2d_desc s1 = {r->tex_w, r->tex_h, GPU_RGBA32F, "roe state 1"};
        gpu_array2d_desc bd = {r->tex_w, r->tex_h, GPU_RGBA32F, "roe bed H"};
        gpu_mrt_desc fd = {2 * r->tex_w, r->tex_h, 2, {0}, "roe edge fluxes"};
        gpu_mrt_desc cd = {r->tex_w, r->tex_h, r->mass_from_edges ? 1 : 2, {0}, "roe cell sums"};
        gpu_array2d_desc pd = {(r->tex_w + r->gx - 1) / r->gx, (r->tex_h + r->gy - 1) / r->gy, GPU_RGBA32F,
                               "roe dt_i per work group"};
        if ((st = gpu_array2d_create(&s0, &r->state[0])) || (st = gpu_array2d_create(&s1, &r->state[1])) ||
            (st = gpu_array2d_create(&bd, &r->bed)) || (!r->fused && (st = gpu_mrt_create(&fd, &r->flux))) ||
            (st = gpu_mrt_create(&cd, &r->cell)) || (r->fused && (st = gpu_array2d_create(&pd, &r->part))) ||
            (r->fused && (st = gpu_program_create_kernel("roe_step_cs", defs_step, &r->p_step)))) {
            roe_gpu_destroy(r);
            return st;
        }
    }
    if ((st = gpu_reductor_create(&r->red)) || (!r->fused && (st = gpu_program_create("roe_edge", defs, &r->p_edge))) ||
        (!r->fused && (st = gpu_program_create("roe_dt", defs, &r->p_dt))) ||
        (st = gpu_program_create("roe_update", defs, &r->p_update)) || (st = upload_field(r, r->bed, p->H))) {
        roe_gpu_destroy(r);
        return st;
    }
    if ((st = gpu_clock_create(2, &r->clock)) ||
        (st = gpu_program_create("roe_update", defs_clock, &r->p_update_clock)) ||
        (r->forcing && (st = rog_forcing_create(r, p, defs)))) {
        roe_gpu_destroy(r);
        return st;
    }
    if (face && face->manning) {
        gpu_array2d_desc md = {r->tex_w, r->tex_h, r->dbl ? GPU_RGBA32UI : GPU_RGBA32F, "manning n"};
        if ((st = gpu_array2d_create(&md, &r->manning)) || (st = upload_field(r, r->manning, face->manning))) {
            roe_gpu_destroy(r);
            return st;
        }
    }
    *out = r;
    return SWGL_OK;
}

int roe_gpu_is_double(const roe_gpu *r) { return r->dbl; }

swgl_status roe_gpu_set_state(roe_gpu *r, const double *h, const double *qx, const double *qy)
{
    long n = (long)r->tex_w * r->tex_h;
    swgl_status st = SWGL_OK;
    r->cur = 0;
    /* (the texels in place, every core: gpu_array2d.h; the same texels into both arrays) */
    if (r->dbl) {   /* (h, qx) and (qy, code), two doubles a texel */
        for (int m = 0; m < 2 && st == SWGL_OK; m++) {
            double *a = gpu_array2d_upload_map(gpu_mrt_member(r->state_d[0], m), &st);
            if (!a) break;
#pragma omp parallel for schedule(static)
            for (long k = 0; k < n; k++) {
                int act = r->code[k] == CELL_ACTIVE, wet = act && h[k] > r->h_dry;
                if (m == 0) {
                    a[2 * k] = act ? h[k] : ghost_h(r, k);
                    a[2 * k + 1] = wet ? qx[k] : 0.0;
                } else {
                    a[2 * k] = wet ? qy[k] : 0.0;
                    a[2 * k + 1] = (double)r->code[k];
                }
            }
            gpu_array2d *to[2] = {gpu_mrt_member(r->state_d[0], m), gpu_mrt_member(r->state_d[1], m)};
            st = gpu_array2d_upload_unmap(to, 2);
        }
        return st;
    }
    float *s = gpu_array2d_upload_map(r->state[0], &st);
    if (!s) return st;
#pragma omp parallel for schedule(static)
    for (long k = 0; k < n; k++) {
        /* as on the CPU: a dry cell (h <= h_dry) has no velocity, and the mass flux of its
         * edges relies on q = 0 there */
        int a = r->code[k] == CELL_ACTIVE, wet = a && h[k] > r->h_dry;
        s[4 * k] = a ? (float)h[k] : (float)ghost_h(r, k);
        s[4 * k + 1] = wet ? (float)qx[k] : 0.0f;
        s[4 * k + 2] = wet ? (float)qy[k] : 0.0f;
        s[4 * k + 3] = (float)r->code[k];
    }
    gpu_array2d *to[2] = {r->state[0], r->state[1]};
    return gpu_array2d_upload_unmap(to, 2);
}

swgl_status roe_gpu_get_state(roe_gpu *r, double *h, double *qx, double *qy)
{
    long n = (long)r->tex_w * r->tex_h;
    swgl_status st = SWGL_OK;
    if (r->dbl) {
        for (int m = 0; m < 2 && st == SWGL_OK; m++) {
            const double *a = gpu_array2d_download_map(gpu_mrt_member(r->state_d[r->cur], m), &st);
            if (!a) break;
#pragma omp parallel for schedule(static)
            for (long k = 0; k < n; k++) {
                int act = r->code[k] == CELL_ACTIVE;   /* a ghost's h holds its segment */
                if (m == 0) {
                    h[k] = act ? a[2 * k] : 0.0;
                    qx[k] = act ? a[2 * k + 1] : 0.0;
                } else {
                    qy[k] = act ? a[2 * k] : 0.0;
                }
            }
            st = gpu_array2d_download_unmap();
        }
        return st;
    }
    const float *s = gpu_array2d_download_map(r->state[r->cur], &st);
    if (!s) return st;
#pragma omp parallel for schedule(static)
    for (long k = 0; k < n; k++) {
        int act = r->code[k] == CELL_ACTIVE;   /* a ghost's h holds its segment */
        h[k] = act ? s[4 * k] : 0.0;
        qx[k] = act ? s[4 * k + 1] : 0.0;
        qy[k] = act ? s[4 * k + 2] : 0.0;
    }
    return gpu_array2d_download_unmap();
}
