/* gl_kp_util.h — shared by the GL tests of the Kurganov-Petrova scheme (test_gl_kp_*.c):
 * problems built by hand on small grids (walls or free sides, bed corners from a
 * function), the state of a run, GPU runs of the bound's steps, the CPU scalar (double)
 * replay of the same steps, the comparisons (bits, relative L1, rest), the beds and the
 * initial states more than one test uses. */
#ifndef SWGL_GL_KP_UTIL_H
#define SWGL_GL_KP_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "gl_util.h"
#include "gpu_program.h"
#include "scenario.h"
#include "kp.h"
#include "kp_gpu.h"
#include "scheme.h"
#include "tuning.h"

/* ---------- problems built by hand ---------- */
typedef double (*bed_fn)(double x, double y);

typedef struct prob {
    int nx, ny;
    unsigned char *code;
    double *H, *Bc, *manning;
    double *h, *qx, *qy;    /* the initial state */
    kp_problem p;
} prob;

static inline void prob_free(prob *r)
{
    free(r->code);
    free(r->H);
    free(r->Bc);
    free(r->manning);
    free(r->h);
    free(r->qx);
    free(r->qy);
    memset(r, 0, sizeof *r);
}

/* nx x ny cells of dx, walls all round (or the ring's code `ring`), bed corners from bed(x, y) */
static inline void prob_init(prob *r, int nx, int ny, double dx, double dy, bed_fn bed, unsigned char ring)
{
    memset(r, 0, sizeof *r);
    r->nx = nx;
    r->ny = ny;
    size_t n = grid_size(nx, ny);
    r->code = malloc(n);
    r->H = calloc(n, sizeof(double));
    r->Bc = malloc((size_t)(nx + 1) * (ny + 1) * sizeof(double));
    r->h = calloc(n, sizeof(double));
    r->qx = calloc(n, sizeof(double));
    r->qy = calloc(n, sizeof(double));
    unsigned char *side[4];
    unsigned char *ringv = malloc((size_t)(nx > ny ? nx : ny));
    memset(ringv, ring, (size_t)(nx > ny ? nx : ny));
    for (int s = 0; s < 4; s++) side[s] = ringv;
    grid_codes(nx, ny, NULL, side, r->code);
    free(ringv);
    for (int j = 0; j <= ny; j++)
        for (int i = 0; i <= nx; i++) r->Bc[(size_t)j * (nx + 1) + i] = bed(i * dx, j * dy);
    r->p.sw = (swe_problem){.nx = nx, .ny = ny, .dx = dx, .dy = dy, .g = 9.81, .cfl = 0.25, .h_dry = 1e-5,
                            .kappa = 1e-2, .H = r->H, .code = r->code};
    r->p.Bc = r->Bc;
    r->p.theta = 1.3;
    r->p.rk2 = 1;
    r->p.early_exit = KP_EARLY_EXIT_OFF;
    for (int j = 0; j < grid_rows(ny); j++)
        for (int i = 0; i < grid_stride(nx); i++) {
            double BE, BW, BN, BS, Bij;
            kp_cell_bed(&r->p, i, j, &BE, &BW, &BN, &BS, &Bij);
            r->H[grid_at(nx, i, j)] = -Bij;
        }
}

static inline double bij(const prob *r, int i, int j) { return -r->H[grid_at(r->nx, i, j)]; }

/* the state of a run, ghost-ring layout */
typedef struct state {
    size_t n;
    double *h, *qx, *qy;
} state;

static inline void state_alloc(state *s, const prob *r)
{
    s->n = grid_size(r->nx, r->ny);
    s->h = calloc(s->n, sizeof(double));
    s->qx = calloc(s->n, sizeof(double));
    s->qy = calloc(s->n, sizeof(double));
}

static inline void state_free(state *s)
{
    free(s->h);
    free(s->qx);
    free(s->qy);
}

static inline double volume(const prob *r, const double *h) { return grid_volume(h, r->code, r->nx, r->ny, 1.0); }

/* the precision gpu_run creates its solvers in (double: the fp64 section) */
static int g_double;

/* steps of the bound (stage / advance, as the time loop without landing); dts: the
 * steps taken (may be NULL), or, when replay, the steps to take */
static inline swgl_status gpu_steps(kp_gpu *g, int steps, double *dts, int replay)
{
    swgl_status st = SWGL_OK;
    for (int k = 0; k < steps && st == SWGL_OK; k++) {
        double dt, b;
        if ((st = kp_gpu_rates(g, 0, &dt)) != SWGL_OK) break;
        if (replay) dt = dts[k];
        else if (isinf(dt)) dt = 1.0;   /* nothing moves */
        else if (!(dt > 0)) return swgl_fail(SWGL_ERR_BLOWUP, "bound %g at step %d", dt, k);
        if (dts && !replay) dts[k] = dt;
        if ((st = kp_gpu_apply(g, 0, dt)) != SWGL_OK) break;
        for (int s = 1; s < kp_gpu_stages(g) && st == SWGL_OK; s++)
            if ((st = kp_gpu_rates(g, s, &b)) == SWGL_OK) st = kp_gpu_apply(g, s, dt);
    }
    return st;
}

/* creates a solver on r, sets r's initial state, runs `steps`; s gets the result */
static inline swgl_status gpu_run(const prob *r, int steps, double *dts, int replay, state *s, kp_gpu **keep)
{
    kp_gpu *g = NULL;
    swgl_status st = kp_gpu_create_prec(&r->p, g_double, &g);
    if (st == SWGL_OK) st = kp_gpu_set_state(g, r->h, r->qx, r->qy);
    if (st == SWGL_OK) st = gpu_steps(g, steps, dts, replay);
    state_alloc(s, r);
    if (st == SWGL_OK) st = kp_gpu_get_state(g, s->h, s->qx, s->qy);
    if (st != SWGL_OK) printf("FAIL  gpu run: %s\n", swgl_last_error());
    if (keep && st == SWGL_OK) *keep = g;
    else kp_gpu_destroy(g);
    return st;
}

static inline int same_bits(const state *a, const state *b)
{
    return memcmp(a->h, b->h, a->n * sizeof(double)) == 0 && memcmp(a->qx, b->qx, a->n * sizeof(double)) == 0 &&
           memcmp(a->qy, b->qy, a->n * sizeof(double)) == 0;
}

/* relative L1 differences of h and of (qx, qy) over the active cells */
static inline void rel_l1(const prob *r, const state *a, const state *b, double *dh, double *dq)
{
    double eh = 0, nh = 0, eq = 0, nq = 0;
    for (size_t k = 0; k < a->n; k++) {
        if (r->code[k] != CELL_ACTIVE) continue;
        eh += fabs(a->h[k] - b->h[k]);
        nh += fabs(b->h[k]);
        eq += fabs(a->qx[k] - b->qx[k]) + fabs(a->qy[k] - b->qy[k]);
        nq += fabs(b->qx[k]) + fabs(b->qy[k]);
    }
    *dh = nh > 0 ? eh / nh : eh;
    *dq = nq > 0 ? eq / nq : eq;
}

static inline double bed_rough(double x, double y)
{
    return 0.15 * sin(0.9 * x) * cos(0.7 * y) + 0.05 * sin(2.3 * x + 1.1 * y) - 0.6;
}

/* CPU scalar (double) run of the same steps; NULL on failure */
static inline int cpu_replay(const prob *r, int steps, const double *dts, state *s)
{
    kp_cpu *c = kp_cpu_create(&r->p, KP_CPU_SCALAR);
    if (!c) return -1;
    state_alloc(s, r);
    kp_cpu_set_state(c, r->h, r->qx, r->qy);
    int bad = 0;
    for (int k = 0; k < steps && !bad; k++) {
        kp_cpu_rates(c, 0);
        bad |= kp_cpu_apply(c, 0, dts[k]);
        for (int st = 1; st < kp_cpu_stages(c) && !bad; st++) {
            kp_cpu_rates(c, st);
            bad |= kp_cpu_apply(c, st, dts[k]);
        }
    }
    kp_cpu_get_state(c, s->h, s->qx, s->qy);
    kp_cpu_destroy(c);
    return bad ? -1 : 0;
}

/* max |w - w0| and max |q| over the cells wet at the start */
static inline void rest_dev(const prob *r, const state *s, double w0, double *dev, double *q)
{
    *dev = *q = 0;
    for (int j = 1; j <= r->ny; j++)
        for (int i = 1; i <= r->nx; i++) {
            size_t k = grid_at(r->nx, i, j);
            if (r->h[k] == 0) continue;
            *dev = fmax(*dev, fabs(s->h[k] + bij(r, i, j) - w0));
            *q = fmax(*q, fmax(fabs(s->qx[k]), fabs(s->qy[k])));
        }
}

static inline double bed_bump(double x, double y)
{
    return 0.4 * exp(-((x - 40) * (x - 40) + (y - 28) * (y - 28)) / 60.0) + 0.002 * x;
}

static inline void dambreak_init(prob *r, double h_left, double h_right)
{
    for (int j = 1; j <= r->ny; j++)
        for (int i = 1; i <= r->nx; i++) {
            size_t k = grid_at(r->nx, i, j);
            double w = i <= r->nx / 3 ? 1.0 + h_left : h_right > 0 ? bij(r, i, j) + h_right : 0;
            r->h[k] = fmax(w - bij(r, i, j), 0.0);
        }
}

static inline double bed_flat(double x, double y)
{
    (void)x, (void)y;
    return 0.0;
}

/* the main of a test: a context (or a skip; --compute: compute passes) */
static inline gpu_context *kp_test_begin(void)
{
    return test_gl_context();
}

#endif
