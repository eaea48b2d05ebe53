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

/* cell k's start: m's arrays where it has them (a block's window over MPI ranks), else
 * from its start state */
static void start_cell(const swe_maps *m, size_t k, double *v)
{
    if (!m->m[0]) {
        swe_maps_start_cell(m, k, v);
        return;
    }
    for (int c = 0; c < SWE_MAP_COUNT; c++) v[c] = m->m[c][k];
}

swgl_status gpu_maps_start(gpu_maps *g, int w, int h, const char *pass, const char *defs, swe_maps *m)
{
    long n = (long)w * h;
    gpu_mrt_desc d = {w, h, 2, {GPU_RGBA32F, GPU_RGBA32F}, "flood maps"};
    swgl_status st = SWGL_OK;
    size_t dl = strlen(defs) + 64;
    char *dd = malloc(dl);
    if (!dd) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    /* the first MRT now; the second, the pass's target, when a pass first runs (gpu_maps_begin):
     * a run whose kernels update the maps in place never makes it (at 4096^2, 512 MB) */
    if (!g->maps[0]) st = gpu_mrt_create(&d, &g->maps[0]);
    g->w = w;
    g->h = h;
    for (int k = 0; st == SWGL_OK && k < 2; k++) {
        snprintf(dd, dl, "%s%s", defs, k ? "#define SWE_MAPS_DT_ON_GPU 1\n" : "");
        if (!g->prog[k]) st = gpu_program_create(pass, dd, &g->prog[k]);
    }
    free(dd);
    /* (only the maps the next update reads: a pass writes every texel of its target) the
     * texels in place, every core (gpu_array2d.h); the time of the largest depth is t0 or 0,
     * all 0 from t0 = 0: a fill */
    gpu_array2d *ma = st == SWGL_OK ? gpu_mrt_member(g->maps[0], 0) : NULL;
    gpu_array2d *mb = ma ? gpu_mrt_member(g->maps[0], 1) : NULL;
    float *a = ma ? gpu_array2d_upload_map(ma, &st) : NULL;
    if (a) {
#pragma omp parallel for schedule(static)
        for (long k = 0; k < n; k++) {
            double v[SWE_MAP_COUNT];
            start_cell(m, (size_t)k, v);
            a[4 * k] = (float)v[SWE_MAP_MAX_H];
            a[4 * k + 1] = (float)v[SWE_MAP_MAX_SPEED];
            a[4 * k + 2] = (float)v[SWE_MAP_MAX_HAZARD];
            a[4 * k + 3] = (float)v[SWE_MAP_ARRIVAL];
        }
        st = gpu_array2d_upload_unmap(&ma, 1);
    }
    if (st == SWGL_OK && !m->m[0] && m->t0 == 0) {
        static const float zero[4] = {0, 0, 0, 0};
        st = gpu_array2d_fill(mb, zero);
    } else if (st == SWGL_OK) {
        float *b = gpu_array2d_upload_map(mb, &st);
        if (b) {
#pragma omp parallel for schedule(static)
            for (long k = 0; k < n; k++) {
                double v[SWE_MAP_COUNT];
                start_cell(m, (size_t)k, v);
                b[4 * k] = (float)v[SWE_MAP_T_MAX_H];
                b[4 * k + 1] = b[4 * k + 2] = b[4 * k + 3] = 0.0f;
            }
            st = gpu_array2d_upload_unmap(&mb, 1);
        }
    }
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
    swgl_status st = m->m[0] ? SWGL_OK : swe_maps_alloc(m);
    long n = (long)g->w * g->h;
    /* the texels in place, every core (gpu_array2d.h); a cell not active holds none (its
     * start: swe_maps_start_cell) */
    for (int q = 0; q < 2 && st == SWGL_OK; q++) {
        const float *t = gpu_array2d_download_map(gpu_mrt_member(g->maps[g->mi], q), &st);
        if (!t) break;
#pragma omp parallel for schedule(static)
        for (long k = 0; k < n; k++) {
            if (code[k] != CELL_ACTIVE) {
                if (q == 0)
                    for (int c = 0; c < SWE_MAP_COUNT; c++) m->m[c][k] = c == SWE_MAP_ARRIVAL ? -1.0 : 0.0;
                continue;
            }
            if (q == 1) {
                m->m[SWE_MAP_T_MAX_H][k] = t[4 * k];
                continue;
            }
            m->m[SWE_MAP_MAX_H][k] = t[4 * k];
            m->m[SWE_MAP_MAX_SPEED][k] = t[4 * k + 1];
            m->m[SWE_MAP_MAX_HAZARD][k] = t[4 * k + 2];
            m->m[SWE_MAP_ARRIVAL][k] = t[4 * k + 3];
        }
        st = gpu_array2d_download_unmap();
    }
    return st;
}
