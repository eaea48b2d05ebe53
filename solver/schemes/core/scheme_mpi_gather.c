/* scheme_mpi_gather.c — the whole grid from the blocks, on every rank: the state
 * (get_state, set_state), the backend's native field, the gauges' samples, the flood
 * maps and the accounts. */
#include "scheme_mpi_int.h"

#ifdef SWGL_HAVE_MPI

#include <stdlib.h>
#include <string.h>

swgl_status scheme_mpi_set_state(void *self, double *const *f)
{
    mpi_inst *m = self;
    scheme_mpi_drop_prefetch(m);
    m->since = 0;
    for (int c = 0; c < m->lf.n; c++) scheme_window_field(f[c], m->gnx, m->blk[swgl_mpi_rank()] + 4, m->lf.f[c]);
    /* what set_state derives from the whole grid's depths (the float solvers' rain quantum,
     * cpu_ref/swe.h) reads these, not the block's: the block's forcing is the window's own */
    swe_forcing *lfo = m->d->forcing ? (swe_forcing *)m->d->forcing(&m->local) : NULL;
    if (lfo && lfo->whole) lfo->whole_h = f[0];
    return scheme_mpi_agree(m->inner.be->set_state(m->inner.self, m->lf.f));
}

/* The own cells of nf fields of the block (local[c], its grid) from every rank into the
 * whole grid's fields (whole[c], zero off the blocks: the ring), on every rank
 * (MPI_Allgatherv): pack holds nf values a cell of this rank's block, all of every rank's */
static swgl_status gather(const mpi_inst *m, int nf, double *const *local, double *const *whole, double *pack,
                          double *all)
{
    int *cnt = malloc((size_t)swgl_mpi_size() * sizeof *cnt), *dis = malloc((size_t)swgl_mpi_size() * sizeof *dis);
    swgl_status st = cnt && dis ? SWGL_OK : swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    if ((st = scheme_mpi_agree(st)) != SWGL_OK) {
        free(cnt);
        free(dis);
        return st;
    }
    for (int r = 0; r < swgl_mpi_size(); r++) {
        const int *o = m->blk[r];
        cnt[r] = (o[2] - o[0]) * (o[3] - o[1]) * nf;
        dis[r] = r ? dis[r - 1] + cnt[r - 1] : 0;
    }
    const int *own = m->blk[swgl_mpi_rank()], *win = own + 4;
    size_t q = 0;
    for (int c = 0; c < nf; c++)
        for (int y = own[1]; y < own[3]; y++)
            for (int x = own[0]; x < own[2]; x++) pack[q++] = local[c][grid_at(m->local.nx, x - win[0] + 1, y - win[1] + 1)];
    MPI_Allgatherv(pack, cnt[swgl_mpi_rank()], MPI_DOUBLE, all, cnt, dis, MPI_DOUBLE, MPI_COMM_WORLD);
    for (int c = 0; c < nf; c++) memset(whole[c], 0, grid_size(m->gnx, m->gny) * sizeof(double));
    for (int r = 0; r < swgl_mpi_size(); r++) {
        const int *o = m->blk[r];
        const double *v = all + dis[r];
        for (int c = 0; c < nf; c++)
            for (int y = o[1]; y < o[3]; y++)
                for (int x = o[0]; x < o[2]; x++) whole[c][grid_at(m->gnx, x + 1, y + 1)] = *v++;
    }
    free(cnt);
    free(dis);
    return SWGL_OK;
}

/* gather's buffers for nf fields: this rank's own cells, and the whole grid's interior
 * (MPI counts them in int: at most 2^31 - 1 values) */
swgl_status scheme_mpi_gather_buffers(const mpi_inst *m, int nf, double **pack, double **all)
{
    const int *o = m->blk[swgl_mpi_rank()];
    size_t mine = (size_t)(o[2] - o[0]) * (size_t)(o[3] - o[1]) * (size_t)nf,
           total = (size_t)m->gnx * (size_t)m->gny * (size_t)nf;
    if (total > 2147483647u)
        return swgl_fail(SWGL_ERR_ARG, "a %dx%d grid of %d fields is over MPI's 2^31 values a gathering", m->gnx,
                         m->gny, nf);
    if (!(*pack = malloc((mine + 1) * sizeof(double))) || !(*all = malloc((total + 1) * sizeof(double))))
        return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory for the gathered state");
    return SWGL_OK;
}

swgl_status scheme_mpi_get_state(void *self, double *const *f)
{
    mpi_inst *m = self;
    swgl_status st = scheme_mpi_agree(m->inner.be->get_state(m->inner.self, m->lf.f));
    return st == SWGL_OK ? gather(m, m->lf.n, m->lf.f, f, m->pack, m->all) : st;
}

/* The rank that owns global ghost-ring cell k (interior), or -1 (ring) */
static int owner_of(const mpi_inst *m, size_t k, int *x, int *y)
{
    int W = m->gnx + 2, i = (int)(k % (size_t)W) - 1, j = (int)(k / (size_t)W) - 1;
    *x = i;
    *y = j;
    if (i < 0 || j < 0 || i >= m->gnx || j >= m->gny) return -1;
    for (int r = 0; r < swgl_mpi_size(); r++) {
        const int *o = m->blk[r];
        if (i >= o[0] && i < o[2] && j >= o[1] && j < o[3]) return r;
    }
    return -1;
}

/* The state at n cells (gauges): each rank samples the cells it owns (the backend's sample,
 * a few texels on a GPU), and the values go to every rank (MPI_Allgatherv) */
swgl_status scheme_mpi_sample(void *self, const size_t *cells, int n, double *const *out)
{
    mpi_inst *m = self;
    const int nf = m->lf.n, *win = m->blk[swgl_mpi_rank()] + 4;
    size_t *mine = malloc(((size_t)n + 1) * sizeof *mine);
    double *vals = malloc(((size_t)n * nf + 1) * sizeof *vals), *all = malloc(((size_t)n * nf + 1) * sizeof *all);
    double *col[SCHEME_MAX_FIELDS];
    int *cnt = calloc((size_t)swgl_mpi_size(), sizeof *cnt), *dis = calloc((size_t)swgl_mpi_size(), sizeof *dis), nm = 0;
    swgl_status st = mine && vals && all && cnt && dis ? SWGL_OK : swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    for (int q = 0; st == SWGL_OK && q < n; q++) {
        int x, y, r = owner_of(m, cells[q], &x, &y);
        if (r >= 0) cnt[r] += nf;
        if (r == swgl_mpi_rank()) mine[nm++] = grid_at(m->local.nx, x - win[0] + 1, y - win[1] + 1);
    }
    for (int c = 0; c < nf && st == SWGL_OK; c++) col[c] = vals + (size_t)c * nm;
    if (st == SWGL_OK && nm) st = scheme_sample(&m->inner, mine, nm, m->lf.f, col);
    if ((st = scheme_mpi_agree(st)) == SWGL_OK) {
        for (int r = 1; r < swgl_mpi_size(); r++) dis[r] = dis[r - 1] + cnt[r - 1];
        MPI_Allgatherv(vals, nm * nf, MPI_DOUBLE, all, cnt, dis, MPI_DOUBLE, MPI_COMM_WORLD);
        int *next = calloc((size_t)swgl_mpi_size(), sizeof *next);   /* each rank's next value */
        if (!next) st = swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
        for (int q = 0; st == SWGL_OK && q < n; q++) {
            int x, y, r = owner_of(m, cells[q], &x, &y);
            for (int c = 0; c < nf; c++)
                out[c][q] = r < 0 ? 0.0 : all[dis[r] + (size_t)c * (cnt[r] / nf) + next[r]];
            if (r >= 0) next[r]++;
        }
        free(next);
    }
    free(mine);
    free(vals);
    free(all);
    free(cnt);
    free(dis);
    return st;
}

/* The backend's own field (kp's surface w; run.nc, restarts): the blocks' own cells, as
 * get_state gathers them, and back */
swgl_status scheme_mpi_get_native(void *self, double *f)
{
    mpi_inst *m = self;
    swgl_status st = scheme_mpi_agree(m->inner.be->probe->get_native(m->inner.self, m->lf.f[0]));
    return st == SWGL_OK ? gather(m, 1, m->lf.f, &f, m->pack, m->all) : st;
}

swgl_status scheme_mpi_set_native(void *self, const double *f)
{
    mpi_inst *m = self;
    scheme_mpi_drop_prefetch(m);
    m->since = 0;
    scheme_window_field(f, m->gnx, m->blk[swgl_mpi_rank()] + 4, m->lf.f[0]);
    return scheme_mpi_agree(m->inner.be->probe->set_native(m->inner.self, m->lf.f[0]));
}

swgl_status scheme_mpi_maps_start(void *self, struct swe_maps *g)
{
    mpi_inst *m = self;
    const int *win = m->blk[swgl_mpi_rank()] + 4;
    swgl_status st = swe_maps_make(g);   /* (the run's, windowed below) */
    m->lm.nx = m->local.nx;
    m->lm.ny = m->local.ny;
    m->lm.arrival_depth = g->arrival_depth;
    m->lm.h_dry = g->h_dry;
    for (int c = 0; c < SWE_MAP_COUNT && st == SWGL_OK; c++) {
        if (!(m->lm.m[c] = malloc(grid_size(m->local.nx, m->local.ny) * sizeof(double))))
            st = swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory for the flood maps");
        else scheme_window_field(g->m[c], m->gnx, win, m->lm.m[c]);
    }
    if (st == SWGL_OK) st = scheme_mpi_gather_buffers(m, SWE_MAP_COUNT, &m->mpack, &m->mall);
    /* a backend that keeps the maps itself (the GPU's) keeps the block's */
    if (st == SWGL_OK && m->inner.be->device && m->inner.be->device->maps_start) st = m->inner.be->device->maps_start(m->inner.self, &m->lm);
    return scheme_mpi_agree(st);
}

/* the maps of every block's own cells into the run's maps */
swgl_status scheme_mpi_maps_read(void *self, struct swe_maps *g)
{
    mpi_inst *m = self;
    swgl_status st = m->inner.be->device && m->inner.be->device->maps_read ? m->inner.be->device->maps_read(m->inner.self, &m->lm) : SWGL_OK;
    if ((st = scheme_mpi_agree(st)) != SWGL_OK) return st;
    return gather(m, SWE_MAP_COUNT, m->lm.m, g->m, m->mpack, m->mall);
}

/* The accounts in the whole grid's shape (a, from its forcing): each block's, whose
 * segments are the whole grid's list and count only the faces of the block's own cells
 * (swe_forcing ring_count), whose sources map to the whole grid's where the block owns
 * their cells (src_global), summed over the ranks, as are the rain and the rounding clips
 * (each counted by the block that owns its cell) */
swgl_status scheme_mpi_account(void *self, swe_account *a)
{
    mpi_inst *m = self;
    const swe_forcing *lf = m->d->forcing ? m->d->forcing(&m->local) : NULL;
    swe_account la = {0};
    swgl_status st = swe_account_init(&la, lf);
    if (st == SWGL_OK && m->inner.be->forcing) st = m->inner.be->forcing->account(m->inner.self, &la);
    size_t n = 2 * (size_t)a->n_seg + (size_t)a->n_src + 2;
    double *v = calloc(n, sizeof *v), *r = calloc(n, sizeof *r);
    if (st == SWGL_OK && (!v || !r)) st = swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    if (st == SWGL_OK && la.n_seg != a->n_seg)
        st = swgl_fail(SWGL_ERR_ARG, "a block's accounts have %d segments, the run's %d", la.n_seg, a->n_seg);
    if (st == SWGL_OK) {
        for (int s = 0; s < a->n_seg; s++) v[s] = la.seg_in[s], v[a->n_seg + s] = la.seg_out[s];
        for (int q = 0; lf && q < la.n_src; q++) {
            int gq = lf->src_global ? lf->src_global[q] : q;
            if (gq >= 0 && gq < a->n_src) v[2 * (size_t)a->n_seg + (size_t)gq] += la.src[q];
        }
        v[n - 2] = la.rain;
        v[n - 1] = la.clip;
    }
    swe_account_free(&la);
    if ((st = scheme_mpi_agree(st)) == SWGL_OK) {
        MPI_Allreduce(v, r, (int)n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        for (int s = 0; s < a->n_seg; s++) a->seg_in[s] = r[s], a->seg_out[s] = r[a->n_seg + s];
        for (int q = 0; q < a->n_src; q++) a->src[q] = r[2 * (size_t)a->n_seg + (size_t)q];
        a->rain = r[n - 2];
        a->clip = r[n - 1];
    }
    free(v);
    free(r);
    return st;
}

#endif
