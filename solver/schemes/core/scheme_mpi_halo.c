/* scheme_mpi_halo.c — the halo of a rank's block: the peers it exchanges with, the
 * exchange (overlapped with the inner cells' stage 0 where the backend can), and the
 * stages of the instance of the whole grid, whose bound is the ranks' minimum. */
#include "scheme_mpi_int.h"

#ifdef SWGL_HAVE_MPI

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
/* the first failure's status and message kept (a fetch made after it, to leave no read-back
 * in flight, may fail in turn and say something else) */
static void first(swgl_status *st, swgl_status f, char *msg, size_t len)
{
    if (f == SWGL_OK || *st != SWGL_OK) return;
    *st = f;
    snprintf(msg, len, "%s", swgl_last_error());
}

static swgl_status exchange(mpi_inst *m, const int (*inner)[4])
{
    swgl_status st = SWGL_OK;
    char msg[1024] = "";
    const scheme_backend *be = m->inner.be;
    void *self = m->inner.self;
    double t0 = MPI_Wtime(), t1;
    for (int p = 0; p < m->npeer; p++) {
        peer *q = &m->peers[p];
        m->req[2 * p] = m->req[2 * p + 1] = MPI_REQUEST_NULL;
        /* (received into the backend's own mapped memory where it has room: no copy on the way in) */
        q->rp = NULL;
        if (q->xrn && be->halo->area && be->halo->area(self, q->xrn, &q->rp) != SWGL_OK) q->rp = NULL;
        if (!q->rp) q->rp = q->rbuf;
        if (q->xrn) MPI_Irecv(q->rp, q->xrn, MPI_BYTE, q->rank, 14, MPI_COMM_WORLD, &m->req[2 * p]);
    }
    /* the sending peers whose strips are asked for: after the last step (scheme_mpi_prefetch),
     * or here, every one before the first is waited for (the read-backs of several
     * neighbours' strips in flight together), where the backend can */
    int asked = m->prefetched;
    m->prefetched = 0;
    int all = inner || asked || m->pipelined;
    for (int p = 0; all && !m->asked_early && p < m->npeer && st == SWGL_OK; p++) {
        peer *q = &m->peers[p];
        if (!q->xsn) continue;
        first(&st, be->halo->request(self, q->xs[0], q->xs[1], q->xs[2], q->xs[3]), msg, sizeof msg);
        asked++;   /* (a failed one too: a double strip's first member may be in flight) */
    }
    m->asked_early = 0;
    if (inner && st == SWGL_OK) first(&st, be->halo->stage_rects(self, 0, inner, 1, NULL), msg, sizeof msg);
    for (int p = 0, k = 0; p < m->npeer; p++) {   /* (sent on a failure too: no peer is left waiting) */
        peer *q = &m->peers[p];
        if (!q->xsn) continue;
        q->sp = q->sbuf;
        if (all) {   /* (every strip asked for is fetched, after a failure too: none is left in flight;
                      * sent from where the backend holds it, where it can: no copy on the way out) */
            if (k++ < asked) {
                const void *v = NULL;
                if (be->halo->view) first(&st, be->halo->view(self, q->sbuf, &v), msg, sizeof msg);
                else first(&st, be->halo->fetch(self, q->sbuf), msg, sizeof msg);
                if (v) q->sp = v;
            }
        } else if (st == SWGL_OK) {
            first(&st, be->halo->get(self, q->xs[0], q->xs[1], q->xs[2], q->xs[3], q->sbuf), msg, sizeof msg);
        }
        MPI_Isend(q->sp, q->xsn, MPI_BYTE, q->rank, 14, MPI_COMM_WORLD, &m->req[2 * p + 1]);
        m->sent += q->xsn;
    }
    t1 = MPI_Wtime();
    m->tm.read_s += t1 - t0;   /* the strips read back (with the requests and, overlapped, the inner cells queued) */
    /* each strip received written as it comes (the peers' rectangles are their own cells:
     * apart, so the order does not matter), while the others are still on their way */
    for (;;) {
        int idx = MPI_UNDEFINED;
        MPI_Waitany(2 * m->npeer, m->req, &idx, MPI_STATUS_IGNORE);
        double t2 = MPI_Wtime();
        m->tm.wire_s += t2 - t1;
        if (idx == MPI_UNDEFINED) break;
        const peer *q = &m->peers[idx / 2];
        if (idx % 2 == 0 && st == SWGL_OK)
            first(&st, be->halo->set(self, q->xr[0], q->xr[1], q->xr[2], q->xr[3], q->rp), msg, sizeof msg);
        t1 = MPI_Wtime();
        m->tm.write_s += t1 - t2;
    }
    return st == SWGL_OK ? st : swgl_fail(st, "%s", msg);
}

swgl_status scheme_mpi_prefetch(mpi_inst *m)
{
    if (!m->prefetch || m->asked_early || !(m->since == 0 || m->since - m->last >= m->period)) return SWGL_OK;
    scheme_mpi_band(m, m->since == 0 ? m->every : m->since - m->last);   /* (the next stage 0's, as it will set them) */
    const scheme_backend *be = m->inner.be;
    swgl_status st = SWGL_OK;
    for (int p = 0; p < m->npeer && st == SWGL_OK; p++) {
        peer *q = &m->peers[p];
        if (!q->xsn) continue;
        st = be->halo->request(m->inner.self, q->xs[0], q->xs[1], q->xs[2], q->xs[3]);
        m->prefetched++;   /* (a failed one too: the exchange fetches what may be in flight) */
    }
    m->asked_early = 1;
    return st;
}

void scheme_mpi_drop_prefetch(mpi_inst *m)
{
    if (!m->asked_early) return;
    m->asked_early = 0;
    /* (fetched into the send buffers, which the next exchange fills) */
    for (int p = 0, k = 0; p < m->npeer && k < m->prefetched; p++)
        if (m->peers[p].xsn) (void)m->inner.be->halo->fetch(m->inner.self, m->peers[p].sbuf), k++;
    m->prefetched = 0;
}

/* Where stage 0 may go on during the exchange (the backend's overlap, the reach of its
 * stencil, > 0): inner, the block's own cells less the reach where a neighbour's cells
 * (the halo) lie beyond them, shrunk to the backend's tiling (its corners on multiples of
 * the tile: then the stage in parts is the whole stage's form, scheme.h tiling), and
 * outer, the rest of the block's arrays (four rectangles, whose corners are then on the
 * tiling too), in grid_at coordinates; 0 where the block has no inner cells. */
static int overlap_rects(const mpi_inst *m, int reach, int inner[1][4], int outer[4][4])
{
    const int *own = m->blk[swgl_mpi_rank()], *win = own + 4;
    int tw = m->local.nx + 2, th = m->local.ny + 2, tile[2] = {1, 1};
    const scheme_halo_ops *ho = m->inner.be->halo;
    if (ho->tiling) ho->tiling(m->inner.self, tile);
    int x0 = own[0] - win[0] + 1 + (own[0] != win[0] ? reach : 0), x1 = own[2] - win[0] + 1 - (own[2] != win[2] ? reach : 0);
    int y0 = own[1] - win[1] + 1 + (own[1] != win[1] ? reach : 0), y1 = own[3] - win[1] + 1 - (own[3] != win[3] ? reach : 0);
    x0 = (x0 + tile[0] - 1) / tile[0] * tile[0];   /* (the cells cut off go with the outer rectangles) */
    y0 = (y0 + tile[1] - 1) / tile[1] * tile[1];
    x1 = x1 / tile[0] * tile[0];
    y1 = y1 / tile[1] * tile[1];
    if (x1 <= x0 || y1 <= y0) return 0;
    const int in[4] = {x0, y0, x1 - x0, y1 - y0};
    const int rest[4][4] = {{0, 0, tw, y0}, {0, y1, tw, th - y1}, {0, y0, x0, y1 - y0}, {x1, y0, tw - x1, y1 - y0}};
    memcpy(inner[0], in, sizeof in);
    memcpy(outer, rest, sizeof rest);
    return 1;
}

/* The peers: ranks whose own cells lie in this window, or whose window holds some of this
 * rank's own cells; and the largest strip this rank sends. */
swgl_status scheme_mpi_peers(mpi_inst *m)
{
    swgl_status st = SWGL_OK;
    const int *own = m->blk[swgl_mpi_rank()], *win = own + 4;
    m->peers = calloc((size_t)swgl_mpi_size(), sizeof *m->peers);
    m->req = calloc(2 * (size_t)swgl_mpi_size(), sizeof *m->req);
    if (!m->peers || !m->req) st = swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    for (int r = 0; st == SWGL_OK && r < swgl_mpi_size(); r++) {
        if (r == swgl_mpi_rank()) continue;
        int snd[4], rcv[4];
        rect_and(own, m->blk[r] + 4, snd);
        rect_and(m->blk[r], win, rcv);
        int ns = rect_cells(snd), nr = rect_cells(rcv);
        if (!ns && !nr) continue;
        if ((long)(ns > nr ? ns : nr) * m->cell_bytes > INT_MAX) {   /* (MPI counts bytes in int) */
            st = swgl_fail(SWGL_ERR_TOO_LARGE, "a halo strip of %d cells is over MPI's 2^31 bytes a message", ns > nr ? ns : nr);
            break;
        }
        peer *q = &m->peers[m->npeer++];
        q->rank = r;
        q->sn = ns * m->cell_bytes;
        q->rn = nr * m->cell_bytes;
        if (ns) rect_local(snd, win, q->snd);
        if (nr) rect_local(rcv, win, q->rcv);
        memcpy(q->gsnd, snd, sizeof snd);
        memcpy(q->grcv, rcv, sizeof rcv);
        if ((ns && !(q->sbuf = malloc((size_t)q->sn))) || (nr && !(q->rbuf = malloc((size_t)q->rn))))
            st = swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory for the halo");
    }
    for (int p = 0; st == SWGL_OK && p < m->npeer; p++) {
        long c = (long)m->peers[p].snd[2] * m->peers[p].snd[3];
        if (m->peers[p].sn && c > m->strip_max) m->strip_max = c;
        m->nsend += m->peers[p].sn > 0;
    }
    if (st == SWGL_OK) scheme_mpi_band(m, m->every);
    return st;
}

/* The part of r (one rank's own cells in the window win of another, whose own cells are
 * own; interior coordinates x0, y0, x1, y1) that has gone stale b cells from the window's
 * edge: where r lies beside own on one side, its b cells farthest from own; at a corner
 * (beside own on two sides), all of it.  A window's cells go stale from its edges inward,
 * a step's reach a step (its ring beyond holds walls, not the neighbours' cells), and
 * every cell of r lies a halo's width or more from the window's other edges. */
static void band(const int r[4], const int own[4], const int win[4], int b, int out[4])
{
    memcpy(out, r, 4 * sizeof *out);
    int west = r[2] <= own[0], east = r[0] >= own[2], south = r[3] <= own[1], north = r[1] >= own[3];
    if ((west || east) && (south || north)) return;
    if (west && win[0] + b < out[2]) out[2] = win[0] + b;
    if (east && win[2] - b > out[0]) out[0] = win[2] - b;
    if (south && win[1] + b < out[3]) out[3] = win[1] + b;
    if (north && win[3] - b > out[1]) out[1] = win[3] - b;
}

void scheme_mpi_band(mpi_inst *m, long steps)
{
    const int *own = m->blk[swgl_mpi_rank()], *win = own + 4;
    int whole = steps >= m->every, b = (int)((m->halo / m->every) * (whole ? m->every : steps));
    for (int p = 0; p < m->npeer; p++) {
        peer *q = &m->peers[p];
        int s[4], r[4];
        if (whole || !q->sn) {
            memcpy(q->xs, q->snd, sizeof q->xs);
            q->xsn = q->sn;
        } else {   /* (the peer's window goes stale as this one does: the same steps) */
            band(q->gsnd, m->blk[q->rank], m->blk[q->rank] + 4, b, s);
            rect_local(s, win, q->xs);
            q->xsn = rect_cells(s) * m->cell_bytes;
        }
        if (whole || !q->rn) {
            memcpy(q->xr, q->rcv, sizeof q->xr);
            q->xrn = q->rn;
        } else {
            band(q->grcv, own, win, b, r);
            rect_local(r, win, q->xr);
            q->xrn = rect_cells(r) * m->cell_bytes;
        }
    }
}

/* Whether this stage 0 exchanges, and then its rectangles: the whole halo at the first since
 * the state was set, else what went stale in the steps since the last exchange (the whole
 * halo where those are `every`) */
static int due(mpi_inst *m)
{
    long s = m->since++;
    if (s != 0 && s - m->last < m->period) return 0;
    scheme_mpi_band(m, s == 0 ? m->every : s - m->last);
    m->span = s == 0 ? 0 : s - m->last;   /* (the steps since the last; none known after a state set) */
    m->last = s;
    return 1;
}

/* After an exchange, the period chosen (tune mpi.choose): every / 2 for the first two
 * exchanges' steps (a new sim's first steps touch its arrays for the first time), then
 * rounds of every steps at every / 2 (two exchanges) and every steps at every (one), each
 * timed from exchange to exchange, and after the last round the faster a step (the ranks'
 * slowest times: every rank the same choice) for the rest of the run */
static void choose_next(mpi_inst *m)
{
    if (!m->choose.on) return;
    double now = MPI_Wtime();
    int e = m->choose.turn++, half = m->every / 2;
    if (e >= 3 && m->span > 0) {   /* the span that ends here, and its steps (not one cut by a state set) */
        m->choose.t[m->period == half ? 0 : 1] += now - m->choose.t_prev;
        m->choose.n[m->period == half ? 0 : 1] += m->span;
    }
    m->choose.t_prev = now;
    if (e >= 2 && (e - 2) % 3 == 0 && (e - 2) / 3 == m->choose.rounds) {
        double t[2];
        MPI_Allreduce(m->choose.t, t, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        /* (a step's time: an odd every's rounds are not of equal steps) */
        m->period = t[0] * m->choose.n[1] <= t[1] * m->choose.n[0] ? half : m->every;
        m->choose.on = 0;
        return;
    }
    m->period = e >= 2 && (e - 2) % 3 == 2 ? m->every : half;
}

swgl_status scheme_mpi_stage(void *self, int k, double *bound)
{
    mpi_inst *m = self;
    swgl_status st = SWGL_OK, kept = m->qerr;   /* (an error kept within a held window is agreed here) */
    m->qerr = SWGL_OK;
    double b = NAN;
    int parts = 0, inner[1][4], outer[4][4];
    /* the halo every `every` steps: a halo every x as wide as a step reads keeps the owned
     * cells exact for that many steps (the cells beyond them, computed on both sides, go
     * stale from the outside in, and the bound counts owned cells only) */
    int exch = k == 0 && due(m);
    if (exch) {
        choose_next(m);
        /* no wait for the block's queued work first: a GPU's strips are packed by passes
         * queued after it, and their read-backs wait for those alone (the wait shows in the
         * read) */
        const scheme_backend *be = m->inner.be;
        parts = m->overlap > 0 && overlap_rects(m, m->overlap, inner, outer);
        double t0 = MPI_Wtime();
        st = exchange(m, parts ? (const int (*)[4])inner : NULL);
        m->exch_s += MPI_Wtime() - t0;
        m->exchanges++;
        double ts = MPI_Wtime();
        if (parts && st == SWGL_OK) st = be->halo->stage_rects(m->inner.self, 0, (const int (*)[4])outer, 4, &b);
        m->tm.stage_s += MPI_Wtime() - ts;
    }
    double ts = MPI_Wtime();
    if (st == SWGL_OK && !parts) st = m->inner.be->stage(m->inner.self, k, &b);
    double tb = MPI_Wtime();
    m->tm.stage_s += tb - ts;
    if (kept != SWGL_OK) st = kept;
    if ((st = scheme_mpi_agree(st)) != SWGL_OK) return st;
    /* the least bound of the ranks, a NaN anywhere a NaN (MPI_MIN may drop one) */
    double v[2] = {isnan(b) ? 1.0 : 0.0, isnan(b) ? -INFINITY : -b}, r[2];
    MPI_Allreduce(v, r, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    m->tm.bound_s += MPI_Wtime() - tb;
    *bound = r[0] > 0 ? NAN : -r[1];
    if (k == 0) m->bound = *bound;
    return SWGL_OK;
}

/* ---- the held step: the block's hold ops, the bounds the ranks' least ------------------ */

static int h_able(const void *self)
{
    const mpi_inst *m = self;
    const scheme_backend *be = m->inner.be;
    /* (the driver's maps, updated from each step's state, cannot go back) */
    int host_maps = m->lm.m[0] && !(be->device && be->device->maps_start);
    return be->hold && be->hold->able(m->inner.self) && !host_maps;
}

static void keep(mpi_inst *m, swgl_status st)
{
    if (m->qerr == SWGL_OK) m->qerr = st;
}

static swgl_status h_stage_quiet(void *self, int k, int slot)
{
    mpi_inst *m = self;
    double t0 = MPI_Wtime();
    if (k == 0 && due(m)) {   /* (every rank exchanges, a failed one too) */
        keep(m, exchange(m, NULL));
        double t1 = MPI_Wtime();
        m->exch_s += t1 - t0;
        m->exchanges++;
        t0 = t1;
    }
    if (m->qerr == SWGL_OK) keep(m, m->inner.be->hold->stage_quiet(m->inner.self, k, slot));
    m->tm.stage_s += MPI_Wtime() - t0;
    return SWGL_OK;
}

static swgl_status h_bounds(void *self, int n, double *b)
{
    mpi_inst *m = self;
    double t0 = MPI_Wtime();
    swgl_status st = m->qerr;
    m->qerr = SWGL_OK;
    m->in_window = 0;
    if (st == SWGL_OK) st = m->inner.be->hold->bounds(m->inner.self, n, b);
    double t1 = MPI_Wtime();
    m->tm.stage_s += t1 - t0;
    if ((st = scheme_mpi_agree(st)) != SWGL_OK) return st;
    /* each slot the least of the ranks', a NaN anywhere a NaN (as scheme_mpi_stage) */
    double v[2 * SCHEME_HOLD_SLOTS], r[2 * SCHEME_HOLD_SLOTS];
    for (int k = 0; k < n; k++) {
        v[2 * k] = isnan(b[k]) ? 1.0 : 0.0;
        v[2 * k + 1] = isnan(b[k]) ? -INFINITY : -b[k];
    }
    if (n > 0) MPI_Allreduce(v, r, 2 * n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);   /* (every rank the same n) */
    for (int k = 0; k < n; k++) b[k] = r[2 * k] > 0 ? NAN : -r[2 * k + 1];
    m->tm.bound_s += MPI_Wtime() - t1;
    return SWGL_OK;
}

static swgl_status h_save(void *self)
{
    mpi_inst *m = self;
    m->held_since = m->since;
    m->held_last = m->last;
    m->in_window = 1;
    keep(m, m->inner.be->hold->save(m->inner.self));
    return SWGL_OK;
}

static swgl_status h_restore(void *self)
{
    mpi_inst *m = self;
    scheme_mpi_drop_prefetch(m);   /* (asked for after the window's last step, which is undone) */
    m->since = m->held_since;
    m->last = m->held_last;
    m->in_window = 1;
    keep(m, m->inner.be->hold->restore(m->inner.self));
    return SWGL_OK;
}

const scheme_hold_ops scheme_mpi_hold = {.able = h_able, .stage_quiet = h_stage_quiet, .bounds = h_bounds,
                                         .save = h_save, .restore = h_restore};

#endif
