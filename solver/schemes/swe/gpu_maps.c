/* gpu_maps.c — the flood maps on the GPU (gpu_maps.h). */
#include "gpu_maps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gpu_maps_destroy(gpu_maps *g)
{
    for (int k = 0; k < 2; k++) {
        gpu_mrt_destroy(g->maps[k]);
        gpu_program_destroy(g->prog[k]);
    }
    memset(g, 0, sizeof *g);
}

swgl_status gpu_maps_start(gpu_maps *g, int w, int h, const char *pass, const char *defs, const swe_maps *m)
{
    size_t n = (size_t)w * h;
    gpu_mrt_desc d = {w, h, 2, {GPU_RGBA32F, GPU_RGBA32F}, "flood maps"};
    float *a = malloc(4 * n * sizeof(float)), *b = calloc(4 * n, sizeof(float));
    swgl_status st = a && b ? SWGL_OK : swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    size_t dl = strlen(defs) + 64;
    char *dd = st == SWGL_OK ? malloc(dl) : NULL;
    if (st == SWGL_OK && !dd) st = swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    /* the first MRT now; the second, the pass's target, when a pass first runs (gpu_maps_begin):
     * a run whose kernels update the maps in place never makes it (at 4096^2, 512 MB) */
    if (st == SWGL_OK && !g->maps[0]) st = gpu_mrt_create(&d, &g->maps[0]);
    g->w = w;
    g->h = h;
    for (int k = 0; st == SWGL_OK && k < 2; k++) {
        snprintf(dd, dl, "%s%s", defs, k ? "#define SWE_MAPS_DT_ON_GPU 1\n" : "");
        if (!g->prog[k]) st = gpu_program_create(pass, dd, &g->prog[k]);
    }
    for (size_t k = 0; st == SWGL_OK && k < n; k++) {
        a[4 * k] = (float)m->m[SWE_MAP_MAX_H][k];
        a[4 * k + 1] = (float)m->m[SWE_MAP_MAX_SPEED][k];
        a[4 * k + 2] = (float)m->m[SWE_MAP_MAX_HAZARD][k];
        a[4 * k + 3] = (float)m->m[SWE_MAP_ARRIVAL][k];
        b[4 * k] = (float)m->m[SWE_MAP_T_MAX_H][k];
    }
    /* (only the maps the next update reads: a pass writes every texel of its target) */
    if (st == SWGL_OK && (st = gpu_array2d_upload(gpu_mrt_member(g->maps[0], 0), a)) == SWGL_OK)
        st = gpu_array2d_upload(gpu_mrt_member(g->maps[0], 1), b);
    free(a);
    free(b);
    free(dd);
    g->mi = 0;
    g->arrival = (float)m->arrival_depth;
    g->hdry = (float)m->h_dry;
    return st;
}

gpu_pass *gpu_maps_begin(gpu_maps *g, gpu_pass *p, double t, const gpu_array2d *clock, double t_known)
{
    if (!g->maps[0]) return NULL;
    if (!g->maps[1 - g->mi]) {   /* the pass's target, the first time a pass runs */
        gpu_mrt_desc d = {g->w, g->h, 2, {GPU_RGBA32F, GPU_RGBA32F}, "flood maps"};
        if ((g->failed = gpu_mrt_create(&d, &g->maps[1 - g->mi])) != SWGL_OK) return NULL;
    }
    gpu_pass_begin(p, g->prog[clock != NULL]);
    gpu_pass_array(p, "u_maps_a", gpu_mrt_member(g->maps[g->mi], 0));
    gpu_pass_array(p, "u_maps_b", gpu_mrt_member(g->maps[g->mi], 1));
    gpu_pass_float(p, "u_arrival", g->arrival);
    gpu_pass_float(p, "u_maps_hdry", g->hdry);
    if (clock) {
        gpu_pass_array(p, "u_clock", clock);
        gpu_pass_float(p, "u_t_known", (float)t_known);
    } else {
        gpu_pass_float(p, "u_t", (float)t);
    }
    return p;
}

int gpu_maps_bind(gpu_maps *g, gpu_pass *p, int unit, double t_known)
{
    if (!g->maps[0]) return 0;
    gpu_pass_image_rw(p, unit, gpu_mrt_member(g->maps[g->mi], 0));
    gpu_pass_image_rw(p, unit + 1, gpu_mrt_member(g->maps[g->mi], 1));
    gpu_pass_float(p, "u_arrival", g->arrival);
    gpu_pass_float(p, "u_maps_hdry", g->hdry);
    gpu_pass_float(p, "u_t_known", (float)t_known);
    return 1;
}

swgl_status gpu_maps_end(gpu_maps *g, gpu_pass *p)
{
    swgl_status st = gpu_pass_draw_mrt(p, g->maps[1 - g->mi], NULL);
    if (st == SWGL_OK) g->mi = 1 - g->mi;
    return st;
}

swgl_status gpu_maps_read(gpu_maps *g, const unsigned char *code, swe_maps *m)
{
    if (!g->maps[0]) return SWGL_OK;
    const gpu_array2d *a0 = gpu_mrt_member(g->maps[g->mi], 0);
    size_t n = (size_t)gpu_array2d_width(a0) * gpu_array2d_height(a0);
    float *a = malloc(4 * n * sizeof(float)), *b = malloc(4 * n * sizeof(float));
    swgl_status st = a && b ? SWGL_OK : swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    if (st == SWGL_OK && (st = gpu_array2d_download(a0, a)) == SWGL_OK)
        st = gpu_array2d_download(gpu_mrt_member(g->maps[g->mi], 1), b);
    for (size_t k = 0; st == SWGL_OK && k < n; k++) {
        if (code[k] != CELL_ACTIVE) continue;
        m->m[SWE_MAP_MAX_H][k] = a[4 * k];
        m->m[SWE_MAP_MAX_SPEED][k] = a[4 * k + 1];
        m->m[SWE_MAP_MAX_HAZARD][k] = a[4 * k + 2];
        m->m[SWE_MAP_ARRIVAL][k] = a[4 * k + 3];
        m->m[SWE_MAP_T_MAX_H][k] = b[4 * k];
    }
    free(a);
    free(b);
    return st;
}
