/* sediment.c — the parts of the CPU sediment solvers that both kinds share: the
 * stability limit, the ghost ring (boundary fluxes), the time loop.
 *
 * Model, Su et al. (2013) (1)-(2):
 *   dh/dt       = (1/C_s) div(alpha s grad h) + (1/C_m) div(beta (1 - s) grad h)      (1)
 *   A ds/dt + s dh/dt = (1/C_s) div(alpha s grad h)                                   (2)
 * Scheme: per step an h pass, (3), then an s pass, (4) or its flux form; the per-point
 * rules are the inline functions of sediment.h.  Each point (i, j) is the centre of a
 * dx*dy cell; the boundary of the domain runs half-way between the first interior point
 * and its ghost, so the basin volume is  V = sum h dx dy  over interior points.
 *
 * Stability (docs/sediment.md):
 *   diffusion, (3):  dt <= dt_diff = 1 / (2 D_max (1/dx^2 + 1/dy^2)),
 *                    D_max = max over points of max(alpha / C_s, beta / C_m)
 *                    (K = alpha s / C_s + beta (1 - s) / C_m is a convex combination);
 *   s pass (upwind advection with velocity -grad h):  s+ stays in [0, 1] when at every
 *                    point  dt D_P sum_{outflow faces} |h_P - h_N| / d^2 <= A, implied by
 *                    dt <= dt_diff * A / dh_max  (dh_max: largest neighbour difference).
 *   sed_dt_limit estimates dh_max from the river mouth (the jump a ghost must carry);
 *   sed_dt_limit_state adds the differences of a given h.
 */
#include "cpu_info.h"
#include "sediment.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sed_cpu {
    sed_problem p;
    enum sed_cpu_kind kind;
    double *alpha, *beta;       /* copies with the ghost ring = boundary point */
    double *h[2], *s[2];        /* two time levels */
    int cur;
    int threads;                /* fixed (sed_cpu_set_threads), or 0: the cores the others leave */
    cpu_load load;              /* the fast passes' threads (cpu_info.h) */
};

void sed_consts_init(sed_consts *c, const sed_problem *p)
{
    c->dt = p->dt;
    c->threads = 1;
    c->rdx2 = 1.0 / (p->dx * p->dx);
    c->rdy2 = 1.0 / (p->dy * p->dy);
    c->ics = 1.0 / p->cs;
    c->icm = 1.0 / p->cm;
    c->layer = p->layer;
    c->px = 0.5 * c->ics * c->rdx2;
    c->py = 0.5 * c->ics * c->rdy2;
}

static double dt_diffusion(const sed_problem *p)
{
    int W = grid_stride(p->nx);
    double dmax = 0.0;
    for (int j = 1; j <= p->ny; j++)
        for (int i = 1; i <= p->nx; i++) {
            double a = p->alpha[j * W + i] / p->cs, b = p->beta[j * W + i] / p->cm;
            if (a > dmax) dmax = a;
            if (b > dmax) dmax = b;
        }
    if (!(dmax > 0.0)) return INFINITY;
    return 1.0 / (2.0 * dmax * (1.0 / (p->dx * p->dx) + 1.0 / (p->dy * p->dy)));
}

/* Point index of the m-th point (1-based) along a side, and of its ghost. */
static void side_point(const sed_problem *p, int side, int m, int *kP, int *kG)
{
    int W = grid_stride(p->nx);
    switch (side) {
    case SED_WEST:  *kP = m * W + 1;         *kG = m * W;               break;
    case SED_EAST:  *kP = m * W + p->nx;     *kG = m * W + p->nx + 1;   break;
    case SED_SOUTH: *kP = W + m;             *kG = m;                   break;
    default:        *kP = p->ny * W + m;     *kG = (p->ny + 1) * W + m; break;
    }
}

static int side_len(const sed_problem *p, int side)
{
    return side == SED_WEST || side == SED_EAST ? p->ny : p->nx;
}

static double side_dn(const sed_problem *p, int side)
{
    return side == SED_WEST || side == SED_EAST ? p->dx : p->dy;
}

/* Largest height jump the river mouth needs (an upper bound of both forms' ghost jump). */
static double inflow_jump(const sed_problem *p)
{
    if (p->inflow_side == SED_NONE || !(p->inflow_sand + p->inflow_mud > 0.0)) return 0.0;
    double dn = side_dn(p, p->inflow_side), jmax = 0.0;
    for (int m = p->inflow_first; m <= p->inflow_last; m++) {
        int kP, kG;
        side_point(p, p->inflow_side, m, &kP, &kG);
        double kmin = INFINITY;
        if (p->inflow_sand > 0.0) kmin = fmin(kmin, p->alpha[kP] / p->cs);
        if (p->inflow_mud > 0.0) kmin = fmin(kmin, p->beta[kP] / p->cm);
        double jump = dn * (p->inflow_sand + p->inflow_mud) / kmin;
        if (jump > jmax) jmax = jump;
    }
    return jmax;
}

static double combine(double dtd, double layer, double dh)
{
    if (dh > layer) return dtd * layer / dh;
    return dtd;
}

double sed_dt_limit(const sed_problem *p)
{
    return combine(dt_diffusion(p), p->layer, inflow_jump(p));
}

double sed_dt_limit_state(const sed_problem *p, const double *h)
{
    int W = grid_stride(p->nx);
    double dh = inflow_jump(p);
    for (int j = 1; j <= p->ny; j++)
        for (int i = 1; i <= p->nx; i++) {
            int k = j * W + i;
            if (i < p->nx) dh = fmax(dh, fabs(h[k + 1] - h[k]));
            if (j < p->ny) dh = fmax(dh, fabs(h[k + W] - h[k]));
        }
    return combine(dt_diffusion(p), p->layer, dh);
}

/* Set the ghost ring of h (and, if sg is not NULL, of sg) by the ghost rule applied to
 * the boundary points of h and s.  Corners are read by no stencil; they get the diagonal
 * point's values so that output grids hold no garbage. */
void sed_fill_ghosts(const sed_problem *p, const sed_consts *c, const double *alpha,
                     const double *beta, double *h, const double *s, double *sg)
{
    int W = grid_stride(p->nx), H = grid_rows(p->ny);
    for (int side = 0; side < 4; side++) {
        int n = side_len(p, side);
        double dn = side_dn(p, side);
        for (int m = 1; m <= n; m++) {
            int kP, kG;
            side_point(p, side, m, &kP, &kG);
            int in = side == (int)p->inflow_side && m >= p->inflow_first && m <= p->inflow_last;
            double g[2];
            sed_ghost(p->form, c, in ? p->inflow_sand : 0.0, in ? p->inflow_mud : 0.0, dn,
                      h[kP], s[kP], alpha[kP], beta[kP], g);
            h[kG] = g[0];
            if (sg) sg[kG] = g[1];
        }
    }
    int ck[4][2] = {{0, W + 1}, {W - 1, 2 * W - 2}, {(H - 1) * W, (H - 2) * W + 1},
                    {H * W - 1, (H - 1) * W - 2}};
    for (int q = 0; q < 4; q++) {
        h[ck[q][0]] = h[ck[q][1]];
        if (sg) sg[ck[q][0]] = s[ck[q][1]];
    }
}

void sed_cpu_destroy(sed_cpu *s)
{
    if (!s) return;
    free(s->alpha);
    free(s->beta);
    for (int q = 0; q < 2; q++) {
        free(s->h[q]);
        free(s->s[q]);
    }
    free(s);
}

swgl_status sed_problem_check(const sed_problem *p)
{
    const char *why = NULL;
    char buf[200];
    if (!p || p->nx < 2 || p->ny < 2) { why = "grid must have nx, ny >= 2"; goto fail; }
    if (!(p->dx > 0) || !(p->dy > 0)) { why = "dx and dy must be > 0"; goto fail; }
    if (!(p->cs > 0) || !(p->cm > 0) || !(p->layer > 0)) { why = "cs, cm and layer must be > 0"; goto fail; }
    if (!p->alpha || !p->beta) { why = "alpha and beta are required"; goto fail; }
    if (p->form != SED_FORM_PAPER && p->form != SED_FORM_CONSERVATIVE) { why = "unknown form"; goto fail; }
    for (int j = 0; j < p->ny; j++)
        for (int i = 0; i < p->nx; i++) {
            size_t k = grid_in(p->nx, i, j);
            if (!(p->alpha[k] >= 0) || !(p->beta[k] >= 0)) {
                snprintf(buf, sizeof buf, "alpha and beta must be >= 0 (point %d,%d)", i + 1, j + 1);
                why = buf;
                goto fail;
            }
        }
    if (p->inflow_side != SED_NONE) {
        if (p->inflow_side < SED_WEST || p->inflow_side > SED_NORTH) { why = "unknown inflow side"; goto fail; }
        int n = side_len(p, p->inflow_side);
        if (p->inflow_first < 1 || p->inflow_last > n || p->inflow_first > p->inflow_last) {
            snprintf(buf, sizeof buf, "inflow points %d..%d outside the side's 1..%d",
                     p->inflow_first, p->inflow_last, n);
            why = buf;
            goto fail;
        }
        if (!(p->inflow_sand >= 0) || !(p->inflow_mud >= 0)) { why = "inflow rates must be >= 0"; goto fail; }
        for (int m = p->inflow_first; m <= p->inflow_last; m++) {
            int kP, kG;
            side_point(p, p->inflow_side, m, &kP, &kG);
            if ((p->inflow_sand > 0 && !(p->alpha[kP] > 0)) || (p->inflow_mud > 0 && !(p->beta[kP] > 0))) {
                why = "alpha (sand) / beta (mud) must be > 0 where that sediment flows in";
                goto fail;
            }
        }
    }
    if (!(p->dt > 0)) { why = "dt must be > 0"; goto fail; }
    return SWGL_OK;
fail:
    return swgl_fail(SWGL_ERR_ARG, "sediment: %s", why);
}

swgl_status sed_problem_copy(const sed_problem *p, sed_problem *out, double **alpha, double **beta)
{
    size_t n = grid_size(p->nx, p->ny);
    *out = *p;
    *alpha = malloc(n * sizeof(double));
    *beta = malloc(n * sizeof(double));
    if (!*alpha || !*beta) return swgl_fail(SWGL_ERR_NO_MEMORY, "sediment: out of memory");
    memcpy(*alpha, p->alpha, n * sizeof(double));
    memcpy(*beta, p->beta, n * sizeof(double));
    grid_copy_ring(*alpha, p->nx, p->ny);
    grid_copy_ring(*beta, p->nx, p->ny);
    out->alpha = *alpha;
    out->beta = *beta;
    return SWGL_OK;
}

sed_cpu *sed_cpu_create(const sed_problem *p, enum sed_cpu_kind kind)
{
    sed_cpu *s = NULL;
    const char *why = NULL;
    if (sed_problem_check(p) != SWGL_OK) return NULL;
    if (kind != SED_CPU_SCALAR && kind != SED_CPU_FAST) { why = "unknown CPU kind"; goto fail; }
    int W = grid_stride(p->nx), H = grid_rows(p->ny);
    s = calloc(1, sizeof *s);
    if (!s) { why = "out of memory"; goto fail; }
    s->kind = kind;
    cpu_load_init(&s->load, omp_get_max_threads(), 0);
    size_t n = (size_t)W * H;
    for (int q = 0; q < 2; q++) {
        s->h[q] = calloc(n, sizeof(double));
        s->s[q] = calloc(n, sizeof(double));
        if (!s->h[q] || !s->s[q]) { why = "out of memory"; goto fail; }
    }
    if (sed_problem_copy(p, &s->p, &s->alpha, &s->beta) != SWGL_OK) { why = "out of memory"; goto fail; }
    return s;
fail:
    swgl_fail(why && strcmp(why, "out of memory") == 0 ? SWGL_ERR_NO_MEMORY : SWGL_ERR_ARG, "sediment: %s", why);
    sed_cpu_destroy(s);
    return NULL;
}

void sed_cpu_set_state(sed_cpu *s, const double *h, const double *sand)
{
    size_t n = grid_size(s->p.nx, s->p.ny);
    memcpy(s->h[s->cur], h, n * sizeof(double));
    memcpy(s->s[s->cur], sand, n * sizeof(double));
    sed_consts c;
    sed_consts_init(&c, &s->p);
    sed_fill_ghosts(&s->p, &c, s->alpha, s->beta, s->h[s->cur], s->s[s->cur], s->s[s->cur]);
}

void sed_cpu_get_state(const sed_cpu *s, double *h, double *sand)
{
    size_t n = grid_size(s->p.nx, s->p.ny);
    if (h) memcpy(h, s->h[s->cur], n * sizeof(double));
    if (sand) memcpy(sand, s->s[s->cur], n * sizeof(double));
}

void sed_cpu_halo(sed_cpu *s, int set, int x, int y, int w, int h, double *buf)
{
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++) {
            size_t k = grid_at(s->p.nx, x + i, y + j);
            double *b = buf + 2 * ((size_t)j * w + i);
            if (set) s->h[s->cur][k] = b[0], s->s[s->cur][k] = b[1];
            else b[0] = s->h[s->cur][k], b[1] = s->s[s->cur][k];
        }
}

void sed_cpu_step(sed_cpu *s, double dt)
{
    const sed_problem *p = &s->p;
    sed_consts c;
    sed_consts_init(&c, p);
    c.dt = dt;
    if (s->kind == SED_CPU_FAST) c.threads = cpu_load_threads(&s->load);   /* the cores the others leave */
    double *h = s->h[s->cur], *sa = s->s[s->cur];
    double *hn = s->h[1 - s->cur], *sn = s->s[1 - s->cur];
    /* before the h pass: ghosts of h^l and s^l */
    sed_fill_ghosts(p, &c, s->alpha, s->beta, h, sa, sa);
    if (s->kind == SED_CPU_FAST) sed_fast_h_pass(p, &c, s->alpha, s->beta, h, sa, hn);
    else sed_scalar_h_pass(p, &c, s->alpha, s->beta, h, sa, hn);
    /* before the s pass: ghosts of h^{l+1} by the same rule (with s^l); the paper's
     * s pass reads them, the conservative one reads h^l's ghosts only */
    sed_fill_ghosts(p, &c, s->alpha, s->beta, hn, sa, NULL);
    if (s->kind == SED_CPU_FAST) sed_fast_s_pass(p, &c, s->alpha, h, hn, sa, sn);
    else sed_scalar_s_pass(p, &c, s->alpha, h, hn, sa, sn);
    s->cur = 1 - s->cur;
    h = s->h[s->cur];
    sa = s->s[s->cur];
    sed_fill_ghosts(p, &c, s->alpha, s->beta, h, sa, sa);
}

int sed_cpu_blown(const sed_cpu *s)
{
    const double *h = s->h[s->cur], *sa = s->s[s->cur];
    int bad = 0;
    for (int j = 0; j < s->p.ny; j++)
        for (int i = 0; i < s->p.nx; i++) {
            size_t k = grid_in(s->p.nx, i, j);
            bad |= !isfinite(h[k]) || !isfinite(sa[k]);
        }
    return bad;
}

int sed_cpu_run(sed_cpu *s, int steps)
{
    for (int n = 0; n < steps; n++) sed_cpu_step(s, s->p.dt);
    return sed_cpu_blown(s) ? -1 : 0;
}

int sed_cpu_is_fast(const sed_cpu *s)
{
    return s->kind == SED_CPU_FAST;
}

const sed_problem *sed_cpu_problem(const sed_cpu *s)
{
    return &s->p;
}

int sed_cpu_threads(const sed_cpu *s)
{
    return s->kind != SED_CPU_FAST ? 1 : s->threads > 0 ? s->threads : omp_get_max_threads();
}

void sed_cpu_set_threads(sed_cpu *s, int n)
{
    s->threads = n > 0 ? n : 0;
    cpu_load_init(&s->load, n > 0 ? n : omp_get_max_threads(), n > 0);
}

const char *sed_cpu_name(const sed_cpu *s)
{
    return s->kind == SED_CPU_FAST ? "cpu-sse2-omp (double)" : "cpu-scalar (double)";
}
