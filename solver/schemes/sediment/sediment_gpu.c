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

#include "gpu_context.h"
#include "gpu_pass.h"
#include "gpu_readback.h"
#include "gpu_strips.h"
#include "gpu_timer.h"
#include "tuning.h"
#include "scheme_shaders.h"
#include "sediment_scheme.h"

/* The four passes built for one dt (the constants are compiled in). */
typedef struct sed_passes {
    double dt;
    gpu_program *h, *s, *k, *hopt;
} sed_passes;

struct sed_gpu {
    sed_problem p;
    double *alpha, *beta;          /* copies, ghost ring = boundary point */
    int tex_w, tex_h;              /* the arrays: (nx+2) x (ny+2) texels */
    int dbl, opt2, cur;
    gpu_array2d *state[2], *ab, *hn, *kk;
    sed_passes main;               /* for the problem's dt */
    sed_passes other;              /* for the last other dt asked for (a step cut short
                                    * to land on an output time) */
    const sed_passes *use;         /* what the next passes draw with */
    /* the profile (benches, swgl_sim_profile): GPU time of the h and s passes */
    gpu_timer *timer;
    double prof_sec[2];
    long prof_n[2];
    gpu_strips *strips;            /* the halo's strips over MPI ranks (NULL: tune mpi.pack=off) */
    /* over MPI ranks, overlapped with the exchange (sed_gpu_parts): the step with the main
     * passes drawn in parts into state[1 - cur], taken by the next sed_gpu_take */
    int ahead;
    int inner_drawn;   /* the inner part of the step in parts drawn (the rest may follow) */
};

static void passes_free(sed_passes *ps)
{
    gpu_program_destroy(ps->h);
    gpu_program_destroy(ps->s);
    gpu_program_destroy(ps->k);
    gpu_program_destroy(ps->hopt);
    memset(ps, 0, sizeof *ps);
}

void sed_gpu_destroy(sed_gpu *g)
{
    if (!g) return;
    for (int q = 0; q < 2; q++) gpu_array2d_destroy(g->state[q]);
    gpu_array2d_destroy(g->ab);
    gpu_array2d_destroy(g->hn);
    gpu_array2d_destroy(g->kk);
    gpu_timer_destroy(g->timer);
    gpu_strips_destroy(g->strips);
    passes_free(&g->main);
    passes_free(&g->other);
    free(g->alpha);
    free(g->beta);
    free(g);
}

static int put_const(char *buf, size_t len, size_t *at, int dbl, const char *name, double v)
{
    int n = dbl ? snprintf(buf + *at, len - *at, "#define %s %.17eLF\n", name, v)
                : snprintf(buf + *at, len - *at, "#define %s %.9e\n", name, (double)(float)v);
    if (n < 0 || (size_t)n >= len - *at) return -1;
    *at += (size_t)n;
    return 0;
}

/* The passes with the problem's constants and this dt compiled in. */
static swgl_status build_passes(const sed_gpu *g, double dt, sed_passes *ps)
{
    const sed_problem *p = &g->p;
    sed_consts c;
    sed_consts_init(&c, p);
    c.dt = dt;
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
        put_const(defs, sizeof defs, &at, g->dbl, "C_DNY", p->dy))
        return swgl_fail(SWGL_ERR_ARG, "sediment: defines too long");
    swgl_status st;
    if ((st = gpu_program_create("sed_h", defs, &ps->h)) || (st = gpu_program_create("sed_s", defs, &ps->s)) ||
        (st = gpu_program_create("sed_kpass", defs, &ps->k)) ||
        (st = gpu_program_create("sed_h_opt", defs, &ps->hopt))) {
        passes_free(ps);   /* dt stays 0: nothing half-built is taken for a built set */
        return st;
    }
    ps->dt = dt;
    return SWGL_OK;
}

swgl_status sed_gpu_create(const sed_problem *p, int use_double, sed_gpu **out)
{
    scheme_register_shaders();
    swgl_status st;
    *out = NULL;
    if ((st = sed_problem_check(p)) != SWGL_OK) return st;
    sed_gpu *g = calloc(1, sizeof *g);
    if (!g) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    g->tex_w = grid_stride(p->nx);
    g->tex_h = grid_rows(p->ny);
    g->dbl = use_double != 0;
    if ((st = sed_problem_copy(p, &g->p, &g->alpha, &g->beta)) != SWGL_OK) {
        sed_gpu_destroy(g);
        return st;
    }

    gpu_format f = g->dbl ? GPU_RGBA32UI : GPU_RGBA32F;
    gpu_array2d_desc d0 = {g->tex_w, g->tex_h, f, "sediment state 0"};
    gpu_array2d_desc d1 = {g->tex_w, g->tex_h, f, "sediment state 1"};
    gpu_array2d_desc da = {g->tex_w, g->tex_h, f, "sediment alpha beta"};
    gpu_array2d_desc dh = {g->tex_w, g->tex_h, f, "sediment h+"};
    gpu_array2d_desc dk = {g->tex_w, g->tex_h, f, "sediment products"};
    if ((st = gpu_array2d_create(&d0, &g->state[0])) || (st = gpu_array2d_create(&d1, &g->state[1])) ||
        (g->dbl && (st = gpu_array2d_create(&da, &g->ab))) || (st = gpu_array2d_create(&dh, &g->hn)) ||
        (st = gpu_array2d_create(&dk, &g->kk)) || (st = build_passes(g, p->dt, &g->main))) {
        sed_gpu_destroy(g);
        return st;
    }
    g->use = &g->main;
    *out = g;
    return SWGL_OK;
}

int sed_gpu_is_double(const sed_gpu *g) { return g->dbl; }
void sed_gpu_set_opt2(sed_gpu *g, int on) { g->opt2 = on != 0; }

swgl_status sed_gpu_set_state(sed_gpu *g, const double *h, const double *s)
{
    size_t n = (size_t)g->tex_w * g->tex_h;
    swgl_status st;
    g->cur = 0;
    g->ahead = g->inner_drawn = 0;
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

/* The halo of a run over MPI ranks: the state texels of the w x h points from (x, y) as
 * stored, 16 bytes a point: float (h, s, alpha, beta), double (h, s) */
static swgl_status sed_gpu_halo(sed_gpu *g, int set, int x, int y, int w, int h, void *buf)
{
    return gpu_strips_rect_raw(g->strips, g->state[g->cur], set, x, y, w, h, buf);
}

swgl_status sed_gpu_get_state(sed_gpu *g, double *h, double *s)
{
    size_t n = (size_t)g->tex_w * g->tex_h;
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
    if (st == SWGL_OK) {
        sed_consts c;
        sed_consts_init(&c, &g->p);
        sed_fill_ghosts(&g->p, &c, g->alpha, g->beta, h, s, s);
    }
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

static const gpu_rect *whole(const sed_gpu *g, gpu_rect *r)
{
    *r = (gpu_rect){1, 1, g->p.nx, g->p.ny};
    return r;
}

/* the OPT-2 products (sed_kpass.glsl) of the points of r */
static swgl_status k_pass_rect(sed_gpu *g, const gpu_rect *r)
{
    gpu_pass ps;
    gpu_pass_begin(&ps, g->use->k);
    bind_state(g, &ps, g->state[g->cur]);
    return gpu_pass_draw(&ps, g->kk, r);
}

/* (3) at the points of r into out: sed_h.glsl, or with opt2 sed_h_opt.glsl from the
 * products k_pass_rect stored (of r's points and their neighbours) */
static swgl_status h_pass_rect(sed_gpu *g, int opt2, gpu_array2d *out, const gpu_rect *r)
{
    gpu_pass ps;
    gpu_pass_begin(&ps, opt2 ? g->use->hopt : g->use->h);
    bind_state(g, &ps, g->state[g->cur]);
    if (opt2) gpu_pass_array(&ps, "u_kk", g->kk);
    return gpu_pass_draw(&ps, out, r);
}

static swgl_status h_pass_to(sed_gpu *g, int opt2, gpu_array2d *out)
{
    swgl_status st;
    gpu_rect r;
    if (opt2 && (st = k_pass_rect(g, whole(g, &r))) != SWGL_OK) return st;
    return h_pass_rect(g, opt2, opt2 ? g->hn : out, whole(g, &r));
}

static swgl_status h_pass(sed_gpu *g, int opt2) { return h_pass_to(g, opt2, g->hn); }

/* (4) at the points of r into out, from the state and h+ */
static swgl_status s_pass_rect(sed_gpu *g, gpu_array2d *out, const gpu_rect *r)
{
    gpu_pass ps;
    gpu_pass_begin(&ps, g->use->s);
    bind_state(g, &ps, g->state[g->cur]);
    gpu_pass_array(&ps, "u_hn", g->hn);
    return gpu_pass_draw(&ps, out, r);
}

static swgl_status s_pass_to(sed_gpu *g, gpu_array2d *out)
{
    gpu_rect r;
    return s_pass_rect(g, out, whole(g, &r));
}

static swgl_status s_pass(sed_gpu *g) { return s_pass_to(g, g->state[1 - g->cur]); }

swgl_status sed_gpu_run(sed_gpu *g, int steps)
{
    return sed_gpu_run_dt(g, steps, g->p.dt);
}

swgl_status sed_gpu_run_dt(sed_gpu *g, int steps, double dt)
{
    swgl_status st;
    g->ahead = g->inner_drawn = 0;
    if (!(dt > 0) || dt > g->p.dt) return swgl_fail(SWGL_ERR_ARG, "sediment: a step of %g s (the problem's is %g s)", dt, g->p.dt);
    if (dt == g->main.dt) g->use = &g->main;
    else {
        if (dt != g->other.dt) {
            passes_free(&g->other);
            if ((st = build_passes(g, dt, &g->other)) != SWGL_OK) return st;
        }
        g->use = &g->other;
    }
    for (int n = 0; n < steps; n++) {
        if (g->timer) {   /* profiled: each pass a timer section, fetched as the GPU gets there */
            gpu_timer_begin(g->timer, 0);
            st = h_pass(g, g->opt2);
            gpu_timer_end(g->timer);
            gpu_timer_begin(g->timer, 1);
            if (st == SWGL_OK) st = s_pass(g);
            gpu_timer_end(g->timer);
            sed_gpu_profile_drain(g, gpu_timer_pending(g->timer) > GPU_TIMER_MAX / 2);
        } else {
            if ((st = h_pass(g, g->opt2)) == SWGL_OK) st = s_pass(g);
        }
        if (st != SWGL_OK) return st;
        g->cur = 1 - g->cur;
    }
    return SWGL_OK;
}

/* r (x, y, w, h, the texture's coordinates) grown by `grow` points each way, within the
 * interior; w or h 0 where nothing is left */
static gpu_rect clip(const sed_gpu *g, const int r[4], int grow)
{
    int x0 = r[0] - grow, y0 = r[1] - grow, x1 = r[0] + r[2] + grow, y1 = r[1] + r[3] + grow;
    if (x0 < 1) x0 = 1;
    if (y0 < 1) y0 = 1;
    if (x1 > g->p.nx + 1) x1 = g->p.nx + 1;
    if (y1 > g->p.ny + 1) y1 = g->p.ny + 1;
    return (gpu_rect){x0, y0, x1 > x0 ? x1 - x0 : 0, y1 > y0 ? y1 - y0 : 0};
}

swgl_status sed_gpu_parts(sed_gpu *g, const int (*r)[4], int n, int inner)
{
    /* the passes in turn, each over every rectangle (a pass reads its predecessor's output at
     * its points' neighbours); on the inner rectangle, the k pass 2 points wider and the h
     * pass 1 (what the next pass reads there: none of it near the halo) */
    g->use = &g->main;
    g->ahead = 0;
    int after_inner = !inner && g->inner_drawn;
    g->inner_drawn = 0;
    swgl_status st = SWGL_OK;
    for (int pass = g->opt2 ? 0 : 1; pass < 3 && st == SWGL_OK; pass++)
        for (int i = 0; i < n && st == SWGL_OK; i++) {
            gpu_rect c = clip(g, r[i], inner ? 2 - pass : 0);
            if (c.w < 1 || c.h < 1) continue;
            st = pass == 0 ? k_pass_rect(g, &c)
               : pass == 1 ? h_pass_rect(g, g->opt2, g->hn, &c)
                           : s_pass_rect(g, g->state[1 - g->cur], &c);
        }
    /* (the outer part completes a step only after its inner one, with nothing between) */
    g->ahead = st == SWGL_OK && after_inner;
    g->inner_drawn = st == SWGL_OK && inner;
    return st;
}

swgl_status sed_gpu_take(sed_gpu *g, double dt)
{
    int ahead = g->ahead;
    g->ahead = 0;
    if (!ahead || dt != g->main.dt) return sed_gpu_run_dt(g, 1, dt);   /* (a step cut short: made anew) */
    g->cur = 1 - g->cur;
    return SWGL_OK;
}

void sed_gpu_profile_drain(sed_gpu *g, int wait)
{
    int tag;
    double sec;
    while (g->timer && gpu_timer_fetch(g->timer, wait, &tag, &sec)) {
        g->prof_sec[tag] += sec;
        g->prof_n[tag]++;
    }
}

swgl_status sed_gpu_profile(sed_gpu *g, int on)
{
    gpu_timer_destroy(g->timer);
    g->timer = NULL;
    memset(g->prof_sec, 0, sizeof g->prof_sec);
    memset(g->prof_n, 0, sizeof g->prof_n);
    return on ? gpu_timer_create(GPU_TIMER_MAX, &g->timer) : SWGL_OK;
}

swgl_status sed_gpu_run_pass(sed_gpu *g, int which, int reps)
{
    /* A pass repeated into one target with nothing reading it in between can be merged
     * by a driver (llvmpipe drops the binned work of a draw that a later opaque
     * full-screen draw covers), so the h and s passes alone alternate between their
     * target and the (then unused) kk array; k pass + h_opt depend on each other. */
    swgl_status st = SWGL_OK;
    g->ahead = g->inner_drawn = 0;   /* (state[1 - cur] drawn over) */
    for (int n = 0; n < reps && st == SWGL_OK; n++) {
        if (which == 2) st = h_pass(g, 1);
        else if (which == 1) st = s_pass_to(g, n % 2 ? g->kk : g->state[1 - g->cur]);
        else st = h_pass_to(g, 0, n % 2 ? g->kk : g->hn);
    }
    return st;
}

/* ---- the backend (scheme.h) ---------------------------------------------------------- */

typedef struct sed_gpu_be {
    sed_gpu *g;
    char renderer[128];
    int compute;                /* built as compute passes (gpu-compute) */
} sed_gpu_be;

static void be_destroy(void *self)
{
    sed_gpu_be *b = self;
    if (!b) return;
    sed_gpu_destroy(b->g);
    free(b);
}

static swgl_status be_create(const scheme_setup *s, const scheme_config *cfg, void **self)
{
    const sed_setup *ss = s->problem;
    int dbl = cfg->precision == PRECISION_SINGLE ? 0 : cfg->precision == PRECISION_DOUBLE ? 1 : cfg->has_fp64;
    if (cfg->precision == PRECISION_DOUBLE && !cfg->has_fp64)
        return swgl_fail(SWGL_ERR_ARG,
                         "--precision double: the renderer '%s' lacks GL_ARB_gpu_shader_fp64 (no doubles in "
                         "shaders); use --precision single",
                         cfg->renderer ? cfg->renderer : "?");
    sed_gpu_be *b = calloc(1, sizeof *b);
    if (!b) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    b->compute = gpu_compute_passes();
    swgl_status st = sed_gpu_create(&ss->p, dbl, &b->g);
    if (st != SWGL_OK) {
        be_destroy(b);
        return st;
    }
    if (tuning_or_default(cfg->tune)->mpi_pack && (st = gpu_strips_create(&b->g->strips)) != SWGL_OK) {
        be_destroy(b);
        return st;
    }
    if (b->g->strips) gpu_strips_set_mapped(b->g->strips, tuning_or_default(cfg->tune)->mpi_mapped);
    snprintf(b->renderer, sizeof b->renderer, "%s", cfg->renderer ? cfg->renderer : "?");
    *self = b;
    return SWGL_OK;
}

static swgl_status be_set(void *self, double *const *f) { return sed_gpu_set_state(((sed_gpu_be *)self)->g, f[0], f[1]); }
static swgl_status be_get(void *self, double *const *f) { return sed_gpu_get_state(((sed_gpu_be *)self)->g, f[0], f[1]); }

static swgl_status be_stage(void *self, int k, double *dt_stable)
{
    (void)k;
    *dt_stable = ((sed_gpu_be *)self)->g->p.dt;
    return SWGL_OK;
}

static swgl_status be_advance(void *self, int k, double dt)
{
    (void)k;
    return sed_gpu_take(((sed_gpu_be *)self)->g, dt);   /* (the step, or the one drawn in parts) */
}

static void be_describe(const void *self, char *name, size_t len)
{
    const sed_gpu_be *b = self;
    snprintf(name, len, "%s %s (%s)", b->compute ? "gpu-compute" : "gpu", b->g->dbl ? "double" : "single", b->renderer);
}

static const char *be_precision(const void *self) { return ((const sed_gpu_be *)self)->g->dbl ? "double" : "single"; }

static void be_finish(void *self)
{
    (void)self;
    gpu_finish();
}

static void be_profile(void *self, int on) { sed_gpu_profile(((sed_gpu_be *)self)->g, on); }
static swgl_status be_profile_pass(void *self, int k, const char **name, double *seconds, long *count)
{
    sed_gpu *g = ((sed_gpu_be *)self)->g;
    if (!g->timer || k < 0 || k > 1) return SWGL_ERR_ARG;
    sed_gpu_profile_drain(g, 1);
    *name = k ? "s pass" : "h pass";
    *seconds = g->prof_sec[k];
    *count = g->prof_n[k];
    return SWGL_OK;
}
/* float state (h, s, alpha, beta) */
static swgl_status be_device_field(void *self, const char *name, scheme_device_field *f)
{
    sed_gpu *g = ((sed_gpu_be *)self)->g;
    if (g->dbl) return swgl_fail(SWGL_ERR_ARG, "sediment gpu: no device field in double precision (packed texels)");
    int c = strcmp(name, "h") == 0 ? 0 : strcmp(name, "s") == 0 ? 1 : -1;
    if (c < 0) return swgl_fail(SWGL_ERR_ARG, "sediment gpu: no field '%s' (h, s)", name);
    const gpu_array2d *a = g->state[g->cur];
    *f = (scheme_device_field){gpu_array2d_texture(a), 0, c, 0, 0.0, gpu_array2d_width(a), gpu_array2d_height(a)};
    return SWGL_OK;
}

static swgl_status be_halo_get(void *self, int x, int y, int w, int h, void *buf)
{
    return sed_gpu_halo(((sed_gpu_be *)self)->g, 0, x, y, w, h, buf);
}
static swgl_status be_halo_set(void *self, int x, int y, int w, int h, const void *buf)
{
    return sed_gpu_halo(((sed_gpu_be *)self)->g, 1, x, y, w, h, (void *)buf);
}

/* Over MPI ranks, the exchange overlapped with the step (scheme_mpi_halo.c): the step's
 * reach is 2 points (the s pass reads h+ of the neighbours, which the h pass makes from
 * theirs; OPT-2's products are of the point alone); the strips read back without waiting
 * (tune mpi.pack: the direct path has none), room for all of them at once. */
static swgl_status be_halo_room(void *self, int strips, long max_cells)
{
    sed_gpu *g = ((sed_gpu_be *)self)->g;
    if (!g->strips) return swgl_fail(SWGL_ERR_ARG, "sediment gpu: the halo goes directly (tune mpi.pack=off)");
    if (strips > GPU_READBACK_MAX)
        return swgl_fail(SWGL_ERR_ARG, "sediment gpu: %d halo strips in flight, at most %d read-backs", strips,
                         GPU_READBACK_MAX);
    return gpu_strips_reserve(g->strips, max_cells);
}

static int be_overlap(void *self, int strips, long max_cells, int forced)
{
    /* on both paths by default (tune mpi.overlap=auto): on two H200s, 4096^2 points a GPU in
     * double, gpu-compute stepped at 77-90% of one GPU's speed overlapped against 68-70% not,
     * the fragment path at 95-99% against 92-98% (docs/mpi.md) */
    (void)forced;
    return be_halo_room(self, strips, max_cells) == SWGL_OK ? 2 : (swgl_clear_error(), 0);
}

static swgl_status be_halo_request(void *self, int x, int y, int w, int h)
{
    sed_gpu *g = ((sed_gpu_be *)self)->g;
    return gpu_strips_request(g->strips, g->state[g->cur], x, y, w, h);
}

static swgl_status be_halo_fetch(void *self, void *buf) { return gpu_strips_fetch_raw(((sed_gpu_be *)self)->g->strips, buf); }

static swgl_status be_halo_view(void *self, void *fallback, const void **p)
{
    sed_gpu *g = ((sed_gpu_be *)self)->g;
    *p = fallback;
    if (!g->strips) return swgl_fail(SWGL_ERR_ARG, "sediment gpu: no strips (tune mpi.pack=off): nothing requested");
    return gpu_strips_view_raw(g->strips, fallback, p);
}

static swgl_status be_halo_area(void *self, long bytes, void **p)
{
    sed_gpu *g = ((sed_gpu_be *)self)->g;
    *p = NULL;   /* (none without the strips: tune mpi.pack=off) */
    return g->strips ? gpu_strips_area(g->strips, (size_t)bytes, p) : SWGL_OK;
}

/* the step in parts: inner (n = 1, bound NULL) the cells that read no halo, then the rest
 * with the bound (the problem's dt, as be_stage) */
static swgl_status be_stage_rects(void *self, int k, const int (*r)[4], int n, double *bound)
{
    sed_gpu *g = ((sed_gpu_be *)self)->g;
    if (k != 0) return swgl_fail(SWGL_ERR_ARG, "sediment gpu: no stage %d", k);
    swgl_status st = sed_gpu_parts(g, r, n, bound == NULL);
    if (st == SWGL_OK && bound) *bound = g->p.dt;
    return st;
}

static const scheme_device_ops device = {.device_field = be_device_field};
static const scheme_probe_ops probe = {.profile = be_profile, .profile_pass = be_profile_pass};
static const scheme_halo_ops halo = {.cell_bytes = scheme_16_bytes, .get = be_halo_get, .set = be_halo_set,
                                     .overlap = be_overlap, .request = be_halo_request, .fetch = be_halo_fetch,
                                     .room = be_halo_room, .stage_rects = be_stage_rects, .view = be_halo_view,
                                     .area = be_halo_area};

const scheme_backend sediment_backend_gpu = {.backend = BACKEND_GPU, .create = be_create, .destroy = be_destroy,
                                             .set_state = be_set, .get_state = be_get, .stage = be_stage,
                                             .advance = be_advance, .stages = scheme_one_stage,
                                             .describe = be_describe, .precision = be_precision, .finish = be_finish,
                                             .device = &device, .probe = &probe, .halo = &halo};
