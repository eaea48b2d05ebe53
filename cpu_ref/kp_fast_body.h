/* kp_fast_body.h — the kernels of the fast Kurganov-Petrova solver, written once for a
 * real type: kp_fast.c includes this file twice, with KP_T = float / KP_SFX(n) = n##_f
 * and KP_T = double / KP_SFX(n) = n##_d.  The equations (numbered 1-10 and the time
 * integration) are those of kp_cpu.h; kp_fast.c's comment block says how they are laid
 * out.  Every loop is branch-free (ternaries the vectorizer turns into blends) and
 * carries #pragma omp simd. */

#define T KP_T
#define FN(name) KP_SFX(name)

/* Point values of one row of cells at one face side, in the face's frame: depth h,
 * normal and tangential momentum (recomputed, 6) and velocities. */
typedef struct {
    T *h, *qn, *qt, *un, *ut;
} FN(pts);

/* the typed arrays of a kp_fast */
typedef struct {
    T *Q[2][3];                  /* state (w, hu, hv): [0] Q^n, [1] Q* (RK2) */
    T *R[3];                     /* R of the last rates, 0 off the active cells */
    T *BE, *BW, *BN, *BS, *Bij;  /* per-cell bed (kp_cell_bed) */
    T *cd;                       /* cell code as a number (compares make lane masks) */
    T *gn2;                      /* g n^2, or NULL: no friction */
} FN(arrays);

static inline FN(arrays) FN(arr)(const struct kp_fast *f)
{
    FN(arrays) a;
    for (int s = 0; s < 2; s++)
        for (int m = 0; m < 3; m++) a.Q[s][m] = (T *)f->Q[s][m];
    for (int m = 0; m < 3; m++) a.R[m] = (T *)f->R[m];
    a.BE = (T *)f->BE;
    a.BW = (T *)f->BW;
    a.BN = (T *)f->BN;
    a.BS = (T *)f->BS;
    a.Bij = (T *)f->Bij;
    a.cd = (T *)f->cd;
    a.gn2 = (T *)f->gn2;
    return a;
}

/* generalized minmod (4): min if all > 0, max if all < 0, else 0 */
static inline T FN(mm)(T a, T b, T c)
{
    /* one compare per statement: GCC 12 folds a nested min/max compare into a select of
     * booleans it then cannot vectorize */
    const T mn1 = KP_MIN(a, b), mx1 = KP_MAX(a, b);
    const T mn = KP_MIN(mn1, c), mx = KP_MAX(mx1, c);
    return mn > (T)0 ? mn : (mx < (T)0 ? mx : (T)0);
}

/* sqrt(x) for x >= 0 without libm: GCC vectorizes sqrt only under -fno-math-errno, which
 * a pragma cannot give (kp_fast.c).  1/sqrt by the bit trick (3.4 % off) and Newton
 * steps y <- y (3/2 - x y^2 / 2) (error 1.5 e^2: 3 for float, 4 for double), times x:
 * within a few ulp of sqrt.  x = 0 gives 0, NaN gives NaN. */
static inline T FN(nsqrt)(T x)
{
    const T xc = x > (T)1e-30 ? x : (T)1e-30;
    T y;
    if (sizeof(T) == sizeof(float)) {
        float xf = (float)xc, yf;
        uint32_t i;
        memcpy(&i, &xf, sizeof i);
        i = 0x5f3759dfu - (i >> 1);
        memcpy(&yf, &i, sizeof yf);
        y = (T)yf;
    } else {
        double xd = (double)xc, yd;
        uint64_t i;
        memcpy(&i, &xd, sizeof i);
        i = 0x5fe6eb50c7b537a9u - (i >> 1);
        memcpy(&yd, &i, sizeof yd);
        y = (T)yd;
    }
    const T h = (T)0.5 * xc, th = (T)1.5;
    y = y * (th - h * y * y);
    y = y * (th - h * y * y);
    y = y * (th - h * y * y);
    if (sizeof(T) == sizeof(double)) y = y * (th - h * y * y);
    return x * y;
}

/* The desingularization (6) as a factor: u = q s(h), shared by both components.
 * Double: s = sqrt(2) h / sqrt(h^4 + max(h^4, kappa^4)) as kp_desing writes it (k4 =
 * kappa^4; the product q s differs from its sqrt(2) h q / sqrt(...) by an ulp or two).
 * Float, where h^4 underflows below h ~ 1e-10: h >= kappa: 1 / h, else the same with
 * r = h / kappa: sqrt(2) r / kappa / sqrt(r^4 + 1) (rk = 1 / kappa; kappa = 0 never takes
 * that branch).  One division either way; s = 0 for h <= 0. */
static inline T FN(dfac)(T h, T kappa, T rk, T k4)
{
    const T z = (T)0, one = (T)1;
    if (sizeof(T) == sizeof(double)) {
        const T h4 = (h * h) * (h * h), m4 = KP_MAX(h4, k4), d = h4 + m4;
        const T s = (T)KP_SQRT2 * h / KP_SQRT(d > z ? d : one);
        return h > z ? s : z;
    }
    const T r = h * rk, r2 = r * r, big = h >= kappa;
    const T num = big ? one : (T)KP_SQRT2 * r * rk;
    const T den0 = big ? h : KP_SQRT(r2 * r2 + one);
    const T s = num / (den0 > z ? den0 : one);
    return h > z ? s : z;
}

/* x^(1/3) for x > 0 (friction's h^(4/3) = h cbrt(h)), vectorizable: the float bit trick
 * (about 5 % off) and Newton steps y <- (2 y + x / y^2) / 3, quadratic: 3 for float
 * (error ~1e-10 before rounding), 4 for double (~1e-20).  The guess is taken of x
 * clamped to float's normal range. */
static inline T FN(cbrt)(T x)
{
    float xf = (float)KP_MIN(KP_MAX(x, (T)1e-30), (T)1e30);
    uint32_t i;
    memcpy(&i, &xf, sizeof i);
    i = i / 3u + 709921077u;
    float yf;
    memcpy(&yf, &i, sizeof yf);
    T y = (T)yf;
    const T third = (T)1 / (T)3;
    for (int n = 0; n < (sizeof(T) == sizeof(float) ? 3 : 4); n++) y = ((T)2 * y + x / (y * y)) * third;
    return y;
}

/* Steps 1-6 along one direction for the n cells k0 .. k0+n-1 of a row: s = 1 (x: qn =
 * hu, qt = hv, faces E (plus) / W (minus)) or s = st (y: qn = hv, qt = hu, faces N / S).
 * Results at index t of P (plus face) and M (minus face). */
KP_CLONES static void FN(recon)(const struct kp_fast *f, const FN(arrays) *a, const T *Qw, const T *Qn,
                      const T *Qt, const T *Bp, const T *Bm, size_t k0, int n, size_t s,
                      FN(pts) P, FN(pts) M)
{
    const T th = (T)f->theta, half = (T)0.5, two = (T)2, z = (T)0;
    const T eps = (T)f->eps, kap = (T)f->kappa, rk = (T)f->rkappa, k4 = (T)f->kappa4;
    const T *cd = a->cd, *Bij = a->Bij;
#pragma omp simd
    for (int t = 0; t < n; t++) {
        const size_t k = k0 + (size_t)t;
        const T w = Qw[k], qn = Qn[k], qt = Qt[k];
        const T cm = cd[k - s], cp = cd[k + s];
        /* 1. neighbours: active as is, free a copy of k, wall/off k mirrored */
        const T wm0 = Qw[k - s], qnm0 = Qn[k - s], qtm0 = Qt[k - s];
        const T wp0 = Qw[k + s], qnp0 = Qn[k + s], qtp0 = Qt[k + s];
        const T bp = Bp[k], bm = Bm[k];
        /* a free or depth ghost extends the depth (the surface follows the bed across the
         * face); a level ghost shows its level (kp_fast_rates stores it in the ghost's w)
         * where that is above the face, else extends the depth; a wall or a discharge
         * copies w */
        const T em = w + two * (bm - Bij[k]), ep = w + two * (bp - Bij[k]);
        const T wm = cm == (T)CELL_ACTIVE ? wm0
                   : cm == (T)CELL_FREE || cm == (T)CELL_DEPTH ? em
                   : cm == (T)CELL_LEVEL ? (wm0 > bm ? wm0 : em) : w;
        const T wp = cp == (T)CELL_ACTIVE ? wp0
                   : cp == (T)CELL_FREE || cp == (T)CELL_DEPTH ? ep
                   : cp == (T)CELL_LEVEL ? (wp0 > bp ? wp0 : ep) : w;
        const T qtm = cm == (T)CELL_ACTIVE ? qtm0 : qt, qtp = cp == (T)CELL_ACTIVE ? qtp0 : qt;
        const T qnm = cm == (T)CELL_ACTIVE ? qnm0 : qn * (T)GRID_BC_SIGN(cm);   /* swgl_grid.h */
        const T qnp = cp == (T)CELL_ACTIVE ? qnp0 : qn * (T)GRID_BC_SIGN(cp);
        /* 2. slopes */
        const T dw = FN(mm)(th * (wp - w), (wp - wm) * half, th * (w - wm));
        const T dn = FN(mm)(th * (qnp - qn), (qnp - qnm) * half, th * (qn - qnm));
        const T dt = FN(mm)(th * (qtp - qt), (qtp - qtm) * half, th * (qt - qtm));
        /* 3.-4. point values of w, positivity */
        const T wP0 = w + dw * half, wM0 = w - dw * half;
        const int c1 = wP0 < bp, c2 = wM0 < bm;
        const T wP = c1 ? bp : (c2 ? two * w - bm : wP0);
        const T wM = c1 ? two * w - bp : (c2 ? bm : wM0);
        T hP = KP_MAX(wP - bp, z), hM = KP_MAX(wM - bm, z);
        /* 5. dry cell / dry points */
        const int dry = w - Bij[k] <= eps;
        hP = dry || hP <= eps ? z : hP;
        hM = dry || hM <= eps ? z : hM;
        /* 6. desingularized velocities (0 at a dry point: s = 0), momenta recomputed */
        const T sP = FN(dfac)(hP, kap, rk, k4), sM = FN(dfac)(hM, kap, rk, k4);
        const T unP = (qn + dn * half) * sP, utP = (qt + dt * half) * sP;
        const T unM = (qn - dn * half) * sM, utM = (qt - dt * half) * sM;
        P.h[t] = hP;
        P.qn[t] = hP * unP;
        P.qt[t] = hP * utP;
        P.un[t] = unP;
        P.ut[t] = utP;
        M.h[t] = hM;
        M.qn[t] = hM * unM;
        M.qt[t] = hM * utM;
        M.un[t] = unM;
        M.ut[t] = utM;
    }
}

/* Step 7 for n faces: low side L (index t of L: the west/south cell's E/N point), high
 * side R, their codes cL[t], cR[t].  A ghost side takes the active side's point value
 * (free: copy; wall/off: normal momentum and velocity negated).  Flux in the face frame
 * (F0 mass, Fn normal, Ft tangential momentum) and the face speed A, written as
 * kp_scalar.c's cu_flux: (a+ F- - a- F+ + a+ a- (Q+ - Q-)) / (a+ - a-), the mass part
 * with the depth difference h+ - h- (= w+ - w-: both sides share the face's bed). */
KP_CLONES static void FN(flux)(const struct kp_fast *f, FN(pts) L, FN(pts) R, const T *cL, const T *cR,
                     int n, T *F0, T *Fn, T *Ft, T *A)
{
    const T g = (T)f->g, hg = (T)(0.5 * f->g), z = (T)0, one = (T)1;
#pragma omp simd
    for (int t = 0; t < n; t++) {
        const T cl = cL[t], cr = cR[t];
        const int al = cl == (T)CELL_ACTIVE, ar = cr == (T)CELL_ACTIVE;
        const int gr = al && !ar, gl = ar && !al;
        const T sr = (T)GRID_BC_SIGN(cr), sl = (T)GRID_BC_SIGN(cl);   /* swgl_grid.h */
        const T hl0 = L.h[t], qnl0 = L.qn[t], qtl0 = L.qt[t], unl0 = L.un[t], utl0 = L.ut[t];
        const T hr0 = R.h[t], qnr0 = R.qn[t], qtr0 = R.qt[t], unr0 = R.un[t], utr0 = R.ut[t];
        const T hl = gl ? hr0 : hl0, hr = gr ? hl0 : hr0;
        const T qtl = gl ? qtr0 : qtl0, qtr = gr ? qtl0 : qtr0;
        const T utl = gl ? utr0 : utl0, utr = gr ? utl0 : utr0;
        const T qnl = gl ? sl * qnr0 : qnl0, qnr = gr ? sr * qnl0 : qnr0;
        const T unl = gl ? sl * unr0 : unl0, unr = gr ? sr * unl0 : unr0;
        const T csl = KP_SQRT(g * hl), csr = KP_SQRT(g * hr);
        const T ap1 = KP_MAX(unl + csl, unr + csr), am1 = KP_MIN(unl - csl, unr - csr);
        const T ap = KP_MAX(ap1, z), am = KP_MIN(am1, z);
        const T fln = qnl * unl + hg * hl * hl, flt = qnl * utl;
        const T frn = qnr * unr + hg * hr * hr, frt = qnr * utr;
        const T den = ap - am;
        const int pos = den > z;
        const T dd = pos ? den : one;
        const T c = ap * am, id = one / dd;
        const T f0 = (ap * qnl - am * qnr + c * (hr - hl)) * id;
        const T fn = (ap * fln - am * frn + c * (qnr - qnl)) * id;
        const T ft = (ap * flt - am * frt + c * (qtr - qtl)) * id;
        F0[t] = pos ? f0 : z;
        Fn[t] = pos ? fn : z;
        Ft[t] = pos ? ft : z;
        A[t] = KP_MAX(ap, -am);
    }
}

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
#pragma omp parallel num_threads(f->nthreads) reduction(max : smax) reduction(+ : chk)
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
    return smax > (T)0 ? f->cfl / (double)smax : INFINITY;
}

/* Time integration of n cells of a row from k (all arrays offset to k): stage 0 writes
 * Q* (RK2) or Q^{n+1} (Euler, in place) into d from s0 = Q^n; stage 1 writes Q^{n+1} into
 * d = Q^n from s0 = Q^n and s1 = Q*.  R may point to zeros (a tile whose rates were
 * skipped).  wb[t]: 1 where the new state is a wet active cell.  Adds the clip to *clip
 * and non-finite values to *bad.  fo (forcing): adds rdt rn[t] to w before the clip (the
 * rain) and leaves the dry and thin-film rules to the sources' pass where ns[t] != 0.
 * stage, fric and fo are constants at each call (inlined). */
KP_INLINE void FN(update_k)(const struct kp_fast *f, const int stage, const int fric, const int fo, T dt,
                            const T *c, const T *Bij, const T *gn2, const T *const s0[3],
                            const T *const s1[3], T *const d[3], const T *Rw, const T *Ru,
                            const T *Rv, const T *rn, const T *ns, T rdt, int n, int co0, int co1, T *wb,
                            T *clip, T *bad)
{
    const T z = (T)0, one = (T)1, half = (T)0.5, eps = (T)f->eps, kap = (T)f->kappa, rk = (T)f->rkappa;
    const T k4 = (T)f->kappa4;
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
            const T h = ws[t] - b;
            const int wet = !(h <= eps);
            const T hs = wet ? h : one, sf = FN(dfac)(hs, kap, rk, k4);
            const T u = us[t] * sf, v = vs[t] * sf;
            const T hf0 = gn2[t] * KP_SQRT(u * u + v * v) / (hs * FN(cbrt)(hs));
            den = one + dtf * (wet ? hf0 : z);
        }
        T w, qu, qv;
        if (stage == 0) {
            w = w0[t] + dt * Rw[t];
            qu = u0[t] + dt * Ru[t];
            qv = v0[t] + dt * Rv[t];
        } else {
            w = half * (w0[t] + (ws[t] + dt * Rw[t]));
            qu = half * (u0[t] + (us[t] + dt * Ru[t]));
            qv = half * (v0[t] + (vs[t] + dt * Rv[t]));
        }
        if (fric) {
            qu = qu / den;
            qv = qv / den;
        }
        if (fo) w = w + rdt * rn[t];   /* rain, before the clip (kp_scalar.c) */
        const T h0 = w - b;
        const int neg = h0 < z;
        cl += act && neg && t >= co0 && t < co1 ? -h0 : z;   /* the clip of the owned cells */
        w = neg ? b : w;
        const T h = neg ? z : h0;
        const int dry = h <= eps, shoal = h < kap;
        /* as kp_scalar.c: a shoal cell's momentum from its desingularized velocity (6) */
        const T sc = h * FN(dfac)(h, kap, rk, k4);
        const T su = qu * sc, sv = qv * sc;
        const int keep = fo && ns[t] != z;   /* a source's cell: its rules come after it */
        qu = keep ? qu : (dry ? z : (shoal ? su : qu));
        qv = keep ? qv : (dry ? z : (shoal ? sv : qv));
        bd += act ? (w - w) + (qu - qu) + (qv - qv) : z;
        wb[t] = act && !dry ? one : z;
        /* non-active cells keep Q^n's values (in Q* too: no read of the destination) */
        dw[t] = act ? w : w0[t];
        du[t] = act ? qu : u0[t];
        dv[t] = act ? qv : v0[t];
    }
    *clip += cl;
    *bad += bd;
}

KP_CLONES static void FN(update)(const struct kp_fast *f, int stage, T dt, const T *c, const T *Bij,
                       const T *gn2, const T *const s0[3], const T *const s1[3], T *const d[3],
                       const T *Rw, const T *Ru, const T *Rv, const T *rn, const T *ns, T rdt, int n,
                       int co0, int co1, T *wb, T *clip, T *bad)
{
#define KP_UPD(st_, fr_, fo_) \
    FN(update_k)(f, st_, fr_, fo_, dt, c, Bij, gn2, s0, s1, d, Rw, Ru, Rv, rn, ns, rdt, n, co0, co1, wb, clip, bad)
    if (!rn) {
        if (stage == 0 && !gn2) KP_UPD(0, 0, 0);
        else if (stage == 0) KP_UPD(0, 1, 0);
        else if (!gn2) KP_UPD(1, 0, 0);
        else KP_UPD(1, 1, 0);
    } else {
        if (stage == 0 && !gn2) KP_UPD(0, 0, 1);
        else if (stage == 0) KP_UPD(0, 1, 1);
        else if (!gn2) KP_UPD(1, 0, 1);
        else KP_UPD(1, 1, 1);
    }
#undef KP_UPD
}

/* The point sources of apply (kp_scalar.c's order: after the update and its clip),
 * serially: swe_source_take on the destination surface d[0], with the accounts, then the
 * dry and thin-film rules of the update on the source cells, once each (their mask ns
 * is 1; 2 marks a cell done). */
static void FN(sources)(struct kp_fast *f, const FN(arrays) *a, int stage, double dt, T *const d[3])
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
        const double before = (double)d[0][k];
        d[0][k] = (T)swe_source_take(before, (double)a->Bij[k], total);
        swe_sources_account(&f->clk->acc, mem, add, n, ((double)d[0][k] - before) * area, area, wsrc);
    }
    for (int q = 0; q < fo->n_src; q++) {
        const size_t k = f->src_kf[q];
        if (ns[k] != (T)1) continue;
        ns[k] = (T)2;
        const T h = d[0][k] - a->Bij[k];
        const int dry = h <= eps, shoal = h < kap;
        const T sc = h * FN(dfac)(h, kap, rk, k4);
        d[1][k] = dry ? z : (shoal ? d[1][k] * sc : d[1][k]);
        d[2][k] = dry ? z : (shoal ? d[2][k] * sc : d[2][k]);
    }
    for (int q = 0; q < fo->n_src; q++) ns[f->src_kf[q]] = (T)1;
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
#pragma omp parallel num_threads(f->nthreads) reduction(+ : clip, bad)
    {
        T *wb = (T *)f->tbuf + (size_t)omp_get_thread_num() * f->tsize;   /* one row */
#pragma omp for schedule(dynamic, 1)
        for (int ty = 0; ty < nty; ty++) {
            const int j0 = ty * KP_TILE + 1, j1 = j0 + KP_TILE <= ny + 1 ? j0 + KP_TILE : ny + 1;
            unsigned char *wet = f->wet + (size_t)ty * ntx;
            const unsigned char *sk0 = f->skip[0] + (size_t)ty * ntx, *sk1 = f->skip[1] + (size_t)ty * ntx;
            unsigned char *same = f->same + (size_t)ty * ntx;
            if (map) memset(wet, 0, (size_t)ntx);
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
                    } else if (act != 3) {
                        const T *s0[3] = {a.Q[0][0] + k, a.Q[0][1] + k, a.Q[0][2] + k};
                        const T *s1[3] = {a.Q[1][0] ? a.Q[1][0] + k : NULL, a.Q[1][1] ? a.Q[1][1] + k : NULL,
                                          a.Q[1][2] ? a.Q[1][2] + k : NULL};
                        T *d[3];
                        for (int m = 0; m < 3; m++) d[m] = (stage == 0 && rk2 ? a.Q[1][m] : a.Q[0][m]) + k;
                        const T *Rw = act ? zero : a.R[0] + k, *Ru = act ? zero : a.R[1] + k,
                                *Rv = act ? zero : a.R[2] + k;
                        FN(update)(f, stage, dtT, a.cd + k, a.Bij + k, a.gn2 ? a.gn2 + k : NULL, s0, s1, d,
                                   Rw, Ru, Rv, frain ? frain + k : NULL, frain ? fsrc + k : NULL, rdt, n,
                                   co0, co1, wb, &cl, &bd);
                        if (map)
                            for (int x = tx; x < tx1; x++) {
                                const int e0 = (x - tx) * KP_TILE, e1 = e0 + KP_TILE < n ? e0 + KP_TILE : n;
                                T any = (T)0;
#pragma omp simd reduction(max : any)
                                for (int t = e0; t < e1; t++) any = wb[t] > any ? wb[t] : any;
                                wet[x] |= any > (T)0;
                            }
                    }
                    tx = tx1;
                }
            }
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
    if (frain && f->clk->f->n_src > 0) {
        T *d[3];
        for (int m = 0; m < 3; m++) d[m] = stage == 0 && rk2 ? a.Q[1][m] : a.Q[0][m];
        FN(sources)(f, &a, stage, dt, d);
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
             * rates reports the blow-up); dry is decided on the stored depth, in T, as the
             * wet map and the reconstruction decide it (a cell dry in float but not in
             * double would otherwise keep its momentum in a tile that early exit skips) */
            const double hd = h[k] > 0.0 ? h[k] : h[k] != h[k] ? h[k] : 0.0;
            const T w = (T)(f->Bij_d[k] + hd);
            const int dry = w - a.Bij[kf] <= (T)f->eps;
            a.Q[0][0][kf] = w;
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
            h[k] = act ? (double)(a.Q[0][0][kf] - a.Bij[kf]) : 0.0;
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
            if (a.cd[kf] == (T)CELL_ACTIVE && !(a.Q[0][0][kf] - a.Bij[kf] <= eps))
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

#undef T
#undef FN
