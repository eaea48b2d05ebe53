/* sediment_scheme.c — scheme = sediment (Su et al. 2013; docs/sediment.md): the problem
 * from a scenario (dt: 0.9 x the stability limit, or the user's, refused above the
 * limit), and what a run of it writes: h and s as ESRI grids, height.png, sand.png. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sediment_keys.h"
#include "sediment_scheme.h"

static void setup_free(scheme_setup *s)
{
    sed_setup *ss = s->problem;
    if (ss) {
        free(ss->alpha);
        free(ss->beta);
    }
    scheme_setup_release(s);
}

static swgl_status setup(const scenario *sc, scheme_setup *s)
{
    const sediment_params *sp = sc->params;
    int nx = sc->nx, ny = sc->ny;
    size_t n = grid_size(nx, ny);
    swgl_status st = scheme_setup_begin(s, sc, sizeof(sed_setup), 2, 0);
    if (st != SWGL_OK) return st;
    sed_setup *ss = s->problem;
    if (!(ss->alpha = calloc(n, sizeof(double))) || !(ss->beta = calloc(n, sizeof(double)))) {
        setup_free(s);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    }
    if (!sp->alpha || !sp->beta || !sp->height || !sp->sand) {
        setup_free(s);
        return swgl_fail(SWGL_ERR_INPUT, "the scenario defines no sediment fields");
    }
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            size_t k = grid_in(nx, i, j), q = (size_t)j * nx + i;
            ss->alpha[k] = sp->alpha[q];
            ss->beta[k] = sp->beta[q];
            s->init[0][k] = sp->height[q];
            s->init[1][k] = sp->sand[q];
        }
    sed_problem *p = &ss->p;
    p->nx = nx;
    p->ny = ny;
    p->dx = sc->dx;
    p->dy = sc->dy;
    p->cs = sp->cs;
    p->cm = sp->cm;
    p->layer = sp->layer;
    p->alpha = ss->alpha;
    p->beta = ss->beta;
    p->form = sp->form == 0 ? SED_FORM_PAPER : SED_FORM_CONSERVATIVE;
    p->inflow_side = SED_NONE;
    if (sp->inflow_side >= 0 && sp->inflow_sand + sp->inflow_mud > 0) {
        int side = sp->inflow_side, len = side <= SIDE_EAST ? ny : nx;
        double d = side <= SIDE_EAST ? sc->dy : sc->dx, tol = 1e-9 * d;
        int first = 0, last = -1;
        for (int m = 1; m <= len; m++) {
            double x = (m - 1) * d;
            if (x >= sp->inflow_from - tol && x <= sp->inflow_to + tol) {
                if (!first) first = m;
                last = m;
            }
        }
        if (!first) {
            setup_free(s);
            return swgl_fail(SWGL_ERR_INPUT,
                             "sediment.inflow_from = %g, inflow_to = %g m: no grid point of the side (spacing %g m, "
                             "0 to %g m) lies in that range",
                             sp->inflow_from, sp->inflow_to, d, (len - 1) * d);
        }
        p->inflow_side = (enum sed_side)side;
        p->inflow_first = first;
        p->inflow_last = last;
        p->inflow_sand = sp->inflow_sand;
        p->inflow_mud = sp->inflow_mud;
    }
    ss->dt_limit = sed_dt_limit_state(p, s->init[0]);
    if (sp->dt > 0) {
        if (sp->dt > ss->dt_limit) {
            double lim = ss->dt_limit;
            setup_free(s);
            return swgl_fail(SWGL_ERR_INPUT,
                             "sediment.dt = %g s is above the stability limit %g s of this problem "
                             "(docs/sediment.md, section 5); give at most %g s, or leave it empty for 0.9 x the limit",
                             sp->dt, lim, lim);
        }
        p->dt = sp->dt;
    } else {
        if (!isfinite(ss->dt_limit)) {
            setup_free(s);
            return swgl_fail(SWGL_ERR_INPUT, "alpha and beta are 0 everywhere: nothing moves, and dt has no limit to "
                                             "derive it from; give sediment.dt");
        }
        p->dt = 0.9 * ss->dt_limit;
    }
    s->t_end = sp->steps > 0 ? sp->steps * p->dt : sc->t_end;
    if (!(s->t_end > 0)) s->t_end = p->dt;
    return SWGL_OK;
}

/* A block of the grid for a rank of a run over MPI (scheme_desc window): alpha and beta of
 * the block and its ring from g's, the river mouth's points where the block's window meets
 * its side (the rates are per unit length, so each point's inflow is its own); the step is
 * the problem's, the same on every rank, so every point's bound is the global one */
static swgl_status window(const scheme_setup *g, const int win[4], const int own[4], scheme_setup *l)
{
    (void)own;
    const sed_setup *gs = g->problem;
    swgl_status st = scheme_window_begin(g, win, sizeof(sed_setup), 2, l);
    if (st != SWGL_OK) return st;
    sed_setup *ss = l->problem;
    size_t n = grid_size(l->nx, l->ny);
    if (!(ss->alpha = malloc(n * sizeof(double))) || !(ss->beta = malloc(n * sizeof(double)))) {
        setup_free(l);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory for a %dx%d block", l->nx, l->ny);
    }
    scheme_window_field(gs->alpha, g->nx, win, ss->alpha);
    scheme_window_field(gs->beta, g->nx, win, ss->beta);
    ss->p = gs->p;
    ss->dt_limit = gs->dt_limit;
    ss->p.nx = l->nx;
    ss->p.ny = l->ny;
    ss->p.alpha = ss->alpha;
    ss->p.beta = ss->beta;
    if (gs->p.inflow_side != SED_NONE) {
        int side = gs->p.inflow_side, along = side == SED_WEST || side == SED_EAST;
        int meets = side == SED_WEST ? win[0] == 0 : side == SED_EAST ? win[2] == g->nx
                  : side == SED_SOUTH ? win[1] == 0 : win[3] == g->ny;
        int off = along ? win[1] : win[0], len = along ? l->ny : l->nx;
        int first = gs->p.inflow_first - off, last = gs->p.inflow_last - off;
        if (first < 1) first = 1;
        if (last > len) last = len;
        if (!meets || first > last) ss->p.inflow_side = SED_NONE;
        else ss->p.inflow_first = first, ss->p.inflow_last = last;
    }
    return SWGL_OK;
}

/* The points around a block a step reads: the s pass reads h^{l+1} of its neighbours,
 * which the h pass makes from theirs: 2 */
static int halo(const scheme_setup *s)
{
    (void)s;
    return 2;
}

static const char *form_name(const scheme_setup *s)
{
    return ((const sed_setup *)s->problem)->p.form == SED_FORM_PAPER ? "paper" : "conservative";
}

static void ranges(const scheme_setup *s, const double *v, double *mn, double *mx)
{
    *mn = INFINITY;
    *mx = -INFINITY;
    for (int j = 0; j < s->ny; j++)
        for (int i = 0; i < s->nx; i++) {
            double x = v[grid_in(s->nx, i, j)];
            *mn = fmin(*mn, x);
            *mx = fmax(*mx, x);
        }
}

static swgl_status write_grids(const scheme_setup *s, double *const *f, outdir *od, const char *suffix)
{
    const scenario *sc = s->sc;
    static const char *names[2] = {"h", "s"};
    swgl_status st = SWGL_OK;
    for (int k = 0; k < 2 && st == SWGL_OK; k++) {
        double *v = grid_interior(f[k], s->nx, s->ny);
        char name[96];
        snprintf(name, sizeof name, "%s%s", names[k], suffix);
        st = v ? grid_write(od, name, sc->grids, s->nx, s->ny, sc->xll, sc->yll, sc->dx, sc->dy, v, NULL)
               : swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
        free(v);
    }
    return st;
}

/* [output] frames: the basin height at time t over the initial height's range */
static swgl_status write_frame(const scheme_setup *s, double *const *f, outdir *od, const char *suffix, double t)
{
    double hmin, hmax;
    ranges(s, s->init[0], &hmin, &hmax);
    double *hi = grid_interior(f[0], s->nx, s->ny);
    if (!hi) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    char title[200], file[96];
    snprintf(title, sizeof title, "basin height h, t = %.6g s", t);
    snprintf(file, sizeof file, "height%s.png", suffix);
    swgl_status st = png_write_field(outdir_path(od, file), s->nx, s->ny, hi, NULL, hi, hmin,
                                     hmax > hmin ? hmax : hmin + 1, CMAP_TERRAIN, 0, title, "m");
    free(hi);
    return st;
}

static swgl_status write_final(const scheme_setup *s, double *const *f, outdir *od, const char *backend,
                               char *written, size_t len)
{
    double hmin, hmax;
    ranges(s, f[0], &hmin, &hmax);
    double *hi = grid_interior(f[0], s->nx, s->ny), *si = grid_interior(f[1], s->nx, s->ny);
    swgl_status st = SWGL_OK;
    if (!hi || !si) st = swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    char title[200];
    if (st == SWGL_OK) {
        snprintf(title, sizeof title, "basin height h, t = %.4g s (%s)", s->t_end, backend);
        st = png_write_field(outdir_path(od, "height.png"), s->nx, s->ny, hi, NULL, hi, hmin,
                             hmax > hmin ? hmax : hmin + 1, CMAP_TERRAIN, 0, title, "m");
    }
    if (st == SWGL_OK) {
        snprintf(title, sizeof title, "sand fraction s, t = %.4g s (%s form)", s->t_end, form_name(s));
        st = png_write_field(outdir_path(od, "sand.png"), s->nx, s->ny, si, NULL, NULL, 0, 1, CMAP_VIRIDIS, 0, title,
                             "-");
    }
    free(hi);
    free(si);
    const char *e = grid_format_ext(s->sc->grids, s->nx, s->ny);
    snprintf(written, len, "h.%s s.%s%s, height.png sand.png", e, e, e[0] == 'f' ? " (with their .hdr)" : "");
    return st;
}

static void summary(const scheme_setup *s, double *const *f, json_writer *w)
{
    const sed_setup *ss = s->problem;
    double hmin, hmax, smin, smax;
    ranges(s, f[0], &hmin, &hmax);
    ranges(s, f[1], &smin, &smax);
    json_str(w, "form", form_name(s));
    json_num(w, "dt", ss->p.dt);
    json_num(w, "dt_limit", ss->dt_limit);
    json_num(w, "h_min", hmin);
    json_num(w, "h_max", hmax);
    json_num(w, "s_min", smin);
    json_num(w, "s_max", smax);
}

static void print(const scheme_setup *s, double *const *f, FILE *out)
{
    double hmin, hmax, smin, smax;
    ranges(s, f[0], &hmin, &hmax);
    ranges(s, f[1], &smin, &smax);
    fprintf(out, "  h in [%.6g, %.6g] m, s in [%.6g, %.6g], %s form\n", hmin, hmax, smin, smax, form_name(s));
}

static void describe_run(const scheme_setup *s, char *line, size_t len)
{
    const sed_setup *ss = s->problem;
    snprintf(line, len, "steps of %g s (limit %g s), %s form", ss->p.dt, ss->dt_limit, form_name(s));
}

const scheme_desc scheme_sediment = {
    .name = "sediment",
    .n_fields = 2,
    .fields = {"h", "s"},
    .cell_word = "points",
    .setup = setup,
    .setup_free = setup_free,
    .write_grids = write_grids,
    .write_final = write_final,
    .write_frame = write_frame,
    .summary = summary,
    .print = print,
    .describe_run = describe_run,
    .window = window,
    .halo = halo,
    .backends = {&sediment_backend_gpu, &sediment_backend_cpu, &sediment_backend_cpu_scalar},
};
