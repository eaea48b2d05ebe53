/* roe_fast.c — the fast CPU solver of the Lastra et al. (2009) Roe scheme with the
 * draining limiter on the mass update: float, SSE2 intrinsics over 4 edges / 4 cells,
 * OpenMP over blocks of rows.  Same scheme, same sweep and the same order of sums as
 * the scalar solver (roe_scalar.c), whose comment block gives rates and apply with
 * equations (M1)-(M4); the edge function is roe_edge (roe_flux.c, equations there)
 * written for 4 lanes, with every branch turned into a mask and a blend:
 *   dry cells         dry = h <= h_dry; u = dry ? 0 : q/h
 *   entropy fix       fix_k = lambda^L_k < 0 & lambda^R_k > 0, per lane
 *   emerging bottom   case A = dry_i & h_j <= H_j - H_i, case B = dry_j & h_i <= H_i - H_j
 *   boundary edges    a lane whose one side is a ghost gets that side rebuilt from the
 *                     active side (wall: q_n -> -q_n, free: copy; H_ext = H_int)
 *   mass flux (M1)    G = |Gamma| (qn_L + F-_LR[0]), and 0 on wall lanes
 *                     (ghost side not free) and lanes with no active side
 *   drain time (M2)   O = (max(P_E,0) + max(P_W,0)) + (max(P_N,0) + max(P_S,0)),
 *                     tau = active & O > 0 ? h |V| / max(O, tiny) : +inf
 *   update (M3)-(M4)  theta = min(1, tau / dt) of the cell and of its 4 neighbours
 *                     (unaligned loads at c, c+-1, c+-st), t_X = P_X > 0 ? theta_c :
 *                     theta_neighbour; h -= dt/|V| ((t_E P_E + t_W P_W) + (t_N P_N +
 *                     t_S P_S)); momentum (4) as before; h = max(h, 0), dry -> q = 0
 * Divisions that can see 0 in a lane whose result is blended away use max(x, tiny)
 * so that no lane makes an inf or a NaN (tau = +inf is set by the blend, and inf / dt
 * = inf, min(1, inf) = 1: a ghost never limits).
 *
 * Storage: float arrays with a padded row stride st = roundup(nx + 6, 4) >= nx + 6, so a
 * 4-wide load starting at any column 0..nx+1 stays in its row; the padding columns
 * are CELL_OFF (never active) with zero state and tau = +inf.  Full-size arrays: the
 * state, H, M (2 floats), G of the east and north edge of each cell (phiE, phiN, as in
 * the scalar solver, index k = j st + i) and tau.  Each OpenMP thread sweeps its own
 * block of rows j0..j1-1 with its own row buffers (momentum F- and ||D|| of the x-edges
 * of the row and of its north and south edges); it writes G of the x-edges and north
 * edges of its own rows straight into phiE / phiN.  The y-edge row between two blocks
 * is computed by both threads: the one below owns it (writes phiN), the one above keeps
 * its copy of G in its buffer; the thread with j0 = 1 also writes row 0 of phiN.  The
 * update (apply) is a second parallel loop over rows, after the sweep's barrier.
 */
#include "roe_cpu.h"
#include "roe_internal.h"

#include <emmintrin.h>
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


struct roe_fast {
    int nx, ny, nthreads;
    size_t st;                  /* row stride (floats) */
    size_t n;                   /* floats per field, with tail padding */
    double dx, dy, cfl;
    float g, h_dry, kappa;
    float *H, *h, *qx, *qy;
    float *mom[2];              /* M_i per cell */
    float *phiE, *phiN;         /* G of the east / north edge of cell k (owner: west/south cell) */
    float *tau;                 /* drain time; +inf off the active cells */
    int32_t *act, *fre;         /* lane masks: -1 active / free, 0 otherwise */
    float *tbuf;                /* per thread: 3 edge rows x 5 fields x st, 1 row of G */
    size_t tsize;
    int moving;                 /* rates saw a wave */
    double clip_vol, clip_rel;  /* last apply's clip */
};

/* one row of edges: momentum F-[1..2] of each side, ||D||_inf, and G (may point into
 * phiE / phiN) */
typedef struct {
    float *fi[2], *fj[2], *s, *phi;
} edge_row4;

static void *alloc16(size_t bytes)
{
    void *p = NULL;
    if (posix_memalign(&p, 64, bytes ? bytes : 16) != 0) return NULL;
    memset(p, 0, bytes);
    return p;
}

void roe_fast_destroy(struct roe_fast *f)
{
    if (!f) return;
    free(f->H);
    free(f->h);
    free(f->qx);
    free(f->qy);
    for (int m = 0; m < 2; m++) free(f->mom[m]);
    free(f->phiE);
    free(f->phiN);
    free(f->tau);
    free(f->act);
    free(f->fre);
    free(f->tbuf);
    free(f);
}

struct roe_fast *roe_fast_create(const swe_problem *p)
{
    if (swe_problem_check(p) != SWGL_OK) return NULL;
    struct roe_fast *f = calloc(1, sizeof *f);
    if (!f) goto fail;
    f->nx = p->nx;
    f->ny = p->ny;
    f->dx = p->dx;
    f->dy = p->dy;
    f->cfl = p->cfl;
    f->g = (float)p->g;
    f->h_dry = (float)p->h_dry;
    f->kappa = (float)p->kappa;
    f->st = ((size_t)p->nx + 6 + 3) / 4 * 4;
    f->n = f->st * (size_t)grid_rows(p->ny) + 8;
    f->nthreads = omp_get_max_threads();
    if (f->nthreads < 1) f->nthreads = 1;
    f->tsize = 16 * f->st;
    size_t fb = f->n * sizeof(float);
    f->H = alloc16(fb);
    f->h = alloc16(fb);
    f->qx = alloc16(fb);
    f->qy = alloc16(fb);
    for (int m = 0; m < 2; m++) f->mom[m] = alloc16(fb);
    f->phiE = alloc16(fb);
    f->phiN = alloc16(fb);
    f->tau = alloc16(fb);
    f->act = alloc16(f->n * sizeof(int32_t));
    f->fre = alloc16(f->n * sizeof(int32_t));
    f->tbuf = alloc16((size_t)f->nthreads * f->tsize * sizeof(float));
    if (!f->H || !f->h || !f->qx || !f->qy || !f->mom[0] || !f->mom[1] || !f->phiE ||
        !f->phiN || !f->tau || !f->act || !f->fre || !f->tbuf)
        goto fail;
    for (size_t k = 0; k < f->n; k++) f->tau[k] = INFINITY;
    const size_t w = (size_t)grid_stride(p->nx);
    for (int j = 0; j < grid_rows(p->ny); j++)
        for (size_t i = 0; i < w; i++) {
            size_t k = (size_t)j * w + i, kf = (size_t)j * f->st + i;
            f->H[kf] = (float)p->H[k];
            f->act[kf] = p->code[k] == CELL_ACTIVE ? -1 : 0;
            f->fre[kf] = p->code[k] == CELL_FREE ? -1 : 0;
        }
    return f;
fail:
    swgl_fail(SWGL_ERR_NO_MEMORY, "swe: out of memory");
    roe_fast_destroy(f);
    return NULL;
}

void roe_fast_set_state(struct roe_fast *f, const double *h, const double *qx, const double *qy)
{
    const size_t w = (size_t)grid_stride(f->nx);
    for (int j = 0; j < grid_rows(f->ny); j++)
        for (size_t i = 0; i < w; i++) {
            size_t k = (size_t)j * w + i, kf = (size_t)j * f->st + i;
            int a = f->act[kf] != 0, wet = a && !((float)h[k] <= f->h_dry);
            f->h[kf] = a ? (float)h[k] : 0.0f;
            f->qx[kf] = wet ? (float)qx[k] : 0.0f;
            f->qy[kf] = wet ? (float)qy[k] : 0.0f;
        }
}

void roe_fast_get_state(const struct roe_fast *f, double *h, double *qx, double *qy)
{
    const size_t w = (size_t)grid_stride(f->nx);
    for (int j = 0; j < grid_rows(f->ny); j++)
        for (size_t i = 0; i < w; i++) {
            size_t k = (size_t)j * w + i, kf = (size_t)j * f->st + i;
            h[k] = f->h[kf];
            qx[k] = f->qx[kf];
            qy[k] = f->qy[kf];
        }
}

int roe_fast_threads(const struct roe_fast *f)
{
    return f->nthreads;
}

/* ---- 4-lane helpers ---- */

static inline __m128 sel(__m128 m, __m128 a, __m128 b)  /* m ? a : b */
{
    return _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b));
}

static inline __m128 vabs(__m128 x)
{
    return _mm_andnot_ps(_mm_set1_ps(-0.0f), x);
}

/* phi = (1 - sgn lambda)/2 */
static inline __m128 phi4(__m128 l)
{
    const __m128 z = _mm_setzero_ps();
    return _mm_or_ps(_mm_and_ps(_mm_cmplt_ps(l, z), _mm_set1_ps(1.0f)),
                     _mm_and_ps(_mm_cmpeq_ps(l, z), _mm_set1_ps(0.5f)));
}

/* left-going part of wave k, Harten-Hyman split where lL < 0 < lR (see roe_flux.c) */
static inline __m128 left4(__m128 l, __m128 a, __m128 s, __m128 lL, __m128 lR)
{
    const __m128 z = _mm_setzero_ps();
    __m128 phi = phi4(l);
    __m128 cons = _mm_mul_ps(_mm_mul_ps(phi, l), a);
    __m128 fix = _mm_and_ps(_mm_cmplt_ps(lL, z), _mm_cmpgt_ps(lR, z));
    __m128 den = _mm_max_ps(_mm_sub_ps(lR, lL), _mm_set1_ps(1e-30f));
    __m128 hh = _mm_mul_ps(_mm_div_ps(_mm_mul_ps(lL, _mm_sub_ps(lR, l)), den), a);
    return _mm_sub_ps(sel(fix, hh, cons), _mm_mul_ps(phi, s));
}

typedef struct {
    __m128 f0, fn, ft;          /* contribution in the edge frame */
} f3;

/* roe_edge on 4 lanes, in the edge frame (qn = q.eta, qt = q.tau). */
static inline __m128 roe4(__m128 hi, __m128 qni, __m128 qti, __m128 Hi,
                          __m128 hj, __m128 qnj, __m128 qtj, __m128 Hj,
                          __m128 g, __m128 hdry, f3 *fi, f3 *fj)
{
    const __m128 z = _mm_setzero_ps(), half = _mm_set1_ps(0.5f), tiny = _mm_set1_ps(1e-30f);
    hi = _mm_max_ps(hi, z);
    hj = _mm_max_ps(hj, z);
    const __m128 dry_i = _mm_cmple_ps(hi, hdry), dry_j = _mm_cmple_ps(hj, hdry);
    const __m128 both = _mm_and_ps(dry_i, dry_j);

    const __m128 uni = _mm_andnot_ps(dry_i, _mm_div_ps(qni, _mm_max_ps(hi, tiny)));
    const __m128 uti = _mm_andnot_ps(dry_i, _mm_div_ps(qti, _mm_max_ps(hi, tiny)));
    const __m128 unj = _mm_andnot_ps(dry_j, _mm_div_ps(qnj, _mm_max_ps(hj, tiny)));
    const __m128 utj = _mm_andnot_ps(dry_j, _mm_div_ps(qtj, _mm_max_ps(hj, tiny)));

    /* Roe state (7) */
    const __m128 si = _mm_sqrt_ps(hi), sj = _mm_sqrt_ps(hj);
    const __m128 ssum = _mm_max_ps(_mm_add_ps(si, sj), tiny);
    const __m128 un = _mm_div_ps(_mm_add_ps(_mm_mul_ps(si, uni), _mm_mul_ps(sj, unj)), ssum);
    const __m128 ut = _mm_div_ps(_mm_add_ps(_mm_mul_ps(si, uti), _mm_mul_ps(sj, utj)), ssum);
    const __m128 hm = _mm_mul_ps(half, _mm_add_ps(hi, hj));
    const __m128 c = _mm_sqrt_ps(_mm_mul_ps(g, hm));
    const __m128 speed = _mm_andnot_ps(both, _mm_add_ps(vabs(un), c));

    const __m128 l1 = _mm_sub_ps(un, c), l3 = _mm_add_ps(un, c);

    /* alpha = K^-1 dW */
    const __m128 d0 = _mm_sub_ps(hj, hi), dn = _mm_sub_ps(qnj, qni), dt = _mm_sub_ps(qtj, qti);
    const __m128 inv2c = _mm_div_ps(half, _mm_max_ps(c, tiny));
    const __m128 a1 = _mm_mul_ps(_mm_sub_ps(_mm_mul_ps(l3, d0), dn), inv2c);
    const __m128 a2 = _mm_sub_ps(dt, _mm_mul_ps(ut, d0));
    const __m128 a3 = _mm_mul_ps(_mm_sub_ps(dn, _mm_mul_ps(l1, d0)), inv2c);

    /* sigma = K^-1 (S dH): (-c dH/2, 0, c dH/2) */
    const __m128 dH = _mm_sub_ps(Hj, Hi);
    const __m128 s3 = _mm_mul_ps(_mm_mul_ps(half, c), dH);
    const __m128 s1 = _mm_sub_ps(z, s3);

    const __m128 b1 = _mm_sub_ps(_mm_mul_ps(l1, a1), s1);
    const __m128 b2 = _mm_mul_ps(un, a2);
    const __m128 b3 = _mm_sub_ps(_mm_mul_ps(l3, a3), s3);

    const __m128 ci = _mm_sqrt_ps(_mm_mul_ps(g, hi)), cj = _mm_sqrt_ps(_mm_mul_ps(g, hj));
    const __m128 m1 = left4(l1, a1, s1, _mm_sub_ps(uni, ci), _mm_sub_ps(unj, cj));
    const __m128 m2 = _mm_mul_ps(phi4(un), b2);
    const __m128 m3 = left4(l3, a3, s3, _mm_add_ps(uni, ci), _mm_add_ps(unj, cj));
    const __m128 p1 = _mm_sub_ps(b1, m1), p2 = _mm_sub_ps(b2, m2), p3 = _mm_sub_ps(b3, m3);

    __m128 ri0 = _mm_add_ps(m1, m3);
    __m128 rin = _mm_add_ps(_mm_mul_ps(m1, l1), _mm_mul_ps(m3, l3));
    __m128 rit = _mm_add_ps(_mm_mul_ps(ri0, ut), m2);
    __m128 rj0 = _mm_add_ps(p1, p3);
    __m128 rjn = _mm_add_ps(_mm_mul_ps(p1, l1), _mm_mul_ps(p3, l3));
    __m128 rjt = _mm_add_ps(_mm_mul_ps(rj0, ut), p2);

    /* emerging bottom */
    const __m128 caseA = _mm_and_ps(dry_i, _mm_cmple_ps(hj, _mm_sub_ps(Hj, Hi)));
    const __m128 caseB = _mm_and_ps(dry_j, _mm_cmple_ps(hi, _mm_sub_ps(Hi, Hj)));
    const __m128 zi = _mm_or_ps(caseA, both), zj = _mm_or_ps(caseB, both);
    /* case B, wall for i: -(qn, qn un, qt un)_i;  case A, wall for j: (qn, qn un, qt un)_j */
    fi->f0 = _mm_andnot_ps(zi, sel(caseB, _mm_sub_ps(z, qni), ri0));
    fi->fn = _mm_andnot_ps(zi, sel(caseB, _mm_sub_ps(z, _mm_mul_ps(qni, uni)), rin));
    fi->ft = _mm_andnot_ps(zi, sel(caseB, _mm_sub_ps(z, _mm_mul_ps(qti, uni)), rit));
    fj->f0 = _mm_andnot_ps(zj, sel(caseA, qnj, rj0));
    fj->fn = _mm_andnot_ps(zj, sel(caseA, _mm_mul_ps(qnj, unj), rjn));
    fj->ft = _mm_andnot_ps(zj, sel(caseA, _mm_mul_ps(qtj, unj), rjt));
    return speed;
}

/* One batch of 4 edges between cells kL.. and kR.. (kR = kL + 1 for x-edges, kL + st
 * for y-edges).  x-edges: frame (n, t) = (x, y); y-edges: (n, t) = (y, -x).  Writes
 * the edge row r at index e: momentum F- of each side, ||D||_inf and
 * G = gam (qn_L + F-_LR[0]) (M1), 0 on wall lanes and lanes with no active side. */
static inline void edges4(const struct roe_fast *f, size_t kL, size_t kR, int yedge,
                          __m128 gam, edge_row4 *r, size_t e)
{
    const __m128 aL = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(f->act + kL)));
    const __m128 aR = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(f->act + kR)));
    const __m128 frL = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(f->fre + kL)));
    const __m128 frR = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(f->fre + kR)));
    const __m128 z = _mm_setzero_ps();
    __m128 hL = _mm_loadu_ps(f->h + kL), hR = _mm_loadu_ps(f->h + kR);
    __m128 HL = _mm_loadu_ps(f->H + kL), HR = _mm_loadu_ps(f->H + kR);
    __m128 qnL, qtL, qnR, qtR;
    if (!yedge) {
        qnL = _mm_loadu_ps(f->qx + kL);
        qtL = _mm_loadu_ps(f->qy + kL);
        qnR = _mm_loadu_ps(f->qx + kR);
        qtR = _mm_loadu_ps(f->qy + kR);
    } else {
        qnL = _mm_loadu_ps(f->qy + kL);
        qtL = _mm_sub_ps(z, _mm_loadu_ps(f->qx + kL));
        qnR = _mm_loadu_ps(f->qy + kR);
        qtR = _mm_sub_ps(z, _mm_loadu_ps(f->qx + kR));
    }
    /* boundary lanes: the ghost side is rebuilt from the active side */
    const __m128 gR = _mm_andnot_ps(aR, aL), gL = _mm_andnot_ps(aL, aR);
    const __m128 none = _mm_andnot_ps(_mm_or_ps(aL, aR), _mm_castsi128_ps(_mm_set1_epi32(-1)));
    const __m128 wall = _mm_or_ps(_mm_andnot_ps(frR, gR), _mm_andnot_ps(frL, gL));
    hR = sel(gR, hL, hR);
    HR = sel(gR, HL, HR);
    qnR = sel(gR, sel(frR, qnL, _mm_sub_ps(z, qnL)), qnR);
    qtR = sel(gR, qtL, qtR);
    hL = sel(gL, hR, hL);
    HL = sel(gL, HR, HL);
    qnL = sel(gL, sel(frL, qnR, _mm_sub_ps(z, qnR)), qnL);
    qtL = sel(gL, qtR, qtL);

    f3 fi, fj;
    __m128 sp = roe4(hL, qnL, qtL, HL, hR, qnR, qtR, HR, _mm_set1_ps(f->g),
                     _mm_set1_ps(f->h_dry), &fi, &fj);
    __m128 fix, fiy, fjx, fjy;
    if (!yedge) {
        fix = fi.fn; fiy = fi.ft;
        fjx = fj.fn; fjy = fj.ft;
    } else {
        fix = _mm_sub_ps(z, fi.ft); fiy = fi.fn;
        fjx = _mm_sub_ps(z, fj.ft); fjy = fj.fn;
    }
    const __m128 G = _mm_mul_ps(gam, _mm_add_ps(qnL, fi.f0));              /* (M1) */
    _mm_storeu_ps(r->fi[0] + e, _mm_andnot_ps(none, fix));
    _mm_storeu_ps(r->fi[1] + e, _mm_andnot_ps(none, fiy));
    _mm_storeu_ps(r->fj[0] + e, _mm_andnot_ps(none, fjx));
    _mm_storeu_ps(r->fj[1] + e, _mm_andnot_ps(none, fjy));
    _mm_storeu_ps(r->s + e, _mm_andnot_ps(none, sp));
    _mm_storeu_ps(r->phi + e, _mm_andnot_ps(_mm_or_ps(none, wall), G));
}

static void north_edges4(const struct roe_fast *f, int j, edge_row4 *r)
{
    const size_t row = (size_t)j * f->st;
    const __m128 dx = _mm_set1_ps((float)f->dx);
    for (size_t i = 1; i <= (size_t)f->nx; i += 4)
        edges4(f, row + i, row + i + f->st, 1, dx, r, i);
}

/* Sweep rows j0..j1-1: edges (G into phiE of rows j0..j1-1 and phiN of rows j0..j1-1,
 * and of row 0 when j0 = 1: each edge row is written by the thread that owns it),
 * per-cell M, tau; returns max S_i over active cells; *nan: a NaN in the state or sums. */
static float sweep_rows(struct roe_fast *f, int j0, int j1, float *buf, int *nan)
{
    const size_t st = f->st;
    edge_row4 xe, ne, se;
    edge_row4 *rows[3] = {&xe, &ne, &se};
    for (int q = 0; q < 3; q++) {
        float *b = buf + (size_t)q * 5 * st;
        for (int m = 0; m < 2; m++) {
            rows[q]->fi[m] = b + (size_t)m * st;
            rows[q]->fj[m] = b + (size_t)(2 + m) * st;
        }
        rows[q]->s = b + 4 * st;
    }
    const __m128 dx = _mm_set1_ps((float)f->dx), dy = _mm_set1_ps((float)f->dy);
    const __m128 V = _mm_set1_ps((float)(f->dx * f->dy)), z = _mm_setzero_ps();
    const __m128 inf = _mm_set1_ps(INFINITY), tiny = _mm_set1_ps(1e-30f);
    __m128 smax = z, bad = z;

    /* the south edges of row j0: row j0 - 1's north edges, owned by the thread below
     * (this one keeps its copy in buf), or the ghost row 0 (this thread writes it) */
    se.phi = j0 == 1 ? f->phiN : buf + 15 * st;
    north_edges4(f, j0 - 1, &se);
    for (int j = j0; j < j1; j++) {
        const size_t row = (size_t)j * st;
        xe.phi = f->phiE + row;
        ne.phi = f->phiN + row;
        for (size_t e = 0; e <= (size_t)f->nx; e += 4)
            edges4(f, row + e, row + e + 1, 0, dy, &xe, e);
        north_edges4(f, j, &ne);
        for (size_t i = 1; i <= (size_t)f->nx; i += 4) {
            const size_t k = row + i;
            __m128 mom[2];
            for (int m = 0; m < 2; m++) {
                __m128 ew = _mm_add_ps(_mm_loadu_ps(xe.fi[m] + i), _mm_loadu_ps(xe.fj[m] + i - 1));
                __m128 ns = _mm_add_ps(_mm_loadu_ps(ne.fi[m] + i), _mm_loadu_ps(se.fj[m] + i));
                mom[m] = _mm_add_ps(_mm_mul_ps(dy, ew), _mm_mul_ps(dx, ns));
                _mm_storeu_ps(f->mom[m] + k, mom[m]);
            }
            __m128 sew = _mm_add_ps(_mm_loadu_ps(xe.s + i), _mm_loadu_ps(xe.s + i - 1));
            __m128 sns = _mm_add_ps(_mm_loadu_ps(ne.s + i), _mm_loadu_ps(se.s + i));
            __m128 S = _mm_add_ps(_mm_mul_ps(dy, sew), _mm_mul_ps(dx, sns));
            __m128 a = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(f->act + k)));
            smax = _mm_max_ps(smax, _mm_and_ps(a, S));
            /* (M2): P = +G east/north, -G west/south; O = sum max(P, 0); tau = h |V| / O */
            __m128 pE = _mm_loadu_ps(xe.phi + i), pW = _mm_sub_ps(z, _mm_loadu_ps(xe.phi + i - 1));
            __m128 pN = _mm_loadu_ps(ne.phi + i), pS = _mm_sub_ps(z, _mm_loadu_ps(se.phi + i));
            __m128 O = _mm_add_ps(_mm_add_ps(_mm_max_ps(pE, z), _mm_max_ps(pW, z)),
                                  _mm_add_ps(_mm_max_ps(pN, z), _mm_max_ps(pS, z)));
            __m128 h = _mm_loadu_ps(f->h + k);
            __m128 tau = _mm_div_ps(_mm_mul_ps(h, V), _mm_max_ps(O, tiny));
            tau = sel(_mm_and_ps(a, _mm_cmpgt_ps(O, z)), tau, inf);
            _mm_storeu_ps(f->tau + k, tau);
            __m128 u = _mm_or_ps(_mm_or_ps(_mm_cmpunord_ps(h, S), _mm_cmpunord_ps(O, mom[0])),
                                 _mm_or_ps(_mm_cmpunord_ps(mom[1], _mm_loadu_ps(f->qx + k)),
                                           _mm_cmpunord_ps(_mm_loadu_ps(f->qy + k), z)));
            bad = _mm_or_ps(bad, _mm_and_ps(a, u));
        }
        edge_row4 t = se;
        se = ne;
        ne = t;
    }
    *nan = _mm_movemask_ps(bad) != 0;
    float v[4];
    _mm_storeu_ps(v, smax);
    float m = v[0];
    for (int q = 1; q < 4; q++)
        if (v[q] > m) m = v[q];
    return m;
}

double roe_fast_rates(struct roe_fast *f)
{
    const int ny = f->ny;
    float smax = 0.0f;
    int bad = 0;

#pragma omp parallel num_threads(f->nthreads) reduction(max : smax) reduction(| : bad)
    {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        int j0 = 1 + (int)((long)ny * t / nt), j1 = 1 + (int)((long)ny * (t + 1) / nt);
        if (j1 > j0) {
            int nan = 0;
            float m = sweep_rows(f, j0, j1, f->tbuf + (size_t)t * f->tsize, &nan);
            if (m > smax) smax = m;
            bad |= nan;
        }
    }
    f->moving = smax > 0.0f;
    if (bad) return NAN;
    return smax > 0.0f ? 2.0 * f->cfl * f->dx * f->dy / (double)smax : INFINITY;
}

/* theta = min(1, tau / dt) of the 4 cells at p (M3) */
static inline __m128 theta4(const float *p, __m128 dt)
{
    return _mm_min_ps(_mm_set1_ps(1.0f), _mm_div_ps(_mm_loadu_ps(p), dt));
}

int roe_fast_apply(struct roe_fast *f, double dt)
{
    const int ny = f->ny;
    const size_t st = f->st;
    f->clip_vol = f->clip_rel = 0.0;
    if (isnan(dt) || dt < 0.0 || (f->moving && !(dt < INFINITY))) return -1;
    /* nothing moves, or dt = 0: only the dry clean-up (and theta is never 0/0) */
    const int move = f->moving && dt > 0.0;
    const double Vd = f->dx * f->dy;
    const __m128 k = _mm_set1_ps(move ? (float)(dt / Vd) : 0.0f);
    const __m128 dtv = _mm_set1_ps(move ? (float)dt : 1.0f);
    const __m128 hdry = _mm_set1_ps(f->h_dry), z = _mm_setzero_ps();
    const __m128 kap = _mm_set1_ps(f->kappa), sqrt2 = _mm_set1_ps(1.41421356f), one = _mm_set1_ps(1.0f);
    const __m128 rkap = _mm_set1_ps(f->kappa > 0.0f ? 1.0f / f->kappa : 0.0f);
    int bad = 0;
    double cvol = 0.0, crel = 0.0;

#pragma omp parallel for num_threads(f->nthreads) schedule(static) reduction(| : bad) \
    reduction(+ : cvol) reduction(max : crel)
    for (int j = 1; j <= ny; j++) {
        const size_t row = (size_t)j * st;
        __m128 nan = z;
        for (size_t i = 1; i <= (size_t)f->nx; i += 4) {
            const size_t c = row + i;
            __m128 a = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(f->act + c)));
            __m128 h0 = _mm_loadu_ps(f->h + c), qx0 = _mm_loadu_ps(f->qx + c),
                   qy0 = _mm_loadu_ps(f->qy + c);
            /* (M3), (M4): P out of the cell, the donor's theta on each edge */
            __m128 pE = _mm_loadu_ps(f->phiE + c), pW = _mm_sub_ps(z, _mm_loadu_ps(f->phiE + c - 1));
            __m128 pN = _mm_loadu_ps(f->phiN + c), pS = _mm_sub_ps(z, _mm_loadu_ps(f->phiN + c - st));
            __m128 th = theta4(f->tau + c, dtv);
            __m128 tE = sel(_mm_cmpgt_ps(pE, z), th, theta4(f->tau + c + 1, dtv));
            __m128 tW = sel(_mm_cmpgt_ps(pW, z), th, theta4(f->tau + c - 1, dtv));
            __m128 tN = sel(_mm_cmpgt_ps(pN, z), th, theta4(f->tau + c + st, dtv));
            __m128 tS = sel(_mm_cmpgt_ps(pS, z), th, theta4(f->tau + c - st, dtv));
            __m128 fE = _mm_mul_ps(tE, pE), fW = _mm_mul_ps(tW, pW);
            __m128 fN = _mm_mul_ps(tN, pN), fS = _mm_mul_ps(tS, pS);
            __m128 dh = _mm_add_ps(_mm_add_ps(fE, fW), _mm_add_ps(fN, fS));
            __m128 h = _mm_sub_ps(h0, _mm_mul_ps(k, dh));
            __m128 qx = _mm_sub_ps(qx0, _mm_mul_ps(k, _mm_loadu_ps(f->mom[0] + c)));
            __m128 qy = _mm_sub_ps(qy0, _mm_mul_ps(k, _mm_loadu_ps(f->mom[1] + c)));
            nan = _mm_or_ps(nan, _mm_and_ps(a, _mm_or_ps(_mm_cmpunord_ps(h, qx),
                                                         _mm_cmpunord_ps(qy, qy))));
            __m128 neg = _mm_and_ps(a, _mm_cmplt_ps(h, z));
            if (_mm_movemask_ps(neg)) {                 /* rounding clip: record it */
                __m128 scale = _mm_add_ps(h0, _mm_mul_ps(k, _mm_add_ps(
                    _mm_add_ps(vabs(fE), vabs(fW)), _mm_add_ps(vabs(fN), vabs(fS)))));
                float hv[4], sv[4];
                _mm_storeu_ps(hv, _mm_and_ps(neg, h));
                _mm_storeu_ps(sv, scale);
                for (int q = 0; q < 4; q++)
                    if (hv[q] < 0.0f) {
                        cvol -= (double)hv[q] * Vd;
                        double r = -(double)hv[q] / (double)sv[q];
                        if (r > crel) crel = r;
                    }
            }
            h = _mm_max_ps(h, z);                       /* h < 0 -> 0 (rounding) */
            __m128 dry = _mm_cmple_ps(h, hdry);         /* h <= h_dry -> q = 0 */
            qx = _mm_andnot_ps(dry, qx);
            qy = _mm_andnot_ps(dry, qy);
            /* (M5): h < kappa -> q sqrt(2) r^2 / sqrt(r^4 + 1), r = h / kappa (the same as
             * sqrt(2) h^2 / sqrt(h^4 + kappa^4), with no underflow for a tiny kappa) */
            __m128 r = _mm_mul_ps(h, rkap), r2 = _mm_mul_ps(r, r);
            __m128 fd = _mm_div_ps(_mm_mul_ps(sqrt2, r2), _mm_sqrt_ps(_mm_add_ps(_mm_mul_ps(r2, r2), one)));
            fd = sel(_mm_cmplt_ps(h, kap), fd, one);
            qx = _mm_mul_ps(qx, fd);
            qy = _mm_mul_ps(qy, fd);
            _mm_storeu_ps(f->h + c, sel(a, h, h0));
            _mm_storeu_ps(f->qx + c, sel(a, qx, qx0));
            _mm_storeu_ps(f->qy + c, sel(a, qy, qy0));
        }
        if (_mm_movemask_ps(nan)) bad |= 1;
    }
    f->clip_vol = cvol;
    f->clip_rel = crel;
    return bad ? -1 : 0;
}

void roe_fast_clip_stats(const struct roe_fast *f, double *volume, double *rel)
{
    *volume = f->clip_vol;
    *rel = f->clip_rel;
}
