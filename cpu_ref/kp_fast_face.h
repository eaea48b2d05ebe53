/* kp_fast_face.h — the fast Kurganov-Petrova solver at a face (kp_fast_body.h includes
 * it, with T and FN defined, once for each real type): the typed views of the arrays,
 * the branch-free helpers (minmod, sqrt, desingularization, cube root), the
 * reconstruction of a row's point values (steps 1-6) and the central-upwind flux of a
 * row of faces (step 7). */

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
    T *L[2];                     /* float: the surface's low words of Q[0], Q[1]; NULL in double */
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
    a.L[0] = (T *)f->L[0];
    a.L[1] = (T *)f->L[1];
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
