/* sediment_gpu.c — the driver of the GPU sediment solver (Su et al. 2013, §3):
 * per step an h pass (shaders/sed_h.glsl, (3)) and an s pass (sed_s.glsl, (4) or its
 * flux form), ping-pong between two state textures.
 *
 * Textures, (nx+2) x (ny+2) with the ghost ring; the passes draw the interior only and
 * build ghost neighbours themselves by the ghost rule (sed_common.glsl), so ghost texels
 * are never read:
 *   single:  state[2] (h, s, alpha, beta) RGBA32F; hn (h+, 0, 0, 0); kk (h, as, b(1-s), 0)
 *   double:  state[2] (h, s) RGBA32UI; ab (alpha, beta); hn (h+, 0); kk (as, b(1-s))
 * The problem's constants (sed_consts, inflow, grid size, form) are compiled into the
 * passes as #defines, written as exact decimal images (%.17e with the LF suffix in
 * double, %.9e of the float in single). */
#include "sediment_gpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_pass.h"
#include "scheme_shaders.h"

struct sed_gpu {
    sed_problem p;
    double *alpha, *beta;          /* copies, ghost ring = boundary point */
    int W, H, dbl, opt2, cur;
    gpu_array2d *state[2], *ab, *hn, *kk;
    gpu_program *p_h, *p_s, *p_k, *p_hopt;
};

void sed_gpu_destroy(sed_gpu *g)
{
    if (!g) return;
    for (int q = 0; q < 2; q++) gpu_array2d_destroy(g->state[q]);
    gpu_array2d_destroy(g->ab);
    gpu_array2d_destroy(g->hn);
    gpu_array2d_destroy(g->kk);
    gpu_program_destroy(g->p_h);
    gpu_program_destroy(g->p_s);
    gpu_program_destroy(g->p_k);
    gpu_program_destroy(g->p_hopt);
    free(g->alpha);
    free(g->beta);
    free(g);
}

static void ring_copy(int W, int H, double *f)
{
    for (int j = 1; j < H - 1; j++) {
        f[j * W] = f[j * W + 1];
        f[j * W + W - 1] = f[j * W + W - 2];
    }
    for (int i = 0; i < W; i++) {
        f[i] = f[W + i];
        f[(H - 1) * W + i] = f[(H - 2) * W + i];
    }
}

static int put_const(char *buf, size_t len, size_t *at, int dbl, const char *name, double v)
{
    int n = dbl ? snprintf(buf + *at, len - *at, "#define %s %.17eLF\n", name, v)
                : snprintf(buf + *at, len - *at, "#define %s %.9e\n", name, (double)(float)v);
    if (n < 0 || (size_t)n >= len - *at) return -1;
    *at += (size_t)n;
    return 0;
}

static swgl_status check_problem(const sed_problem *p)
{
    if (!p || p->nx < 2 || p->ny < 2) return swgl_fail(SWGL_ERR_ARG, "sediment: grid must have nx, ny >= 2");
    if (!(p->dx > 0) || !(p->dy > 0)) return swgl_fail(SWGL_ERR_ARG, "sediment: dx and dy must be > 0");
    if (!(p->cs > 0) || !(p->cm > 0) || !(p->layer > 0))
        return swgl_fail(SWGL_ERR_ARG, "sediment: cs, cm and layer must be > 0");
    if (!p->alpha || !p->beta) return swgl_fail(SWGL_ERR_ARG, "sediment: alpha and beta are required");
    if (p->form != SED_FORM_PAPER && p->form != SED_FORM_CONSERVATIVE)
        return swgl_fail(SWGL_ERR_ARG, "sediment: unknown form");
    if (!(p->dt > 0)) return swgl_fail(SWGL_ERR_ARG, "sediment: dt must be > 0");
    if (p->inflow_side != SED_NONE) {
        if (p->inflow_side < SED_WEST || p->inflow_side > SED_NORTH)
            return swgl_fail(SWGL_ERR_ARG, "sediment: unknown inflow side");
        int n = p->inflow_side == SED_WEST || p->inflow_side == SED_EAST ? p->ny : p->nx;
        if (p->inflow_first < 1 || p->inflow_last > n || p->inflow_first > p->inflow_last)
            return swgl_fail(SWGL_ERR_ARG, "sediment: inflow points %d..%d outside the side's 1..%d",
                            p->inflow_first, p->inflow_last, n);
        if (!(p->inflow_sand >= 0) || !(p->inflow_mud >= 0))
            return swgl_fail(SWGL_ERR_ARG, "sediment: inflow rates must be >= 0");
    }
    return SWGL_OK;
}

swgl_status sed_gpu_create(const sed_problem *p, int use_double, sed_gpu **out)
{
    scheme_register_shaders();
    swgl_status st;
    *out = NULL;
    if ((st = check_problem(p)) != SWGL_OK) return st;
    sed_gpu *g = calloc(1, sizeof *g);
    if (!g) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    g->p = *p;
    g->W = p->nx + 2;
    g->H = p->ny + 2;
    g->dbl = use_double != 0;
    size_t n = (size_t)g->W * g->H;
    g->alpha = malloc(n * sizeof(double));
    g->beta = malloc(n * sizeof(double));
    if (!g->alpha || !g->beta) {
        sed_gpu_destroy(g);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    }
    memcpy(g->alpha, p->alpha, n * sizeof(double));
    memcpy(g->beta, p->beta, n * sizeof(double));
    ring_copy(g->W, g->H, g->alpha);
    ring_copy(g->W, g->H, g->beta);
    g->p.alpha = g->alpha;
    g->p.beta = g->beta;

    sed_consts c;
    sed_consts_init(&c, &g->p);
    char defs[4096];
    size_t at = 0;
    int in_side = p->inflow_side == SED_NONE || !(p->inflow_sand + p->inflow_mud > 0) ? -1 : (int)p->inflow_side;
    at += (size_t)snprintf(defs, sizeof defs,
                           "%s#define SED_FORM %d\n#define SED_NX %d\n#define SED_NY %d\n"
                           "#define SED_IN_SIDE %d\n#define SED_IN_FIRST %d\n#define SED_IN_LAST %d\n",
                           g->dbl ? "#extension GL_ARB_gpu_shader_fp64 : require\n#define SED_DOUBLE 1\n" : "",
                           (int)p->form, p->nx, p->ny, in_side, p->inflow_first, p->inflow_last);
    if (put_const(defs, sizeof defs, &at, g->dbl, "C_DT", c.dt) ||
        put_const(defs, sizeof defs, &at, g->dbl, "C_RDX2", c.rdx2) ||
        put_const(defs, sizeof defs, &at, g->dbl, "C_RDY2", c.rdy2) ||
        put_const(defs, sizeof defs, &at, g->dbl, "C_ICS", c.ics) ||
        put_const(defs, sizeof defs, &at, g->dbl, "C_ICM", c.icm) ||
        put_const(defs, sizeof defs, &at, g->dbl, "C_LAYER", c.layer) ||
        put_const(defs, sizeof defs, &at, g->dbl, "C_PX", c.px) ||
        put_const(defs, sizeof defs, &at, g->dbl, "C_PY", c.py) ||
        put_const(defs, sizeof defs, &at, g->dbl, "C_QS", p->inflow_sand) ||
        put_const(defs, sizeof defs, &at, g->dbl, "C_QM", p->inflow_mud) ||
        put_const(defs, sizeof defs, &at, g->dbl, "C_DNX", p->dx) ||
        put_const(defs, sizeof defs, &at, g->dbl, "C_DNY", p->dy)) {
        sed_gpu_destroy(g);
        return swgl_fail(SWGL_ERR_ARG, "sediment: defines too long");
    }

    gpu_format f = g->dbl ? GPU_RGBA32UI : GPU_RGBA32F;
    gpu_array2d_desc d0 = {g->W, g->H, f, "sediment state 0"};
    gpu_array2d_desc d1 = {g->W, g->H, f, "sediment state 1"};
    gpu_array2d_desc da = {g->W, g->H, f, "sediment alpha beta"};
    gpu_array2d_desc dh = {g->W, g->H, f, "sediment h+"};
    gpu_array2d_desc dk = {g->W, g->H, f, "sediment products"};
    if ((st = gpu_array2d_create(&d0, &g->state[0])) || (st = gpu_array2d_create(&d1, &g->state[1])) ||
        (g->dbl && (st = gpu_array2d_create(&da, &g->ab))) || (st = gpu_array2d_create(&dh, &g->hn)) ||
        (st = gpu_array2d_create(&dk, &g->kk)) || (st = gpu_program_create("sed_h", defs, &g->p_h)) ||
        (st = gpu_program_create("sed_s", defs, &g->p_s)) ||
        (st = gpu_program_create("sed_kpass", defs, &g->p_k)) ||
        (st = gpu_program_create("sed_h_opt", defs, &g->p_hopt))) {
        sed_gpu_destroy(g);
        return st;
    }
    *out = g;
    return SWGL_OK;
}

int sed_gpu_is_double(const sed_gpu *g) { return g->dbl; }
void sed_gpu_set_opt2(sed_gpu *g, int on) { g->opt2 = on != 0; }

swgl_status sed_gpu_set_state(sed_gpu *g, const double *h, const double *s)
{
    size_t n = (size_t)g->W * g->H;
    swgl_status st;
    g->cur = 0;
    if (g->dbl) {
        double *a = malloc(2 * n * sizeof(double)), *b = malloc(2 * n * sizeof(double));
        if (!a || !b) {
            free(a);
            free(b);
            return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
        }
        for (size_t k = 0; k < n; k++) {
            a[2 * k] = h[k];
            a[2 * k + 1] = s[k];
            b[2 * k] = g->alpha[k];
            b[2 * k + 1] = g->beta[k];
        }
        if ((st = gpu_array2d_upload(g->state[0], a)) == SWGL_OK && (st = gpu_array2d_upload(g->state[1], a)) == SWGL_OK)
            st = gpu_array2d_upload(g->ab, b);
        free(a);
        free(b);
        return st;
    }
    float *a = malloc(4 * n * sizeof(float));
    if (!a) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    for (size_t k = 0; k < n; k++) {
        a[4 * k] = (float)h[k];
        a[4 * k + 1] = (float)s[k];
        a[4 * k + 2] = (float)g->alpha[k];
        a[4 * k + 3] = (float)g->beta[k];
    }
    if ((st = gpu_array2d_upload(g->state[0], a)) == SWGL_OK) st = gpu_array2d_upload(g->state[1], a);
    free(a);
    return st;
}

/* The ghost ring of (h, s) by the ghost rule, corners from the diagonal point (as the
 * CPU's fill_ghosts). */
static void fill_ghosts(const sed_gpu *g, double *h, double *s)
{
    const sed_problem *p = &g->p;
    sed_consts c;
    sed_consts_init(&c, p);
    int W = g->W, H = g->H;
    for (int side = 0; side < 4; side++) {
        int len = side < 2 ? p->ny : p->nx;
        double dn = side < 2 ? p->dx : p->dy;
        for (int m = 1; m <= len; m++) {
            int kP, kG;
            switch (side) {
            case SED_WEST: kP = m * W + 1; kG = m * W; break;
            case SED_EAST: kP = m * W + p->nx; kG = m * W + p->nx + 1; break;
            case SED_SOUTH: kP = W + m; kG = m; break;
            default: kP = p->ny * W + m; kG = (p->ny + 1) * W + m; break;
            }
            int in = side == (int)p->inflow_side && m >= p->inflow_first && m <= p->inflow_last;
            double o[2];
            sed_ghost(p->form, &c, in ? p->inflow_sand : 0.0, in ? p->inflow_mud : 0.0, dn, h[kP], s[kP],
                      g->alpha[kP], g->beta[kP], o);
            h[kG] = o[0];
            s[kG] = o[1];
        }
    }
    int ck[4][2] = {{0, W + 1}, {W - 1, 2 * W - 2}, {(H - 1) * W, (H - 2) * W + 1}, {H * W - 1, (H - 1) * W - 2}};
    for (int q = 0; q < 4; q++) {
        h[ck[q][0]] = h[ck[q][1]];
        s[ck[q][0]] = s[ck[q][1]];
    }
}

swgl_status sed_gpu_get_state(sed_gpu *g, double *h, double *s)
{
    size_t n = (size_t)g->W * g->H;
    swgl_status st;
    if (g->dbl) {
        double *a = malloc(2 * n * sizeof(double));
        if (!a) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
        st = gpu_array2d_download(g->state[g->cur], a);
        for (size_t k = 0; st == SWGL_OK && k < n; k++) {
            h[k] = a[2 * k];
            s[k] = a[2 * k + 1];
        }
        free(a);
    } else {
        float *a = malloc(4 * n * sizeof(float));
        if (!a) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
        st = gpu_array2d_download(g->state[g->cur], a);
        for (size_t k = 0; st == SWGL_OK && k < n; k++) {
            h[k] = a[4 * k];
            s[k] = a[4 * k + 1];
        }
        free(a);
    }
    if (st == SWGL_OK) fill_ghosts(g, h, s);
    return st;
}

static void bind_state(sed_gpu *g, gpu_pass *ps, gpu_array2d *st)
{
    if (g->dbl) {
        gpu_pass_array(ps, "u_hs", st);
        gpu_pass_array(ps, "u_ab", g->ab);
    } else {
        gpu_pass_array(ps, "u_state", st);
    }
}

static swgl_status h_pass_to(sed_gpu *g, int opt2, gpu_array2d *out)
{
    swgl_status st;
    gpu_pass ps;
    gpu_rect r = {1, 1, g->p.nx, g->p.ny};
    gpu_array2d *now = g->state[g->cur];
    if (opt2) {
        gpu_pass_begin(&ps, g->p_k);
        bind_state(g, &ps, now);
        if ((st = gpu_pass_draw(&ps, g->kk, &r)) != SWGL_OK) return st;
        gpu_pass_begin(&ps, g->p_hopt);
        bind_state(g, &ps, now);
        gpu_pass_array(&ps, "u_kk", g->kk);
        return gpu_pass_draw(&ps, g->hn, &r);
    }
    gpu_pass_begin(&ps, g->p_h);
    bind_state(g, &ps, now);
    return gpu_pass_draw(&ps, out, &r);
}

static swgl_status h_pass(sed_gpu *g, int opt2) { return h_pass_to(g, opt2, g->hn); }

static swgl_status s_pass_to(sed_gpu *g, gpu_array2d *out)
{
    gpu_pass ps;
    gpu_rect r = {1, 1, g->p.nx, g->p.ny};
    gpu_pass_begin(&ps, g->p_s);
    bind_state(g, &ps, g->state[g->cur]);
    gpu_pass_array(&ps, "u_hn", g->hn);
    return gpu_pass_draw(&ps, out, &r);
}

static swgl_status s_pass(sed_gpu *g) { return s_pass_to(g, g->state[1 - g->cur]); }

swgl_status sed_gpu_run(sed_gpu *g, int steps)
{
    swgl_status st;
    for (int n = 0; n < steps; n++) {
        if ((st = h_pass(g, g->opt2)) != SWGL_OK || (st = s_pass(g)) != SWGL_OK) return st;
        g->cur = 1 - g->cur;
    }
    return SWGL_OK;
}

swgl_status sed_gpu_run_pass(sed_gpu *g, int which, int reps)
{
    /* A pass repeated into one target with nothing reading it in between can be merged
     * by a driver (llvmpipe drops the binned work of a draw that a later opaque
     * full-screen draw covers), so the h and s passes alone alternate between their
     * target and the (then unused) kk array; k pass + h_opt depend on each other. */
    swgl_status st = SWGL_OK;
    for (int n = 0; n < reps && st == SWGL_OK; n++) {
        if (which == 2) st = h_pass(g, 1);
        else if (which == 1) st = s_pass_to(g, n % 2 ? g->kk : g->state[1 - g->cur]);
        else st = h_pass_to(g, 0, n % 2 ? g->kk : g->hn);
    }
    return st;
}
