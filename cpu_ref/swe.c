/* swe.c — the shallow-water problem's one validation (swe.h). */
#include "swe.h"

/* The one validation of a shallow-water problem (swe.h), called by every backend. */
swgl_status swe_problem_check(const swe_problem *p)
{
    const char *why = NULL;
    if (!p) why = "no problem";
    else if (p->nx < 1 || p->ny < 1) why = "nx and ny must be >= 1";
    else if (!(p->dx > 0.0) || !(p->dy > 0.0)) why = "dx and dy must be > 0";
    else if (!(p->g > 0.0)) why = "g must be > 0";
    else if (!(p->cfl > 0.0 && p->cfl <= 1.0)) why = "cfl must be in (0, 1]";
    else if (!(p->h_dry >= 0.0)) why = "h_dry must be >= 0";
    else if (!(p->kappa >= 0.0)) why = "kappa must be >= 0";
    else if (!p->H || !p->code) why = "H and code are required";
    return why ? swgl_fail(SWGL_ERR_ARG, "swe: %s", why) : SWGL_OK;
}

/* ---- boundary data (swe.h) ---------------------------------------------------------- */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "swgl_series.h"

double swe_series_at(const swe_series *s, double t) { return swgl_series_at(s->n, s->t, s->v, t); }

double swe_series_mean(const swe_series *s, double t, double dt)
{
    return swgl_series_mean(s->n, s->t, s->v, t, t + dt);
}

void swe_forcing_at(const swe_forcing *f, double t, double *seg_val, double *rain_factor, double *src_q)
{
    if (seg_val)
        for (int s = 0; s < (f ? f->n_seg : 0); s++) {
            const swe_segment *g = &f->seg[s];
            double v = g->series >= 0 ? swe_series_at(&f->series[g->series], t) : 0.0;
            seg_val[s] = g->code == CELL_DISCHARGE ? (g->length > 0.0 ? v / g->length : 0.0)
                       : g->code == CELL_LEVEL ? v - f->datum : v;
        }
    if (rain_factor)
        *rain_factor = f && f->rain_series >= 0 ? swe_series_at(&f->series[f->rain_series], t) : 1.0;
    if (src_q)
        for (int s = 0; s < (f ? f->n_src : 0); s++) src_q[s] = swe_series_at(&f->series[f->src_series[s]], t);
}

void swe_forcing_mean(const swe_forcing *f, double t, double dt, double *seg_val, double *rain_factor,
                      double *src_q)
{
    if (seg_val)
        for (int s = 0; s < (f ? f->n_seg : 0); s++) {
            const swe_segment *g = &f->seg[s];
            double v = g->series >= 0 ? swe_series_mean(&f->series[g->series], t, dt) : 0.0;
            seg_val[s] = g->code == CELL_DISCHARGE ? (g->length > 0.0 ? v / g->length : 0.0)
                       : g->code == CELL_LEVEL ? v - f->datum : v;
        }
    if (rain_factor)
        *rain_factor = f && f->rain_series >= 0 ? swe_series_mean(&f->series[f->rain_series], t, dt) : 1.0;
    if (src_q)
        for (int s = 0; s < (f ? f->n_src : 0); s++) src_q[s] = swe_series_mean(&f->series[f->src_series[s]], t, dt);
}

swgl_status swe_account_init(swe_account *a, const swe_forcing *f)
{
    memset(a, 0, sizeof *a);
    a->n_seg = f ? f->n_seg : 0;
    a->n_src = f ? f->n_src : 0;
    a->seg_in = calloc((size_t)a->n_seg + 1, sizeof(double));
    a->seg_out = calloc((size_t)a->n_seg + 1, sizeof(double));
    a->src = calloc((size_t)a->n_src + 1, sizeof(double));
    if (!a->seg_in || !a->seg_out || !a->src) {
        swe_account_free(a);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "swe: out of memory for the mass balance");
    }
    return SWGL_OK;
}

void swe_account_free(swe_account *a)
{
    if (!a) return;
    free(a->seg_in);
    free(a->seg_out);
    free(a->src);
    memset(a, 0, sizeof *a);
}

void swe_account_copy(const swe_account *a, swe_account *to)
{
    memcpy(to->seg_in, a->seg_in, (size_t)a->n_seg * sizeof(double));
    memcpy(to->seg_out, a->seg_out, (size_t)a->n_seg * sizeof(double));
    memcpy(to->src, a->src, (size_t)a->n_src * sizeof(double));
    to->rain = a->rain;
    to->clip = a->clip;
}

void swe_account_faces(swe_account *a, const swe_forcing *f, const double *ring_rate, int M, double w_dt)
{
    if (!f || !f->n_seg) return;
    for (size_t r = 0; r < 4 * (size_t)M; r++) {
        int s = f->seg_of[r];
        if (s < 0 || (f->ring_count && !f->ring_count[r])) continue;   /* (another rank's face) */
        double v = w_dt * ring_rate[r];
        if (v > 0.0) a->seg_in[s] += v;
        else a->seg_out[s] -= v;
    }
}

void swe_account_pairs(swe_account *a, const swe_forcing *f, const float *sums, int M)
{
    if (!f || !f->n_seg) return;
    for (size_t r = 0; r < 4 * (size_t)M; r++) {
        int s = f->seg_of[r];
        if (s < 0 || (f->ring_count && !f->ring_count[r])) continue;
        const float *v = sums + 4 * r;
        a->seg_in[s] += (double)v[0] + v[1];
        a->seg_out[s] += (double)v[2] + v[3];
    }
}

double swe_clock_rain(swe_clock *c, int stage, int stages, double dt)
{
    c->rain_applied = 0.0;
    if (!c->f || !c->f->rain) return 0.0;
    if (stage < stages - 1) return 0.0;
    c->rain_pending += dt * c->rain_mean;   /* the step's mean (swe_clock_step) */
    int at_stop = c->t + dt >= c->stop - 1e-9 * fabs(c->stop), stopped = c->rain_mean == 0.0;
    if (c->rain_pending * c->rain_max < c->rain_quantum && !at_stop && !stopped) return 0.0;
    c->rain_applied = c->rain_pending;
    c->rain_pending = 0.0;
    return c->rain_applied;
}

void swe_clock_rain_quantum(swe_clock *c, const swe_problem *p, double eps, const double *h)
{
    double w = 0.0;
    if (p->forcing && p->forcing->whole) {   /* a block of a run over ranks: the whole grid's */
        h = p->forcing->whole_h;
        p = p->forcing->whole;
    }
    for (size_t k = 0; k < grid_size(p->nx, p->ny); k++)
        if (p->code[k] == CELL_ACTIVE) w = fmax(w, fabs(-p->H[k] + (h && h[k] > 0.0 ? h[k] : 0.0)));
    c->rain_quantum = 64.0 * eps * (w + 1.0);
}

int swe_forcing_any(const swe_forcing *f) { return f && (f->n_seg > 0 || f->rain || f->n_src > 0 || f->forced); }

int swe_series_varies(const swe_series *v)
{
    for (int k = 1; v && k < v->n; k++)
        if (v->v[k] != v->v[0]) return 1;
    return 0;
}

int swe_forcing_faces_on_gpu(const swe_forcing *f)
{
    if (!f || !f->n_seg || f->rain || f->n_src > 0 || f->forced || f->ring_count) return 0;
    for (int s = 0; s < f->n_seg; s++) {
        const swe_segment *g = &f->seg[s];
        if (g->code == CELL_FREE) continue;
        if (!(g->series >= 0 && g->series < f->n_series && f->series[g->series].n >= 1)) return 0;
        /* a discharge whose value holds: the step's mean is the value its faces take, so no
         * cell beside them is drawn again (gpu_redraw.h) */
        if (g->code == CELL_DISCHARGE && !swe_series_varies(&f->series[g->series]) && f->series[g->series].v[0] >= 0)
            continue;   /* (an inflow: the kernels book no clip of a face's outflow) */
        if (g->code != CELL_LEVEL && g->code != CELL_DEPTH) return 0;
    }
    return 1;
}

int swe_forcing_faces_vary(const swe_forcing *f)
{
    for (int s = 0; f && s < f->n_seg; s++) {
        const swe_segment *g = &f->seg[s];
        if (g->code == CELL_FREE || g->series < 0 || g->series >= f->n_series) continue;
        if (swe_series_varies(&f->series[g->series])) return 1;
    }
    return 0;
}

swgl_status swe_clock_init(swe_clock *c, const swe_problem *p)
{
    if (swe_sources_check(p->forcing) != SWGL_OK) return SWGL_ERR_ARG;
    memset(c, 0, sizeof *c);
    const swe_forcing *f = p->forcing;
    c->f = f;
    c->M = p->nx > p->ny ? p->nx : p->ny;
    c->rain_factor = c->rain_mean = 1.0;
    c->stop = INFINITY;
    c->seg_val = calloc((size_t)(f ? f->n_seg : 0) + 1, sizeof(double));
    c->src_q = calloc((size_t)(f ? f->n_src : 0) + 1, sizeof(double));
    c->ring_rate = calloc(4 * (size_t)c->M, sizeof(double));
    c->seg_mean = calloc((size_t)(f ? f->n_seg : 0) + 1, sizeof(double));
    c->seg_fix = calloc((size_t)(f ? f->n_seg : 0) + 1, sizeof(double));
    c->seg_hydro = calloc((size_t)(f ? f->n_seg : 0) + 1, 1);
    c->fix_cell = calloc(4 * (size_t)c->M, sizeof(size_t));
    c->fix_add = calloc(4 * (size_t)c->M, sizeof(double));
    c->fix_rate = calloc(4 * (size_t)c->M, sizeof(double));
    c->fix_ring = calloc(4 * (size_t)c->M, sizeof(size_t));
    c->ring_cell = calloc(4 * (size_t)c->M, sizeof(size_t));
    if (!c->seg_val || !c->src_q || !c->ring_rate || !c->seg_mean || !c->seg_fix || !c->seg_hydro || !c->fix_cell || !c->fix_add ||
        !c->fix_rate || !c->fix_ring || !c->ring_cell || swe_account_init(&c->acc, f) != SWGL_OK) {
        swe_clock_free(c);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "swe: out of memory for the boundary data");
    }
    c->dx = p->dx;
    c->dy = p->dy;
    for (int s = 0; s < (f ? f->n_seg : 0); s++) {
        const swe_segment *g = &f->seg[s];
        c->seg_hydro[s] = g->code == CELL_DISCHARGE && g->series >= 0 && g->series < f->n_series &&
                          swe_series_varies(&f->series[g->series]);
    }
    for (size_t r = 0; r < 4 * (size_t)c->M; r++) c->ring_cell[r] = SIZE_MAX;
    for (int side = 0; side < 4; side++)   /* the active cell beside each ring face */
        for (int m = 0; m < (side < 2 ? p->ny : p->nx); m++) {
            size_t ka = side == 0 ? grid_at(p->nx, 1, m + 1) : side == 1 ? grid_at(p->nx, p->nx, m + 1)
                      : side == 2 ? grid_at(p->nx, m + 1, 1) : grid_at(p->nx, m + 1, p->ny);
            if (p->code[ka] == CELL_ACTIVE) c->ring_cell[SWE_RING(side, m, c->M)] = ka;
        }
    if (f && f->rain)
        for (int j = 1; j <= p->ny; j++)
            for (int i = 1; i <= p->nx; i++) {
                size_t k = grid_at(p->nx, i, j);
                if (p->code[k] == CELL_ACTIVE && swe_owns(p, i, j)) c->rain_area += f->rain[k] * p->dx * p->dy;
            }
    /* the largest rain rate and the largest rate of water a cell gets (a block of a run
     * over ranks: the whole grid's) */
    const swe_problem *w = f && f->whole ? f->whole : p;
    const swe_forcing *wf = w->forcing;
    for (size_t k = 0; wf && wf->rain && k < grid_size(w->nx, w->ny); k++)
        if (w->code[k] == CELL_ACTIVE) c->rain_max = fmax(c->rain_max, wf->rain[k]);
    /* the largest rain rate: the field's, times the rain series' largest factor */
    double smax = 1.0;
    if (wf && wf->rain && wf->rain_series >= 0) {
        smax = 0.0;
        for (int q = 0; q < wf->series[wf->rain_series].n; q++) smax = fmax(smax, wf->series[wf->rain_series].v[q]);
    }
    double r = c->rain_max * smax;
    for (int s = 0; wf && s < wf->n_src; s++)
        for (int q = 0; q < wf->series[wf->src_series[s]].n; q++)
            r = fmax(r, wf->series[wf->src_series[s]].v[q] / (p->dx * p->dy));
    c->dt_cap = r > 0.0 ? pow(p->cfl * fmin(p->dx, p->dy) / sqrt(p->g * r), 2.0 / 3.0) : INFINITY;
    swe_clock_stage(c, 0);
    return SWGL_OK;
}

void swe_clock_free(swe_clock *c)
{
    if (!c) return;
    free(c->seg_val);
    free(c->src_q);
    free(c->ring_rate);
    free(c->seg_mean);
    free(c->seg_fix);
    free(c->fix_cell);
    free(c->seg_hydro);
    free(c->fix_add);
    free(c->fix_rate);
    free(c->fix_ring);
    free(c->ring_cell);
    swe_account_free(&c->acc);
    memset(c, 0, sizeof *c);
}

void swe_clock_set_time(swe_clock *c, double t, double stop)
{
    c->t = t;
    c->stop = stop;
}

/* What the update adds beside a discharge segment's faces (swe.h "over a step"): the step's
 * mean less the value the faces took; none where the series holds one value (its mean is
 * that value, though a sum of pieces may round it an ulp away: gpu_redraw.h draws no cell
 * for it, swe_forcing_faces_on_gpu keeps it on the GPU's clock) */
static double seg_fix(const swe_clock *c, int s) { return c->seg_hydro[s] ? c->seg_mean[s] - c->seg_val[s] : 0.0; }

void swe_clock_stage(swe_clock *c, int stage)
{
    if (stage == 0) swe_forcing_at(c->f, c->t, c->seg_val, &c->rain_factor, c->src_q);
    else swe_forcing_at(c->f, c->t + c->dt0, c->seg_val, NULL, NULL);   /* the step's means stay */
    for (int s = 0; s < (c->f ? c->f->n_seg : 0); s++) c->seg_fix[s] = seg_fix(c, s);
}

void swe_clock_step(swe_clock *c, double dt)
{
    if (!c->f) return;
    swe_forcing_mean(c->f, c->t, dt, c->seg_mean, &c->rain_mean, c->src_q);
    for (int s = 0; s < c->f->n_seg; s++) c->seg_fix[s] = seg_fix(c, s);
}

int swe_clock_inflow(swe_clock *c, double w_dt)
{
    const swe_forcing *f = c->f;
    int any = 0, n = 0;
    c->n_fix = 0;
    for (int s = 0; f && s < f->n_seg; s++) any |= c->seg_fix[s] != 0.0;
    if (!any) return 0;
    for (size_t r = 0; r < 4 * (size_t)c->M; r++) {
        int s = f->seg_of[r];
        if (s < 0 || c->seg_fix[s] == 0.0 || c->ring_cell[r] == SIZE_MAX) continue;
        const int x = r < 2 * (size_t)c->M;   /* a west or east face: length dy, across dx */
        c->fix_cell[n] = c->ring_cell[r];
        c->fix_ring[n] = r;
        c->fix_rate[n] = (x ? c->dy : c->dx) * c->seg_fix[s];
        c->fix_add[n++] = w_dt / (x ? c->dx : c->dy) * c->seg_fix[s];
    }
    c->n_fix = n;
    return n;
}

void swe_clock_inflow_rates(swe_clock *c)
{
    for (int m = 0; m < c->n_fix; m++) c->ring_rate[c->fix_ring[m]] += c->fix_rate[m];
    c->n_fix = 0;
}

void swe_clock_applied(swe_clock *c, int stage, int stages, double dt)
{
    double w = stages == 2 ? 0.5 : 1.0;
    swe_account_faces(&c->acc, c->f, c->ring_rate, c->M, w * dt);
    c->acc.rain += c->rain_applied * c->rain_area;
    c->rain_applied = 0.0;
    if (stage == 0) c->dt0 = dt;
    if (stage == stages - 1) c->t += dt;
}

int swe_sources_at_cell(const swe_forcing *f, int q, const double *src_q, double scale, int *members, double *add,
                        double *total)
{
    size_t c = f->src_cell[q];
    *total = 0.0;
    for (int p = 0; p < q; p++)
        if (f->src_cell[p] == c) return 0;
    int n = 0;
    for (int p = q; p < f->n_src && n < SWE_SOURCES_PER_CELL; p++)
        if (f->src_cell[p] == c) {
            members[n] = p;
            add[n] = src_q[p] * scale;
            *total += add[n++];
        }
    return n;
}

void swe_sources_account(swe_account *a, const int *members, const double *add, int n, double applied, double area,
                         double w)
{
    double pos = 0, neg = 0;
    for (int m = 0; m < n; m++) {
        if (add[m] > 0) pos += add[m];
        else neg += add[m];
    }
    for (int m = 0; m < n; m++) {
        double v;
        if (neg < 0)   /* the adders theirs, the takers what is left, in proportion */
            v = add[m] > 0 ? add[m] * area : add[m] < 0 ? (applied - pos * area) * (add[m] / neg) : 0.0;
        else           /* adders only: what the draw added, in proportion */
            v = pos > 0 ? applied * (add[m] / pos) : 0.0;
        a->src[members[m]] += w * v;
    }
}

swgl_status swe_sources_check(const swe_forcing *f)
{
    for (int q = 0; f && q < f->n_src; q++) {
        int n = 0;
        for (int p = 0; p < f->n_src; p++) n += f->src_cell[p] == f->src_cell[q];
        if (n > SWE_SOURCES_PER_CELL)
            return swgl_fail(SWGL_ERR_ARG, "swe: %d point sources in one cell (grid index %zu): at most %d", n,
                             f->src_cell[q], SWE_SOURCES_PER_CELL);
    }
    return SWGL_OK;
}
