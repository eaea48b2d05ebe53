/* scheme_mpi.c — a run over MPI ranks: the blocks, the halo exchange and the instance of
 * the whole grid over them (scheme_mpi.h has the design). */
#include "scheme_mpi.h"

#include "swe_maps.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef SWGL_HAVE_MPI
#include <mpi.h>
#endif

static int g_rank = 0, g_size = 1, g_local = 0;
#ifdef SWGL_HAVE_MPI
static int g_inited = 0;
#endif

SWGL_API int swgl_mpi_rank(void) { return g_rank; }
int swgl_mpi_local_rank(void) { return g_local; }
SWGL_API int swgl_mpi_size(void) { return g_size; }

int swgl_mpi_available(void)
{
#ifdef SWGL_HAVE_MPI
    return 1;
#else
    return 0;
#endif
}

SWGL_API int swgl_mpi_init(int *argc, char ***argv)
{
#ifdef SWGL_HAVE_MPI
    /* only under a launcher: a plain `swgl run` never touches MPI */
    if (!getenv("OMPI_COMM_WORLD_SIZE") && !getenv("PMI_SIZE") && !getenv("PMIX_RANK")) return 0;
    int flag = 0;
    MPI_Initialized(&flag);
    if (!flag && MPI_Init(argc, argv) != MPI_SUCCESS) return -1;
    g_inited = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    MPI_Comm node;   /* the ranks of this node: a GPU each (gpu_context_desc rotate) */
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) == MPI_SUCCESS) {
        MPI_Comm_rank(node, &g_local);
        MPI_Comm_free(&node);
    }
    /* every rank runs the same command and reaches the same messages (the ranks agree on
     * each outcome): rank 0 prints them; SWGL_MPI_VERBOSE=1 lets the others print too */
    const char *vb = getenv("SWGL_MPI_VERBOSE");
    if (g_rank != 0 && !(vb && strcmp(vb, "1") == 0)) {
        if (!freopen("/dev/null", "w", stdout)) clearerr(stdout);
        if (!freopen("/dev/null", "w", stderr)) clearerr(stderr);
    }
    return 0;
#else
    (void)argc;
    (void)argv;
    /* started by a launcher as one of several copies: each would run the whole job */
    const char *n = getenv("OMPI_COMM_WORLD_SIZE");
    if (!n) n = getenv("PMI_SIZE");
    return n && atoi(n) > 1 ? -1 : 0;
#endif
}

SWGL_API void swgl_mpi_finalize(void)
{
#ifdef SWGL_HAVE_MPI
    if (g_inited) MPI_Finalize();
    g_inited = 0;
#endif
    g_rank = 0;
    g_size = 1;
}

int scheme_mpi_blocks(int nx, int ny, int P, int *px, int *py)
{
    const char *v = getenv("SWGL_MPI_BLOCKS");
    if (v && *v) {
        int a = 0, b = 0, used = 0;
        if (sscanf(v, "%dx%d%n", &a, &b, &used) != 2 || v[used] != '\0' || a < 1 || b < 1 || (long)a * b != P ||
            a > nx || b > ny) {
            swgl_fail(SWGL_ERR_ARG, "SWGL_MPI_BLOCKS=%s: expected AxB with A B = %d ranks, A <= nx = %d, B <= ny = %d", v,
                      P, nx, ny);
            return -1;
        }
        *px = a;
        *py = b;
        return 0;
    }
    long best = -1;
    for (int a = 1; a <= P; a++) {
        if (P % a) continue;
        int b = P / a;
        if (a > nx || b > ny) continue;
        long cut = (long)(a - 1) * ny + (long)(b - 1) * nx;
        if (best < 0 || cut < best) best = cut, *px = a, *py = b;
    }
    if (best < 0) {
        swgl_fail(SWGL_ERR_ARG, "a %d x %d grid cannot be split into %d blocks of at least one cell each", nx, ny, P);
        return -1;
    }
    return 0;
}

#ifndef SWGL_HAVE_MPI

int scheme_mpi_stats(const scheme_inst *in, double *exchange_s, long *exchanges)
{
    (void)in, (void)exchange_s, (void)exchanges;
    return 0;
}
void swgl_mpi_barrier(void) {}
double swgl_mpi_max(double v) { return v; }
swgl_status swgl_mpi_agree(swgl_status st) { return st; }

swgl_status scheme_mpi_open(scheme_inst *in, const scheme_desc *d, enum backend b, const scheme_setup *s,
                            const scheme_config *cfg)
{
    (void)in, (void)d, (void)b, (void)s, (void)cfg;
    return swgl_fail(SWGL_ERR_ARG, "this swgl was built without MPI (configure with Open MPI installed: build.sh "
                     "installs libopenmpi-dev)");
}

#else

/* What a rank exchanges with one other: the cells of its own block that lie in the
 * other's window (sent) and the other's own cells in this window (received); rectangles
 * (x, y, w, h) in this block's grid_at coordinates. */
typedef struct peer {
    int rank;
    int snd[4], rcv[4];
    double *sbuf, *rbuf;
    int sn, rn;   /* values */
} peer;

typedef struct mpi_inst {
    scheme_inst inner;          /* the block's instance */
    const scheme_desc *d;
    scheme_setup local;         /* the block's setup (window), its halo and ring */
    int gnx, gny, px, py, halo, nv;
    int (*blk)[8];              /* per rank: own (x0, y0, x1, y1), window (x0, y0, x1, y1), global interior */
    int npeer;
    peer *peers;
    MPI_Request *req;
    scheme_fields lf;           /* the block's fields (get_state, set_state) */
    double *pack, *all;         /* this rank's own cells, every rank's (field by field) */
    /* the flood maps of the block (maps_start): its windows of the run's maps, updated
     * after each step from the block's state at the time the loop reaches */
    swe_maps lm;
    double *mpack, *mall;
    double t, stop, bound;      /* the step: set_time's t and stop, stage 0's bound */
    double exch_s;              /* s spent in the halo exchange (after the block's queued work) */
    long exchanges;
    int overlap;                /* stage 0's inner cells while the halo goes (SWGL_MPI_OVERLAP=0: off) */
    long strip_max;             /* the cells of the largest strip this rank sends */
    scheme_backend be;          /* the table of this instance (native fields where the block's backend has them) */
    char name[320];
} mpi_inst;

/* Every rank leaves a call with the same outcome: the lowest failing rank's status and
 * message, or SWGL_OK. */
static swgl_status agree(swgl_status st)
{
    int mine = st != SWGL_OK ? g_rank : g_size, low = g_size;
    MPI_Allreduce(&mine, &low, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (low == g_size) return SWGL_OK;
    struct {
        int code;
        char msg[1000];
    } m = {(int)st, ""};
    if (g_rank == low) snprintf(m.msg, sizeof m.msg, "%s", swgl_last_error());
    MPI_Bcast(&m, (int)sizeof m, MPI_BYTE, low, MPI_COMM_WORLD);
    if (g_rank != low) swgl_fail((swgl_status)m.code, "%s (rank %d of %d)", m.msg, low, g_size);
    return (swgl_status)m.code;
}

static void rect_and(const int a[4], const int b[4], int r[4])
{
    r[0] = a[0] > b[0] ? a[0] : b[0];
    r[1] = a[1] > b[1] ? a[1] : b[1];
    r[2] = a[2] < b[2] ? a[2] : b[2];
    r[3] = a[3] < b[3] ? a[3] : b[3];
}
static int rect_cells(const int r[4]) { return r[2] > r[0] && r[3] > r[1] ? (r[2] - r[0]) * (r[3] - r[1]) : 0; }

/* rectangle r (global interior) as (x, y, w, h) in the grid_at coordinates of window win */
static void rect_local(const int r[4], const int win[4], int out[4])
{
    out[0] = r[0] - win[0] + 1;
    out[1] = r[1] - win[1] + 1;
    out[2] = r[2] - r[0];
    out[3] = r[3] - r[1];
}

/* The halo: every rank's own cells that lie in the others' windows, state as stored.
 * With inner (a rectangle of the block's cells that read no halo cell: overlap_rects) the
 * exchange goes on while the block's device computes those: the strips the neighbours
 * need are read back without waiting (halo_request), the inner cells' stage 0 is queued,
 * and each strip is sent as it comes back (halo_fetch); the caller then evaluates the rest
 * of the block. */
static swgl_status exchange(mpi_inst *m, const int (*inner)[4])
{
    swgl_status st = SWGL_OK;
    const scheme_backend *be = m->inner.be;
    void *self = m->inner.self;
    for (int p = 0; p < m->npeer; p++) {
        peer *q = &m->peers[p];
        m->req[2 * p] = m->req[2 * p + 1] = MPI_REQUEST_NULL;
        if (q->rn) MPI_Irecv(q->rbuf, q->rn, MPI_DOUBLE, q->rank, 14, MPI_COMM_WORLD, &m->req[2 * p]);
    }
    for (int p = 0; inner && p < m->npeer && st == SWGL_OK; p++) {
        peer *q = &m->peers[p];
        if (q->sn) st = be->halo_request(self, q->snd[0], q->snd[1], q->snd[2], q->snd[3]);
    }
    if (inner && st == SWGL_OK) st = be->stage_rects(self, 0, inner, 1, NULL);
    for (int p = 0; p < m->npeer; p++) {   /* (sent on a failure too: no peer is left waiting) */
        peer *q = &m->peers[p];
        if (!q->sn) continue;
        if (st == SWGL_OK)
            st = inner ? be->halo_fetch(self, q->sbuf) : be->halo_get(self, q->snd[0], q->snd[1], q->snd[2], q->snd[3], q->sbuf);
        MPI_Isend(q->sbuf, q->sn, MPI_DOUBLE, q->rank, 14, MPI_COMM_WORLD, &m->req[2 * p + 1]);
    }
    MPI_Waitall(2 * m->npeer, m->req, MPI_STATUSES_IGNORE);
    for (int p = 0; p < m->npeer && st == SWGL_OK; p++) {
        peer *q = &m->peers[p];
        if (q->rn) st = be->halo_set(self, q->rcv[0], q->rcv[1], q->rcv[2], q->rcv[3], q->rbuf);
    }
    return st;
}

/* Where stage 0 may go on during the exchange (the backend's overlap, the reach of its
 * stencil, > 0): inner, the block's own cells less the reach where a neighbour's cells
 * (the halo) lie beyond them, and outer, the rest of the block's arrays (four rectangles),
 * in grid_at coordinates; 0 where the block has no inner cells. */
static int overlap_rects(const mpi_inst *m, int reach, int inner[1][4], int outer[4][4])
{
    const int *own = m->blk[g_rank], *win = own + 4;
    int tw = m->local.nx + 2, th = m->local.ny + 2;
    int x0 = own[0] - win[0] + 1 + (own[0] != win[0] ? reach : 0), x1 = own[2] - win[0] + 1 - (own[2] != win[2] ? reach : 0);
    int y0 = own[1] - win[1] + 1 + (own[1] != win[1] ? reach : 0), y1 = own[3] - win[1] + 1 - (own[3] != win[3] ? reach : 0);
    if (x1 <= x0 || y1 <= y0) return 0;
    const int in[4] = {x0, y0, x1 - x0, y1 - y0};
    const int rest[4][4] = {{0, 0, tw, y0}, {0, y1, tw, th - y1}, {0, y0, x0, y1 - y0}, {x1, y0, tw - x1, y1 - y0}};
    memcpy(inner[0], in, sizeof in);
    memcpy(outer, rest, sizeof rest);
    return 1;
}

static void w_destroy(void *self)
{
    mpi_inst *m = self;
    if (!m) return;
    scheme_close(&m->inner);
    if (m->d && m->local.problem) m->d->setup_free(&m->local);
    for (int p = 0; m->peers && p < m->npeer; p++) {
        free(m->peers[p].sbuf);
        free(m->peers[p].rbuf);
    }
    free(m->peers);
    free(m->req);
    free(m->blk);
    scheme_fields_free(&m->lf);
    free(m->pack);
    free(m->all);
    swe_maps_free(&m->lm);
    free(m->mpack);
    free(m->mall);
    free(m);
}

static swgl_status w_set_state(void *self, double *const *f)
{
    mpi_inst *m = self;
    for (int c = 0; c < m->lf.n; c++) scheme_window_field(f[c], m->gnx, m->blk[g_rank] + 4, m->lf.f[c]);
    /* what set_state derives from the whole grid's depths (the float solvers' rain quantum,
     * cpu_ref/swe.h) reads these, not the block's: the block's forcing is the window's own */
    swe_forcing *lfo = m->d->forcing ? (swe_forcing *)m->d->forcing(&m->local) : NULL;
    if (lfo && lfo->whole) lfo->whole_h = f[0];
    return agree(m->inner.be->set_state(m->inner.self, m->lf.f));
}

/* The own cells of nf fields of the block (local[c], its grid) from every rank into the
 * whole grid's fields (whole[c], zero off the blocks: the ring), on every rank
 * (MPI_Allgatherv): pack holds nf values a cell of this rank's block, all of every rank's */
static swgl_status gather(const mpi_inst *m, int nf, double *const *local, double *const *whole, double *pack,
                          double *all)
{
    int *cnt = malloc((size_t)g_size * sizeof *cnt), *dis = malloc((size_t)g_size * sizeof *dis);
    swgl_status st = cnt && dis ? SWGL_OK : swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    if ((st = agree(st)) != SWGL_OK) {
        free(cnt);
        free(dis);
        return st;
    }
    for (int r = 0; r < g_size; r++) {
        const int *o = m->blk[r];
        cnt[r] = (o[2] - o[0]) * (o[3] - o[1]) * nf;
        dis[r] = r ? dis[r - 1] + cnt[r - 1] : 0;
    }
    const int *own = m->blk[g_rank], *win = own + 4;
    size_t q = 0;
    for (int c = 0; c < nf; c++)
        for (int y = own[1]; y < own[3]; y++)
            for (int x = own[0]; x < own[2]; x++) pack[q++] = local[c][grid_at(m->local.nx, x - win[0] + 1, y - win[1] + 1)];
    MPI_Allgatherv(pack, cnt[g_rank], MPI_DOUBLE, all, cnt, dis, MPI_DOUBLE, MPI_COMM_WORLD);
    for (int c = 0; c < nf; c++) memset(whole[c], 0, grid_size(m->gnx, m->gny) * sizeof(double));
    for (int r = 0; r < g_size; r++) {
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
static swgl_status gather_buffers(const mpi_inst *m, int nf, double **pack, double **all)
{
    const int *o = m->blk[g_rank];
    size_t mine = (size_t)(o[2] - o[0]) * (size_t)(o[3] - o[1]) * (size_t)nf,
           total = (size_t)m->gnx * (size_t)m->gny * (size_t)nf;
    if (total > 2147483647u)
        return swgl_fail(SWGL_ERR_ARG, "a %dx%d grid of %d fields is over MPI's 2^31 values a gathering", m->gnx,
                         m->gny, nf);
    if (!(*pack = malloc((mine + 1) * sizeof(double))) || !(*all = malloc((total + 1) * sizeof(double))))
        return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory for the gathered state");
    return SWGL_OK;
}

static swgl_status w_get_state(void *self, double *const *f)
{
    mpi_inst *m = self;
    swgl_status st = agree(m->inner.be->get_state(m->inner.self, m->lf.f));
    return st == SWGL_OK ? gather(m, m->lf.n, m->lf.f, f, m->pack, m->all) : st;
}

/* The rank that owns global ghost-ring cell k (interior), or -1 (ring) */
static int owner_of(const mpi_inst *m, size_t k, int *x, int *y)
{
    int W = m->gnx + 2, i = (int)(k % (size_t)W) - 1, j = (int)(k / (size_t)W) - 1;
    *x = i;
    *y = j;
    if (i < 0 || j < 0 || i >= m->gnx || j >= m->gny) return -1;
    for (int r = 0; r < g_size; r++) {
        const int *o = m->blk[r];
        if (i >= o[0] && i < o[2] && j >= o[1] && j < o[3]) return r;
    }
    return -1;
}

/* The state at n cells (gauges): each rank samples the cells it owns (the backend's sample,
 * a few texels on a GPU), and the values go to every rank (MPI_Allgatherv) */
static swgl_status w_sample(void *self, const size_t *cells, int n, double *const *out)
{
    mpi_inst *m = self;
    const int nf = m->lf.n, *win = m->blk[g_rank] + 4;
    size_t *mine = malloc(((size_t)n + 1) * sizeof *mine);
    double *vals = malloc(((size_t)n * nf + 1) * sizeof *vals), *all = malloc(((size_t)n * nf + 1) * sizeof *all);
    double *col[SCHEME_MAX_FIELDS];
    int *cnt = calloc((size_t)g_size, sizeof *cnt), *dis = calloc((size_t)g_size, sizeof *dis), nm = 0;
    swgl_status st = mine && vals && all && cnt && dis ? SWGL_OK : swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    for (int q = 0; st == SWGL_OK && q < n; q++) {
        int x, y, r = owner_of(m, cells[q], &x, &y);
        if (r >= 0) cnt[r] += nf;
        if (r == g_rank) mine[nm++] = grid_at(m->local.nx, x - win[0] + 1, y - win[1] + 1);
    }
    for (int c = 0; c < nf && st == SWGL_OK; c++) col[c] = vals + (size_t)c * nm;
    if (st == SWGL_OK && nm) st = scheme_sample(&m->inner, mine, nm, m->lf.f, col);
    if ((st = agree(st)) == SWGL_OK) {
        for (int r = 1; r < g_size; r++) dis[r] = dis[r - 1] + cnt[r - 1];
        MPI_Allgatherv(vals, nm * nf, MPI_DOUBLE, all, cnt, dis, MPI_DOUBLE, MPI_COMM_WORLD);
        int *next = calloc((size_t)g_size, sizeof *next);   /* each rank's next value */
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
static swgl_status w_get_native(void *self, double *f)
{
    mpi_inst *m = self;
    swgl_status st = agree(m->inner.be->get_native(m->inner.self, m->lf.f[0]));
    return st == SWGL_OK ? gather(m, 1, m->lf.f, &f, m->pack, m->all) : st;
}

static swgl_status w_set_native(void *self, const double *f)
{
    mpi_inst *m = self;
    scheme_window_field(f, m->gnx, m->blk[g_rank] + 4, m->lf.f[0]);
    return agree(m->inner.be->set_native(m->inner.self, m->lf.f[0]));
}

static swgl_status w_stage(void *self, int k, double *bound)
{
    mpi_inst *m = self;
    swgl_status st = SWGL_OK;
    double b = NAN;
    int parts = 0, inner[1][4], outer[4][4];
    if (k == 0) {   /* timed apart from the block's queued work (a GPU's last update) */
        const scheme_backend *be = m->inner.be;
        int reach = m->overlap ? be->overlap(m->inner.self, m->strip_max) : 0;
        parts = reach > 0 && overlap_rects(m, reach, inner, outer);
        if (be->finish) be->finish(m->inner.self);
        double t0 = MPI_Wtime();
        st = exchange(m, parts ? (const int (*)[4])inner : NULL);
        m->exch_s += MPI_Wtime() - t0;
        m->exchanges++;
        if (parts && st == SWGL_OK) st = be->stage_rects(m->inner.self, 0, (const int (*)[4])outer, 4, &b);
    }
    if (st == SWGL_OK && !parts) st = m->inner.be->stage(m->inner.self, k, &b);
    if ((st = agree(st)) != SWGL_OK) return st;
    /* the least bound of the ranks, a NaN anywhere a NaN (MPI_MIN may drop one) */
    double v[2] = {isnan(b) ? 1.0 : 0.0, isnan(b) ? -INFINITY : -b}, r[2];
    MPI_Allreduce(v, r, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    *bound = r[0] > 0 ? NAN : -r[1];
    if (k == 0) m->bound = *bound;
    return SWGL_OK;
}

static swgl_status w_advance(void *self, int k, double dt)
{
    mpi_inst *m = self;
    swgl_status st = m->inner.be->advance(m->inner.self, k, dt);
    if (st == SWGL_OK && m->lm.m[0] && !m->inner.be->maps_start && k == m->inner.be->stages(m->inner.self) - 1) {
        /* the time the loop reaches with this step (timeloop.c: the stop on the step that
         * lands there), and the block's maps from its state then */
        double left = m->stop - m->t, t = left <= m->bound * (1 + 1e-9) ? m->stop : m->t + dt;
        st = m->inner.be->get_state(m->inner.self, m->lf.f);
        if (st == SWGL_OK) swe_maps_update(&m->lm, m->local.code, m->lf.f, t);
    }
    return agree(st);
}

static swgl_status w_maps_start(void *self, const struct swe_maps *g)
{
    mpi_inst *m = self;
    const int *win = m->blk[g_rank] + 4;
    swgl_status st = SWGL_OK;
    m->lm.nx = m->local.nx;
    m->lm.ny = m->local.ny;
    m->lm.arrival_depth = g->arrival_depth;
    m->lm.h_dry = g->h_dry;
    for (int c = 0; c < SWE_MAP_COUNT && st == SWGL_OK; c++) {
        if (!(m->lm.m[c] = malloc(grid_size(m->local.nx, m->local.ny) * sizeof(double))))
            st = swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory for the flood maps");
        else scheme_window_field(g->m[c], m->gnx, win, m->lm.m[c]);
    }
    if (st == SWGL_OK) st = gather_buffers(m, SWE_MAP_COUNT, &m->mpack, &m->mall);
    /* a backend that keeps the maps itself (the GPU's) keeps the block's */
    if (st == SWGL_OK && m->inner.be->maps_start) st = m->inner.be->maps_start(m->inner.self, &m->lm);
    return agree(st);
}

/* the maps of every block's own cells into the run's maps */
static swgl_status w_maps_read(void *self, struct swe_maps *g)
{
    mpi_inst *m = self;
    swgl_status st = m->inner.be->maps_read ? m->inner.be->maps_read(m->inner.self, &m->lm) : SWGL_OK;
    if ((st = agree(st)) != SWGL_OK) return st;
    return gather(m, SWE_MAP_COUNT, m->lm.m, g->m, m->mpack, m->mall);
}

/* The accounts in the whole grid's shape (a, from its forcing): each block's, whose
 * segments are the whole grid's list and count only the faces of the block's own cells
 * (swe_forcing ring_count), whose sources map to the whole grid's where the block owns
 * their cells (src_global), summed over the ranks, as are the rain and the rounding clips
 * (each counted by the block that owns its cell) */
static swgl_status w_account(void *self, swe_account *a)
{
    mpi_inst *m = self;
    const swe_forcing *lf = m->d->forcing ? m->d->forcing(&m->local) : NULL;
    swe_account la = {0};
    swgl_status st = swe_account_init(&la, lf);
    if (st == SWGL_OK && m->inner.be->account) st = m->inner.be->account(m->inner.self, &la);
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
    if ((st = agree(st)) == SWGL_OK) {
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

static int w_stages(const void *self)
{
    const mpi_inst *m = self;
    return m->inner.be->stages(m->inner.self);
}

static void w_describe(const void *self, char *name, size_t len)
{
    const mpi_inst *m = self;
    snprintf(name, len, "%s", m->name);
}

static const char *w_precision(const void *self)
{
    const mpi_inst *m = self;
    return m->inner.be->precision ? m->inner.be->precision(m->inner.self) : "double";
}

static void w_finish(void *self)
{
    mpi_inst *m = self;
    if (m->inner.be->finish) m->inner.be->finish(m->inner.self);
}

static void w_set_time(void *self, double t, double stop)
{
    mpi_inst *m = self;
    m->t = t;
    m->stop = stop;
    if (m->inner.be->set_time) m->inner.be->set_time(m->inner.self, t, stop);
}

static const scheme_backend mpi_backend = {.backend = BACKEND_NONE,
                                           .destroy = w_destroy,
                                           .set_state = w_set_state,
                                           .get_state = w_get_state,
                                           .stage = w_stage,
                                           .advance = w_advance,
                                           .stages = w_stages,
                                           .describe = w_describe,
                                           .precision = w_precision,
                                           .finish = w_finish,
                                           .set_time = w_set_time,
                                           .account = w_account,
                                           .maps_start = w_maps_start,
                                           .maps_read = w_maps_read,
                                           .sample = w_sample};

int scheme_mpi_stats(const scheme_inst *in, double *exchange_s, long *exchanges)
{
    if (!in->be || in->be->destroy != w_destroy) return 0;
    const mpi_inst *m = in->self;
    *exchange_s = m->exch_s;
    *exchanges = m->exchanges;
    return 1;
}

void swgl_mpi_barrier(void)
{
    if (g_size > 1) MPI_Barrier(MPI_COMM_WORLD);
}

double swgl_mpi_max(double v)
{
    double r = v;
    if (g_size > 1) MPI_Allreduce(&v, &r, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return r;
}

swgl_status swgl_mpi_agree(swgl_status st) { return g_size > 1 ? agree(st) : st; }

swgl_status scheme_mpi_open(scheme_inst *in, const scheme_desc *d, enum backend b, const scheme_setup *s,
                            const scheme_config *cfg)
{
    memset(in, 0, sizeof *in);
    enum backend impl = b == BACKEND_GPU_COMPUTE ? BACKEND_GPU : b;
    const scheme_backend *be = b >= 0 && b < BACKEND_COUNT ? d->backends[impl] : NULL;
    if (!d->window || !d->halo)
        return swgl_fail(SWGL_ERR_ARG, "scheme %s does not run over MPI ranks yet: run it on one rank", d->name);
    if (!be || !be->halo_get || !be->halo_set)
        return swgl_fail(SWGL_ERR_ARG, "%s on the %s backend does not run over MPI ranks yet: run it on one rank", d->name, backend_name(b));
    int px = 1, py = 1;
    if (scheme_mpi_blocks(s->nx, s->ny, g_size, &px, &py)) return SWGL_ERR_ARG;
    mpi_inst *m = calloc(1, sizeof *m);
    if (!m) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    m->d = d;
    m->gnx = s->nx;
    m->gny = s->ny;
    m->px = px;
    m->py = py;
    m->halo = d->halo(s);
    const char *hv = getenv("SWGL_MPI_HALO");   /* tests: a narrower halo must show */
    if (hv && *hv) m->halo = atoi(hv) > 0 ? atoi(hv) : m->halo;
    const char *ov = getenv("SWGL_MPI_OVERLAP");
    m->overlap = !(ov && strcmp(ov, "0") == 0) && be->overlap && be->halo_request && be->halo_fetch && be->stage_rects;
    m->nv = be->halo_values;
    swgl_status st = SWGL_OK;
    if (!(m->blk = calloc((size_t)g_size, sizeof *m->blk))) st = swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    for (int r = 0; st == SWGL_OK && r < g_size; r++) {
        int bx = r % px, by = r / px, *o = m->blk[r], *w = m->blk[r] + 4, H = m->halo;
        o[0] = (int)((long)s->nx * bx / px);
        o[2] = (int)((long)s->nx * (bx + 1) / px);
        o[1] = (int)((long)s->ny * by / py);
        o[3] = (int)((long)s->ny * (by + 1) / py);
        w[0] = o[0] - H > 0 ? o[0] - H : 0;
        w[1] = o[1] - H > 0 ? o[1] - H : 0;
        w[2] = o[2] + H < s->nx ? o[2] + H : s->nx;
        w[3] = o[3] + H < s->ny ? o[3] + H : s->ny;
    }
    const int *own = st == SWGL_OK ? m->blk[g_rank] : NULL, *win = own ? own + 4 : NULL;
    if (st == SWGL_OK) {
        int own_local[4] = {own[0] - win[0], own[1] - win[1], own[2] - win[0], own[3] - win[1]};
        st = d->window(s, win, own_local, &m->local);
    }
    if ((st = agree(st)) != SWGL_OK) goto fail;
    st = scheme_open_block(&m->inner, d, b, &m->local, cfg);
    if ((st = agree(st)) != SWGL_OK) goto fail;
    /* the peers: ranks whose own cells lie in this window, or whose window holds some of this
     * rank's own cells */
    m->peers = calloc((size_t)g_size, sizeof *m->peers);
    m->req = calloc(2 * (size_t)g_size, sizeof *m->req);
    if (!m->peers || !m->req) st = swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    for (int r = 0; st == SWGL_OK && r < g_size; r++) {
        if (r == g_rank) continue;
        int snd[4], rcv[4];
        rect_and(own, m->blk[r] + 4, snd);
        rect_and(m->blk[r], win, rcv);
        int ns = rect_cells(snd), nr = rect_cells(rcv);
        if (!ns && !nr) continue;
        peer *q = &m->peers[m->npeer++];
        q->rank = r;
        q->sn = ns * m->nv;
        q->rn = nr * m->nv;
        if (ns) rect_local(snd, win, q->snd);
        if (nr) rect_local(rcv, win, q->rcv);
        if ((ns && !(q->sbuf = malloc((size_t)q->sn * sizeof(double)))) ||
            (nr && !(q->rbuf = malloc((size_t)q->rn * sizeof(double)))))
            st = swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory for the halo");
    }
    if (st == SWGL_OK) st = scheme_fields_alloc(&m->lf, d, m->local.nx, m->local.ny);
    if (st == SWGL_OK) st = gather_buffers(m, d->n_fields, &m->pack, &m->all);
    if ((st = agree(st)) != SWGL_OK) goto fail;
    for (int p = 0; p < m->npeer; p++) {
        long c = (long)m->peers[p].snd[2] * m->peers[p].snd[3];
        if (m->peers[p].sn && c > m->strip_max) m->strip_max = c;
    }
    int ovl = m->overlap && m->inner.be->overlap(m->inner.self, m->strip_max) > 0;
    snprintf(m->name, sizeof m->name, "%.228s over %d MPI ranks (%d x %d blocks, halo %d%s)", m->inner.name, g_size, px,
             py, m->halo, ovl ? ", overlapped" : "");
    m->be = mpi_backend;
    if (m->inner.be->get_native && m->inner.be->set_native) {
        m->be.get_native = w_get_native;
        m->be.set_native = w_set_native;
    }
    in->desc = d;
    in->be = &m->be;
    in->self = m;
    memcpy(in->name, m->name, sizeof in->name);
    in->speed_scale = d->speed_scale ? d->speed_scale(s) : 0;
    for (size_t k = 0; k < grid_size(s->nx, s->ny); k++) in->cells += !s->code || s->code[k] == CELL_ACTIVE;
    if (!s->code) in->cells = (long)s->nx * s->ny;
    return SWGL_OK;
fail:
    w_destroy(m);
    return st;
}

#endif
