/* gpu_bvals.c — the boundary segments' values on the GPU's clock (gpu_bvals.h). */
#include "gpu_bvals.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BV_WIDTH 4096   /* the table's width in texels: a long series folds into rows */
#define BV_REBASE 512.0 /* s: the table is made again when the run's time moves this far from t_ref */

void gpu_bvals_destroy(gpu_bvals *b)
{
    if (!b) return;
    gpu_program_destroy(b->prog);
    gpu_array2d_destroy(b->table);
    free(b->buf);
    memset(b, 0, sizeof *b);
}

swgl_status gpu_bvals_create(gpu_bvals *b, const swe_forcing *f, const char *defs)
{
    memset(b, 0, sizeof *b);
    b->f = f;
    b->t_ref = NAN;
    int most = 1;
    for (int s = 0; s < f->n_seg; s++) {
        int g = f->seg[s].series;
        if (g >= 0 && g < f->n_series && f->series[g].n > most) most = f->series[g].n;
    }
    b->stride = most + 1;
    size_t texels = (size_t)b->stride * (size_t)(f->n_seg > 0 ? f->n_seg : 1);
    b->w = texels < BV_WIDTH ? (int)texels : BV_WIDTH;
    int h = (int)((texels + (size_t)b->w - 1) / (size_t)b->w);
    gpu_array2d_desc d = {b->w, h, GPU_RGBA32F, "boundary series"};
    if (!(b->buf = calloc(4 * (size_t)b->w * (size_t)h, sizeof(float))))
        return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory for the boundary series");
    swgl_status st = gpu_array2d_create(&d, &b->table);
    if (st == SWGL_OK) st = gpu_program_create("swe_bvals", defs, &b->prog);
    return st;
}

/* The table relative to t_ref: texel s stride = (n, vmax), then (t_k - t_ref, v_k) with v_k
 * the faces' value (swe_forcing_at: a level less the datum, a discharge over the segment's
 * length) */
static swgl_status make_table(gpu_bvals *b, double t_ref)
{
    const swe_forcing *f = b->f;
    for (int s = 0; s < f->n_seg; s++) {
        const swe_segment *g = &f->seg[s];
        float *p = b->buf + 4 * (size_t)s * (size_t)b->stride;
        const swe_series *v = g->series >= 0 && g->series < f->n_series ? &f->series[g->series] : NULL;
        int n = v ? v->n : 1;
        p[0] = (float)n;
        p[1] = (float)g->vmax;
        for (int k = 0; k < n; k++) {
            double val = v ? v->v[k] : 0.0;
            if (g->code == CELL_LEVEL) val -= f->datum;
            if (g->code == CELL_DISCHARGE) val = g->length > 0.0 ? val / g->length : 0.0;   /* (a held one) */
            p[4 * (1 + k)] = (float)(v ? v->t[k] - t_ref : 0.0);
            p[4 * (1 + k) + 1] = (float)val;
        }
    }
    b->t_ref = t_ref;
    return gpu_array2d_upload(b->table, b->buf);
}

swgl_status gpu_bvals_pass(gpu_bvals *b, gpu_array2d *out, double t_cpu, const gpu_array2d *clock, int k)
{
    swgl_status st = SWGL_OK;
    if (!isfinite(t_cpu)) return swgl_fail(SWGL_ERR_ARG, "boundary series: the time %g", t_cpu);
    if (!(fabs(t_cpu - b->t_ref) <= BV_REBASE) && (st = make_table(b, t_cpu)) != SWGL_OK) return st;
    gpu_pass p;
    gpu_pass_begin(&p, b->prog);
    gpu_pass_array(&p, "u_table", b->table);
    gpu_pass_array(&p, "u_clock", clock);
    gpu_pass_int(&p, "u_w", b->w);
    gpu_pass_int(&p, "u_stride", b->stride);
    gpu_pass_float(&p, "u_t", (float)(t_cpu - b->t_ref));
    gpu_pass_int(&p, "u_k", k);
    return gpu_pass_draw(&p, out, NULL);
}
