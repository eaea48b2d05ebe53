/* roe_scalar.c — the CPU solvers' public face (roe_cpu.h) and the scalar double-precision
 * solver of the Lastra et al. (2009) Roe scheme with a draining limiter on the mass
 * update (Bollermann, Chen, Kurganov & Noelle 2013): the accuracy reference.
 *
 * One step = roe_cpu_rates + roe_cpu_apply (the fast solver in roe_fast.c does the same
 * in float, 4 lanes at a time, or in double, 2 lanes).  |V| = dx dy, |Gamma| = dy on x-edges, dx on y-edges.
 *
 * roe_cpu_rates:
 *  1. Edge sweep, row by row (j = 1..ny), each edge computed once by roe_edge with
 *     the normal n pointing east (x-edges) or north (y-edges):
 *       x-edges of row j:   cells (e, j) | (e+1, j),    e = 0..nx
 *       north edges of j:   cells (i, j) | (i, j+1),    i = 1..nx   (j = 0: row 1's south)
 *     the south edges of row j are the north edges of row j-1, kept from the previous
 *     row.  A boundary edge (one side ACTIVE, the other a ghost) gets its exterior state
 *     from the interior one: wall -> (h, q - 2 (q.n) n), free -> copy, and H_ext =
 *     H_int; CELL_OFF next to an active cell is treated as a wall; a ghost of the ring
 *     with a value (level, depth, discharge) as roe_cpu.h "Boundary data" says
 *     (roe_boundary_edge, shared with the fast solver).  Edges with no active side are
 *     skipped.  Per edge e = (L | R), L west/south:
 *       G_e = |Gamma_e| (qn_L + F-_LR[0])                                        (M1)
 *     with qn_L = q_L . n of the (rebuilt) L state; G_e = 0 on a wall edge and on an
 *     edge with no active side.  Stored per owning cell L: phiE[L] (x-edges),
 *     phiN[L] (y-edges), indices k = j (nx+2) + i including the ghost row/column 0.
 *  2. For every active cell k, with P_E = phiE[k], P_W = -phiE[k-1], P_N = phiN[k],
 *     P_S = -phiN[k-(nx+2)] the fluxes out of k (|Gamma| Phi_out):
 *       M_k = dy (F-_E + F-_W) + dx (F-_N + F-_S)      momentum components [1..2] of
 *                                                       k's side of each edge
 *       S_k = dy (|D|_E + |D|_W) + dx (|D|_N + |D|_S)  (sum |Gamma| ||D||_inf)
 *       O_k = (max(P_E,0) + max(P_W,0)) + (max(P_N,0) + max(P_S,0))            (M2)
 *       tau_k = h_k |V| / O_k, or +inf when O_k = 0 (tau = +inf on every cell that is
 *       not active, set once at create)
 *  3. Returns (8): dt_stable = min_k 2 cfl |V| / S_k = 2 cfl dx dy / max_k S_k, or
 *     +INFINITY when max S_k = 0 (no wave), NaN when h, q, S, O or M is NaN.
 *
 * roe_cpu_apply(dt), 0 <= dt <= dt_stable, for every active cell k:
 *       theta_m = min(1, tau_m / dt)   (= tau_m < dt ? tau_m / dt : 1, bitwise)   (M3)
 *       t_X = theta_k when P_X > 0, else theta of the neighbour across X
 *       h_k  <- h_k - dt/|V| ((t_E P_E + t_W P_W) + (t_N P_N + t_S P_S))         (M4)
 *       q_k  <- q_k - dt/|V| M_k                                                  (4)
 *     h += dt rain (when the problem has rain), then h < 0 -> h = 0 (rounding only:
 *     roe_cpu_clip_stats reports it) and h <= h_dry -> q = 0, (M5).  Ghost and inactive
 *     cells are not updated (kept at 0).  Then the boundary edges' volumes (-t_X P_X of
 *     the active cell, what (M4) moved) to the clock's ring_rate, the point sources (and
 *     the dry rule and (M5) on their cells, once, after them), and the accounts.
 *     (M4) keeps h >= 0: the outflows of k sum to O_k and are scaled by theta_k <=
 *     tau_k/dt, so they remove at most dt/|V| tau_k O_k = h_k; inflows only add.  The
 *     two cells of an edge add +-t G_e with the same t, so the volume telescopes.
 *     Without the limiter (theta = 1), (M4) is the mass row of (4): sum_e |Gamma_e|
 *     F-_e[0] = sum_e |Gamma_e| (qn_k,e + F-_e[0]) since sum_e |Gamma_e| n_e = 0.
 *     When nothing moves (rates gave +inf) or dt = 0, apply only does the dry clean-up.
 *
 * The sums are written in an order that a 90-degree rotation of the problem maps onto
 * itself (E<->N, W<->S).  The rotation maps north edges onto west edges, whose G is
 * computed from the other side (qn_R - F-_RL[0] there, equal in exact arithmetic), so
 * a rotated case gives the rotated answer to rounding (1e-15 seen), no longer bitwise.
 */
#include "roe_cpu.h"
#include "roe_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* one row of edges: momentum contribution F-[1..2] to the cell on each side, ||D||_inf,
 * and G = |Gamma| Phi (M1), which points into the full edge array phiE or phiN */
typedef struct {
    double *fi[2], *fj[2], *s, *phi;
} edge_row;

struct roe_cpu {
    enum roe_cpu_kind kind;
    char name[64];
    struct roe_fast *fast;      /* kind == ROE_CPU_FAST or ROE_CPU_FAST_DOUBLE */
    /* scalar solver */
    swe_problem p;
    double *H;
    unsigned char *code;
    double *h, *qx, *qy;
    double *mom[2];             /* M_i, per cell */
    double *phiE, *phiN;        /* G of the east / north edge of cell k (owner: west/south cell) */
    double *tau;                /* drain time, +inf off the active cells */
    edge_row xe, ne, se;        /* x-edges of a row, its north and south edges */
    double *rowbuf;
    int moving;                 /* rates saw a wave (max S_i > 0) */
    double clip_vol, clip_rel;  /* last apply's clip */
    unsigned char *srcm;        /* 1 on the cells of a point source; NULL without sources */
    unsigned char *src_first;   /* per source: the first of its cell (the dry rule once) */
    swe_clock clk;              /* boundary data, rain, sources and their accounts (both kinds) */
};

void roe_cpu_destroy(roe_cpu *s)
{
    if (!s) return;
    roe_fast_destroy(s->fast);
    swe_clock_free(&s->clk);
    free(s->srcm);
    free(s->src_first);
    free(s->H);
    free(s->code);
    free(s->h);
    free(s->qx);
    free(s->qy);
    for (int m = 0; m < 2; m++) free(s->mom[m]);
    free(s->phiE);
    free(s->phiN);
    free(s->tau);
    free(s->rowbuf);
    free(s);
}

roe_cpu *roe_cpu_create(const swe_problem *p, enum roe_cpu_kind kind)
{
    if (swe_problem_check(p) != SWGL_OK) return NULL;
    if (kind != ROE_CPU_SCALAR && kind != ROE_CPU_FAST && kind != ROE_CPU_FAST_DOUBLE) {
        swgl_fail(SWGL_ERR_ARG, "swe: unknown solver kind");
        return NULL;
    }
    roe_cpu *s = calloc(1, sizeof *s);
    if (!s) {
        swgl_fail(SWGL_ERR_NO_MEMORY, "swe: out of memory");
        return NULL;
    }
    s->kind = kind;
    s->p = *p;
    if (swe_clock_init(&s->clk, p) != SWGL_OK) goto fail_quiet;
    const swe_forcing *fo = p->forcing;
    for (int q = 0; fo && q < fo->n_src; q++)
        if (fo->src_cell[q] >= grid_size(p->nx, p->ny) || p->code[fo->src_cell[q]] != CELL_ACTIVE) {
            swgl_fail(SWGL_ERR_ARG, "swe: point source %d is not in an active cell", q + 1);
            goto fail_quiet;
        }
    if (kind != ROE_CPU_SCALAR) {
        int dbl = kind == ROE_CPU_FAST_DOUBLE;
        s->fast = roe_fast_create(p, dbl, &s->clk);
        if (!s->fast) goto fail_quiet;
        snprintf(s->name, sizeof s->name, "cpu (%s, up to %d threads)", roe_fast_simd(s->fast),
                 roe_fast_threads(s->fast));
        return s;
    }
    snprintf(s->name, sizeof s->name, "cpu-scalar (double)");

    size_t n = grid_size(p->nx, p->ny);
    size_t w = (size_t)grid_stride(p->nx);
    s->H = malloc(n * sizeof *s->H);
    s->code = malloc(n);
    s->h = calloc(n, sizeof *s->h);
    s->qx = calloc(n, sizeof *s->qx);
    s->qy = calloc(n, sizeof *s->qy);
    for (int m = 0; m < 2; m++) s->mom[m] = calloc(n, sizeof *s->mom[m]);
    s->phiE = calloc(n, sizeof *s->phiE);
    s->phiN = calloc(n, sizeof *s->phiN);
    s->tau = malloc(n * sizeof *s->tau);
    s->rowbuf = calloc(15 * w, sizeof *s->rowbuf);
    if (!s->H || !s->code || !s->h || !s->qx || !s->qy || !s->mom[0] || !s->mom[1] ||
        !s->phiE || !s->phiN || !s->tau || !s->rowbuf)
        goto fail;
    memcpy(s->H, p->H, n * sizeof *s->H);
    memcpy(s->code, p->code, n);
    s->p.H = s->H;
    s->p.code = s->code;
    for (size_t k = 0; k < n; k++) s->tau[k] = INFINITY;
    if (fo && fo->n_src > 0) {
        s->srcm = calloc(n, 1);
        s->src_first = calloc((size_t)fo->n_src, 1);
        if (!s->srcm || !s->src_first) goto fail;
        for (int q = 0; q < fo->n_src; q++) {
            s->src_first[q] = !s->srcm[fo->src_cell[q]];
            s->srcm[fo->src_cell[q]] = 1;
        }
    }
    edge_row *rows[3] = {&s->xe, &s->ne, &s->se};
    for (int r = 0; r < 3; r++) {
        double *b = s->rowbuf + (size_t)r * 5 * w;
        for (int m = 0; m < 2; m++) {
            rows[r]->fi[m] = b + (size_t)m * w;
            rows[r]->fj[m] = b + (size_t)(2 + m) * w;
        }
        rows[r]->s = b + 4 * w;
    }
    return s;
fail:
    swgl_fail(SWGL_ERR_NO_MEMORY, "swe: out of memory");
fail_quiet:
    roe_cpu_destroy(s);
    return NULL;
}

void roe_cpu_set_state(roe_cpu *s, const double *h, const double *qx, const double *qy)
{
    if (s->fast) { roe_fast_set_state(s->fast, h, qx, qy); return; }
    size_t n = grid_size(s->p.nx, s->p.ny);
    for (size_t k = 0; k < n; k++) {
        int a = s->code[k] == CELL_ACTIVE, wet = a && !(h[k] <= s->p.h_dry);
        s->h[k] = a ? h[k] : 0.0;
        s->qx[k] = wet ? qx[k] : 0.0;
        s->qy[k] = wet ? qy[k] : 0.0;
    }
}

void roe_cpu_get_state(const roe_cpu *s, double *h, double *qx, double *qy)
{
    if (s->fast) { roe_fast_get_state(s->fast, h, qx, qy); return; }
    size_t n = grid_size(s->p.nx, s->p.ny);
    memcpy(h, s->h, n * sizeof *h);
    memcpy(qx, s->qx, n * sizeof *qx);
    memcpy(qy, s->qy, n * sizeof *qy);
}

void roe_cpu_halo(roe_cpu *s, int set, int x, int y, int w, int h, double *buf)
{
    if (s->fast) {
        roe_fast_halo(s->fast, set, x, y, w, h, buf);
        return;
    }
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++) {
            size_t k = grid_at(s->p.nx, x + i, y + j);
            double *b = buf + 3 * ((size_t)j * w + i), *v[3] = {s->h, s->qx, s->qy};
            for (int c = 0; c < 3; c++) {
                if (set) v[c][k] = b[c];
                else b[c] = v[c][k];
            }
        }
}

int roe_cpu_threads(const roe_cpu *s)
{
    return s->fast ? roe_fast_threads(s->fast) : 1;
}

int roe_cpu_is_fast(const roe_cpu *s)
{
    return s->fast != NULL;
}

const char *roe_cpu_precision(const roe_cpu *s)
{
    return s->fast && !roe_fast_is_double(s->fast) ? "single" : "double";
}

const char *roe_cpu_name(const roe_cpu *s)
{
    return s->name;
}

static inline double pos(double x) { return x > 0.0 ? x : 0.0; }
/* theta = min(1, tau / dt) (M3), bitwise: tau >= dt <=> tau / dt >= 1 (rounding is
 * monotone), so the division is only done where the cell limits */
static inline double theta(double tau, double dt) { return tau < dt ? tau / dt : 1.0; }

double roe_boundary_edge(unsigned char c, double v, double vmax, const double wa[3], double Ha, double ex,
                         double ey, int ghost_low, double g, double h_dry, double fL[3], double fR[3],
                         double *phi)
{
    const double floor_speed = swe_boundary_speed(c, vmax, -Ha, g);
    if (c == CELL_DISCHARGE) {
        /* the imposed flux, outward from the active cell a (n_out): mass -v, momentum
         * M n_out (the inflow's h un^2 + g h^2/2 with un = -v/h_b), less F(W_a).n_out, so
         * that the update (4) adds -dt/|V| |Gamma| (F_imposed - F(W_a).n_out) (the F(W_a)
         * terms of a cell's edges cancel on a rectangle); v = 0: M = g h_a^2/2, the
         * emerging-bottom wall of roe_flux.c (case B), and a lake at rest stays at rest */
        const double nx = ghost_low ? -ex : ex, ny = ghost_low ? -ey : ey;
        const double h = wa[0] > 0.0 ? wa[0] : 0.0;
        const int wet = h > h_dry;
        const double qn = wa[1] * nx + wa[2] * ny, un = wet ? qn / h : 0.0;
        double M, sp = swe_discharge_flux(v, h, g, &M);
        const double dp = M - 0.5 * g * h * h;
        double *fa = ghost_low ? fR : fL, *fg = ghost_low ? fL : fR;
        fa[0] = -v - qn;
        fa[1] = dp * nx - wa[1] * un;
        fa[2] = dp * ny - wa[2] * un;
        fg[0] = fg[1] = fg[2] = 0.0;
        *phi = ghost_low ? v : -v;                 /* L to R: into the domain when L is the ghost */
        const double sa = wet ? fabs(un) + sqrt(g * h) : 0.0;
        if (sa > sp) sp = sa;
        return floor_speed > sp ? floor_speed : sp;
    }
    double wA[3] = {wa[0], wa[1], wa[2]}, wg[3];
    if (c == CELL_LEVEL || c == CELL_DEPTH) {
        /* the exterior depth with the active cell's velocity (none where either is dry, or
         * where the exterior is deeper: swe_exterior_at_rest) */
        double hb = swe_exterior_depth(c, v, -Ha, wa[0]);
        if (!(hb > 0.0)) hb = 0.0;
        const int moving = wa[0] > h_dry && hb > h_dry && !swe_exterior_at_rest(c, hb, wa[0]);
        wg[0] = hb;
        wg[1] = moving ? hb * (wa[1] / wa[0]) : 0.0;
        wg[2] = moving ? hb * (wa[2] / wa[0]) : 0.0;
    } else {
        /* free -> copy, wall (or off) -> mirror q (swgl_grid.h) */
        const double qn = wa[1] * ex + wa[2] * ey;
        wg[0] = wa[0];
        wg[1] = GRID_BC_SIGN(c) > 0 ? wa[1] : wa[1] - 2.0 * qn * ex;
        wg[2] = GRID_BC_SIGN(c) > 0 ? wa[2] : wa[2] - 2.0 * qn * ey;
    }
    const double *wL = ghost_low ? wg : wA, *wR = ghost_low ? wA : wg;
    double sp = roe_edge(wL, wR, Ha, Ha, ex, ey, g, h_dry, fL, fR);
    *phi = GRID_BC_SIGN(c) < 0 ? 0.0 : wL[1] * ex + wL[2] * ey + fL[0];   /* (M1); a wall: 0 */
    return floor_speed > sp ? floor_speed : sp;   /* (a NaN speed stays NaN) */
}

/* One edge between cells kL (west/south) and kR (east/north), normal (ex, ey) from L to
 * R.  Boundary edges: roe_boundary_edge, with the ghost's segment value of the step.
 * Writes F-_LR, F-_RL and *phi = Phi (M1) = qn_L + F-_LR[0] (0 on a wall edge and when
 * no side is active; the imposed mass flux on a discharge edge); returns ||D||_inf (0 when
 * no side is active). */
static double edge(const roe_cpu *s, size_t kL, size_t kR, double ex, double ey,
                   double fL[3], double fR[3], double *phi)
{
    int aL = s->code[kL] == CELL_ACTIVE, aR = s->code[kR] == CELL_ACTIVE;
    *phi = 0.0;
    if (!aL && !aR) {
        for (int m = 0; m < 3; m++) fL[m] = fR[m] = 0.0;
        return 0.0;
    }
    if (aL && aR) {
        double wL[3] = {s->h[kL], s->qx[kL], s->qy[kL]};
        double wR[3] = {s->h[kR], s->qx[kR], s->qy[kR]};
        double sp = roe_edge(wL, wR, s->H[kL], s->H[kR], ex, ey, s->p.g, s->p.h_dry, fL, fR);
        *phi = wL[1] * ex + wL[2] * ey + fL[0];        /* (M1) */
        return sp;
    }
    const size_t w = (size_t)grid_stride(s->p.nx), kg = aL ? kR : kL, ka = aL ? kL : kR;
    size_t r = 0;
    int seg = swe_ring_of(s->clk.f, s->p.nx, s->p.ny, s->clk.M, (int)(kg % w), (int)(kg / w), &r);
    double wa[3] = {s->h[ka], s->qx[ka], s->qy[ka]};
    return roe_boundary_edge(s->code[kg], seg >= 0 ? s->clk.seg_val[seg] : 0.0,
                             seg >= 0 ? s->clk.f->seg[seg].vmax : 0.0, wa, s->H[ka], ex, ey, !aL, s->p.g,
                             s->p.h_dry, fL, fR, phi);
}

static void edge_store(edge_row *r, int i, const double fL[3], const double fR[3], double sp,
                       double G)
{
    for (int m = 0; m < 2; m++) {
        r->fi[m][i] = fL[1 + m];
        r->fj[m][i] = fR[1 + m];
    }
    r->s[i] = sp;
    r->phi[i] = G;
}

/* north edges of row j: (i, j) | (i, j+1), i = 1..nx; G = dx Phi into phiN of row j */
static void north_edges(roe_cpu *s, int j, edge_row *r)
{
    const size_t w = (size_t)grid_stride(s->p.nx);
    double fL[3], fR[3], phi;
    r->phi = s->phiN + (size_t)j * w;
    for (int i = 1; i <= s->p.nx; i++) {
        size_t k = (size_t)j * w + (size_t)i;
        double sp = edge(s, k, k + w, 0.0, 1.0, fL, fR, &phi);
        edge_store(r, i, fL, fR, sp, s->p.dx * phi);
    }
}

double roe_cpu_rates(roe_cpu *s)
{
    swe_clock_stage(&s->clk, 0);   /* the segment values, rain and sources at the step's t */
    if (s->fast) {
        double b = roe_fast_rates(s->fast);
        return isnan(b) ? b : fmin(b, s->clk.dt_cap);   /* swe.h dt_cap; a NaN stays */
    }

    const int nx = s->p.nx, ny = s->p.ny;
    const size_t w = (size_t)grid_stride(nx);
    const double dx = s->p.dx, dy = s->p.dy, V = dx * dy;
    double smax = 0.0;
    int bad = 0;
    double fL[3], fR[3], phi;

    north_edges(s, 0, &s->se);
    for (int j = 1; j <= ny; j++) {
        s->xe.phi = s->phiE + (size_t)j * w;
        for (int e = 0; e <= nx; e++) {
            size_t k = (size_t)j * w + (size_t)e;
            double sp = edge(s, k, k + 1, 1.0, 0.0, fL, fR, &phi);
            edge_store(&s->xe, e, fL, fR, sp, dy * phi);
        }
        north_edges(s, j, &s->ne);
        for (int i = 1; i <= nx; i++) {
            size_t k = (size_t)j * w + (size_t)i;
            if (s->code[k] != CELL_ACTIVE) continue;
            for (int m = 0; m < 2; m++)
                s->mom[m][k] = dy * (s->xe.fi[m][i] + s->xe.fj[m][i - 1]) +
                               dx * (s->ne.fi[m][i] + s->se.fj[m][i]);
            double S = dy * (s->xe.s[i] + s->xe.s[i - 1]) + dx * (s->ne.s[i] + s->se.s[i]);
            /* (M2): P = +G east/north, -G west/south */
            double pE = s->xe.phi[i], pW = -s->xe.phi[i - 1];
            double pN = s->ne.phi[i], pS = -s->se.phi[i];
            double O = (pos(pE) + pos(pW)) + (pos(pN) + pos(pS));
            s->tau[k] = O > 0.0 ? s->h[k] * V / O : INFINITY;
            if (S > smax && swe_owns(&s->p, i, j)) smax = S;
            if (isnan(S) || isnan(O) || isnan(s->h[k]) || isnan(s->qx[k]) || isnan(s->qy[k]) ||
                isnan(s->mom[0][k]) || isnan(s->mom[1][k]))
                bad = 1;
        }
        edge_row t = s->se;
        s->se = s->ne;
        s->ne = t;
    }
    s->moving = smax > 0.0;
    if (bad) return NAN;
    return fmin(smax > 0.0 ? 2.0 * s->p.cfl * V / smax : INFINITY, s->clk.dt_cap);   /* swe.h dt_cap */
}

/* h <= h_dry -> q = 0, and (M5) */
static inline void dry_rule(double h, double *qx, double *qy, double h_dry, double kappa)
{
    if (h <= h_dry) *qx = *qy = 0.0;
    else if (h < kappa) {
        double r = h / kappa, r2 = r * r, f = 1.4142135623730951 * r2 / sqrt(r2 * r2 + 1.0);
        *qx *= f;
        *qy *= f;
    }
}

/* What the update moved through each boundary edge of a segment (clk.ring_rate, m^3/s
 * into the domain): -t P with P the edge's flux out of the active cell and t the donor's
 * theta, the product the update (M4) used; 0 when nothing moved. */
static void ring_rates(roe_cpu *s, double dtt, int move)
{
    const swe_forcing *fo = s->clk.f;
    if (!fo || !fo->n_seg) return;
    const int nx = s->p.nx, ny = s->p.ny, M = s->clk.M;
    const size_t w = (size_t)grid_stride(nx);
    for (int side = 0; side < 4; side++) {
        const int len = side < 2 ? ny : nx;
        for (int m = 0; m < len; m++) {
            size_t r = SWE_RING(side, m, M), kg, ka;
            if (fo->seg_of[r] < 0) continue;
            double P;
            switch (side) {
            case 0: kg = grid_at(nx, 0, m + 1), ka = kg + 1, P = -s->phiE[kg]; break;
            case 1: kg = grid_at(nx, nx + 1, m + 1), ka = kg - 1, P = s->phiE[ka]; break;
            case 2: kg = grid_at(nx, m + 1, 0), ka = kg + w, P = -s->phiN[kg]; break;
            default: kg = grid_at(nx, m + 1, ny + 1), ka = kg - w, P = s->phiN[ka]; break;
            }
            double t = P > 0.0 ? theta(s->tau[ka], dtt) : theta(s->tau[kg], dtt);
            s->clk.ring_rate[r] = move && s->code[ka] == CELL_ACTIVE ? -(t * P) : 0.0;
        }
    }
}

int roe_cpu_apply(roe_cpu *s, double dt)
{
    if (s->fast) return roe_fast_apply(s->fast, dt);

    const int nx = s->p.nx, ny = s->p.ny;
    const size_t w = (size_t)grid_stride(nx);
    const swe_forcing *fo = s->clk.f;
    const double *rain = fo ? fo->rain : NULL;
    const int n_src = fo ? fo->n_src : 0;
    s->clip_vol = s->clip_rel = 0.0;
    /* an infinite dt: only when nothing moves and nothing comes in (the clock cannot move) */
    if (isnan(dt) || dt < 0.0 || ((s->moving || swe_forcing_any(fo)) && !(dt < INFINITY))) return -1;
    /* nothing moves, or dt = 0: only the rain, the sources and the dry clean-up (and
     * theta is never 0/0) */
    const int move = s->moving && dt > 0.0;
    const double dtt = move ? dt : 1.0;
    const double V = s->p.dx * s->p.dy, k_dt = move ? dt / V : 0.0;
    const double h_dry = s->p.h_dry, kappa = s->p.kappa;
    swe_clock_step(&s->clk, dt);   /* the series' means over the step (swe.h "over a step") */
    const double rain_dt = swe_clock_rain(&s->clk, 0, 1, dt);   /* swe.h: rain as a step */
    const double *tau = s->tau;
    int bad = 0;
    for (int j = 1; j <= ny; j++) {
        for (int i = 1; i <= nx; i++) {
            size_t k = (size_t)j * w + (size_t)i;
            if (s->code[k] != CELL_ACTIVE) continue;
            const double h0 = s->h[k];
            double h = h0, qx = s->qx[k], qy = s->qy[k];
            /* (M3), (M4): the donor's theta on each edge */
            double pE = s->phiE[k], pW = -s->phiE[k - 1], pN = s->phiN[k], pS = -s->phiN[k - w];
            double th = theta(tau[k], dtt);
            double tE = pE > 0.0 ? th : theta(tau[k + 1], dtt);
            double tW = pW > 0.0 ? th : theta(tau[k - 1], dtt);
            double tN = pN > 0.0 ? th : theta(tau[k + w], dtt);
            double tS = pS > 0.0 ? th : theta(tau[k - w], dtt);
            h -= k_dt * ((tE * pE + tW * pW) + (tN * pN + tS * pS));
            qx -= k_dt * s->mom[0][k];
            qy -= k_dt * s->mom[1][k];
            if (rain) h += rain_dt * rain[k];
            if (h < 0.0) {
                double scale = h0 + k_dt * ((fabs(tE * pE) + fabs(tW * pW)) +
                                            (fabs(tN * pN) + fabs(tS * pS)));
                if (swe_owns(&s->p, i, j)) {   /* the owned cells' (swe_problem own) */
                    s->clip_vol -= h * V;
                    if (-h / scale > s->clip_rel) s->clip_rel = -h / scale;
                }
                h = 0.0;
            }
            if (!s->srcm || !s->srcm[k]) dry_rule(h, &qx, &qy, h_dry, kappa);   /* sources: below */
            if (isnan(h) || isnan(qx) || isnan(qy)) bad = 1;
            s->h[k] = h;
            s->qx[k] = qx;
            s->qy[k] = qy;
        }
    }
    ring_rates(s, dtt, move);
    /* the discharge faces' mass over the step made dt Q-bar (swe.h "over a step") */
    const int nf = move ? swe_clock_inflow(&s->clk, dt) : 0;
    for (int m = 0; m < nf; m++) {
        const size_t k = s->clk.fix_cell[m];
        double h = s->h[k] + s->clk.fix_add[m];
        if (h < 0.0) {
            if (swe_owns(&s->p, (int)(k % w), (int)(k / w))) s->clip_vol -= h * V;
            h = 0.0;
        }
        s->h[k] = h;
        if (!(h > h_dry)) s->qx[k] = s->qy[k] = 0.0;
    }
    swe_clock_inflow_rates(&s->clk);
    /* point sources: Q dt / |V| on the depth, taking no more than the cell holds; then the
     * dry rule and (M5) once on each source's cell */
    for (int q = 0; q < n_src; q++) {   /* a cell's sources together (swe.h) */
        double add[SWE_SOURCES_PER_CELL], total;
        int mem[SWE_SOURCES_PER_CELL], n = swe_sources_at_cell(fo, q, s->clk.src_q, dt / V, mem, add, &total);
        if (n == 0) continue;
        size_t k = fo->src_cell[q];
        double before = s->h[k];
        s->h[k] = swe_source_take(before, 0.0, total);
        swe_sources_account(&s->clk.acc, mem, add, n, (s->h[k] - before) * V, V, 1.0);
    }
    for (int q = 0; q < n_src; q++) {
        size_t k = fo->src_cell[q];
        if (!s->src_first[q]) continue;
        dry_rule(s->h[k], &s->qx[k], &s->qy[k], h_dry, kappa);
        if (isnan(s->h[k])) bad = 1;
    }
    s->clk.acc.clip += s->clip_vol;
    swe_clock_applied(&s->clk, 0, 1, dt);
    return bad ? -1 : 0;
}

double roe_cpu_step(roe_cpu *s, double dt_max)
{
    double d = roe_cpu_rates(s);
    if (isnan(d)) return -1.0;
    double dt = d < dt_max ? d : dt_max;
    return roe_cpu_apply(s, dt) == 0 ? dt : -1.0;
}

void roe_cpu_set_time(roe_cpu *s, double t, double stop) { swe_clock_set_time(&s->clk, t, stop); }

void roe_cpu_account(const roe_cpu *s, swe_account *out) { swe_account_copy(&s->clk.acc, out); }

void roe_cpu_clip_stats(const roe_cpu *s, double *volume, double *rel)
{
    double v = s->clip_vol, r = s->clip_rel;
    if (s->fast) roe_fast_clip_stats(s->fast, &v, &r);
    if (volume) *volume = v;
    if (rel) *rel = r;
}
