/* kp_fast_update.h — the time integration of the fast Kurganov-Petrova solver
 * (kp_fast_body.h includes it, with T and FN defined, after kp_fast_rates.h): the
 * update of a row with friction and rain, the point sources, a stage's apply over the
 * tiles (early exit's actions); then the state in and out (set, get, halo strips, the
 * wet map) and the typed fill of the constant arrays at create. */

/* A double x as a float surface and its low word, w + l = x to float's rounding of l:
 * w = (T)x, l = (T)(x - w), then renormalized (Fast2Sum) so that (w, l) is the pair an
 * update's TwoSum gives for the same value: a tie in l's rounding (|l| = ulp(w)/2, w odd)
 * would otherwise leave a w that an update recomputed moves by an ulp (a computed tile
 * and a skipped one must hold the same bits) */
static inline void FN(split)(double x, T *w, T *l)
{
    const T hi = (T)x, lo = (T)(x - (double)hi), s = hi + lo;
    *w = s;
    *l = lo - (s - hi);
}

/* Time integration of n cells of a row from k (all arrays offset to k): stage 0 writes
 * Q* (RK2) or Q^{n+1} (Euler, in place) into d from s0 = Q^n; stage 1 writes Q^{n+1} into
 * d = Q^n from s0 = Q^n and s1 = Q*.  In float the surface is w + l, l a low word per
 * cell (l0, ls, dl: of s0, of the stage's state, of d), and its update is compensated
 * (issue 27): w + (dt R + l) by TwoSum, the rounding error kept in l, so that the sum of
 * the surfaces follows the sum of dt R (zero inside a closed domain: the faces' fluxes
 * cancel) to a float's rounding of the low words, where a plain float update drifts
 * (rounding biased where thin films fill: +5.2e-6 of Thacker's volume a period).  R may point to zeros (a tile whose rates were
 * skipped).  wb[t]: 1 where the new state is a wet active cell.  Adds the clip to *clip
 * and non-finite values to *bad.  fo (forcing): adds rdt rn[t] to w before the clip (the
 * rain) and leaves the dry and thin-film rules to the sources' pass where ns[t] != 0.
 * track (the second rule of early exit): mv[t] = 1 where an active cell changed to the bit
 * (w, its low word, hu, hv against s0's) or moves (R or the new q not 0).
 * stage, fric, fo and track are constants at each call (inlined). */
KP_INLINE int FN(differ)(T a, T b)
{
    KP_U x, y;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    return x != y;
}
KP_INLINE void FN(update_k)(const struct kp_fast *f, const int stage, const int fric, const int fo, const int track,
                            T *mv, T dt,
                            const T *c, const T *Bij, const T *gn2, const T *const s0[3],
                            const T *const s1[3], T *const d[3], const T *Rw, const T *Ru,
                            const T *Rv, const T *rn, const T *ns, T rdt, int n, int co0, int co1, T *wb,
                            const T *l0, const T *ls, T *dl, const T *cs, T *clip, T *bad)
{
    const int comp = sizeof(T) == sizeof(float);   /* the low words: float only */
    const T z = (T)0, one = (T)1, half = (T)0.5, eps = (T)f->eps, kap = (T)f->kappa, rk = (T)f->rkappa;
    const T k4 = (T)f->kappa4, capd = (T)f->capd;
    const T *w0 = s0[0], *u0 = s0[1], *v0 = s0[2];
    const T *ws = stage ? s1[0] : s0[0], *us = stage ? s1[1] : s0[1], *vs = stage ? s1[2] : s0[2];
    T *dw = d[0], *du = d[1], *dv = d[2];
    const T dtf = stage ? dt * half : dt;   /* the friction's dt: dt or dt/2 */
    T cl = z, bd = z;
#pragma omp simd reduction(+ : cl, bd)
    for (int t = 0; t < n; t++) {
        const int act = c[t] == (T)CELL_ACTIVE;
        const T b = Bij[t];
        /* 1 + dt H~f of the stage's state (Q^n or Q*) */
        T den = one;
        if (fric) {
            const T h = comp ? (ws[t] - b) + ls[t] : ws[t] - b;   /* (float: with the low word) */
            const int wet = !(h <= eps);
            const T hs = wet ? h : one, sf = FN(dfac)(hs, kap, rk, k4);
            const T u = us[t] * sf, v = vs[t] * sf;
            const T hf0 = gn2[t] * KP_SQRT(u * u + v * v) / (hs * FN(cbrt)(hs));
            den = one + dtf * (wet ? hf0 : z);
        }
        T w, wl = z, qu, qv;
        if (stage == 0) {
            w = w0[t] + dt * Rw[t];
            qu = u0[t] + dt * Ru[t];
            qv = v0[t] + dt * Rv[t];
        } else {
            w = half * (w0[t] + (ws[t] + dt * Rw[t]));
            qu = half * (u0[t] + (us[t] + dt * Ru[t]));
            qv = half * (v0[t] + (vs[t] + dt * Rv[t]));
        }
        if (comp) {
            /* stage 0: (w0 + l0) + (dt R + rain); stage 1: ((w0 + l0) + (ws + ls) + dt R) / 2
             * + rain, the halving exact.  TwoSum(a, y) = (s, e), s + e = a + y exactly */
            const T a = stage == 0 ? w0[t] : w0[t] + ws[t];
            const T ae = stage == 0 ? z : (w0[t] - (a - (a - w0[t]))) + (ws[t] - (a - w0[t]));
            T y = stage == 0 ? dt * Rw[t] + l0[t] : ((ae + (l0[t] + ls[t])) + dt * Rw[t]) * half;
            const T ah = stage == 0 ? a : a * half;
            if (fo) y = y + rdt * rn[t];   /* rain, before the clip (kp_scalar.c) */
            const T s = ah + y, bb = s - ah;
            w = s;
            wl = (ah - (s - bb)) + (y - bb);
        }
        if (fric) {
            qu = qu / den;
            qv = qv / den;
        }
        if (fo && !comp) w = w + rdt * rn[t];   /* rain, before the clip (kp_scalar.c) */
        const T h0 = comp ? (w - b) + wl : w - b;
        const int neg = h0 < z;
        cl += act && neg && t >= co0 && t < co1 ? -h0 : z;   /* the clip of the owned cells */
        w = neg ? b : w;
        wl = neg ? z : wl;
        const T h = neg ? z : h0;
        const int dry = h <= eps, shoal = h < kap;
        /* as kp_scalar.c: a shoal cell's momentum from its desingularized velocity (6) */
        const T sc = h * FN(dfac)(h, kap, rk, k4);
        const T su = qu * sc, sv = qv * sc;
        const int keep = fo && ns[t] != z;   /* a source's cell: its rules come after it */
        qu = keep ? qu : (dry ? z : (shoal ? su : qu));
        qv = keep ? qv : (dry ? z : (shoal ? sv : qv));
        if (cs) {   /* the thin cells' speed cap (kp_cpu.h), S from cap_speeds */
            const T hin = comp ? (ws[t] - b) + ls[t] : ws[t] - b;
            const T sp = KP_SQRT(qu * qu + qv * qv) / (dry ? one : h), S = cs[t];
            const int cap = act && !keep && !dry && h < capd && hin < capd && sp > S;
            const T fc = cap ? S / sp : one;
            qu = qu * fc;
            qv = qv * fc;
        }
        bd += act ? (w - w) + (qu - qu) + (qv - qv) : z;
        /* wet for the map where either the depth with its low word or the reconstruction's,
         * w - b (the high word alone, kp_fast_face.h), says so: a tile the map skips is one
         * the reconstruction would find dry, so early exit keeps the same bits */
        wb[t] = act && (!dry || !(w - b <= eps)) ? one : z;
        /* (before the stores: Euler's and RK2's stage 1 write over s0 in place) */
        if (track) {
            const int chg = FN(differ)(w, w0[t]) | FN(differ)(qu, u0[t]) | FN(differ)(qv, v0[t]) |
                            (comp ? FN(differ)(wl, l0[t]) : 0);
            const int mov = (Rw[t] != z) | (Ru[t] != z) | (Rv[t] != z) | (qu != z) | (qv != z);
            mv[t] = act && (chg | mov) ? one : z;
        }
        /* non-active cells keep Q^n's values (in Q* too: no read of the destination) */
        dw[t] = act ? w : w0[t];
        du[t] = act ? qu : u0[t];
        dv[t] = act ? qv : v0[t];
        if (comp) dl[t] = act ? wl : l0[t];
    }
    *clip += cl;
    *bad += bd;
}

KP_CLONES static void FN(update)(const struct kp_fast *f, int stage, T *mv, T dt, const T *c, const T *Bij,
                       const T *gn2, const T *const s0[3], const T *const s1[3], T *const d[3],
                       const T *Rw, const T *Ru, const T *Rv, const T *rn, const T *ns, T rdt, int n,
                       int co0, int co1, T *wb, const T *l0, const T *ls, T *dl, const T *cs, T *clip, T *bad)
{
#define KP_UPD(st_, fr_, fo_, tr_) \
    FN(update_k)(f, st_, fr_, fo_, tr_, mv, dt, c, Bij, gn2, s0, s1, d, Rw, Ru, Rv, rn, ns, rdt, n, co0, co1, wb, l0, \
                 ls, dl, cs, clip, bad)
    if (rn) {   /* (rain and sources: early exit off, no track) */
        if (stage == 0 && !gn2) KP_UPD(0, 0, 1, 0);
        else if (stage == 0) KP_UPD(0, 1, 1, 0);
        else if (!gn2) KP_UPD(1, 0, 1, 0);
        else KP_UPD(1, 1, 1, 0);
    } else if (!mv) {
        if (stage == 0 && !gn2) KP_UPD(0, 0, 0, 0);
        else if (stage == 0) KP_UPD(0, 1, 0, 0);
        else if (!gn2) KP_UPD(1, 0, 0, 0);
        else KP_UPD(1, 1, 0, 0);
    } else {
        if (stage == 0 && !gn2) KP_UPD(0, 0, 0, 1);
        else if (stage == 0) KP_UPD(0, 1, 0, 1);
        else if (!gn2) KP_UPD(1, 0, 0, 1);
        else KP_UPD(1, 1, 0, 1);
    }
#undef KP_UPD
}

/* The point sources of apply (kp_scalar.c's order: after the update and its clip),
 * serially: swe_source_take on the destination surface d[0], with the accounts, then the
 * dry and thin-film rules of the update on the source cells, once each (their mask ns
 * is 1; 2 marks a cell done). */
static void FN(sources)(struct kp_fast *f, const FN(arrays) *a, int stage, double dt, T *const d[3], T *dl)
{
    const swe_forcing *fo = f->clk->f;
    const double area = f->dx * f->dy, cw = stage == 1 ? 0.5 : 1.0, wsrc = f->rk2 && stage == 0 ? 0.5 : 1.0;
    const T z = (T)0, eps = (T)f->eps, kap = (T)f->kappa, rk = (T)f->rkappa, k4 = (T)f->kappa4;
    T *ns = (T *)f->fsrc;
    for (int q = 0; q < fo->n_src; q++) {   /* a cell's sources together (swe.h) */
        double add[SWE_SOURCES_PER_CELL], total;
        int mem[SWE_SOURCES_PER_CELL], n = swe_sources_at_cell(fo, q, f->clk->src_q, cw * dt / area, mem, add, &total);
        if (n == 0) continue;
        const size_t k = f->src_kf[q];
        const double before = (double)d[0][k] + (dl ? (double)dl[k] : 0.0);   /* (w + l: exact in double) */
        const double after = swe_source_take(before, (double)a->Bij[k], total);
        d[0][k] = (T)after;
        if (dl) FN(split)(after, &d[0][k], &dl[k]);
        swe_sources_account(&f->clk->acc, mem, add, n, ((double)d[0][k] + (dl ? (double)dl[k] : 0.0) - before) * area,
                            area, wsrc);
    }
    for (int q = 0; q < fo->n_src; q++) {
        const size_t k = f->src_kf[q];
        if (ns[k] != (T)1) continue;
        ns[k] = (T)2;
        const T h = dl ? (d[0][k] - a->Bij[k]) + dl[k] : d[0][k] - a->Bij[k];
        const int dry = h <= eps, shoal = h < kap;
        const T sc = h * FN(dfac)(h, kap, rk, k4);
        d[1][k] = dry ? z : (shoal ? d[1][k] * sc : d[1][k]);
        d[2][k] = dry ? z : (shoal ? d[2][k] * sc : d[2][k]);
        if (f->caps && !dry) {   /* the thin cells' speed cap (update_k); S is +inf where the
                                  * stage's state was not thin (cap_speeds: Euler's is overwritten) */
            const T sp = KP_SQRT(d[1][k] * d[1][k] + d[2][k] * d[2][k]) / h, S = ((const T *)f->caps)[k];
            if (h < (T)f->capd && sp > S) {
                d[1][k] = d[1][k] * (S / sp);
                d[2][k] = d[2][k] * (S / sp);
            }
        }
    }
    for (int q = 0; q < fo->n_src; q++) ns[f->src_kf[q]] = (T)1;
}

/* The thin cells' speed cap S (kp_cpu.h, after (10)) of every active cell thinner than
 * cap_depth in the stage's state (Q^n, or Q* in RK2's stage 1), into f->caps: the largest
 * |u_n| + 2 sqrt(g h_n) over its active neighbours deeper than it, +inf without one.  A pass
 * of its own before the update, which may write over that state (Euler's, in place); +inf in
 * every other cell, so that a cell not thin in the stage's state is never capped. */
static void FN(cap_speeds)(const struct kp_fast *f, const FN(arrays) *a, int stage)
{
    const int in = stage && f->rk2;
    const T *w = a->Q[in][0], *hu = a->Q[in][1], *hv = a->Q[in][2], *l = a->L[0] ? a->L[in] : NULL;
    const T *B = a->Bij, *cd = a->cd, capd = (T)f->capd, g = (T)f->g, two = (T)2, act = (T)CELL_ACTIVE;
    const T kap = (T)f->kappa, rk = (T)f->rkappa, k4 = (T)f->kappa4, eps = (T)f->eps;
    T *S = (T *)f->caps;
    const long st = (long)f->st, nb[4] = {-1, 1, -st, st};
#pragma omp parallel for num_threads(f->nrun) schedule(static)
    for (int j = 1; j <= f->ny; j++)
        for (int i = 1; i <= f->nx; i++) {
            const size_t k = KP_IDX(f, i, j);
            const T hc = (w[k] - B[k]) + (l ? l[k] : (T)0);
            S[k] = (T)INFINITY;   /* (every cell: a source's, Euler's in place, reads it after its update) */
            if (cd[k] != act || !(hc < capd)) continue;
            T s = (T)-1;
            for (int m = 0; m < 4; m++) {
                const size_t n = (size_t)((long)k + nb[m]);
                const T hn = (w[n] - B[n]) + (l ? l[n] : (T)0);
                if (cd[n] != act || !(hn > hc) || !(hn > eps)) continue;   /* (a dry one feeds nothing) */
                const T sf = FN(dfac)(hn, kap, rk, k4), u = hu[n] * sf, v = hv[n] * sf;
                const T sn = KP_SQRT(u * u + v * v) + two * KP_SQRT(g * hn);
                s = sn > s ? sn : s;
            }
            S[k] = s < (T)0 ? (T)INFINITY : s;
        }
}

static int FN(apply)(struct kp_fast *f, int stage, double dt)
{
    const FN(arrays) a = FN(arr)(f);
    const int ntx = f->ntx, nty = f->nty, nx = f->nx, ny = f->ny, rk2 = f->rk2;
    const int map = f->early_exit != KP_EARLY_EXIT_OFF;
    const T dtT = (T)dt;
    const T *zero = (const T *)f->zero;
    const size_t cw = f->cw;
    double clip = 0.0;
    T bad = (T)0;
    /* rain: cw dt factor per unit of rain[] (kp_scalar.c); frain NULL: no rain nor source */
    const T *frain = (const T *)f->frain, *fsrc = (const T *)f->fsrc;
    const double rain_s = f->clk ? swe_clock_rain(f->clk, stage, 1 + f->rk2, dt) : 0.0;   /* swe.h */
    const T rdt = frain ? (T)rain_s : (T)0;
    if (f->caps) FN(cap_speeds)(f, &a, stage);
    /* the second rule: each tile's changes and motion through the step (mvt), then at its
     * last stage whether it stayed still (a tile skipped in every stage did) */
    const int track = f->rest && map, last = stage == rk2;
#pragma omp parallel num_threads(f->nrun) reduction(+ : clip, bad)
    {
        T *wb = (T *)f->tbuf + (size_t)omp_get_thread_num() * f->tsize;   /* one row */
        T *mv = track ? wb + cw : NULL;                                    /* and another */
#pragma omp for schedule(dynamic, 1)
        for (int ty = 0; ty < nty; ty++) {
            const int j0 = ty * KP_TILE + 1, j1 = j0 + KP_TILE <= ny + 1 ? j0 + KP_TILE : ny + 1;
            unsigned char *wet = f->wet + (size_t)ty * ntx;
            const unsigned char *sk0 = f->skip[0] + (size_t)ty * ntx, *sk1 = f->skip[1] + (size_t)ty * ntx;
            unsigned char *same = f->same + (size_t)ty * ntx;
            /* (a tile at rest keeps its flag: its cells do not change) */
            const unsigned char *srest = f->srest + (size_t)ty * ntx;
            if (map)
                for (int x = 0; x < ntx; x++) wet[x] = srest[x] ? wet[x] : 0;
            unsigned char *mvt = f->mvt + (size_t)ty * ntx;
            if (track && stage == 0) memset(mvt, 0, (size_t)ntx);
            T cl = (T)0, bd = (T)0;
            for (int j = j0; j < j1; j++) {
                int tx = 0;
                while (tx < ntx) {
                    /* action of a tile: 0 compute, 1 compute with R = 0, 2 copy Q^n -> Q*,
                     * 3 nothing (see kp_fast.c) */
#define KP_ACTION(x) (stage == 0 ? (sk0[x] ? (rk2 && !same[x] ? 2 : 3) : 0) : (sk1[x] ? (sk0[x] ? 3 : 1) : 0))
                    const int act = KP_ACTION(tx);
                    int tx1 = tx + 1;
                    while (tx1 < ntx && KP_ACTION(tx1) == act && (tx1 - tx) * KP_TILE < (int)cw) tx1++;
#undef KP_ACTION
                    const int i0 = tx * KP_TILE + 1, i1 = tx1 * KP_TILE + 1 <= nx + 1 ? tx1 * KP_TILE + 1 : nx + 1;
                    const int n = i1 - i0;
                    const size_t k = KP_IDX(f, i0, j);
                    /* the chunk's cells whose clip counts (swe_problem own): t in [co0, co1) */
                    const int rown = !f->own[2] || (j - 1 >= f->own[1] && j - 1 < f->own[3]);
                    const int co0 = !rown ? 0 : f->own[2] ? f->own[0] + 1 - i0 : 0;
                    const int co1 = !rown ? 0 : f->own[2] ? f->own[2] + 1 - i0 : n;
                    if (act == 2) {
                        for (int m = 0; m < 3; m++) memcpy(a.Q[1][m] + k, a.Q[0][m] + k, (size_t)n * sizeof(T));
                        if (a.L[0]) memcpy(a.L[1] + k, a.L[0] + k, (size_t)n * sizeof(T));
                    } else if (act != 3) {
                        const T *s0[3] = {a.Q[0][0] + k, a.Q[0][1] + k, a.Q[0][2] + k};
                        const T *s1[3] = {a.Q[1][0] ? a.Q[1][0] + k : NULL, a.Q[1][1] ? a.Q[1][1] + k : NULL,
                                          a.Q[1][2] ? a.Q[1][2] + k : NULL};
                        T *d[3];
                        for (int m = 0; m < 3; m++) d[m] = (stage == 0 && rk2 ? a.Q[1][m] : a.Q[0][m]) + k;
                        const T *Rw = act ? zero : a.R[0] + k, *Ru = act ? zero : a.R[1] + k,
                                *Rv = act ? zero : a.R[2] + k;
                        /* the low words (float): of Q^n, of the stage's state, of the destination */
                        const T *l0 = a.L[0] ? a.L[0] + k : NULL;
                        const T *ls = a.L[0] ? (stage ? a.L[1] + k : l0) : NULL;
                        T *dl = a.L[0] ? (stage == 0 && rk2 ? a.L[1] : a.L[0]) + k : NULL;
                        FN(update)(f, stage, mv, dtT, a.cd + k, a.Bij + k, a.gn2 ? a.gn2 + k : NULL, s0, s1, d,
                                   Rw, Ru, Rv, frain ? frain + k : NULL, frain ? fsrc + k : NULL, rdt, n,
                                   co0, co1, wb, l0, ls, dl, f->caps ? (const T *)f->caps + k : NULL, &cl, &bd);
                        /* each tile's flags from the row: wet (the map), changed or moving (track) */
                        for (int pass = 0; pass < 2; pass++) {
                            const T *row = pass ? mv : wb;
                            unsigned char *flag = pass ? mvt : wet;
                            if (!(pass ? track : map)) continue;
                            for (int x = tx; x < tx1; x++) {
                                const int e0 = (x - tx) * KP_TILE, e1 = e0 + KP_TILE < n ? e0 + KP_TILE : n;
                                T any = (T)0;
#pragma omp simd reduction(max : any)
                                for (int t = e0; t < e1; t++) any = row[t] > any ? row[t] : any;
                                flag[x] |= any > (T)0;
                            }
                        }
                    }
                    tx = tx1;
                }
            }
            if (track && last)
                for (int x = 0; x < ntx; x++) f->still[(size_t)ty * ntx + x] = !mvt[x];
            /* Q* = Q^n holds after a copy, and until the tile is computed again */
            if (rk2)
                for (int x = 0; x < ntx; x++) {
                    if (stage == 0) same[x] = sk0[x];
                    else if (!(sk0[x] && sk1[x])) same[x] = 0;
                }
            clip += (double)cl;
            bad += bd;
        }
    }
    f->clip_vol = clip * f->dx * f->dy;
    if (last) f->rest_hist = track;   /* (still[] describes this step where it was kept) */
    if (frain && f->clk->f->n_src > 0) {
        T *d[3];
        for (int m = 0; m < 3; m++) d[m] = stage == 0 && rk2 ? a.Q[1][m] : a.Q[0][m];
        FN(sources)(f, &a, stage, dt, d, a.L[0] ? (stage == 0 && rk2 ? a.L[1] : a.L[0]) : NULL);
    }
    if (f->clk) {   /* the discharge faces' mass over the step made dt Q-bar (swe.h "over a step") */
        const int nf = swe_clock_inflow(f->clk, (stage == 1 ? 0.5 : 1.0) * dt);
        const size_t W = (size_t)grid_stride(nx);
        T *d[3], *dl = a.L[0] ? (stage == 0 && rk2 ? a.L[1] : a.L[0]) : NULL;   /* (float: the low words) */
        for (int m = 0; m < 3; m++) d[m] = stage == 0 && rk2 ? a.Q[1][m] : a.Q[0][m];
        for (int m = 0; m < nf; m++) {
            const int i = (int)(f->clk->fix_cell[m] % W), j = (int)(f->clk->fix_cell[m] / W);
            const size_t kf = KP_IDX(f, i, j);
            const double B = (double)a.Bij[kf];
            double v = (double)d[0][kf] + (dl ? (double)dl[kf] : 0.0) + f->clk->fix_add[m];
            if (v < B) {
                if (!f->own[2] || (i - 1 >= f->own[0] && i - 1 < f->own[2] && j - 1 >= f->own[1] && j - 1 < f->own[3]))
                    f->clip_vol += (B - v) * f->dx * f->dy;
                v = B;
            }
            d[0][kf] = (T)v;
            if (dl) FN(split)(v, &d[0][kf], &dl[kf]);
            if (!((d[0][kf] - a.Bij[kf]) + (dl ? dl[kf] : (T)0) > (T)f->eps)) d[1][kf] = d[2][kf] = (T)0;
        }
        swe_clock_inflow_rates(f->clk);
    }
    return bad != (T)0 ? -1 : 0;
}

static void FN(set_state)(struct kp_fast *f, const double *h, const double *qx, const double *qy)
{
    const FN(arrays) a = FN(arr)(f);
    const int nx = f->nx, ny = f->ny;
    for (int j = 0; j <= ny + 1; j++)
        for (int i = 0; i <= nx + 1; i++) {
            const size_t k = grid_at(nx, i, j), kf = KP_IDX(f, i, j);
            if (a.cd[kf] != (T)CELL_ACTIVE) continue;
            /* as kp_scalar.c: h < 0 (not a state) is read as 0, a NaN is kept (the next
             * rates reports the blow-up); dry is decided on the stored surface, in T, by
             * the wet map's rule (below: dry where both the depth with its low word and
             * the reconstruction's w - B say dry), or a cell dry in float but not in
             * double would keep its momentum in a tile that early exit skips */
            const double hd = h[k] > 0.0 ? h[k] : h[k] != h[k] ? h[k] : 0.0;
            /* float: the surface w + l holds B_ij (as stored) + h to a double's rounding */
            const double sd = a.L[0] ? (double)a.Bij[kf] + hd : f->Bij_d[k] + hd;
            T w = (T)sd, l = (T)0;
            if (a.L[0]) FN(split)(sd, &w, &l);
            /* dry (q = 0) only where both the depth with its low word and the reconstruction's
             * w - b (the high word) say so: the wet map's rule, update_k's wb */
            const int dry = a.L[0] ? (w - a.Bij[kf]) + l <= (T)f->eps && w - a.Bij[kf] <= (T)f->eps
                                   : w - a.Bij[kf] <= (T)f->eps;
            a.Q[0][0][kf] = w;
            if (a.L[0]) a.L[0][kf] = l;
            a.Q[0][1][kf] = dry ? (T)0 : (T)qx[k];
            a.Q[0][2][kf] = dry ? (T)0 : (T)qy[k];
        }
}

static void FN(get_state)(const struct kp_fast *f, double *h, double *qx, double *qy)
{
    const FN(arrays) a = FN(arr)(f);
    const int nx = f->nx, ny = f->ny;
    for (int j = 0; j <= ny + 1; j++)
        for (int i = 0; i <= nx + 1; i++) {
            const size_t k = grid_at(nx, i, j), kf = KP_IDX(f, i, j);
            const int act = a.cd[kf] == (T)CELL_ACTIVE;
            /* float: (w - B) + l in double, exact */
            const double hf = a.L[0] ? ((double)a.Q[0][0][kf] - (double)a.Bij[kf]) + (double)a.L[0][kf]
                                     : (double)(a.Q[0][0][kf] - a.Bij[kf]);
            h[k] = act ? hf : 0.0;
            qx[k] = act ? (double)a.Q[0][1][kf] : 0.0;
            qy[k] = act ? (double)a.Q[0][2][kf] : 0.0;
        }
}

/* Q^n's values (w, hu, hv), as stored, of the w x h cells from ghost-ring cell (x, y) into
 * buf (set 0) or from it (set 1): the domain decomposition's halo (kp_cpu_halo) */
static void FN(halo)(struct kp_fast *f, int set, int x, int y, int w, int h, double *buf)
{
    const FN(arrays) a = FN(arr)(f);
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++) {
            const size_t kf = KP_IDX(f, x + i, y + j);
            double *b = buf + 3 * ((size_t)j * w + i);
            for (int c = 0; c < 3; c++) {
                if (set) a.Q[0][c][kf] = (T)b[c];
                else b[c] = (double)a.Q[0][c][kf];
            }
            /* float: the surface with its low word, w + l in double, split again */
            if (a.L[0] && set) FN(split)(b[0], &a.Q[0][0][kf], &a.L[0][kf]);
            else if (a.L[0]) b[0] += (double)a.L[0][kf];
        }
}

/* wet map of Q^n (after set_state) */
static void FN(wet_map)(struct kp_fast *f)
{
    const FN(arrays) a = FN(arr)(f);
    const T eps = (T)f->eps;
    memset(f->wet, 0, (size_t)f->ntx * (size_t)f->nty);
    for (int j = 1; j <= f->ny; j++)
        for (int i = 1; i <= f->nx; i++) {
            const size_t kf = KP_IDX(f, i, j);
            /* wet where either rule says so (update_k's wb) */
            if (a.cd[kf] == (T)CELL_ACTIVE && (!((a.Q[0][0][kf] - a.Bij[kf]) + (a.L[0] ? a.L[0][kf] : (T)0) <= eps) ||
                                               !(a.Q[0][0][kf] - a.Bij[kf] <= eps)))
                f->wet[(size_t)((j - 1) / KP_TILE) * f->ntx + (size_t)((i - 1) / KP_TILE)] = 1;
        }
}

/* typed fill of the constant arrays at create */
static void FN(fill)(struct kp_fast *f, const kp_problem *p)
{
    FN(arrays) a = FN(arr)(f);
    const int nx = f->nx, ny = f->ny;
    for (size_t k = 0; k < f->n; k++) a.cd[k] = (T)CELL_OFF;
    for (int j = 0; j <= ny + 1; j++)
        for (int i = 0; i <= nx + 1; i++) {
            const size_t k = grid_at(nx, i, j), kf = KP_IDX(f, i, j);
            double be, bw, bn, bs, bij;
            kp_cell_bed(p, i, j, &be, &bw, &bn, &bs, &bij);
            a.BE[kf] = (T)be;
            a.BW[kf] = (T)bw;
            a.BN[kf] = (T)bn;
            a.BS[kf] = (T)bs;
            a.Bij[kf] = (T)bij;
            f->Bij_d[k] = bij;
            a.cd[kf] = (T)p->sw.code[k];
            a.Q[0][0][kf] = (T)bij;
            if (a.Q[1][0]) a.Q[1][0][kf] = (T)bij;
            if (a.gn2) a.gn2[kf] = p->sw.code[k] == CELL_ACTIVE ? (T)(p->sw.g * p->manning[k] * p->manning[k]) : (T)0;
            if (f->frain)   /* rain[] on the active cells, 0 elsewhere or without rain */
                ((T *)f->frain)[kf] =
                    p->sw.forcing->rain && p->sw.code[k] == CELL_ACTIVE ? (T)p->sw.forcing->rain[k] : (T)0;
        }
    for (int q = 0; f->fsrc && q < p->sw.forcing->n_src; q++) ((T *)f->fsrc)[f->src_kf[q]] = (T)1;
}
