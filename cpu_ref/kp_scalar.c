/* kp_scalar.c — the CPU solvers' public face (kp_cpu.h) and the scalar double-precision
 * solver of the Kurganov-Petrova scheme (Brodtkorb et al. 2011 (3)-(10)): the accuracy
 * reference.  The numbered items below are those of kp_cpu.h.
 *
 * kp_cpu_rates(stage), on the stage's state (Q^n for stage 0, Q* for stage 1):
 *  1. reconstruct: every active cell's point values at its four face midpoints
 *     (items 1-6): depth h_F, desingularized velocities u_F, v_F (the point momenta are
 *     h_F u_F and h_F v_F);
 *  2. faces: every face with an active side once, the x-faces of row j between ring
 *     cells (i, j) | (i+1, j), i = 0..nx, and the y-faces between (i, j) | (i, j+1),
 *     j = 0..ny (item 7; a ghost side takes the exterior point of item 1); the flux is
 *     stored with the face's low cell: fx[k] its east face, fy[k] its north face;
 *  3. per active cell: R (item 9) with the source (item 8), and r (item 10).
 * kp_cpu_apply(stage, dt): the update of (7), (10) and the clip.
 */
#include "kp_cpu.h"
#include "kp_internal.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PE = 0, PW = 1, PN = 2, PS = 3 };   /* the four points of a cell */

struct kp_cpu {
    enum kp_cpu_kind kind;
    char name[96];
    struct kp_fast *fast;          /* kind != KP_CPU_SCALAR */
    /* scalar solver */
    kp_problem p;
    size_t n;
    unsigned char *code;
    double *H, *Bc, *manning;
    double *bed[5];                /* per cell: B_E, B_W, B_N, B_S, B_ij */
    double *w[2], *hu[2], *hv[2];  /* Q^n and Q* (indices qn, 1 - qn) */
    int qn, stage_state;           /* which holds Q^n; which the next rates reads */
    double *ph[4], *pu[4], *pv[4]; /* point depths and velocities */
    double *fx[3], *fy[3], *ax, *ay; /* face fluxes and speeds, by low cell */
    double *R[3];
    double clip_vol;
    swe_clock clk;                 /* boundary data, rain, sources and their accounts */
};

/* ---- the problem ------------------------------------------------------------------- */

swgl_status kp_problem_check(const kp_problem *p)
{
    swgl_status st = swe_problem_check(p ? &p->sw : NULL);
    if (st != SWGL_OK) return st;
    if (!(p->theta >= 1.0 && p->theta <= 2.0)) return swgl_fail(SWGL_ERR_ARG, "kp: theta must be in [1, 2]");
    if (!p->Bc) return swgl_fail(SWGL_ERR_ARG, "kp: the corner bed values are required");
    if (p->early_exit < KP_EARLY_EXIT_AUTO || p->early_exit > KP_EARLY_EXIT_OFF)
        return swgl_fail(SWGL_ERR_ARG, "kp: unknown early-exit mode");
    size_t nc = (size_t)(p->sw.nx + 1) * (size_t)(p->sw.ny + 1);
    for (size_t k = 0; k < nc; k++)
        if (!isfinite(p->Bc[k])) return swgl_fail(SWGL_ERR_ARG, "kp: corner bed value %zu is not finite", k);
    if (p->manning) {
        size_t n = grid_size(p->sw.nx, p->sw.ny);
        for (size_t k = 0; k < n; k++)
            if (p->sw.code[k] == CELL_ACTIVE && !(p->manning[k] >= 0.0 && isfinite(p->manning[k])))
                return swgl_fail(SWGL_ERR_ARG, "kp: Manning's n must be finite and >= 0");
    }
    return SWGL_OK;
}

static inline int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

void kp_cell_bed(const kp_problem *p, int i, int j, double *BE, double *BW, double *BN, double *BS, double *Bij)
{
    int nx = p->sw.nx, ny = p->sw.ny, s = nx + 1;
    /* ring cell (i, j) spans the corners (i-1 .. i) x (j-1 .. j) */
    int ce = clampi(i, 0, nx), cw = clampi(i - 1, 0, nx), cn = clampi(j, 0, ny), cs = clampi(j - 1, 0, ny);
    double sw = p->Bc[(size_t)cs * s + cw], se = p->Bc[(size_t)cs * s + ce];
    double nw = p->Bc[(size_t)cn * s + cw], ne = p->Bc[(size_t)cn * s + ce];
    *BE = 0.5 * (se + ne);
    *BW = 0.5 * (sw + nw);
    *BN = 0.5 * (nw + ne);
    *BS = 0.5 * (sw + se);
    *Bij = 0.25 * ((sw + se) + (nw + ne));
}

double kp_desing(double h, double q, double kappa)
{
    if (!(h > 0.0)) return 0.0;
    double h4 = (h * h) * (h * h), k4 = (kappa * kappa) * (kappa * kappa);
    return sqrt(2.0) * h * q / sqrt(h4 + fmax(h4, k4));
}

/* ---- public face ------------------------------------------------------------------- */

void kp_cpu_destroy(kp_cpu *s)
{
    if (!s) return;
    kp_fast_destroy(s->fast);
    swe_clock_free(&s->clk);
    free(s->code);
    free(s->H);
    free(s->Bc);
    free(s->manning);
    for (int m = 0; m < 5; m++) free(s->bed[m]);
    for (int m = 0; m < 2; m++) free(s->w[m]), free(s->hu[m]), free(s->hv[m]);
    for (int m = 0; m < 4; m++) free(s->ph[m]), free(s->pu[m]), free(s->pv[m]);
    for (int m = 0; m < 3; m++) free(s->fx[m]), free(s->fy[m]), free(s->R[m]);
    free(s->ax);
    free(s->ay);
    free(s);
}

kp_cpu *kp_cpu_create(const kp_problem *p, enum kp_cpu_kind kind)
{
    if (kp_problem_check(p) != SWGL_OK) return NULL;
    if (kind != KP_CPU_SCALAR && kind != KP_CPU_FAST && kind != KP_CPU_FAST_DOUBLE) {
        swgl_fail(SWGL_ERR_ARG, "kp: unknown solver kind");
        return NULL;
    }
    kp_cpu *s = calloc(1, sizeof *s);
    if (!s) {
        swgl_fail(SWGL_ERR_NO_MEMORY, "kp: out of memory");
        return NULL;
    }
    s->kind = kind;
    s->p = *p;
    if (swe_clock_init(&s->clk, &p->sw) != SWGL_OK) goto fail_quiet;
    if (kind != KP_CPU_SCALAR) {
        s->fast = kp_fast_create(p, kind == KP_CPU_FAST_DOUBLE, &s->clk);
        if (!s->fast) goto fail_quiet;
        snprintf(s->name, sizeof s->name, "%s", kp_fast_name(s->fast));
        return s;
    }
    snprintf(s->name, sizeof s->name, "cpu-scalar (double)");
    int nx = p->sw.nx, ny = p->sw.ny;
    size_t n = s->n = grid_size(nx, ny), nc = (size_t)(nx + 1) * (size_t)(ny + 1);
    int ok = (s->code = malloc(n)) && (s->H = malloc(n * sizeof(double))) && (s->Bc = malloc(nc * sizeof(double)));
    if (ok && p->manning) ok = (s->manning = malloc(n * sizeof(double))) != NULL;
    for (int m = 0; m < 5; m++) ok = ok && (s->bed[m] = calloc(n, sizeof(double)));
    for (int m = 0; m < 2; m++)
        ok = ok && (s->w[m] = calloc(n, sizeof(double))) && (s->hu[m] = calloc(n, sizeof(double))) &&
             (s->hv[m] = calloc(n, sizeof(double)));
    for (int m = 0; m < 4; m++)
        ok = ok && (s->ph[m] = calloc(n, sizeof(double))) && (s->pu[m] = calloc(n, sizeof(double))) &&
             (s->pv[m] = calloc(n, sizeof(double)));
    for (int m = 0; m < 3; m++)
        ok = ok && (s->fx[m] = calloc(n, sizeof(double))) && (s->fy[m] = calloc(n, sizeof(double))) &&
             (s->R[m] = calloc(n, sizeof(double)));
    ok = ok && (s->ax = calloc(n, sizeof(double))) && (s->ay = calloc(n, sizeof(double)));
    if (!ok) goto fail;
    memcpy(s->code, p->sw.code, n);
    memcpy(s->H, p->sw.H, n * sizeof(double));
    memcpy(s->Bc, p->Bc, nc * sizeof(double));
    if (p->manning) memcpy(s->manning, p->manning, n * sizeof(double));
    s->p.sw.code = s->code;
    s->p.sw.H = s->H;
    s->p.Bc = s->Bc;
    s->p.manning = s->manning;
    for (int j = 0; j < grid_rows(ny); j++)
        for (int i = 0; i < grid_stride(nx); i++) {
            size_t k = grid_at(nx, i, j);
            kp_cell_bed(&s->p, i, j, &s->bed[0][k], &s->bed[1][k], &s->bed[2][k], &s->bed[3][k], &s->bed[4][k]);
        }
    return s;
fail:
    swgl_fail(SWGL_ERR_NO_MEMORY, "kp: out of memory for a %dx%d grid", p->sw.nx, p->sw.ny);
fail_quiet:
    kp_cpu_destroy(s);
    return NULL;
}

void kp_cpu_set_state(kp_cpu *s, const double *h, const double *qx, const double *qy)
{
    /* the float solver keeps w in float: its rain comes in pulses (swe.h swe_clock_rain) */
    if (s->kind == KP_CPU_FAST) swe_clock_rain_quantum(&s->clk, &s->p.sw, FLT_EPSILON, h);
    if (s->fast) {
        kp_fast_set_state(s->fast, h, qx, qy);
        return;
    }
    double eps = s->p.sw.h_dry, *Bij = s->bed[4];
    s->qn = s->stage_state = 0;
    for (size_t k = 0; k < s->n; k++) {
        /* a negative depth reads as 0; a NaN is kept (the next rates reports the
         * blow-up); dry is decided on the stored depth, as the reconstruction does */
        int a = s->code[k] == CELL_ACTIVE;
        s->w[0][k] = Bij[k] + (!a ? 0.0 : h[k] > 0.0 || isnan(h[k]) ? h[k] : 0.0);
        int wet = a && !(s->w[0][k] - Bij[k] <= eps);
        s->hu[0][k] = wet ? qx[k] : 0.0;
        s->hv[0][k] = wet ? qy[k] : 0.0;
    }
}

void kp_cpu_get_surface(const kp_cpu *s, double *w)
{
    size_t n = grid_size(s->p.sw.nx, s->p.sw.ny);
    if (s->fast) {   /* the float solver: B_ij + its depth (set_surface leaves it as set_state put it) */
        double *q = malloc(2 * n * sizeof(double));
        if (q) kp_fast_get_state(s->fast, w, q, q + n);
        for (size_t k = 0; k < n; k++) w[k] = q && s->p.sw.code[k] == CELL_ACTIVE ? w[k] - s->p.sw.H[k] : 0.0;
        free(q);
        return;
    }
    for (size_t k = 0; k < n; k++) w[k] = s->code[k] == CELL_ACTIVE ? s->w[s->qn][k] : 0.0;
}

void kp_cpu_set_surface(kp_cpu *s, const double *w)
{
    if (s->fast) return;   /* the float solver took the depth from set_state */
    double eps = s->p.sw.h_dry, *Bij = s->bed[4];
    for (size_t k = 0; k < s->n; k++) {
        if (s->code[k] != CELL_ACTIVE || !(w[k] >= Bij[k])) continue;
        s->w[s->qn][k] = w[k];
        if (w[k] - Bij[k] <= eps) s->hu[s->qn][k] = s->hv[s->qn][k] = 0.0;   /* dry as set_state decides */
    }
}

void kp_cpu_get_state(const kp_cpu *s, double *h, double *qx, double *qy)
{
    if (s->fast) {
        kp_fast_get_state(s->fast, h, qx, qy);
        return;
    }
    const double *w = s->w[s->qn], *hu = s->hu[s->qn], *hv = s->hv[s->qn], *Bij = s->bed[4];
    for (size_t k = 0; k < s->n; k++) {
        int a = s->code[k] == CELL_ACTIVE;
        h[k] = a ? w[k] - Bij[k] : 0.0;
        qx[k] = a ? hu[k] : 0.0;
        qy[k] = a ? hv[k] : 0.0;
    }
}

void kp_cpu_halo(kp_cpu *s, int set, int x, int y, int w, int h, double *buf)
{
    if (s->fast) {
        kp_fast_halo(s->fast, set, x, y, w, h, buf);
        return;
    }
    int nx = s->p.sw.nx;
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++) {
            size_t k = grid_at(nx, x + i, y + j);
            double *b = buf + 3 * ((size_t)j * w + i), *v[3] = {s->w[s->qn], s->hu[s->qn], s->hv[s->qn]};
            for (int c = 0; c < 3; c++) {
                if (set) v[c][k] = b[c];
                else b[c] = v[c][k];
            }
        }
}

int kp_cpu_stages(const kp_cpu *s) { return s->p.rk2 ? 2 : 1; }
int kp_cpu_threads(const kp_cpu *s) { return s->fast ? kp_fast_threads(s->fast) : 1; }
int kp_cpu_is_fast(const kp_cpu *s) { return s->fast != NULL; }
const char *kp_cpu_precision(const kp_cpu *s) { return s->kind == KP_CPU_FAST ? "single" : "double"; }
const char *kp_cpu_name(const kp_cpu *s) { return s->name; }

void kp_cpu_clip_stats(const kp_cpu *s, double *volume)
{
    if (s->fast) {
        kp_fast_clip_stats(s->fast, volume);
        return;
    }
    if (volume) *volume = s->clip_vol;
}

void kp_cpu_tiles(const kp_cpu *s, long *computed, long *total)
{
    if (s->fast) {
        kp_fast_tiles(s->fast, computed, total);
        return;
    }
    if (computed) *computed = 0;   /* the scalar solver computes every cell */
    if (total) *total = 0;
}

/* ---- the scheme ---------------------------------------------------------------------- */

/* (4): MM(a, b, c) */
static inline double minmod3(double a, double b, double c)
{
    if (a > 0.0 && b > 0.0 && c > 0.0) return fmin(a, fmin(b, c));
    if (a < 0.0 && b < 0.0 && c < 0.0) return fmax(a, fmax(b, c));
    return 0.0;
}

/* item 2: the limited difference of a cell value v between its neighbours' lo and hi */
static inline double slope(double lo, double v, double hi, double theta)
{
    return minmod3(theta * (hi - v), (hi - lo) * 0.5, theta * (v - lo));
}

/* item 1: the value neighbour m shows cell k for the slopes, along axis (0: x, 1: y);
 * BF the bed of the face between them.  A wall (or off) mirrors k and copies its surface
 * (a lake at rest stays at rest against it), as does a discharge ghost (whose face
 * carries an imposed flux); a free or depth ghost copies k's momenta and extends its
 * depth, the surface following the bed across the face (w_k + 2 (BF - B_ij)): a zero
 * gradient of the depth, so that an outlet on a slope passes uniform flow; a level ghost
 * shows its level where that is above the face, else extends the depth likewise. */
static void neighbour(const kp_cpu *s, const double *w, const double *hu, const double *hv, size_t k, size_t m,
                      int axis, double BF, double q[3])
{
    if (s->code[m] == CELL_ACTIVE) {
        q[0] = w[m], q[1] = hu[m], q[2] = hv[m];
        return;
    }
    unsigned char c = s->code[m];
    q[0] = w[k], q[1] = hu[k], q[2] = hv[k];
    q[1 + axis] *= GRID_BC_SIGN(c);   /* wall (and off): mirror; others: copy */
    double ext = w[k] + 2.0 * (BF - s->bed[4][k]);
    if (c == CELL_FREE || c == CELL_DEPTH) q[0] = ext;
    else if (c == CELL_LEVEL) {
        size_t r = 0;
        int nx = s->p.sw.nx, W = grid_stride(nx), i = (int)(m % (size_t)W), j = (int)(m / (size_t)W);
        int seg = swe_ring_of(s->clk.f, nx, s->p.sw.ny, s->clk.M, i, j, &r);
        double v = seg >= 0 ? s->clk.seg_val[seg] : -INFINITY;
        q[0] = v > BF ? v : ext;
    }
}

/* items 4-6 along one axis: from the cell's (w, q1, q2), the slopes (dw, d1, d2), the
 * face beds of its high (E/N) and low (W/S) faces: the points' depth and velocities */
static void points(double w, double q1, double q2, double dw, double d1, double d2, double Bhi, double Blo,
                   double eps, double kappa, double out_hi[3], double out_lo[3])
{
    double whi = w + 0.5 * dw, wlo = w - 0.5 * dw;
    if (whi < Bhi) {
        whi = Bhi;
        wlo = 2.0 * w - Bhi;
    } else if (wlo < Blo) {
        wlo = Blo;
        whi = 2.0 * w - Blo;
    }
    double h[2] = {fmax(whi - Bhi, 0.0), fmax(wlo - Blo, 0.0)};
    double a[2] = {q1 + 0.5 * d1, q1 - 0.5 * d1}, b[2] = {q2 + 0.5 * d2, q2 - 0.5 * d2};
    double *o[2] = {out_hi, out_lo};
    for (int t = 0; t < 2; t++) {
        if (h[t] <= eps) {
            o[t][0] = o[t][1] = o[t][2] = 0.0;
            continue;
        }
        o[t][0] = h[t];
        o[t][1] = kp_desing(h[t], a[t], kappa);
        o[t][2] = kp_desing(h[t], b[t], kappa);
    }
}

double kp_cpu_rates(kp_cpu *s, int stage)
{
    if (s->fast) {
        double b = kp_fast_rates(s->fast, stage);
        return isnan(b) ? b : fmin(b, s->clk.dt_cap);   /* swe.h dt_cap; a NaN stays */
    }
    swe_clock_stage(&s->clk, stage);   /* the boundary values, rain and sources of the stage */
    int nx = s->p.sw.nx, ny = s->p.sw.ny, W = grid_stride(nx);
    int idx = stage == 0 ? s->qn : 1 - s->qn;
    s->stage_state = idx;
    const double *w = s->w[idx], *hu = s->hu[idx], *hv = s->hv[idx];
    double eps = s->p.sw.h_dry, kappa = s->p.sw.kappa, g = s->p.sw.g, th = s->p.theta;
    double dx = s->p.sw.dx, dy = s->p.sw.dy;
    const double *BE = s->bed[0], *BW = s->bed[1], *BN = s->bed[2], *BS = s->bed[3], *Bij = s->bed[4];

    /* 1. points */
    for (int j = 1; j <= ny; j++)
        for (int i = 1; i <= nx; i++) {
            size_t k = grid_at(nx, i, j);
            if (s->code[k] != CELL_ACTIVE) continue;
            double hi[3], lo[3];
            if (!(w[k] - Bij[k] > eps)) {   /* item 5: a dry cell gives no water */
                for (int f = 0; f < 4; f++) s->ph[f][k] = s->pu[f][k] = s->pv[f][k] = 0.0;
                continue;
            }
            double e[3], o[3];
            neighbour(s, w, hu, hv, k, k - 1, 0, BW[k], o);
            neighbour(s, w, hu, hv, k, k + 1, 0, BE[k], e);
            double dw = slope(o[0], w[k], e[0], th), d1 = slope(o[1], hu[k], e[1], th),
                   d2 = slope(o[2], hv[k], e[2], th);
            points(w[k], hu[k], hv[k], dw, d1, d2, BE[k], BW[k], eps, kappa, hi, lo);
            s->ph[PE][k] = hi[0], s->pu[PE][k] = hi[1], s->pv[PE][k] = hi[2];
            s->ph[PW][k] = lo[0], s->pu[PW][k] = lo[1], s->pv[PW][k] = lo[2];
            neighbour(s, w, hu, hv, k, k - W, 1, BS[k], o);
            neighbour(s, w, hu, hv, k, k + W, 1, BN[k], e);
            dw = slope(o[0], w[k], e[0], th), d1 = slope(o[1], hu[k], e[1], th), d2 = slope(o[2], hv[k], e[2], th);
            points(w[k], hu[k], hv[k], dw, d1, d2, BN[k], BS[k], eps, kappa, hi, lo);
            s->ph[PN][k] = hi[0], s->pu[PN][k] = hi[1], s->pv[PN][k] = hi[2];
            s->ph[PS][k] = lo[0], s->pu[PS][k] = lo[1], s->pv[PS][k] = lo[2];
        }

    /* 2. faces, stored by their low (west / south) cell; a boundary face's volume rate
     * into the domain goes to the ring's account (swe_clock) */
    double *ring = s->clk.ring_rate;
    for (int j = 0; j <= ny + 1; j++)
        for (int i = 0; i <= nx + 1; i++) {
            size_t k = grid_at(nx, i, j), r = 0;
            int ak = s->code[k] == CELL_ACTIVE;
            double m[3], p[3], F[3];
            if (i <= nx && j >= 1 && j <= ny) {   /* east face: k | k+1, normal x: (h, u, v) */
                int ae = s->code[k + 1] == CELL_ACTIVE;
                double a = 0.0;
                F[0] = F[1] = F[2] = 0.0;
                if (ak && ae) {
                    m[0] = s->ph[PE][k], m[1] = s->pu[PE][k], m[2] = s->pv[PE][k];
                    p[0] = s->ph[PW][k + 1], p[1] = s->pu[PW][k + 1], p[2] = s->pv[PW][k + 1];
                    a = kp_cu_flux(m, p, g, F);
                } else if (ak || ae) {
                    size_t gk = ak ? k + 1 : k;
                    int gi = ak ? i + 1 : i, seg = swe_ring_of(s->clk.f, nx, ny, s->clk.M, gi, j, &r);
                    if (ak) m[0] = s->ph[PE][k], m[1] = s->pu[PE][k], m[2] = s->pv[PE][k];
                    else m[0] = s->ph[PW][k + 1], m[1] = s->pu[PW][k + 1], m[2] = s->pv[PW][k + 1];
                    a = kp_boundary_face(s->code[gk], seg >= 0 ? s->clk.seg_val[seg] : 0.0,
                                      seg >= 0 ? s->clk.f->seg[seg].vmax : 0.0, ak ? BE[k] : BW[k + 1], m, !ak, g, eps,
                                      F);
                    if (seg >= 0) ring[r] = (ak ? -F[0] : F[0]) * dy;
                }
                s->fx[0][k] = F[0], s->fx[1][k] = F[1], s->fx[2][k] = F[2], s->ax[k] = a;
            }
            if (j <= ny && i >= 1 && i <= nx) {   /* north face: k | k+W, normal y: (h, v, u) */
                int an = s->code[k + W] == CELL_ACTIVE;
                double a = 0.0;
                F[0] = F[1] = F[2] = 0.0;
                if (ak && an) {
                    m[0] = s->ph[PN][k], m[1] = s->pv[PN][k], m[2] = s->pu[PN][k];
                    p[0] = s->ph[PS][k + W], p[1] = s->pv[PS][k + W], p[2] = s->pu[PS][k + W];
                    a = kp_cu_flux(m, p, g, F);
                } else if (ak || an) {
                    size_t gk = ak ? k + W : k;
                    int gj = ak ? j + 1 : j, seg = swe_ring_of(s->clk.f, nx, ny, s->clk.M, i, gj, &r);
                    if (ak) m[0] = s->ph[PN][k], m[1] = s->pv[PN][k], m[2] = s->pu[PN][k];
                    else m[0] = s->ph[PS][k + W], m[1] = s->pv[PS][k + W], m[2] = s->pu[PS][k + W];
                    a = kp_boundary_face(s->code[gk], seg >= 0 ? s->clk.seg_val[seg] : 0.0,
                                      seg >= 0 ? s->clk.f->seg[seg].vmax : 0.0, ak ? BN[k] : BS[k + W], m, !ak, g, eps,
                                      F);
                    if (seg >= 0) ring[r] = (ak ? -F[0] : F[0]) * dx;
                }
                /* stored as (mass, hu, hv) */
                s->fy[0][k] = F[0], s->fy[1][k] = F[2], s->fy[2][k] = F[1], s->ay[k] = a;
            }
        }

    /* 3. R and r per active cell */
    double rmin = INFINITY;
    int nan = 0;
    for (int j = 1; j <= ny; j++)
        for (int i = 1; i <= nx; i++) {
            size_t k = grid_at(nx, i, j);
            if (s->code[k] != CELL_ACTIVE) continue;
            double Sx = -g * (BE[k] - BW[k]) / dx * ((s->ph[PE][k] + s->ph[PW][k]) * 0.5);
            double Sy = -g * (BN[k] - BS[k]) / dy * ((s->ph[PN][k] + s->ph[PS][k]) * 0.5);
            double S[3] = {0.0, Sx, Sy};
            for (int c = 0; c < 3; c++)
                s->R[c][k] = -(s->fx[c][k] - s->fx[c][k - 1]) / dx - (s->fy[c][k] - s->fy[c][k - W]) / dy + S[c];
            double ax = fmax(s->ax[k], s->ax[k - 1]), ay = fmax(s->ay[k], s->ay[k - W]);
            double r = fmin(ax > 0.0 ? dx / ax : INFINITY, ay > 0.0 ? dy / ay : INFINITY);
            if (swe_owns(&s->p.sw, i, j)) rmin = fmin(rmin, r);
            if (!isfinite(w[k]) || !isfinite(hu[k]) || !isfinite(hv[k]) || isnan(s->R[0][k]) || isnan(s->R[1][k]) ||
                isnan(s->R[2][k]) || isnan(r))
                nan = 1;   /* a state that is not a number, or infinite: a blow-up */
        }
    if (nan) return NAN;
    return fmin(isinf(rmin) ? INFINITY : s->p.sw.cfl * rmin, s->clk.dt_cap);   /* swe.h dt_cap */
}

/* H~f of (9): g n^2 |u| / h^(4/3) with the desingularized cell velocity (item 6) */
static double friction(const kp_cpu *s, size_t k, double h, double hu, double hv)
{
    double n = s->manning ? s->manning[k] : 0.0;
    if (!(n > 0.0) || !(h > s->p.sw.h_dry)) return 0.0;
    double u = kp_desing(h, hu, s->p.sw.kappa), v = kp_desing(h, hv, s->p.sw.kappa);
    return s->p.sw.g * n * n * sqrt(u * u + v * v) / (h * cbrt(h));
}

/* The thin-cell speed cap of cell k (kp_cpu.h, after (10)): the largest |u_n| + 2 sqrt(g h_n)
 * over its active wet neighbours deeper than it in state src; +inf without one. */
static double kp_cap_speed(const kp_cpu *s, int src, size_t k)
{
    const double *B = s->bed[4], kappa = s->p.sw.kappa, hc = s->w[src][k] - B[k];
    const long W = (long)grid_stride(s->p.sw.nx), nb[4] = {-1, 1, -W, W};
    double S = -1.0;
    for (int m = 0; m < 4; m++) {
        const size_t n = (size_t)((long)k + nb[m]);
        const double hn = s->w[src][n] - B[n];
        if (s->code[n] != CELL_ACTIVE || !(hn > hc) || !(hn > s->p.sw.h_dry)) continue;   /* (a dry one feeds nothing) */
        const double u = kp_desing(hn, s->hu[src][n], kappa), v = kp_desing(hn, s->hv[src][n], kappa);
        S = fmax(S, sqrt(u * u + v * v) + 2.0 * sqrt(s->p.sw.g * hn));
    }
    return S < 0.0 ? INFINITY : S;
}

int kp_cpu_apply(kp_cpu *s, int stage, double dt)
{
    if (s->fast) return kp_fast_apply(s->fast, stage, dt);
    if (!(dt >= 0.0) || isinf(dt)) return -1;
    int nx = s->p.sw.nx, ny = s->p.sw.ny;
    double eps = s->p.sw.h_dry, kappa = s->p.sw.kappa, clip = 0.0, area = s->p.sw.dx * s->p.sw.dy;
    const double *Bij = s->bed[4], cap = s->p.cap_depth;
    int qn = s->qn, qs = 1 - qn, nan = 0;
    const double *R0 = s->R[0], *R1 = s->R[1], *R2 = s->R[2];
    /* sources enter as part of R_w: dt of it in stage 0, dt/2 in RK2's stage 1; rain in
     * the last stage, all that fell during the step (swe_clock_rain) */
    const swe_forcing *fo = s->clk.f;
    const double *rain = fo ? fo->rain : NULL, cw = stage == 1 ? 0.5 : 1.0;
    if (stage == 0) swe_clock_step(&s->clk, dt);   /* the series' means over the step (swe.h) */
    const double rain_dt = swe_clock_rain(&s->clk, stage, kp_cpu_stages(s), dt);   /* swe.h: rain as a step */
    for (int j = 1; j <= ny; j++)
        for (int i = 1; i <= nx; i++) {
            size_t k = grid_at(nx, i, j);
            if (s->code[k] != CELL_ACTIVE) continue;
            double w, hu, hv;
            if (stage == 0) {   /* Q* = (Q^n + dt R(Q^n)) / (1 + dt H~f(Q^n)) */
                double f = friction(s, k, s->w[qn][k] - Bij[k], s->hu[qn][k], s->hv[qn][k]);
                w = s->w[qn][k] + dt * R0[k];
                hu = (s->hu[qn][k] + dt * R1[k]) / (1.0 + dt * f);
                hv = (s->hv[qn][k] + dt * R2[k]) / (1.0 + dt * f);
            } else {            /* Q^{n+1} = (Q^n / 2 + (Q* + dt R(Q*)) / 2) / (1 + dt/2 H~f(Q*)) */
                double f = friction(s, k, s->w[qs][k] - Bij[k], s->hu[qs][k], s->hv[qs][k]);
                w = 0.5 * (s->w[qn][k] + (s->w[qs][k] + dt * R0[k]));
                hu = 0.5 * (s->hu[qn][k] + (s->hu[qs][k] + dt * R1[k])) / (1.0 + 0.5 * dt * f);
                hv = 0.5 * (s->hv[qn][k] + (s->hv[qs][k] + dt * R2[k])) / (1.0 + 0.5 * dt * f);
            }
            if (rain) w += rain_dt * rain[k];
            double h = w - Bij[k];
            if (h < 0.0) {   /* rounding only for cfl <= 1/4 */
                if (swe_owns(&s->p.sw, i, j)) clip += -h * area;   /* the owned cells' (swe_problem own) */
                w = Bij[k];
                h = 0.0;
            }
            if (isnan(w) || isnan(hu) || isnan(hv)) nan = 1;
            int dst = stage == 0 ? qs : qn;
            s->w[dst][k] = w, s->hu[dst][k] = hu, s->hv[dst][k] = hv;
        }
    /* point sources: Q dt / |V| on the surface, taking no more than the cell holds */
    const double wsrc = s->p.rk2 && stage == 0 ? 0.5 : 1.0;
    for (int q = 0; fo && q < fo->n_src; q++) {   /* a cell's sources together (swe.h) */
        double add[SWE_SOURCES_PER_CELL], total;
        int mem[SWE_SOURCES_PER_CELL], n = swe_sources_at_cell(fo, q, s->clk.src_q, cw * dt / area, mem, add, &total);
        if (n == 0) continue;
        size_t k = fo->src_cell[q];
        double *wk = &s->w[stage == 0 ? qs : qn][k], before = *wk;
        *wk = swe_source_take(before, Bij[k], total);
        swe_sources_account(&s->clk.acc, mem, add, n, (*wk - before) * area, area, wsrc);
    }
    /* the discharge faces' mass over the step made dt Q-bar (swe.h "over a step"), with
     * the sources' weights */
    const int nf = swe_clock_inflow(&s->clk, cw * dt);
    for (int m = 0; m < nf; m++) {
        const size_t k = s->clk.fix_cell[m];
        double *wk = &s->w[stage == 0 ? qs : qn][k], v = *wk + s->clk.fix_add[m];
        if (v < Bij[k]) {
            if (swe_owns(&s->p.sw, (int)(k % (size_t)grid_stride(nx)), (int)(k / (size_t)grid_stride(nx))))
                clip += (Bij[k] - v) * area;
            v = Bij[k];
        }
        *wk = v;
    }
    swe_clock_inflow_rates(&s->clk);
    /* the dry and thin-film rules on the updated cells */
    for (int j = 1; j <= ny; j++)
        for (int i = 1; i <= nx; i++) {
            size_t k = grid_at(nx, i, j);
            if (s->code[k] != CELL_ACTIVE) continue;
            int dst = stage == 0 ? qs : qn;
            double h = s->w[dst][k] - Bij[k], *hu = &s->hu[dst][k], *hv = &s->hv[dst][k];
            if (h <= eps) *hu = *hv = 0.0;
            else if (h < kappa) {   /* the cell momentum from the velocity (6) */
                *hu = h * kp_desing(h, *hu, kappa);
                *hv = h * kp_desing(h, *hv, kappa);
            }
            const int src = stage == 0 ? qn : qs;   /* the stage's state */
            if (h > eps && h < cap && s->w[src][k] - Bij[k] < cap) {   /* a thin cell's speed (kp_cpu.h) */
                const double S = kp_cap_speed(s, src, k), sp = sqrt(*hu * *hu + *hv * *hv) / h;
                if (sp > S) *hu *= S / sp, *hv *= S / sp;
            }
        }
    s->clip_vol = clip;
    s->clk.acc.clip += wsrc * clip;
    swe_clock_applied(&s->clk, stage, kp_cpu_stages(s), dt);
    if (stage == 0 && !s->p.rk2) s->qn = qs;   /* Euler: Q* is Q^{n+1} */
    s->stage_state = s->qn;
    return nan ? -1 : 0;
}

void kp_cpu_set_time(kp_cpu *s, double t, double stop) { swe_clock_set_time(&s->clk, t, stop); }

void kp_cpu_account(const kp_cpu *s, swe_account *out) { swe_account_copy(&s->clk.acc, out); }
