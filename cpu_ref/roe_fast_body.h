/* roe_fast_body.h — the kernels of the fast Roe solver, written once over a vector of
 * LANES reals: roe_fast.c includes this file for float (T = float, V = __m128, 4 lanes,
 * FN(n) = n##_f) and for double (T = double, V = __m128d, 2 lanes, FN(n) = n##_d), with
 * the v_* operations defined as the SSE / SSE2 intrinsics of that type; then, with
 * RF_KERNELS_ONLY (the sweep and the update; set-up and forcing are the SSE instance's),
 * for AVX2 (8 / 4 lanes, n##_f8 / n##_d4) and AVX-512 (16 / 8 lanes, n##_f16 / n##_d8).
 * Each lane does the same operations in the same order on every instance, so every
 * instance gives the same bits.  The float SSE instance is the solver as it was written
 * with _ps intrinsics, operation for operation.  roe_fast.c's comment block says what each
 * kernel computes. */

/* the typed arrays of a roe_fast */
typedef struct {
    T *H, *h, *qx, *qy, *mom[2], *phiE, *phiN, *tau, *tbuf;
    const MT *act, *fre, *cnt;
} FN(arrays);

static inline FN(arrays) FN(arr)(const struct roe_fast *f)
{
    FN(arrays) a;
    a.H = (T *)f->H;
    a.h = (T *)f->h;
    a.qx = (T *)f->qx;
    a.qy = (T *)f->qy;
    for (int m = 0; m < 2; m++) a.mom[m] = (T *)f->mom[m];
    a.phiE = (T *)f->phiE;
    a.phiN = (T *)f->phiN;
    a.tau = (T *)f->tau;
    a.tbuf = (T *)f->tbuf;
    a.act = (const MT *)f->act;
    a.fre = (const MT *)f->fre;
    a.cnt = (const MT *)f->cnt;
    return a;
}

#ifndef RF_KERNELS_ONLY   /* (the wider instances share the SSE instance's set-up and forcing) */
/* H, the masks and tau = +inf off the active cells, from the problem */
static void FN(init)(struct roe_fast *f, const swe_problem *p)
{
    FN(arrays) a = FN(arr)(f);
    MT *act = (MT *)f->act, *fre = (MT *)f->fre, *cnt = (MT *)f->cnt;
    for (size_t k = 0; k < f->n; k++) a.tau[k] = (T)INFINITY, cnt[k] = 0;
    const size_t w = (size_t)grid_stride(p->nx);
    for (int j = 0; j < grid_rows(p->ny); j++)
        for (size_t i = 0; i < w; i++) {
            size_t k = (size_t)j * w + i, kf = (size_t)j * f->st + i;
            a.H[kf] = (T)p->H[k];
            act[kf] = p->code[k] == CELL_ACTIVE ? -1 : 0;
            cnt[kf] = act[kf] && j >= 1 && j <= p->ny && i >= 1 && i <= (size_t)p->nx && swe_owns(p, (int)i, j) ? -1 : 0;
            fre[kf] = p->code[k] != CELL_ACTIVE && GRID_BC_SIGN(p->code[k]) > 0 ? -1 : 0;   /* swgl_grid.h */
            if (f->rain) ((T *)f->rain)[kf] = p->code[k] == CELL_ACTIVE ? (T)p->forcing->rain[k] : (T)0;
        }
    for (int q = 0; f->srcm && q < p->forcing->n_src; q++) ((MT *)f->srcm)[f->src_kf[q]] = -1;
}

static void FN(set_state)(struct roe_fast *f, const double *h, const double *qx, const double *qy)
{
    FN(arrays) a = FN(arr)(f);
    const T h_dry = (T)f->h_dry;
    const size_t w = (size_t)grid_stride(f->nx);
    for (int j = 0; j < grid_rows(f->ny); j++)
        for (size_t i = 0; i < w; i++) {
            size_t k = (size_t)j * w + i, kf = (size_t)j * f->st + i;
            int act = a.act[kf] != 0, wet = act && !((T)h[k] <= h_dry);
            a.h[kf] = act ? (T)h[k] : (T)0;
            a.qx[kf] = wet ? (T)qx[k] : (T)0;
            a.qy[kf] = wet ? (T)qy[k] : (T)0;
        }
}

/* The state (h, qx, qy), as stored, of the w x h cells from ghost-ring cell (x, y) into buf
 * (set 0) or from it (set 1): the domain decomposition's halo (roe_cpu_halo) */
static void FN(halo)(struct roe_fast *f, int set, int x, int y, int w, int h, double *buf)
{
    FN(arrays) a = FN(arr)(f);
    T *v[3] = {a.h, a.qx, a.qy};
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++) {
            size_t kf = (size_t)(y + j) * f->st + (size_t)(x + i);
            double *b = buf + 3 * ((size_t)j * w + i);
            for (int c = 0; c < 3; c++) {
                if (set) v[c][kf] = (T)b[c];
                else b[c] = (double)v[c][kf];
            }
        }
}

static void FN(get_state)(const struct roe_fast *f, double *h, double *qx, double *qy)
{
    FN(arrays) a = FN(arr)(f);
    const size_t w = (size_t)grid_stride(f->nx);
    for (int j = 0; j < grid_rows(f->ny); j++)
        for (size_t i = 0; i < w; i++) {
            size_t k = (size_t)j * w + i, kf = (size_t)j * f->st + i;
            h[k] = a.h[kf];
            qx[k] = a.qx[kf];
            qy[k] = a.qy[kf];
        }
}

#endif /* RF_KERNELS_ONLY */

/* ---- lane helpers ---- */

static inline V FN(sel)(V m, V a, V b)  /* m ? a : b */
{
    return v_or(v_and(m, a), v_andnot(m, b));
}

static inline V FN(vabs)(V x)
{
    return v_andnot(v_set1((T)-0.0), x);
}

/* phi = (1 - sgn lambda)/2 */
static inline V FN(phi4)(V l)
{
    const V z = v_zero();
    return v_or(v_and(v_lt(l, z), v_set1((T)1.0)), v_and(v_eq(l, z), v_set1((T)0.5)));
}

/* left-going part of wave k, Harten-Hyman split where lL < 0 < lR (see roe_flux.c) */
static inline V FN(left4)(V l, V a, V s, V lL, V lR)
{
    const V z = v_zero();
    V phi = FN(phi4)(l);
    V cons = v_mul(v_mul(phi, l), a);
    V fix = v_and(v_lt(lL, z), v_gt(lR, z));
    V den = v_max(v_sub(lR, lL), v_set1(RF_TINY));
    V hh = v_mul(v_div(v_mul(lL, v_sub(lR, l)), den), a);
    return v_sub(FN(sel)(fix, hh, cons), v_mul(phi, s));
}

typedef struct {
    V f0, fn, ft;               /* contribution in the edge frame */
} FN(f3);

/* roe_edge on LANES lanes, in the edge frame (qn = q.eta, qt = q.tau). */
static inline V FN(roe4)(V hi, V qni, V qti, V Hi, V hj, V qnj, V qtj, V Hj, V g, V hdry, FN(f3) *fi, FN(f3) *fj)
{
    const V z = v_zero(), half = v_set1((T)0.5), tiny = v_set1(RF_TINY);
    hi = v_max(hi, z);
    hj = v_max(hj, z);
    const V dry_i = v_le(hi, hdry), dry_j = v_le(hj, hdry);
    const V both = v_and(dry_i, dry_j);

    const V uni = v_andnot(dry_i, v_div(qni, v_max(hi, tiny)));
    const V uti = v_andnot(dry_i, v_div(qti, v_max(hi, tiny)));
    const V unj = v_andnot(dry_j, v_div(qnj, v_max(hj, tiny)));
    const V utj = v_andnot(dry_j, v_div(qtj, v_max(hj, tiny)));

    /* Roe state (7) */
    const V si = v_sqrt(hi), sj = v_sqrt(hj);
    const V ssum = v_max(v_add(si, sj), tiny);
    const V un = v_div(v_add(v_mul(si, uni), v_mul(sj, unj)), ssum);
    const V ut = v_div(v_add(v_mul(si, uti), v_mul(sj, utj)), ssum);
    const V hm = v_mul(half, v_add(hi, hj));
    const V c = v_sqrt(v_mul(g, hm));
    const V speed = v_andnot(both, v_add(FN(vabs)(un), c));

    const V l1 = v_sub(un, c), l3 = v_add(un, c);

    /* alpha = K^-1 dW */
    const V d0 = v_sub(hj, hi), dn = v_sub(qnj, qni), dt = v_sub(qtj, qti);
    const V inv2c = v_div(half, v_max(c, tiny));
    const V a1 = v_mul(v_sub(v_mul(l3, d0), dn), inv2c);
    const V a2 = v_sub(dt, v_mul(ut, d0));
    const V a3 = v_mul(v_sub(dn, v_mul(l1, d0)), inv2c);

    /* sigma = K^-1 (S dH): (-c dH/2, 0, c dH/2) */
    const V dH = v_sub(Hj, Hi);
    const V s3 = v_mul(v_mul(half, c), dH);
    const V s1 = v_sub(z, s3);

    const V b1 = v_sub(v_mul(l1, a1), s1);
    const V b2 = v_mul(un, a2);
    const V b3 = v_sub(v_mul(l3, a3), s3);

    const V ci = v_sqrt(v_mul(g, hi)), cj = v_sqrt(v_mul(g, hj));
    const V m1 = FN(left4)(l1, a1, s1, v_sub(uni, ci), v_sub(unj, cj));
    const V m2 = v_mul(FN(phi4)(un), b2);
    const V m3 = FN(left4)(l3, a3, s3, v_add(uni, ci), v_add(unj, cj));
    const V p1 = v_sub(b1, m1), p2 = v_sub(b2, m2), p3 = v_sub(b3, m3);

    V ri0 = v_add(m1, m3);
    V rin = v_add(v_mul(m1, l1), v_mul(m3, l3));
    V rit = v_add(v_mul(ri0, ut), m2);
    V rj0 = v_add(p1, p3);
    V rjn = v_add(v_mul(p1, l1), v_mul(p3, l3));
    V rjt = v_add(v_mul(rj0, ut), p2);

    /* emerging bottom */
    const V caseA = v_and(dry_i, v_le(hj, v_sub(Hj, Hi)));
    const V caseB = v_and(dry_j, v_le(hi, v_sub(Hi, Hj)));
    const V zi = v_or(caseA, both), zj = v_or(caseB, both);
    /* case B, wall for i: -(qn, qn un, qt un)_i;  case A, wall for j: (qn, qn un, qt un)_j */
    fi->f0 = v_andnot(zi, FN(sel)(caseB, v_sub(z, qni), ri0));
    fi->fn = v_andnot(zi, FN(sel)(caseB, v_sub(z, v_mul(qni, uni)), rin));
    fi->ft = v_andnot(zi, FN(sel)(caseB, v_sub(z, v_mul(qti, uni)), rit));
    fj->f0 = v_andnot(zj, FN(sel)(caseA, qnj, rj0));
    fj->fn = v_andnot(zj, FN(sel)(caseA, v_mul(qnj, unj), rjn));
    fj->ft = v_andnot(zj, FN(sel)(caseA, v_mul(qtj, unj), rjt));
    return speed;
}

/* one row of edges: momentum F-[1..2] of each side, ||D||_inf, and G (may point into
 * phiE / phiN) */
typedef struct {
    T *fi[2], *fj[2], *s, *phi;
} FN(edge_row);

/* One batch of LANES edges between cells kL.. and kR.. (kR = kL + 1 for x-edges, kL + st
 * for y-edges).  x-edges: frame (n, t) = (x, y); y-edges: (n, t) = (y, -x).  Writes
 * the edge row r at index e: momentum F- of each side, ||D||_inf and
 * G = gam (qn_L + F-_LR[0]) (M1), 0 on wall lanes and lanes with no active side. */
static inline void FN(edges4)(const struct roe_fast *f, const FN(arrays) *A, size_t kL, size_t kR, int yedge,
                              V gam, FN(edge_row) *r, size_t e)
{
    const V aL = v_loadm(A->act + kL);
    const V aR = v_loadm(A->act + kR);
    const V frL = v_loadm(A->fre + kL);
    const V frR = v_loadm(A->fre + kR);
    const V z = v_zero();
    V hL = v_load(A->h + kL), hR = v_load(A->h + kR);
    V HL = v_load(A->H + kL), HR = v_load(A->H + kR);
    V qnL, qtL, qnR, qtR;
    if (!yedge) {
        qnL = v_load(A->qx + kL);
        qtL = v_load(A->qy + kL);
        qnR = v_load(A->qx + kR);
        qtR = v_load(A->qy + kR);
    } else {
        qnL = v_load(A->qy + kL);
        qtL = v_sub(z, v_load(A->qx + kL));
        qnR = v_load(A->qy + kR);
        qtR = v_sub(z, v_load(A->qx + kR));
    }
    /* boundary lanes: the ghost side is rebuilt from the active side */
    const V gR = v_andnot(aR, aL), gL = v_andnot(aL, aR);
    const V none = v_andnot(v_or(aL, aR), v_ones());
    const V wall = v_or(v_andnot(frR, gR), v_andnot(frL, gL));
    hR = FN(sel)(gR, hL, hR);
    HR = FN(sel)(gR, HL, HR);
    qnR = FN(sel)(gR, FN(sel)(frR, qnL, v_sub(z, qnL)), qnR);
    qtR = FN(sel)(gR, qtL, qtR);
    hL = FN(sel)(gL, hR, hL);
    HL = FN(sel)(gL, HR, HL);
    qnL = FN(sel)(gL, FN(sel)(frL, qnR, v_sub(z, qnR)), qnL);
    qtL = FN(sel)(gL, qtR, qtL);

    FN(f3) fi, fj;
    V sp = FN(roe4)(hL, qnL, qtL, HL, hR, qnR, qtR, HR, v_set1((T)f->g), v_set1((T)f->h_dry), &fi, &fj);
    V fix, fiy, fjx, fjy;
    if (!yedge) {
        fix = fi.fn; fiy = fi.ft;
        fjx = fj.fn; fjy = fj.ft;
    } else {
        fix = v_sub(z, fi.ft); fiy = fi.fn;
        fjx = v_sub(z, fj.ft); fjy = fj.fn;
    }
    const V G = v_mul(gam, v_add(qnL, fi.f0));              /* (M1) */
    v_store(r->fi[0] + e, v_andnot(none, fix));
    v_store(r->fi[1] + e, v_andnot(none, fiy));
    v_store(r->fj[0] + e, v_andnot(none, fjx));
    v_store(r->fj[1] + e, v_andnot(none, fjy));
    v_store(r->s + e, v_andnot(none, sp));
    v_store(r->phi + e, v_andnot(v_or(none, wall), G));
}

/* A boundary edge of the ring whose ghost (gi, gj) has a value (level, depth, discharge),
 * active cell (ai, aj) (grid_at coordinates): recomputed in double by roe_boundary_edge
 * (the scalar solver's function) over the lanes' result at index e of the edge row r;
 * nothing when the ghost has no value or the cell is not active. */
static void FN(fix_edge)(const struct roe_fast *f, const FN(arrays) *A, int gi, int gj, int ai, int aj,
                         double ex, double ey, T gam, FN(edge_row) *r, size_t e)
{
    const unsigned char c = f->code[grid_at(f->nx, gi, gj)];
    const size_t ka = (size_t)aj * f->st + (size_t)ai;
    if (!value_code(c) || !A->act[ka]) return;
    size_t rr = 0;
    const swe_clock *clk = f->clk;
    const int seg = swe_ring_of(clk->f, f->nx, f->ny, clk->M, gi, gj, &rr);
    const double wa[3] = {A->h[ka], A->qx[ka], A->qy[ka]};
    double fL[3], fR[3], phi;
    double sp = roe_boundary_edge(c, seg >= 0 ? clk->seg_val[seg] : 0.0, seg >= 0 ? clk->f->seg[seg].vmax : 0.0,
                                  wa, (double)A->H[ka], ex, ey, gi < ai || gj < aj, (double)(T)f->g,
                                  (double)(T)f->h_dry, fL, fR, &phi);
    for (int m = 0; m < 2; m++) {
        r->fi[m][e] = (T)fL[1 + m];
        r->fj[m][e] = (T)fR[1 + m];
    }
    r->s[e] = (T)sp;
    r->phi[e] = gam * (T)phi;
}

static void FN(north_edges4)(const struct roe_fast *f, const FN(arrays) *A, int j, FN(edge_row) *r)
{
    const size_t row = (size_t)j * f->st;
    const V dx = v_set1((T)f->dx);
    for (size_t i = 1; i <= (size_t)f->nx; i += LANES)
        FN(edges4)(f, A, row + i, row + i + f->st, 1, dx, r, i);
}

/* Sweep rows j0..j1-1: edges (G into phiE of rows j0..j1-1 and phiN of rows j0..j1-1,
 * and of row 0 when j0 = 1: each edge row is written by the thread that owns it),
 * per-cell M, tau; returns max S_i over active cells; *nan: a NaN in the state or sums. */
static T FN(sweep_rows)(struct roe_fast *f, int j0, int j1, T *buf, int *nan)
{
    const FN(arrays) a = FN(arr)(f), *A = &a;
    const size_t st = f->st;
    FN(edge_row) xe, ne, se;
    FN(edge_row) *rows[3] = {&xe, &ne, &se};
    for (int q = 0; q < 3; q++) {
        T *b = buf + (size_t)q * 5 * st;
        for (int m = 0; m < 2; m++) {
            rows[q]->fi[m] = b + (size_t)m * st;
            rows[q]->fj[m] = b + (size_t)(2 + m) * st;
        }
        rows[q]->s = b + 4 * st;
    }
    const V dx = v_set1((T)f->dx), dy = v_set1((T)f->dy);
    const V Vol = v_set1((T)(f->dx * f->dy)), z = v_zero();
    const V inf = v_set1((T)INFINITY), tiny = v_set1(RF_TINY);
    V smax = z, bad = z;

    /* the south edges of row j0: row j0 - 1's north edges, owned by the thread below
     * (this one keeps its copy in buf), or the ghost row 0 (this thread writes it) */
    se.phi = j0 == 1 ? a.phiN : buf + 15 * st;
    FN(north_edges4)(f, A, j0 - 1, &se);
    const int nx = f->nx, ny = f->ny;
    const T dxs = (T)f->dx, dys = (T)f->dy;
    if (f->ring_fix && j0 == 1)   /* the south ring */
        for (int i = 1; i <= nx; i++) FN(fix_edge)(f, A, i, 0, i, 1, 0.0, 1.0, dxs, &se, (size_t)i);
    for (int j = j0; j < j1; j++) {
        const size_t row = (size_t)j * st;
        xe.phi = a.phiE + row;
        ne.phi = a.phiN + row;
        for (size_t e = 0; e <= (size_t)f->nx; e += LANES)
            FN(edges4)(f, A, row + e, row + e + 1, 0, dy, &xe, e);
        FN(north_edges4)(f, A, j, &ne);
        if (f->ring_fix) {   /* the west and east ring, the north ring */
            FN(fix_edge)(f, A, 0, j, 1, j, 1.0, 0.0, dys, &xe, 0);
            FN(fix_edge)(f, A, nx + 1, j, nx, j, 1.0, 0.0, dys, &xe, (size_t)nx);
            if (j == ny)
                for (int i = 1; i <= nx; i++) FN(fix_edge)(f, A, i, ny + 1, i, ny, 0.0, 1.0, dxs, &ne, (size_t)i);
        }
        for (size_t i = 1; i <= (size_t)f->nx; i += LANES) {
            const size_t k = row + i;
            V mom[2];
            for (int m = 0; m < 2; m++) {
                V ew = v_add(v_load(xe.fi[m] + i), v_load(xe.fj[m] + i - 1));
                V ns = v_add(v_load(ne.fi[m] + i), v_load(se.fj[m] + i));
                mom[m] = v_add(v_mul(dy, ew), v_mul(dx, ns));
                v_store(a.mom[m] + k, mom[m]);
            }
            V sew = v_add(v_load(xe.s + i), v_load(xe.s + i - 1));
            V sns = v_add(v_load(ne.s + i), v_load(se.s + i));
            V S = v_add(v_mul(dy, sew), v_mul(dx, sns));
            V act = v_loadm(a.act + k);
            smax = v_max(smax, v_and(v_loadm(a.cnt + k), S));
            /* (M2): P = +G east/north, -G west/south; O = sum max(P, 0); tau = h |V| / O */
            V pE = v_load(xe.phi + i), pW = v_sub(z, v_load(xe.phi + i - 1));
            V pN = v_load(ne.phi + i), pS = v_sub(z, v_load(se.phi + i));
            V O = v_add(v_add(v_max(pE, z), v_max(pW, z)), v_add(v_max(pN, z), v_max(pS, z)));
            V h = v_load(a.h + k);
            V tau = v_div(v_mul(h, Vol), v_max(O, tiny));
            tau = FN(sel)(v_and(act, v_gt(O, z)), tau, inf);
            v_store(a.tau + k, tau);
            V u = v_or(v_or(v_unord(h, S), v_unord(O, mom[0])),
                       v_or(v_unord(mom[1], v_load(a.qx + k)), v_unord(v_load(a.qy + k), z)));
            bad = v_or(bad, v_and(act, u));
        }
        FN(edge_row) t = se;
        se = ne;
        ne = t;
    }
    *nan = v_movemask(bad) != 0;
    T v[LANES];
    v_store(v, smax);
    T m = v[0];
    for (int q = 1; q < LANES; q++)
        if (v[q] > m) m = v[q];
    return m;
}

/* The edge sweep over all rows, OpenMP over blocks of rows: max S_i; *bad: a NaN. */
static T FN(rates)(struct roe_fast *f, int *bad_out)
{
    const int ny = f->ny;
    T smax = (T)0;
    int bad = 0;

#pragma omp parallel num_threads(f->nrun) reduction(max : smax) reduction(| : bad)
    {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        int j0 = 1 + (int)((long)ny * t / nt), j1 = 1 + (int)((long)ny * (t + 1) / nt);
        if (j1 > j0) {
            int nan = 0;
            T m = FN(sweep_rows)(f, j0, j1, (T *)f->tbuf + (size_t)t * f->tsize, &nan);
            if (m > smax) smax = m;
            bad |= nan;
        }
    }
    *bad_out = bad;
    return smax;
}

/* theta = min(1, tau / dt) of the LANES cells at p (M3) */
static inline V FN(theta4)(const T *p, V dt)
{
    return v_min(v_set1((T)1.0), v_div(v_load(p), dt));
}

/* The update with dt (move: waves move and dt > 0); returns 0 or -1 (a NaN). */
static int FN(apply)(struct roe_fast *f, double dt, int move)
{
    const FN(arrays) a = FN(arr)(f);
    const int ny = f->ny;
    const size_t st = f->st;
    const double Vd = f->dx * f->dy;
    const V k = v_set1(move ? (T)(dt / Vd) : (T)0);
    const V dtv = v_set1(move ? (T)dt : (T)1);
    const V hdry = v_set1((T)f->h_dry), z = v_zero();
    const T kappa = (T)f->kappa;
    const V kap = v_set1(kappa), sqrt2 = v_set1(RF_SQRT2), one = v_set1((T)1);
    const V rkap = v_set1(kappa > (T)0 ? (T)1 / kappa : (T)0);
    const T *rain = (const T *)f->rain;
    const MT *srcm = (const MT *)f->srcm;
    const double rain_s = f->clk ? swe_clock_rain(f->clk, 0, 1, dt) : 0.0;   /* swe.h: rain as a step */
    const V rdt = v_set1(rain ? (T)rain_s : (T)0);
    int bad = 0;
    double cvol = 0.0, crel = 0.0;

#pragma omp parallel for num_threads(f->nrun) schedule(static) reduction(| : bad) \
    reduction(+ : cvol) reduction(max : crel)
    for (int j = 1; j <= ny; j++) {
        const size_t row = (size_t)j * st;
        V nan = z;
        for (size_t i = 1; i <= (size_t)f->nx; i += LANES) {
            const size_t c = row + i;
            V act = v_loadm(a.act + c);
            V h0 = v_load(a.h + c), qx0 = v_load(a.qx + c), qy0 = v_load(a.qy + c);
            /* (M3), (M4): P out of the cell, the donor's theta on each edge */
            V pE = v_load(a.phiE + c), pW = v_sub(z, v_load(a.phiE + c - 1));
            V pN = v_load(a.phiN + c), pS = v_sub(z, v_load(a.phiN + c - st));
            V th = FN(theta4)(a.tau + c, dtv);
            V tE = FN(sel)(v_gt(pE, z), th, FN(theta4)(a.tau + c + 1, dtv));
            V tW = FN(sel)(v_gt(pW, z), th, FN(theta4)(a.tau + c - 1, dtv));
            V tN = FN(sel)(v_gt(pN, z), th, FN(theta4)(a.tau + c + st, dtv));
            V tS = FN(sel)(v_gt(pS, z), th, FN(theta4)(a.tau + c - st, dtv));
            V fE = v_mul(tE, pE), fW = v_mul(tW, pW);
            V fN = v_mul(tN, pN), fS = v_mul(tS, pS);
            V dh = v_add(v_add(fE, fW), v_add(fN, fS));
            V h = v_sub(h0, v_mul(k, dh));
            V qx = v_sub(qx0, v_mul(k, v_load(a.mom[0] + c)));
            V qy = v_sub(qy0, v_mul(k, v_load(a.mom[1] + c)));
            if (rain) h = v_add(h, v_mul(rdt, v_load(rain + c)));
            nan = v_or(nan, v_and(act, v_or(v_unord(h, qx), v_unord(qy, qy))));
            V neg = v_and(v_loadm(a.cnt + c), v_lt(h, z));   /* (the owned cells: swe_problem own) */
            if (v_movemask(neg)) {                 /* rounding clip: record it */
                V scale = v_add(h0, v_mul(k, v_add(v_add(FN(vabs)(fE), FN(vabs)(fW)),
                                                   v_add(FN(vabs)(fN), FN(vabs)(fS)))));
                T hv[LANES], sv[LANES];
                v_store(hv, v_and(neg, h));
                v_store(sv, scale);
                for (int q = 0; q < LANES; q++)
                    if (hv[q] < (T)0) {
                        cvol -= (double)hv[q] * Vd;
                        double r = -(double)hv[q] / (double)sv[q];
                        if (r > crel) crel = r;
                    }
            }
            h = v_max(h, z);                       /* h < 0 -> 0 (rounding) */
            const V qxr = qx, qyr = qy;            /* a source's cell: the rules after it */
            V dry = v_le(h, hdry);                 /* h <= h_dry -> q = 0 */
            qx = v_andnot(dry, qx);
            qy = v_andnot(dry, qy);
            /* (M5): h < kappa -> q sqrt(2) r^2 / sqrt(r^4 + 1), r = h / kappa (the same as
             * sqrt(2) h^2 / sqrt(h^4 + kappa^4), with no underflow for a tiny kappa) */
            V r = v_mul(h, rkap), r2 = v_mul(r, r);
            V fd = v_div(v_mul(sqrt2, r2), v_sqrt(v_add(v_mul(r2, r2), one)));
            fd = FN(sel)(v_lt(h, kap), fd, one);
            qx = v_mul(qx, fd);
            qy = v_mul(qy, fd);
            if (srcm) {
                V keep = v_loadm(srcm + c);
                qx = FN(sel)(keep, qxr, qx);
                qy = FN(sel)(keep, qyr, qy);
            }
            v_store(a.h + c, FN(sel)(act, h, h0));
            v_store(a.qx + c, FN(sel)(act, qx, qx0));
            v_store(a.qy + c, FN(sel)(act, qy, qy0));
        }
        if (v_movemask(nan)) bad |= 1;
    }
    f->clip_vol = cvol;
    f->clip_rel = crel;
    return bad ? -1 : 0;
}

#ifndef RF_KERNELS_ONLY
/* theta = min(1, tau / dt) of one cell, as theta4 computes it (min(1, x) = 1 < x ? 1 : x) */
static inline T FN(theta1)(T tau, T dt)
{
    T x = tau / dt;
    return (T)1 < x ? (T)1 : x;
}

/* After apply (the same dt, move): what the update moved through each boundary edge of a
 * segment (clk->ring_rate: -t P, the product (M4) used, 0 when nothing moved), the point
 * sources (swe_source_take on h, to their accounts) and the dry rule and (M5) on their
 * cells, as roe_scalar.c does it.  Returns 0 or -1 (a NaN). */
static int FN(forcing)(struct roe_fast *f, double dt, int move)
{
    const FN(arrays) a = FN(arr)(f);
    swe_clock *clk = f->clk;
    const swe_forcing *fo = clk->f;
    const int nx = f->nx, ny = f->ny, M = clk->M;
    const size_t st = f->st;
    const T dtv = move ? (T)dt : (T)1;
    for (int side = 0; fo->n_seg > 0 && side < 4; side++) {
        const int len = side < 2 ? ny : nx;
        for (int m = 0; m < len; m++) {
            size_t r = SWE_RING(side, m, M), kg, ka;
            if (fo->seg_of[r] < 0) continue;
            T P;
            switch (side) {
            case 0: kg = (size_t)(m + 1) * st, ka = kg + 1, P = -a.phiE[kg]; break;
            case 1: kg = (size_t)(m + 1) * st + (size_t)nx + 1, ka = kg - 1, P = a.phiE[ka]; break;
            case 2: kg = (size_t)(m + 1), ka = kg + st, P = -a.phiN[kg]; break;
            default: kg = (size_t)(ny + 1) * st + (size_t)(m + 1), ka = kg - st, P = a.phiN[ka]; break;
            }
            T t = P > (T)0 ? FN(theta1)(a.tau[ka], dtv) : FN(theta1)(a.tau[kg], dtv);
            clk->ring_rate[r] = move && a.act[ka] ? -(double)(t * P) : 0.0;
        }
    }
    const double Vd = f->dx * f->dy;
    int bad = 0;
    /* the discharge faces' mass over the step made dt Q-bar (swe.h "over a step") */
    const int nf = move ? swe_clock_inflow(clk, dt) : 0;
    const size_t W = (size_t)grid_stride(nx);
    for (int m = 0; m < nf; m++) {
        const int i = (int)(clk->fix_cell[m] % W), j = (int)(clk->fix_cell[m] / W);
        const size_t c = (size_t)j * st + (size_t)i;
        double h = (double)a.h[c] + clk->fix_add[m];
        if (h < 0.0) {
            if (a.cnt[c]) f->clip_vol -= h * Vd;   /* (the owned cells: swe_problem own) */
            h = 0.0;
        }
        a.h[c] = (T)h;
        if (!(a.h[c] > (T)f->h_dry)) a.qx[c] = a.qy[c] = (T)0;
    }
    swe_clock_inflow_rates(clk);
    for (int q = 0; q < fo->n_src; q++) {   /* a cell's sources together (swe.h) */
        double add[SWE_SOURCES_PER_CELL], total;
        int mem[SWE_SOURCES_PER_CELL], n = swe_sources_at_cell(fo, q, clk->src_q, dt / Vd, mem, add, &total);
        if (n == 0) continue;
        T *h = a.h + f->src_kf[q];
        double before = (double)*h;
        *h = (T)swe_source_take(before, 0.0, total);
        swe_sources_account(&clk->acc, mem, add, n, ((double)*h - before) * Vd, Vd, 1.0);
    }
    const T hdry = (T)f->h_dry, kappa = (T)f->kappa, rkap = kappa > (T)0 ? (T)1 / kappa : (T)0;
    for (int q = 0; q < fo->n_src; q++) {
        if (!f->src_first[q]) continue;
        const size_t c = f->src_kf[q];
        T h = a.h[c], qx = a.qx[c], qy = a.qy[c];
        if (h <= hdry) qx = qy = (T)0;
        T r = h * rkap, r2 = r * r;                /* (M5), as apply's lanes */
        T fd = RF_SQRT2 * r2 / (T)sqrt((double)(r2 * r2 + (T)1));
        if (!(h < kappa)) fd = (T)1;
        a.qx[c] = qx * fd;
        a.qy[c] = qy * fd;
        if (isnan(h) || isnan(a.qx[c]) || isnan(a.qy[c])) bad = 1;
    }
    return bad ? -1 : 0;
}
#endif /* RF_KERNELS_ONLY */
