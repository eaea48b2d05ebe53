/* gpu_redraw.c — the cells a stage's update draws again (gpu_redraw.h). */
#include "gpu_redraw.h"

#include <stdlib.h>

int gpu_redraw_any(const swe_forcing *f)
{
    if (!f) return 0;
    int any = f->n_src > 0;
    for (int s = 0; s < f->n_seg; s++) {
        const swe_segment *g = &f->seg[s];
        any |= g->code == CELL_DISCHARGE && g->series >= 0 && swe_series_varies(&f->series[g->series]);
    }
    return any;
}

/* A cell beside the discharge faces: the sum of its faces' rises, how many, whether drawn */
typedef struct cell_rise {
    size_t k;
    double add;
    int n, done;
} cell_rise;

static int by_cell(const void *a, const void *b)
{
    size_t x = ((const cell_rise *)a)->k, y = ((const cell_rise *)b)->k;
    return x < y ? -1 : x > y;
}

static cell_rise *find(cell_rise *u, int n, size_t k)
{
    cell_rise key = {.k = k};
    return n ? bsearch(&key, u, (size_t)n, sizeof *u, by_cell) : NULL;
}

swgl_status gpu_redraw_stage(swe_clock *c, int tex_w, double w_dt, double w_src, const gpu_redraw_ops *ops,
                             void *self)
{
    const swe_forcing *f = c->f;
    const double area = c->dx * c->dy;
    const size_t W = (size_t)tex_w;
    const int nf = swe_clock_inflow(c, w_dt);
    swgl_status st = SWGL_OK;
    /* the faces' rises summed per cell (a grid corner's cell has two faces) */
    cell_rise *u = nf ? malloc((size_t)nf * sizeof *u) : NULL;
    if (nf && !u) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    int nu = 0;
    for (int m = 0; m < nf; m++) u[m] = (cell_rise){c->fix_cell[m], c->fix_add[m], 1, 0};
    if (nf) qsort(u, (size_t)nf, sizeof *u, by_cell);
    for (int m = 0; m < nf; m++) {
        if (nu && u[nu - 1].k == u[m].k) {
            u[nu - 1].add += u[m].add;
            u[nu - 1].n++;
        } else {
            u[nu++] = u[m];
        }
    }
    /* the sources' cells, a cell's sources and faces at once (swe.h swe_sources_at_cell) */
    for (int q = 0; st == SWGL_OK && q < f->n_src; q++) {
        double add[SWE_SOURCES_PER_CELL], total, before = 0, after = 0;
        int members[SWE_SOURCES_PER_CELL];
        int n = swe_sources_at_cell(f, q, c->src_q, w_dt / area, members, add, &total);
        if (n == 0) continue;   /* an earlier source of the same cell drew it */
        size_t k = f->src_cell[q];
        cell_rise *e = find(u, nu, k);
        double faces = e ? e->add : 0.0;
        if (e) e->done = 1;
        gpu_rect r = {(int)(k % W), (int)(k / W), 1, 1};
        if ((st = ops->read(self, k, &before)) != SWGL_OK || (st = ops->draw(self, &r, total + faces)) != SWGL_OK ||
            (st = ops->read(self, k, &after)) != SWGL_OK)
            break;
        swe_sources_account(&c->acc, members, add, n, (after - before - faces) * area, area, w_src);
    }
    /* the faces' cells in runs along each side: the faces of a side in ring order (as
     * swe_clock_inflow lists them), a run while the next is the next face of the side,
     * with the same rise, and its cell has no other rise */
    for (int m = 0; st == SWGL_OK && m < nf; m++) {
        cell_rise *e = find(u, nu, c->fix_cell[m]);
        if (e->done) continue;
        e->done = 1;
        const size_t side = c->fix_ring[m] / (size_t)c->M, step = side < 2 ? W : 1;
        gpu_rect r = {(int)(e->k % W), (int)(e->k / W), 1, 1};
        while (e->n == 1 && m + 1 < nf && c->fix_ring[m + 1] == c->fix_ring[m] + 1 &&
               c->fix_ring[m + 1] / (size_t)c->M == side && c->fix_cell[m + 1] == c->fix_cell[m] + step &&
               c->fix_add[m + 1] == c->fix_add[m]) {
            cell_rise *x = find(u, nu, c->fix_cell[m + 1]);
            if (x->n != 1 || x->done) break;
            x->done = 1;
            *(side < 2 ? &r.h : &r.w) += 1;
            m++;
        }
        st = ops->draw(self, &r, e->add);
    }
    free(u);
    if (st == SWGL_OK) swe_clock_inflow_rates(c);
    return st;
}
