/* kp_fast_rates.h — the rates of a stage in the fast Kurganov-Petrova solver
 * (kp_fast_body.h includes it, with T and FN defined, after kp_fast_face.h): the
 * per-thread row buffers, the boundary faces in double, one unit of a tile row (its
 * faces, then R and the bound of its cells: steps 8-10) and the stage's rates over all
 * units under OpenMP. */

/* per-thread row buffers of a unit of width up to KP_CH(T) cells */
typedef struct {
    FN(pts) xE, xW;          /* x reconstruction of cells i0-1 .. i1 */
    T *fx[4];                /* x faces i0-1 .. i1-1: F0, Fn, Ft, A */
    FN(pts) yN[2], yS[2];    /* y reconstruction of two rows: [cur], [next] */
    T *fy[2][4];             /* y faces south / north of the current row */
} FN(rowbuf);

static FN(rowbuf) FN(rowbuf_at)(T *b, size_t cw)
{
    FN(rowbuf) r;
    T **p[] = {&r.xE.h, &r.xE.qn, &r.xE.qt, &r.xE.un, &r.xE.ut,
               &r.xW.h, &r.xW.qn, &r.xW.qt, &r.xW.un, &r.xW.ut,
               &r.fx[0], &r.fx[1], &r.fx[2], &r.fx[3],
               &r.yN[0].h, &r.yN[0].qn, &r.yN[0].qt, &r.yN[0].un, &r.yN[0].ut,
               &r.yS[0].h, &r.yS[0].qn, &r.yS[0].qt, &r.yS[0].un, &r.yS[0].ut,
               &r.yN[1].h, &r.yN[1].qn, &r.yN[1].qt, &r.yN[1].un, &r.yN[1].ut,
               &r.yS[1].h, &r.yS[1].qn, &r.yS[1].qt, &r.yS[1].un, &r.yS[1].ut,
               &r.fy[0][0], &r.fy[0][1], &r.fy[0][2], &r.fy[0][3],
               &r.fy[1][0], &r.fy[1][1], &r.fy[1][2], &r.fy[1][3]};
    for (size_t q = 0; q < sizeof p / sizeof p[0]; q++) *p[q] = b + q * cw;
    return r;
}

/* A boundary face (kp_fast.c "Forcing"): the face tf of the flux row (F0, Fn, Ft, A)
 * between the active point tp of P and the ring ghost of code cg, ring index r, face bed
 * Bf, the ghost on the low side or not, face length len: kp_scalar.c's boundary_face in
 * double where the ghost has a segment or a value code (a wall or a free ghost without
 * a segment keeps the vectorized flux, which is the same rule), and the segment's
 * volume rate into the domain in ring_rate[r]. */
static void FN(bface)(const struct kp_fast *f, T cg, size_t r, T Bf, FN(pts) P, int tp, int ghost_low,
                      double len, T *F0, T *Fn, T *Ft, T *A, int tf)
{
    const int code = (int)cg, seg = bf_seg(f, r);
    if (seg < 0 && !bf_value_code(code)) return;
    const swe_clock *clk = f->clk;
    const double a[3] = {(double)P.h[tp], (double)P.un[tp], (double)P.ut[tp]};
    double F[3];
    const double v = seg >= 0 ? clk->seg_val[seg] : 0.0, vmax = seg >= 0 ? clk->f->seg[seg].vmax : 0.0;
    const double sp = kp_boundary_face(code, v, vmax, (double)Bf, a, ghost_low, f->g, f->eps, F);
    F0[tf] = (T)F[0];
    Fn[tf] = (T)F[1];
    Ft[tf] = (T)F[2];
    A[tf] = (T)sp;
    if (seg >= 0) clk->ring_rate[r] = (ghost_low ? (double)F0[tf] : -(double)F0[tf]) * len;
}

/* One unit: rows of tile row ty, interior columns i0 .. i1-1 (1-based).  Writes R of
 * its cells (0 on non-active ones), returns max 1/r = max(a_x / dx, a_y / dy) over its
 * active cells (the bound is cfl over the max: one division in all), adds to *chk
 * (NaN when an active cell's state or R is not finite). */
KP_CLONES static T FN(unit)(const struct kp_fast *f, const FN(arrays) *a, int stage, int ty, int i0,
                  int i1, FN(rowbuf) *rb, T *chk)
{
    const size_t st = f->st;
    const int W = i1 - i0;
    const int j0 = ty * KP_TILE + 1, j1 = j0 + KP_TILE <= f->ny + 1 ? j0 + KP_TILE : f->ny + 1;
    const T *Qw = a->Q[stage][0], *Qu = a->Q[stage][1], *Qv = a->Q[stage][2];
    const T *cd = a->cd;
    const T rdx = (T)(1.0 / f->dx), rdy = (T)(1.0 / f->dy), half = (T)0.5, z = (T)0;
    const T mg = (T)(-f->g);
    T smax = z, bad = z;
    int cur = 0;
    /* the columns of the unit whose bound counts (swe_problem own): t in [o0, o1) */
    const int o0 = f->own[2] ? f->own[0] + 1 - i0 : 0, o1 = f->own[2] ? f->own[2] + 1 - i0 : W;
    /* (the second rule, stage 0) each tile's largest speed, for the steps it rests */
    T *tsp = f->rest && stage == 0 ? (T *)f->tsp + (size_t)ty * f->ntx + (i0 - 1) / KP_TILE : NULL;
    if (tsp)
        for (int e = 0; e < W; e += KP_TILE) tsp[e / KP_TILE] = z;
    /* the south faces of row j0: y reconstruction of rows j0-1 and j0 */
    FN(recon)(f, a, Qw, Qv, Qu, a->BN, a->BS, KP_IDX(f, i0, j0 - 1), W, st, rb->yN[1], rb->yS[1]);
    FN(recon)(f, a, Qw, Qv, Qu, a->BN, a->BS, KP_IDX(f, i0, j0), W, st, rb->yN[0], rb->yS[0]);
    FN(flux)(f, rb->yN[1], rb->yS[0], cd + KP_IDX(f, i0, j0 - 1), cd + KP_IDX(f, i0, j0), W,
             rb->fy[0][0], rb->fy[0][1], rb->fy[0][2], rb->fy[0][3]);
    const int bfix = f->bfix, M = f->clk ? f->clk->M : 0;
    if (bfix && j0 == 1)   /* the south ring's faces */
        for (int t = 0; t < W; t++) {
            const size_t ka = KP_IDX(f, i0 + t, 1);
            if (cd[ka] == (T)CELL_ACTIVE && cd[ka - st] != (T)CELL_ACTIVE)
                FN(bface)(f, cd[ka - st], SWE_RING(2, i0 + t - 1, M), a->BS[ka], rb->yS[0], t, 1, f->dx,
                          rb->fy[0][0], rb->fy[0][1], rb->fy[0][2], rb->fy[0][3], t);
        }
    int south = 0;
    for (int j = j0; j < j1; j++) {
        const int nxt = 1 - cur, north = 1 - south;
        const size_t k0 = KP_IDX(f, i0, j);
        /* y: reconstruction of row j+1, the north faces of row j */
        FN(recon)(f, a, Qw, Qv, Qu, a->BN, a->BS, KP_IDX(f, i0, j + 1), W, st, rb->yN[nxt], rb->yS[nxt]);
        FN(flux)(f, rb->yN[cur], rb->yS[nxt], cd + k0, cd + k0 + st, W, rb->fy[north][0],
                 rb->fy[north][1], rb->fy[north][2], rb->fy[north][3]);
        if (bfix && j == f->ny)   /* the north ring's faces */
            for (int t = 0; t < W; t++) {
                const size_t ka = k0 + (size_t)t;
                if (cd[ka] == (T)CELL_ACTIVE && cd[ka + st] != (T)CELL_ACTIVE)
                    FN(bface)(f, cd[ka + st], SWE_RING(3, i0 + t - 1, M), a->BN[ka], rb->yN[cur], t, 0, f->dx,
                              rb->fy[north][0], rb->fy[north][1], rb->fy[north][2], rb->fy[north][3], t);
            }
        /* x: reconstruction of cells i0-1 .. i1, faces i0-1 .. i1-1 */
        FN(recon)(f, a, Qw, Qu, Qv, a->BE, a->BW, k0 - 1, W + 2, 1, rb->xE, rb->xW);
        {
            FN(pts) Lx = rb->xE, Rx = rb->xW;
            Rx.h++, Rx.qn++, Rx.qt++, Rx.un++, Rx.ut++;
            FN(flux)(f, Lx, Rx, cd + k0 - 1, cd + k0, W + 1, rb->fx[0], rb->fx[1], rb->fx[2], rb->fx[3]);
            /* the west and east ring's faces: face 0 (ghost i = 0), face W (ghost nx + 1) */
            if (bfix && i0 == 1 && cd[k0] == (T)CELL_ACTIVE && cd[k0 - 1] != (T)CELL_ACTIVE)
                FN(bface)(f, cd[k0 - 1], SWE_RING(0, j - 1, M), a->BW[k0], Rx, 0, 1, f->dy, rb->fx[0], rb->fx[1],
                          rb->fx[2], rb->fx[3], 0);
            if (bfix && i1 == f->nx + 1 && cd[k0 + W - 1] == (T)CELL_ACTIVE && cd[k0 + W] != (T)CELL_ACTIVE)
                FN(bface)(f, cd[k0 + W], SWE_RING(1, j - 1, M), a->BE[k0 + W - 1], Lx, W, 0, f->dy, rb->fx[0],
                          rb->fx[1], rb->fx[2], rb->fx[3], W);
        }
        /* 8.-10. per cell */
        const T *fx0 = rb->fx[0], *fxn = rb->fx[1], *fxt = rb->fx[2], *ax = rb->fx[3];
        const T *fs0 = rb->fy[south][0], *fsn = rb->fy[south][1], *fst = rb->fy[south][2], *as = rb->fy[south][3];
        const T *fn0 = rb->fy[north][0], *fnn = rb->fy[north][1], *fnt = rb->fy[north][2], *an = rb->fy[north][3];
        const T *hE = rb->xE.h + 1, *hW = rb->xW.h + 1, *hN = rb->yN[cur].h, *hS = rb->yS[cur].h;
        const T *BE = a->BE + k0, *BW = a->BW + k0, *BN = a->BN + k0, *BS = a->BS + k0, *c = cd + k0;
        const T *w = Qw + k0, *hu = Qu + k0, *hv = Qv + k0;
        T *Rw = a->R[0] + k0, *Ru = a->R[1] + k0, *Rv = a->R[2] + k0;
        const int row_owned = !f->own[2] || (j - 1 >= f->own[1] && j - 1 < f->own[3]);
#pragma omp simd reduction(max : smax) reduction(+ : bad)
        for (int t = 0; t < W; t++) {
            const int act = c[t] == (T)CELL_ACTIVE;
            const T shu = mg * (BE[t] - BW[t]) * rdx * ((hE[t] + hW[t]) * half);
            const T shv = mg * (BN[t] - BS[t]) * rdy * ((hN[t] + hS[t]) * half);
            const T rw = -(fx0[t + 1] - fx0[t]) * rdx - (fn0[t] - fs0[t]) * rdy;
            const T ru = -(fxn[t + 1] - fxn[t]) * rdx - (fnt[t] - fst[t]) * rdy + shu;
            const T rv = -(fxt[t + 1] - fxt[t]) * rdx - (fnn[t] - fsn[t]) * rdy + shv;
            const T axm = KP_MAX(ax[t + 1], ax[t]) * rdx, aym = KP_MAX(an[t], as[t]) * rdy;
            const T sp = KP_MAX(axm, aym);
            Rw[t] = act ? rw : z;
            Ru[t] = act ? ru : z;
            Rv[t] = act ? rv : z;
            smax = act && row_owned && t >= o0 && t < o1 && sp > smax ? sp : smax;
            bad += act ? ((rw - rw) + (ru - ru) + (rv - rv)) + ((w[t] - w[t]) + (hu[t] - hu[t]) + (hv[t] - hv[t]))
                       : z;
        }
        if (tsp)   /* the row's share of each tile's largest speed (the same sp as above) */
            for (int e = 0; e < W; e += KP_TILE) {
                const int e1 = e + KP_TILE < W ? e + KP_TILE : W;
                T m = tsp[e / KP_TILE];
#pragma omp simd reduction(max : m)
                for (int t = e; t < e1; t++) {
                    const T axm = KP_MAX(ax[t + 1], ax[t]) * rdx, aym = KP_MAX(an[t], as[t]) * rdy;
                    const T sp = KP_MAX(axm, aym);
                    m = c[t] == (T)CELL_ACTIVE && sp > m ? sp : m;
                }
                tsp[e / KP_TILE] = m;
            }
        cur = nxt;
        south = north;
    }
    *chk += bad;
    return smax;
}

static double FN(rates)(struct kp_fast *f, int stage)
{
    const FN(arrays) a = FN(arr)(f);
    T smax = (T)0, chk = (T)0;
    const int nu = f->nunits;
#pragma omp parallel num_threads(f->nrun) reduction(max : smax) reduction(+ : chk)
    {
        FN(rowbuf) rb = FN(rowbuf_at)((T *)f->tbuf + (size_t)omp_get_thread_num() * f->tsize, f->cw);
#pragma omp for schedule(dynamic, 1)
        for (int u = 0; u < nu; u++) {
            const int *un = f->units + 3 * u;
            T sp = FN(unit)(f, &a, stage, un[0], un[1], un[2], &rb, &chk);
            smax = sp > smax ? sp : smax;
        }
    }
    if (chk != (T)0) return NAN;   /* NaN or inf somewhere */
    if ((T)f->rest_smax > smax) smax = (T)f->rest_smax;   /* the tiles at rest's (plan; stage 1 skips the same) */
    return smax > (T)0 ? f->cfl / (double)smax : INFINITY;
}
