/* roe_gpu.c — the driver of the GPU Roe solver (Lastra 4.3, 4.4, Figure 8).
 *
 * Textures, (nx+2) x (ny+2) volumes with the ghost ring:
 *   vconst      (H, |V|, orientation bits, code)                 Lastra 4.2.1
 *   state[2]    (h, qx, qy, 0), ping-pong
 *   edges       (2(nx+2)) x (ny+2): (normal, |Gamma|, flag)        Lastra 4.2.3
 *   flux        MRT of two edge-sized arrays: F- to the low side, F- to the high side,
 *               each with |Gamma| ||D||_inf in w
 *   dtloc       local dt per volume; its min is the step
 * Per step: edge pass -> dt pass -> min reduction (1x1 read back) -> update pass. */
#include "roe_gpu.h"

#include <math.h>
#include <stdlib.h>

#include "gpu_pass.h"
#include "scheme_shaders.h"
#include "gpu_reductor.h"

struct roe_gpu {
    int nx, ny, W, H;
    double g, cfl, h_dry;
    gpu_array2d *vconst, *state[2], *edges, *dtloc;
    gpu_mrt *flux;
    gpu_reductor *red;
    gpu_program *p_edge, *p_dt, *p_update;
    int cur;
};

void roe_gpu_destroy(roe_gpu *r)
{
    if (!r) return;
    gpu_array2d_destroy(r->vconst);
    gpu_array2d_destroy(r->state[0]);
    gpu_array2d_destroy(r->state[1]);
    gpu_array2d_destroy(r->edges);
    gpu_array2d_destroy(r->dtloc);
    gpu_mrt_destroy(r->flux);
    gpu_reductor_destroy(r->red);
    gpu_program_destroy(r->p_edge);
    gpu_program_destroy(r->p_dt);
    gpu_program_destroy(r->p_update);
    free(r);
}

static swgl_status upload_constants(roe_gpu *r, const swe_problem *p)
{
    int W = r->W, H = r->H;
    float *vc = malloc((size_t)4 * W * H * sizeof(float));
    float *ed = malloc((size_t)8 * W * H * sizeof(float));
    swgl_status st = SWGL_ERR_NO_MEMORY;
    if (!vc || !ed) goto done;
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) {
            int k = j * W + i;
            float *v = vc + 4 * k;
            v[0] = (float)p->H[k];
            v[1] = (float)(p->dx * p->dy);
            v[2] = 3.0f;                   /* owns its east and north edges: bits 0b0011 */
            v[3] = (float)p->code[k];
            for (int s = 0; s < 2; s++) {  /* s = 0 east edge, 1 north edge */
                float *e = ed + 4 * (j * 2 * W + 2 * i + s);
                int ii = i + (s == 0), jj = j + (s == 1);
                int inside = ii < W && jj < H;
                int a = p->code[k] == SWE_ACTIVE;
                int b = inside && p->code[jj * W + ii] == SWE_ACTIVE;
                e[0] = s == 0 ? 1.0f : 0.0f;
                e[1] = s == 0 ? 0.0f : 1.0f;
                e[2] = (float)(s == 0 ? p->dy : p->dx);
                e[3] = (a && b) ? 0.0f : (a || b) ? 1.0f : -1.0f;
            }
        }
    if ((st = gpu_array2d_upload(r->vconst, vc)) == SWGL_OK) st = gpu_array2d_upload(r->edges, ed);
done:
    free(vc);
    free(ed);
    return st;
}

swgl_status roe_gpu_create(const swe_problem *p, roe_gpu **out)
{
    scheme_register_shaders();
    swgl_status st;
    roe_gpu *r = calloc(1, sizeof *r);
    *out = NULL;
    if (!r) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    r->nx = p->nx;
    r->ny = p->ny;
    r->W = p->nx + 2;
    r->H = p->ny + 2;
    r->g = p->g;
    r->cfl = p->cfl;
    r->h_dry = p->h_dry;
    gpu_array2d_desc vd = {r->W, r->H, GPU_RGBA32F, "roe constants"};
    gpu_array2d_desc s0 = {r->W, r->H, GPU_RGBA32F, "roe state 0"};
    gpu_array2d_desc s1 = {r->W, r->H, GPU_RGBA32F, "roe state 1"};
    gpu_array2d_desc ed = {2 * r->W, r->H, GPU_RGBA32F, "roe edges"};
    gpu_array2d_desc dd = {r->W, r->H, GPU_RGBA32F, "roe local dt"};
    gpu_mrt_desc fd = {2 * r->W, r->H, 2, {0}, "roe edge fluxes"};
    if ((st = gpu_array2d_create(&vd, &r->vconst)) || (st = gpu_array2d_create(&s0, &r->state[0])) ||
        (st = gpu_array2d_create(&s1, &r->state[1])) || (st = gpu_array2d_create(&ed, &r->edges)) ||
        (st = gpu_array2d_create(&dd, &r->dtloc)) || (st = gpu_mrt_create(&fd, &r->flux)) ||
        (st = gpu_reductor_create(&r->red)) || (st = gpu_program_create("roe_edge", NULL, &r->p_edge)) ||
        (st = gpu_program_create("roe_dt", NULL, &r->p_dt)) ||
        (st = gpu_program_create("roe_update", NULL, &r->p_update)) || (st = upload_constants(r, p))) {
        roe_gpu_destroy(r);
        return st;
    }
    *out = r;
    return SWGL_OK;
}

swgl_status roe_gpu_set_state(roe_gpu *r, const double *h, const double *qx, const double *qy)
{
    size_t n = (size_t)r->W * r->H;
    float *s = malloc(4 * n * sizeof(float));
    if (!s) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    for (size_t k = 0; k < n; k++) {
        s[4 * k] = (float)h[k];
        s[4 * k + 1] = (float)qx[k];
        s[4 * k + 2] = (float)qy[k];
        s[4 * k + 3] = 0.0f;
    }
    r->cur = 0;
    swgl_status st = gpu_array2d_upload(r->state[0], s);
    free(s);
    return st;
}

swgl_status roe_gpu_get_state(roe_gpu *r, double *h, double *qx, double *qy)
{
    size_t n = (size_t)r->W * r->H;
    float *s = malloc(4 * n * sizeof(float));
    if (!s) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    swgl_status st = gpu_array2d_download(r->state[r->cur], s);
    for (size_t k = 0; st == SWGL_OK && k < n; k++) {
        h[k] = s[4 * k];
        qx[k] = s[4 * k + 1];
        qy[k] = s[4 * k + 2];
    }
    free(s);
    return st;
}

swgl_status roe_gpu_step(roe_gpu *r, double dt_max, double *dt_taken)
{
    swgl_status st;
    gpu_pass p;
    gpu_array2d *now = r->state[r->cur], *next = r->state[1 - r->cur];

    /* 1. edges: |Gamma| F- to both sides and |Gamma| ||D|| through two targets */
    gpu_pass_begin(&p, r->p_edge);
    gpu_pass_array(&p, "u_state", now);
    gpu_pass_array(&p, "u_const", r->vconst);
    gpu_pass_array(&p, "u_edges", r->edges);
    gpu_pass_float(&p, "u_g", (float)r->g);
    gpu_pass_float(&p, "u_hdry", (float)r->h_dry);
    if ((st = gpu_pass_draw_mrt(&p, r->flux, NULL)) != SWGL_OK) return st;

    /* 2. local dt per volume, (8) */
    gpu_pass_begin(&p, r->p_dt);
    gpu_pass_array(&p, "u_low", gpu_mrt_member(r->flux, 0));
    gpu_pass_array(&p, "u_high", gpu_mrt_member(r->flux, 1));
    gpu_pass_array(&p, "u_const", r->vconst);
    gpu_pass_float(&p, "u_cfl", (float)r->cfl);
    if ((st = gpu_pass_draw(&p, r->dtloc, NULL)) != SWGL_OK) return st;

    /* 3. dt = min over volumes: the only value that comes back to the CPU */
    float mn[4];
    if ((st = gpu_reductor_run(r->red, r->dtloc, GPU_REDUCE_MIN, mn)) != SWGL_OK) return st;
    if (isnan(mn[0]) || mn[0] <= 0.0f)
        return swgl_fail(SWGL_ERR_ARG, "the time step is %g: the solution has blown up (NaN or negative depth)",
                        (double)mn[0]);
    double dt = isinf(mn[0]) ? dt_max : fmin((double)mn[0], dt_max);

    /* 4. W^{n+1}, (4) */
    gpu_pass_begin(&p, r->p_update);
    gpu_pass_array(&p, "u_state", now);
    gpu_pass_array(&p, "u_low", gpu_mrt_member(r->flux, 0));
    gpu_pass_array(&p, "u_high", gpu_mrt_member(r->flux, 1));
    gpu_pass_array(&p, "u_const", r->vconst);
    gpu_pass_float(&p, "u_dt", (float)dt);
    gpu_pass_float(&p, "u_hdry", (float)r->h_dry);
    if ((st = gpu_pass_draw(&p, next, NULL)) != SWGL_OK) return st;
    r->cur = 1 - r->cur;
    *dt_taken = dt;
    return SWGL_OK;
}
