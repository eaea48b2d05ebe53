/* hllc_solver_body.h — one step of the HLLC scheme (hllc_cpu.h (H1)-(H7)) on the
 * ghost-ring grid, written once: included by hllc_scalar.c (double, one thread: the
 * reference) and hllc_fast.c (float and double, OpenMP over rows) with
 *   T          the state's type        FN(name)   the names for that instance
 *   T_SQRT     sqrt for T              HLLC_OMP   1: OpenMP over rows
 *   CORE_OPS   the hllc_core_ops table it defines, CORE_PREC its precision's name.
 * Every sum is written in the same order for every instance, so the fast double
 * instance gives the scalar one's bits (threads split rows; no sum crosses rows). */

#define HLLC_T T
#define HLLC_FN FN
#define HLLC_SQRT T_SQRT
#include "hllc_face.h"
#undef HLLC_T
#undef HLLC_FN
#undef HLLC_SQRT

typedef struct FN(core) {
    hllc_problem p;
    swe_clock *clk;
    int nx, ny;
    size_t w, n;
    unsigned char *code;
    T *z, *man;                /* bed elevation (-H), Manning's n (NULL: none) */
    T *h, *qx, *qy;
    T *gx, *gy;                /* G of the east / north face of cell k (owner: the west/south cell) */
    T *mxL[2], *mxR[2], *myL[2], *myR[2];   /* (H4) per unit length */
    T *sx, *sy;                /* face speeds */
    T *mom[2], *tau;           /* per cell: the momentum sum, the drain time */
    int moving;
    double clip_vol, clip_rel;
    unsigned char *srcm, *src_first;
    int nrun;                  /* HLLC_OMP: the threads of this step's loops (cpu_info.h cpu_load) */
    cpu_load load;
} FN(core);

static void FN(destroy)(void *self)
{
    FN(core) *s = self;
    if (!s) return;
    T *arr[] = {s->z, s->man, s->h, s->qx, s->qy, s->gx, s->gy, s->mxL[0], s->mxL[1], s->mxR[0], s->mxR[1],
                s->myL[0], s->myL[1], s->myR[0], s->myR[1], s->sx, s->sy, s->mom[0], s->mom[1], s->tau};
    for (size_t a = 0; a < sizeof arr / sizeof arr[0]; a++) free(arr[a]);
    free(s->code);
    free(s->srcm);
    free(s->src_first);
    free(s);
}

static void *FN(create)(const hllc_problem *p, swe_clock *clk)
{
    FN(core) *s = calloc(1, sizeof *s);
    if (!s) goto fail;
    s->p = *p;
    s->clk = clk;
#if HLLC_OMP
    /* as many threads as the cores the other programs leave (docs/performance.md), at most
     * OpenMP's count; --tune cpu.threads=N fixes N */
    cpu_load_init(&s->load, p->sw.threads > 0 ? p->sw.threads : hllc_fast_threads(), p->sw.threads > 0);
#endif
    s->nrun = 1;
    s->nx = p->sw.nx;
    s->ny = p->sw.ny;
    s->w = (size_t)grid_stride(s->nx);
    s->n = grid_size(s->nx, s->ny);
    const size_t n = s->n;
    int ok = (s->code = malloc(n)) != NULL;
    T **arr[] = {&s->z, &s->h, &s->qx, &s->qy, &s->gx, &s->gy, &s->mxL[0], &s->mxL[1], &s->mxR[0], &s->mxR[1],
                 &s->myL[0], &s->myL[1], &s->myR[0], &s->myR[1], &s->sx, &s->sy, &s->mom[0], &s->mom[1], &s->tau};
    for (size_t a = 0; a < sizeof arr / sizeof arr[0]; a++) ok &= (*arr[a] = calloc(n, sizeof(T))) != NULL;
    if (ok && p->manning) ok = (s->man = calloc(n, sizeof(T))) != NULL;
    if (!ok) goto fail;
    memcpy(s->code, p->sw.code, n);
    for (size_t k = 0; k < n; k++) {
        s->z[k] = (T)-p->sw.H[k];
        s->tau[k] = (T)INFINITY;
        if (s->man) s->man[k] = (T)p->manning[k];
    }
    const swe_forcing *fo = p->sw.forcing;
    if (fo && fo->n_src > 0) {
        if (!(s->srcm = calloc(n, 1)) || !(s->src_first = calloc((size_t)fo->n_src, 1))) goto fail;
        for (int q = 0; q < fo->n_src; q++) {
            s->src_first[q] = !s->srcm[fo->src_cell[q]];
            s->srcm[fo->src_cell[q]] = 1;
        }
    }
    s->p.sw.H = NULL;   /* not kept: z is */
    s->p.sw.code = s->code;
    s->p.manning = NULL;
    return s;
fail:
    FN(destroy)(s);
    swgl_fail(SWGL_ERR_NO_MEMORY, "hllc: out of memory for a %dx%d grid", p->sw.nx, p->sw.ny);
    return NULL;
}

static void FN(set_state)(void *self, const double *h, const double *qx, const double *qy)
{
    FN(core) *s = self;
    for (size_t k = 0; k < s->n; k++) {
        const int a = s->code[k] == CELL_ACTIVE, wet = a && (T)h[k] > (T)s->p.sw.h_dry;
        s->h[k] = a ? (T)h[k] : (T)0;
        s->qx[k] = wet ? (T)qx[k] : (T)0;
        s->qy[k] = wet ? (T)qy[k] : (T)0;
    }
}

static void FN(get_state)(const void *self, double *h, double *qx, double *qy)
{
    const FN(core) *s = self;
    for (size_t k = 0; k < s->n; k++) {
        h[k] = (double)s->h[k];
        qx[k] = (double)s->qx[k];
        qy[k] = (double)s->qy[k];
    }
}

static void FN(halo)(void *self, int set, int x, int y, int w, int h, double *buf)
{
    FN(core) *s = self;
    T *v[3] = {s->h, s->qx, s->qy};
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++) {
            const size_t k = grid_at(s->nx, x + i, y + j);
            double *b = buf + 3 * ((size_t)j * (size_t)w + (size_t)i);
            for (int c = 0; c < 3; c++) {
                if (set) v[c][k] = (T)b[c];
                else b[c] = (double)v[c][k];
            }
        }
}

/* One face between kL and kR (normal (ex, ey) from L to R) into the owner's (kL) slots
 * of G (times len), the momentum fluxes and the speed: interior faces in T, boundary
 * faces by hllc_boundary_face (double), no side active: zeros. */
static void FN(face)(FN(core) *s, size_t kL, size_t kR, int ey_north, T len, T *G, T *mL0, T *mL1, T *mR0,
                     T *mR1, T *sp)
{
    const int aL = s->code[kL] == CELL_ACTIVE, aR = s->code[kR] == CELL_ACTIVE;
    const T ex = ey_north ? (T)0 : (T)1, ey = ey_north ? (T)1 : (T)0;
    T Fh = 0, mL[2] = {0, 0}, mR[2] = {0, 0}, speed = 0;
    if (aL && aR) {
        const T wL[3] = {s->h[kL], s->qx[kL], s->qy[kL]}, wR[3] = {s->h[kR], s->qx[kR], s->qy[kR]};
        speed = FN(hllc_face_t)(wL, wR, s->z[kL], s->z[kR], ex, ey, (T)s->p.sw.g, (T)s->p.sw.h_dry, &Fh, mL, mR);
    } else if (aL || aR) {
        const size_t kg = aL ? kR : kL, ka = aL ? kL : kR;
        size_t r = 0;
        const int seg = swe_ring_of(s->clk->f, s->nx, s->ny, s->clk->M, (int)(kg % s->w), (int)(kg / s->w), &r);
        const double wa[3] = {s->h[ka], s->qx[ka], s->qy[ka]};
        double F, dL[2], dR[2];
        speed = (T)hllc_boundary_face(s->code[kg], seg >= 0 ? s->clk->seg_val[seg] : 0.0,
                                      seg >= 0 ? s->clk->f->seg[seg].vmax : 0.0, wa, (double)s->z[ka], ex, ey, !aL,
                                      s->p.sw.g, s->p.sw.h_dry, &F, dL, dR);
        Fh = (T)F;
        mL[0] = (T)dL[0], mL[1] = (T)dL[1], mR[0] = (T)dR[0], mR[1] = (T)dR[1];
    }
    G[kL] = len * Fh;
    mL0[kL] = mL[0], mL1[kL] = mL[1], mR0[kL] = mR[0], mR1[kL] = mR[1];
    sp[kL] = speed;
}

static inline T FN(pos)(T x) { return x > (T)0 ? x : (T)0; }
/* theta = min(1, tau / dt) (H6), the division only where the cell limits */
static inline T FN(theta)(T tau, T dt) { return tau < dt ? tau / dt : (T)1; }

static double FN(rates)(void *self)
{
    FN(core) *s = self;
    const int nx = s->nx, ny = s->ny;
    const size_t w = s->w;
    const T dx = (T)s->p.sw.dx, dy = (T)s->p.sw.dy, V = dx * dy;
    T smax = 0;
    int bad = 0;
#if HLLC_OMP
    s->nrun = cpu_load_threads(&s->load);
#pragma omp parallel for schedule(static) num_threads(s->nrun)
#endif
    for (int j = 0; j <= ny; j++) {
        for (int i = 0; i <= nx; i++) {
            const size_t k = grid_at(nx, i, j);
            if (j >= 1) FN(face)(s, k, k + 1, 0, dy, s->gx, s->mxL[0], s->mxL[1], s->mxR[0], s->mxR[1], s->sx);
            if (i >= 1) FN(face)(s, k, k + w, 1, dx, s->gy, s->myL[0], s->myL[1], s->myR[0], s->myR[1], s->sy);
        }
    }
#if HLLC_OMP
#pragma omp parallel for schedule(static) num_threads(s->nrun) reduction(max : smax) reduction(| : bad)
#endif
    for (int j = 1; j <= ny; j++) {
        for (int i = 1; i <= nx; i++) {
            const size_t k = grid_at(nx, i, j);
            if (s->code[k] != CELL_ACTIVE) continue;
            for (int m = 0; m < 2; m++) {
                const T *xl = m ? s->mxL[1] : s->mxL[0], *xr = m ? s->mxR[1] : s->mxR[0];
                const T *yl = m ? s->myL[1] : s->myL[0], *yr = m ? s->myR[1] : s->myR[0];
                s->mom[m][k] = dy * (xl[k] - xr[k - 1]) + dx * (yl[k] - yr[k - w]);
            }
            const T S = dy * (s->sx[k] + s->sx[k - 1]) + dx * (s->sy[k] + s->sy[k - w]);
            const T pE = s->gx[k], pW = -s->gx[k - 1], pN = s->gy[k], pS = -s->gy[k - w];
            const T O = (FN(pos)(pE) + FN(pos)(pW)) + (FN(pos)(pN) + FN(pos)(pS));
            s->tau[k] = O > (T)0 ? s->h[k] * V / O : (T)INFINITY;
            if (S > smax && swe_owns(&s->p.sw, i, j)) smax = S;
            if (isnan(S) || isnan(O) || isnan(s->h[k]) || isnan(s->qx[k]) || isnan(s->qy[k]) ||
                isnan(s->mom[0][k]) || isnan(s->mom[1][k]))
                bad = 1;
        }
    }
    s->moving = smax > (T)0;
    if (bad) return NAN;
    /* (H5), in double */
    return smax > (T)0 ? 2.0 * s->p.sw.cfl * s->p.sw.dx * s->p.sw.dy / (double)smax : INFINITY;
}

/* Manning's Hf of (H7) for cell k from its state */
static inline T FN(friction)(const FN(core) *s, size_t k, T h, T qx, T qy)
{
    const T n = s->man ? s->man[k] : (T)0;
    if (!(n > (T)0) || !(h > (T)s->p.sw.h_dry)) return (T)0;
    const T kap = (T)s->p.sw.kappa, h4 = h * h * h * h, k4 = kap * kap * kap * kap;
    const T d = (T)1.4142135623730951 * h / T_SQRT(h4 + (h4 > k4 ? h4 : k4));   /* u = d q */
    const T ux = d * qx, uy = d * qy;
    return (T)s->p.sw.g * n * n * T_SQRT(ux * ux + uy * uy) / (h * (T)cbrt((double)h));
}

/* h <= h_dry -> q = 0; the thin-film rule (roe_cpu.h (M5)) */
static inline void FN(dry_rule)(T h, T *qx, T *qy, T h_dry, T kappa)
{
    if (h <= h_dry) *qx = *qy = (T)0;
    else if (h < kappa) {
        const T r = h / kappa, r2 = r * r, f = (T)1.4142135623730951 * r2 / T_SQRT(r2 * r2 + (T)1);
        *qx *= f;
        *qy *= f;
    }
}

static int FN(apply)(void *self, double dt_d)
{
    FN(core) *s = self;
    swe_clock *clk = s->clk;
    const int nx = s->nx, ny = s->ny;
    const size_t w = s->w;
    const swe_forcing *fo = clk->f;
    const double *rain = fo ? fo->rain : NULL;
    const int n_src = fo ? fo->n_src : 0;
    s->clip_vol = s->clip_rel = 0.0;
    if (isnan(dt_d) || dt_d < 0.0 || ((s->moving || swe_forcing_any(fo)) && !(dt_d < INFINITY))) return -1;
    const int move = s->moving && dt_d > 0.0;
    const T dt = move ? (T)dt_d : (T)1, Vd = (T)(s->p.sw.dx * s->p.sw.dy);
    const T k_dt = move ? (T)dt_d / Vd : (T)0, dtf = move ? (T)dt_d : (T)0;
    const T h_dry = (T)s->p.sw.h_dry, kappa = (T)s->p.sw.kappa;
    swe_clock_step(clk, dt_d);   /* the series' means over the step (swe.h "over a step") */
    const double rain_dt = swe_clock_rain(clk, 0, 1, dt_d);
    const double V = s->p.sw.dx * s->p.sw.dy;
    const T *tau = s->tau;
    double clip_vol = 0.0, clip_rel = 0.0;
    int bad = 0;
#if HLLC_OMP
#pragma omp parallel for schedule(static) num_threads(s->nrun) reduction(+ : clip_vol) reduction(max : clip_rel) reduction(| : bad)
#endif
    for (int j = 1; j <= ny; j++) {
        for (int i = 1; i <= nx; i++) {
            const size_t k = grid_at(nx, i, j);
            if (s->code[k] != CELL_ACTIVE) continue;
            const T h0 = s->h[k];
            T h = h0, qx = s->qx[k], qy = s->qy[k];
            const T pE = s->gx[k], pW = -s->gx[k - 1], pN = s->gy[k], pS = -s->gy[k - w];
            const T th = FN(theta)(tau[k], dt);
            const T tE = pE > (T)0 ? th : FN(theta)(tau[k + 1], dt);
            const T tW = pW > (T)0 ? th : FN(theta)(tau[k - 1], dt);
            const T tN = pN > (T)0 ? th : FN(theta)(tau[k + w], dt);
            const T tS = pS > (T)0 ? th : FN(theta)(tau[k - w], dt);
            const T f = FN(friction)(s, k, h0, qx, qy);   /* (H7): of the state at the step's start */
            h -= k_dt * ((tE * pE + tW * pW) + (tN * pN + tS * pS));
            qx = (qx - k_dt * s->mom[0][k]) / ((T)1 + dtf * f);
            qy = (qy - k_dt * s->mom[1][k]) / ((T)1 + dtf * f);
            if (rain) h += (T)(rain_dt * rain[k]);
            if (h < (T)0) {
                const T scale = h0 + k_dt * ((FN(pos)(tE * pE) + FN(pos)(-tE * pE) + FN(pos)(tW * pW) +
                                              FN(pos)(-tW * pW)) +
                                             (FN(pos)(tN * pN) + FN(pos)(-tN * pN) + FN(pos)(tS * pS) +
                                              FN(pos)(-tS * pS)));
                if (swe_owns(&s->p.sw, i, j)) {
                    clip_vol -= (double)h * V;
                    if ((double)(-h / scale) > clip_rel) clip_rel = (double)(-h / scale);
                }
                h = (T)0;
            }
            if (!s->srcm || !s->srcm[k]) FN(dry_rule)(h, &qx, &qy, h_dry, kappa);
            if (isnan(h) || isnan(qx) || isnan(qy)) bad = 1;
            s->h[k] = h;
            s->qx[k] = qx;
            s->qy[k] = qy;
        }
    }
    s->clip_vol = clip_vol;
    s->clip_rel = clip_rel;
    /* the boundary faces' volumes (what (H6) moved) to the clock's ring_rate */
    if (fo && fo->n_seg) {
        const int M = clk->M;
        for (int side = 0; side < 4; side++) {
            const int len = side < 2 ? ny : nx;
            for (int m = 0; m < len; m++) {
                const size_t r = SWE_RING(side, m, M);
                if (fo->seg_of[r] < 0) continue;
                size_t kg, ka;
                T P;
                switch (side) {
                case 0: kg = grid_at(nx, 0, m + 1), ka = kg + 1, P = -s->gx[kg]; break;
                case 1: kg = grid_at(nx, nx + 1, m + 1), ka = kg - 1, P = s->gx[ka]; break;
                case 2: kg = grid_at(nx, m + 1, 0), ka = kg + w, P = -s->gy[kg]; break;
                default: kg = grid_at(nx, m + 1, ny + 1), ka = kg - w, P = s->gy[ka]; break;
                }
                const T t = P > (T)0 ? FN(theta)(tau[ka], dt) : FN(theta)(tau[kg], dt);
                clk->ring_rate[r] = move && s->code[ka] == CELL_ACTIVE ? -(double)(t * P) : 0.0;
            }
        }
    }
    /* the discharge faces' mass over the step made dt Q-bar (swe.h "over a step") */
    const int nf = move ? swe_clock_inflow(clk, dt_d) : 0;
    for (int m = 0; m < nf; m++) {
        const size_t k = clk->fix_cell[m];
        double h = (double)s->h[k] + clk->fix_add[m];
        if (h < 0.0) {
            if (swe_owns(&s->p.sw, (int)(k % w), (int)(k / w))) s->clip_vol -= h * V;
            h = 0.0;
        }
        s->h[k] = (T)h;
        if (!(s->h[k] > h_dry)) s->qx[k] = s->qy[k] = (T)0;
    }
    swe_clock_inflow_rates(clk);
    /* point sources, a cell's together (swe.h), then the dry rule once on their cells */
    for (int q = 0; q < n_src; q++) {
        double add[SWE_SOURCES_PER_CELL], total;
        int mem[SWE_SOURCES_PER_CELL];
        const int ns = swe_sources_at_cell(fo, q, clk->src_q, dt_d / V, mem, add, &total);
        if (ns == 0) continue;
        const size_t k = fo->src_cell[q];
        const double before = (double)s->h[k];
        s->h[k] = (T)swe_source_take(before, 0.0, total);
        swe_sources_account(&clk->acc, mem, add, ns, ((double)s->h[k] - before) * V, V, 1.0);
    }
    for (int q = 0; q < n_src; q++) {
        const size_t k = fo->src_cell[q];
        if (!s->src_first[q]) continue;
        FN(dry_rule)(s->h[k], &s->qx[k], &s->qy[k], h_dry, kappa);
        if (isnan(s->h[k])) bad = 1;
    }
    clk->acc.clip += s->clip_vol;
    swe_clock_applied(clk, 0, 1, dt_d);
    return bad ? -1 : 0;
}

static void FN(clip)(const void *self, double *vol, double *rel)
{
    const FN(core) *s = self;
    *vol = s->clip_vol;
    *rel = s->clip_rel;
}

const hllc_core_ops CORE_OPS = {.precision = CORE_PREC, .threaded = HLLC_OMP, .create = FN(create),
                                .destroy = FN(destroy), .set_state = FN(set_state), .get_state = FN(get_state),
                                .halo = FN(halo), .rates = FN(rates), .apply = FN(apply), .clip = FN(clip)};
