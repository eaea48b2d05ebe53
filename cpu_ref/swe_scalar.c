/* swe_scalar.c — the CPU solvers' public face (swe.h) and the scalar double-precision
 * solver of the Lastra et al. (2009) Roe scheme: the accuracy reference.
 *
 * One step (the fast solver in swe_fast.c does the same in float, 4 lanes at a time):
 *  1. Edge sweep, row by row (j = 1..ny), each edge computed once by swe_roe_edge with
 *     the normal pointing east (x-edges) or north (y-edges):
 *       x-edges of row j:   cells (e, j) | (e+1, j),    e = 0..nx
 *       north edges of j:   cells (i, j) | (i, j+1),    i = 1..nx
 *     the south edges of row j are the north edges of row j-1, kept from the previous
 *     row.  A boundary edge (one side ACTIVE, the other a ghost) gets its exterior state
 *     from the interior one: wall -> (h, q - 2 (q.eta) eta), free -> copy, and H_ext =
 *     H_int; SWE_OFF next to an active cell is treated as a wall.  Edges with no active
 *     side are skipped.  For every active cell:
 *       acc_i = dy (F-_E + F-_W) + dx (F-_N + F-_S)               (sum |Gamma| F-)
 *       S_i   = dy (|D|_E + |D|_W) + dx (|D|_N + |D|_S)           (sum |Gamma| ||D||_inf)
 *  2. Time step (8): dt = min_i 2 cfl |V_i| / S_i = 2 cfl dx dy / max_i S_i (|V_i| = dx dy
 *     for all cells), then dt = min(dt, dt_max); dt = dt_max when no wave moves.
 *  3. Update (4): W_i <- W_i - dt / (dx dy) acc_i; then h < 0 -> h = 0 and
 *     h <= h_dry -> q = 0.  Ghost and inactive cells are not updated (kept at 0).
 * The sums are written in an order that a 90-degree rotation of the problem maps onto
 * itself (E<->N, W<->S), so a rotated case gives the rotated answer.
 */
#include "swe.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The fast solver (swe_fast.c); not part of the public contract. */
struct swe_fast;
struct swe_fast *swe_fast_create(const swe_problem *p, char *err, int errlen);
void swe_fast_destroy(struct swe_fast *f);
void swe_fast_set_state(struct swe_fast *f, const double *h, const double *qx, const double *qy);
void swe_fast_get_state(const struct swe_fast *f, double *h, double *qx, double *qy);
double swe_fast_step(struct swe_fast *f, double dt_max);
int swe_fast_threads(const struct swe_fast *f);

/* one edge's results: contribution to the cell on each side, and ||D||_inf */
typedef struct {
    double *fi[3], *fj[3], *s;
} edge_row;

struct swe_cpu {
    enum swe_cpu_kind kind;
    char name[64];
    struct swe_fast *fast;      /* kind == SWE_CPU_FAST */
    /* scalar solver */
    swe_problem p;
    double *H;
    unsigned char *code;
    double *h, *qx, *qy;
    double *acc[3];
    edge_row xe, ne, se;        /* x-edges of a row, its north and south edges */
    double *rowbuf;
};

static void set_err(char *err, int errlen, const char *msg)
{
    if (err && errlen > 0) snprintf(err, (size_t)errlen, "%s", msg);
}

/* Problem checks shared with swe_fast.c (by contract, not by header). */
int swe_problem_check(const swe_problem *p, char *err, int errlen)
{
    if (!p) { set_err(err, errlen, "swe: no problem"); return 0; }
    if (p->nx < 1 || p->ny < 1) { set_err(err, errlen, "swe: nx and ny must be >= 1"); return 0; }
    if (!(p->dx > 0.0) || !(p->dy > 0.0)) { set_err(err, errlen, "swe: dx and dy must be > 0"); return 0; }
    if (!(p->g > 0.0)) { set_err(err, errlen, "swe: g must be > 0"); return 0; }
    if (!(p->cfl > 0.0 && p->cfl <= 1.0)) { set_err(err, errlen, "swe: cfl must be in (0, 1]"); return 0; }
    if (!(p->h_dry >= 0.0)) { set_err(err, errlen, "swe: h_dry must be >= 0"); return 0; }
    if (!p->H || !p->code) { set_err(err, errlen, "swe: H and code are required"); return 0; }
    return 1;
}

void swe_cpu_destroy(swe_cpu *s)
{
    if (!s) return;
    swe_fast_destroy(s->fast);
    free(s->H);
    free(s->code);
    free(s->h);
    free(s->qx);
    free(s->qy);
    for (int m = 0; m < 3; m++) free(s->acc[m]);
    free(s->rowbuf);
    free(s);
}

swe_cpu *swe_cpu_create(const swe_problem *p, enum swe_cpu_kind kind, char *err, int errlen)
{
    if (!swe_problem_check(p, err, errlen)) return NULL;
    if (kind != SWE_CPU_SCALAR && kind != SWE_CPU_FAST) {
        set_err(err, errlen, "swe: unknown solver kind");
        return NULL;
    }
    swe_cpu *s = calloc(1, sizeof *s);
    if (!s) { set_err(err, errlen, "swe: out of memory"); return NULL; }
    s->kind = kind;
    s->p = *p;
    if (kind == SWE_CPU_FAST) {
        s->fast = swe_fast_create(p, err, errlen);
        if (!s->fast) goto fail_quiet;
        snprintf(s->name, sizeof s->name, "cpu (float, SSE x4, %d threads)", swe_fast_threads(s->fast));
        return s;
    }
    snprintf(s->name, sizeof s->name, "cpu-scalar (double)");

    size_t n = (size_t)(p->nx + 2) * (size_t)(p->ny + 2);
    size_t w = (size_t)(p->nx + 2);
    s->H = malloc(n * sizeof *s->H);
    s->code = malloc(n);
    s->h = calloc(n, sizeof *s->h);
    s->qx = calloc(n, sizeof *s->qx);
    s->qy = calloc(n, sizeof *s->qy);
    for (int m = 0; m < 3; m++) s->acc[m] = calloc(n, sizeof *s->acc[m]);
    s->rowbuf = calloc(21 * w, sizeof *s->rowbuf);
    if (!s->H || !s->code || !s->h || !s->qx || !s->qy || !s->acc[0] || !s->acc[1] ||
        !s->acc[2] || !s->rowbuf)
        goto fail;
    memcpy(s->H, p->H, n * sizeof *s->H);
    memcpy(s->code, p->code, n);
    s->p.H = s->H;
    s->p.code = s->code;
    edge_row *rows[3] = {&s->xe, &s->ne, &s->se};
    for (int r = 0; r < 3; r++) {
        double *b = s->rowbuf + (size_t)r * 7 * w;
        for (int m = 0; m < 3; m++) {
            rows[r]->fi[m] = b + (size_t)m * w;
            rows[r]->fj[m] = b + (size_t)(3 + m) * w;
        }
        rows[r]->s = b + 6 * w;
    }
    return s;
fail:
    set_err(err, errlen, "swe: out of memory");
fail_quiet:
    swe_cpu_destroy(s);
    return NULL;
}

void swe_cpu_set_state(swe_cpu *s, const double *h, const double *qx, const double *qy)
{
    if (s->kind == SWE_CPU_FAST) { swe_fast_set_state(s->fast, h, qx, qy); return; }
    size_t n = (size_t)(s->p.nx + 2) * (size_t)(s->p.ny + 2);
    for (size_t k = 0; k < n; k++) {
        int a = s->code[k] == SWE_ACTIVE;
        s->h[k] = a ? h[k] : 0.0;
        s->qx[k] = a ? qx[k] : 0.0;
        s->qy[k] = a ? qy[k] : 0.0;
    }
}

void swe_cpu_get_state(const swe_cpu *s, double *h, double *qx, double *qy)
{
    if (s->kind == SWE_CPU_FAST) { swe_fast_get_state(s->fast, h, qx, qy); return; }
    size_t n = (size_t)(s->p.nx + 2) * (size_t)(s->p.ny + 2);
    memcpy(h, s->h, n * sizeof *h);
    memcpy(qx, s->qx, n * sizeof *qx);
    memcpy(qy, s->qy, n * sizeof *qy);
}

int swe_cpu_threads(const swe_cpu *s)
{
    return s->kind == SWE_CPU_FAST ? swe_fast_threads(s->fast) : 1;
}

const char *swe_cpu_name(const swe_cpu *s)
{
    return s->name;
}

/* One edge between cells kL (west/south) and kR (east/north), normal (ex, ey) from L to
 * R.  Boundary edges get the exterior state from the active side.  0 when no side is
 * active. */
static double edge(const swe_cpu *s, size_t kL, size_t kR, double ex, double ey,
                   double fL[3], double fR[3])
{
    int aL = s->code[kL] == SWE_ACTIVE, aR = s->code[kR] == SWE_ACTIVE;
    if (!aL && !aR) {
        for (int m = 0; m < 3; m++) fL[m] = fR[m] = 0.0;
        return 0.0;
    }
    double wL[3] = {s->h[kL], s->qx[kL], s->qy[kL]};
    double wR[3] = {s->h[kR], s->qx[kR], s->qy[kR]};
    double HL = s->H[kL], HR = s->H[kR];
    if (!aR || !aL) {
        /* exterior from interior: free -> copy, wall (or off) -> mirror q */
        const double *wa = aL ? wL : wR;
        double *wg = aL ? wR : wL;
        unsigned char cg = aL ? s->code[kR] : s->code[kL];
        double qn = wa[1] * ex + wa[2] * ey;
        wg[0] = wa[0];
        wg[1] = cg == SWE_FREE ? wa[1] : wa[1] - 2.0 * qn * ex;
        wg[2] = cg == SWE_FREE ? wa[2] : wa[2] - 2.0 * qn * ey;
        if (aL) HR = HL; else HL = HR;
    }
    return swe_roe_edge(wL, wR, HL, HR, ex, ey, s->p.g, s->p.h_dry, fL, fR);
}

static void edge_store(edge_row *r, int i, const double fL[3], const double fR[3], double sp)
{
    for (int m = 0; m < 3; m++) {
        r->fi[m][i] = fL[m];
        r->fj[m][i] = fR[m];
    }
    r->s[i] = sp;
}

/* north edges of row j: (i, j) | (i, j+1), i = 1..nx */
static void north_edges(swe_cpu *s, int j, edge_row *r)
{
    const size_t w = (size_t)(s->p.nx + 2);
    double fL[3], fR[3];
    for (int i = 1; i <= s->p.nx; i++) {
        size_t k = (size_t)j * w + (size_t)i;
        double sp = edge(s, k, k + w, 0.0, 1.0, fL, fR);
        edge_store(r, i, fL, fR, sp);
    }
}

double swe_cpu_step(swe_cpu *s, double dt_max)
{
    if (s->kind == SWE_CPU_FAST) return swe_fast_step(s->fast, dt_max);

    const int nx = s->p.nx, ny = s->p.ny;
    const size_t w = (size_t)(nx + 2);
    const double dx = s->p.dx, dy = s->p.dy;
    double smax = 0.0;
    double fL[3], fR[3];

    north_edges(s, 0, &s->se);
    for (int j = 1; j <= ny; j++) {
        for (int e = 0; e <= nx; e++) {
            size_t k = (size_t)j * w + (size_t)e;
            double sp = edge(s, k, k + 1, 1.0, 0.0, fL, fR);
            edge_store(&s->xe, e, fL, fR, sp);
        }
        north_edges(s, j, &s->ne);
        for (int i = 1; i <= nx; i++) {
            size_t k = (size_t)j * w + (size_t)i;
            if (s->code[k] != SWE_ACTIVE) continue;
            for (int m = 0; m < 3; m++)
                s->acc[m][k] = dy * (s->xe.fi[m][i] + s->xe.fj[m][i - 1]) +
                               dx * (s->ne.fi[m][i] + s->se.fj[m][i]);
            double S = dy * (s->xe.s[i] + s->xe.s[i - 1]) + dx * (s->ne.s[i] + s->se.s[i]);
            if (S > smax) smax = S;
        }
        edge_row t = s->se;
        s->se = s->ne;
        s->ne = t;
    }

    double dt = dt_max;
    if (smax > 0.0) {
        double dt8 = 2.0 * s->p.cfl * dx * dy / smax;
        if (dt8 < dt) dt = dt8;
    }
    const double k_dt = dt / (dx * dy);
    const double h_dry = s->p.h_dry;
    int bad = 0;
    for (int j = 1; j <= ny; j++) {
        for (int i = 1; i <= nx; i++) {
            size_t k = (size_t)j * w + (size_t)i;
            if (s->code[k] != SWE_ACTIVE) continue;
            double h = s->h[k], qx = s->qx[k], qy = s->qy[k];
            if (smax > 0.0) {
                h -= k_dt * s->acc[0][k];
                qx -= k_dt * s->acc[1][k];
                qy -= k_dt * s->acc[2][k];
            }
            if (h < 0.0) h = 0.0;
            if (h <= h_dry) qx = qy = 0.0;
            if (isnan(h) || isnan(qx) || isnan(qy)) bad = 1;
            s->h[k] = h;
            s->qx[k] = qx;
            s->qy[k] = qy;
        }
    }
    return bad ? -1.0 : dt;
}
