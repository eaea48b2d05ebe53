/* sediment_run.c — `swgl run` for scheme = sediment (Su et al. 2013; docs/sediment.md):
 * build the problem from the scenario, choose dt (0.9 x the stability limit, or the
 * user's, refused above the limit), run it on the chosen backend (gpu in single or
 * double precision, cpu = SSE2 + OpenMP, cpu-scalar) and, with --compare, on a second
 * one; write summary.json, h.asc, s.asc, height.png, sand.png. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_info.h"
#include "gpu_context.h"
#include "output.h"
#include "run.h"
#include "sediment_gpu.h"

void sed_setup_free(sed_setup *s)
{
    free(s->alpha);
    free(s->beta);
    free(s->h);
    free(s->s);
    memset(s, 0, sizeof *s);
}

int sed_setup_build(sed_setup *s, const scenario *sc, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    int nx = sc->nx, ny = sc->ny, W = nx + 2;
    size_t n = (size_t)(nx + 2) * (ny + 2);
    s->alpha = calloc(n, sizeof(double));
    s->beta = calloc(n, sizeof(double));
    s->h = calloc(n, sizeof(double));
    s->s = calloc(n, sizeof(double));
    if (!s->alpha || !s->beta || !s->h || !s->s) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    if (!sc->alpha || !sc->beta || !sc->height || !sc->sand) {
        snprintf(err, errlen, "the scenario defines no sediment fields");
        goto fail;
    }
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            size_t k = (size_t)(j + 1) * W + (i + 1), q = (size_t)j * nx + i;
            s->alpha[k] = sc->alpha[q];
            s->beta[k] = sc->beta[q];
            s->h[k] = sc->height[q];
            s->s[k] = sc->sand[q];
        }
    sed_problem *p = &s->p;
    p->nx = nx;
    p->ny = ny;
    p->dx = sc->dx;
    p->dy = sc->dy;
    p->cs = sc->cs;
    p->cm = sc->cm;
    p->layer = sc->layer;
    p->alpha = s->alpha;
    p->beta = s->beta;
    p->form = sc->sed_form == 0 ? SED_FORM_PAPER : SED_FORM_CONSERVATIVE;
    p->inflow_side = SED_NONE;
    if (sc->inflow_side >= 0 && sc->inflow_sand + sc->inflow_mud > 0) {
        int side = sc->inflow_side, len = side <= SIDE_EAST ? ny : nx;
        double d = side <= SIDE_EAST ? sc->dy : sc->dx, tol = 1e-9 * d;
        int first = 0, last = -1;
        for (int m = 1; m <= len; m++) {
            double x = (m - 1) * d;
            if (x >= sc->inflow_from - tol && x <= sc->inflow_to + tol) {
                if (!first) first = m;
                last = m;
            }
        }
        if (!first) {
            snprintf(err, errlen, "sediment.inflow_from = %g, inflow_to = %g m: no grid point of the side (spacing %g m, "
                     "0 to %g m) lies in that range", sc->inflow_from, sc->inflow_to, d, (len - 1) * d);
            goto fail;
        }
        p->inflow_side = (enum sed_side)side;
        p->inflow_first = first;
        p->inflow_last = last;
        p->inflow_sand = sc->inflow_sand;
        p->inflow_mud = sc->inflow_mud;
    }
    s->dt_limit = sed_dt_limit_state(p, s->h);
    if (sc->sed_dt > 0) {
        if (sc->sed_dt > s->dt_limit) {
            snprintf(err, errlen, "sediment.dt = %g s is above the stability limit %g s of this problem "
                     "(docs/sediment.md, section 5); give at most %g s, or leave it empty for 0.9 x the limit",
                     sc->sed_dt, s->dt_limit, s->dt_limit);
            goto fail;
        }
        p->dt = sc->sed_dt;
    } else {
        if (!isfinite(s->dt_limit)) {
            snprintf(err, errlen, "alpha and beta are 0 everywhere: nothing moves, and dt has no limit to derive it "
                     "from; give sediment.dt");
            goto fail;
        }
        p->dt = 0.9 * s->dt_limit;
    }
    if (sc->sed_steps > 0) s->steps = sc->sed_steps;
    else s->steps = (int)ceil(sc->t_end / p->dt - 1e-9);
    if (s->steps < 1) s->steps = 1;
    return 0;
fail:
    sed_setup_free(s);
    return -1;
}

/* ---- one backend ----------------------------------------------------------------- */
typedef struct engine {
    enum backend b;
    sed_gpu *g;
    sed_cpu *c;
    int dbl;
    char name[200];
} engine;

static void engine_close(engine *e)
{
    sed_gpu_destroy(e->g);
    sed_cpu_destroy(e->c);
    e->g = NULL;
    e->c = NULL;
}

static int engine_open(engine *e, enum backend b, int dbl, const sed_setup *s, const char *renderer, char *err,
                       size_t errlen)
{
    memset(e, 0, sizeof *e);
    e->b = b;
    if (b == BACKEND_GPU) {
        e->dbl = dbl;
        if (sed_gpu_create(&s->p, dbl, &e->g) != SWGL_OK || sed_gpu_set_state(e->g, s->h, s->s) != SWGL_OK) {
            snprintf(err, errlen, "%s", swgl_last_error());
            engine_close(e);
            return -1;
        }
        snprintf(e->name, sizeof e->name, "gpu %s (%s)", dbl ? "double" : "single", renderer);
        return 0;
    }
    e->dbl = 1;
    e->c = sed_cpu_create(&s->p, b == BACKEND_CPU ? SED_CPU_FAST : SED_CPU_SCALAR, err, (int)errlen);
    if (!e->c) return -1;
    sed_cpu_set_state(e->c, s->h, s->s);
    if (b == BACKEND_CPU) snprintf(e->name, sizeof e->name, "%s, %d threads", sed_cpu_name(e->c), sed_cpu_threads(e->c));
    else snprintf(e->name, sizeof e->name, "%s", sed_cpu_name(e->c));
    return 0;
}

static int engine_run(engine *e, int steps, int progress, double *wall, char *err, size_t errlen)
{
    if (e->g) gpu_finish();
    double t0 = cpu_seconds();
    int chunk = progress ? 100 : steps;
    for (int done = 0; done < steps;) {
        int n = steps - done < chunk ? steps - done : chunk;
        if (e->g) {
            if (sed_gpu_run(e->g, n) != SWGL_OK) {
                snprintf(err, errlen, "%s", swgl_last_error());
                return -1;
            }
            if (progress) gpu_finish();
        } else if (sed_cpu_run(e->c, n)) {
            snprintf(err, errlen, "NaN after step %d (%s)", done + n, e->name);
            return -1;
        }
        done += n;
        if (progress) fprintf(stderr, "\r  %s: step %d / %d", e->name, done, steps);
    }
    if (e->g) gpu_finish();
    *wall = cpu_seconds() - t0;
    if (progress) fprintf(stderr, "\n");
    return 0;
}

static int engine_get(engine *e, double *h, double *s, char *err, size_t errlen)
{
    if (e->g) {
        if (sed_gpu_get_state(e->g, h, s) != SWGL_OK) {
            snprintf(err, errlen, "%s", swgl_last_error());
            return -1;
        }
    } else {
        sed_cpu_get_state(e->c, h, s);
    }
    return 0;
}

/* max |a - b| / max |b| over interior points */
static double rel_linf(const double *a, const double *b, int nx, int ny)
{
    double d = 0, m = 0;
    for (int j = 1; j <= ny; j++)
        for (int i = 1; i <= nx; i++) {
            size_t k = (size_t)j * (nx + 2) + i;
            d = fmax(d, fabs(a[k] - b[k]));
            m = fmax(m, fabs(b[k]));
        }
    return m > 0 ? d / m : d;
}

int sediment_run(const scenario *sc, const run_options *opt)
{
    char err[2048] = "";
    sed_setup s;
    engine e = {0}, o = {0};
    gpu_context *ctx = NULL;
    outdir *od = NULL;
    double *h = NULL, *sa = NULL, *h2 = NULL, *s2 = NULL, *hi = NULL, *si = NULL;
    int rc = 1, dbl = 1, have_other = 0;
    double wall = 0, wall_other = 0, lh = 0, ls = 0;
    memset(&s, 0, sizeof s);

    if (sed_setup_build(&s, sc, err, sizeof err)) goto fail;
    if (opt->backend == BACKEND_GPU || opt->compare == BACKEND_GPU) {
        gpu_context_desc d = {opt->device, opt->device >= 0};
        if (gpu_context_create(&d, &ctx) != SWGL_OK) {
            snprintf(err, sizeof err, "%s", swgl_last_error());
            goto fail;
        }
        const gpu_info *gi = gpu_context_info(ctx);
        if (opt->precision == PRECISION_DOUBLE && !gi->has_fp64) {
            snprintf(err, sizeof err, "--precision double: the renderer '%s' lacks GL_ARB_gpu_shader_fp64 (no doubles "
                     "in shaders); use --precision single", gi->renderer);
            goto fail;
        }
        dbl = opt->precision == PRECISION_SINGLE ? 0 : opt->precision == PRECISION_DOUBLE ? 1 : gi->has_fp64;
    }
    const char *renderer = ctx ? gpu_context_info(ctx)->renderer : "none";
    size_t n = (size_t)(sc->nx + 2) * (sc->ny + 2);
    h = malloc(n * sizeof(double));
    sa = malloc(n * sizeof(double));
    h2 = malloc(n * sizeof(double));
    s2 = malloc(n * sizeof(double));
    if (!h || !sa || !h2 || !s2) {
        snprintf(err, sizeof err, "out of memory");
        goto fail;
    }
    if (!(od = outdir_open(opt->out_dir, err, sizeof err))) goto fail;

    if (engine_open(&e, opt->backend, dbl, &s, renderer, err, sizeof err)) goto fail;
    if (!opt->quiet)
        fprintf(stderr, "swgl: %s, %dx%d points, %d steps of %g s (limit %g s), %s form, on %s\n", sc->source,
                sc->nx, sc->ny, s.steps, s.p.dt, s.dt_limit, s.p.form == SED_FORM_PAPER ? "paper" : "conservative",
                e.name);
    if (engine_run(&e, s.steps, opt->progress, &wall, err, sizeof err)) goto fail;
    if (engine_get(&e, h, sa, err, sizeof err)) goto fail;
    if (opt->compare != BACKEND_NONE) {
        if (engine_open(&o, opt->compare, dbl, &s, renderer, err, sizeof err)) goto fail;
        if (!opt->quiet) fprintf(stderr, "swgl: comparing with %s\n", o.name);
        if (engine_run(&o, s.steps, opt->progress, &wall_other, err, sizeof err) ||
            engine_get(&o, h2, s2, err, sizeof err))
            goto fail;
        lh = rel_linf(h, h2, sc->nx, sc->ny);
        ls = rel_linf(sa, s2, sc->nx, sc->ny);
        have_other = 1;
    }

    double cell = sc->dx * sc->dy;
    double m0 = ring_volume(s.h, NULL, sc->nx, sc->ny, cell), m1 = ring_volume(h, NULL, sc->nx, sc->ny, cell);
    double smin = INFINITY, smax = -INFINITY, hmin = INFINITY, hmax = -INFINITY;
    long bad = 0;
    for (int j = 1; j <= sc->ny; j++)
        for (int i = 1; i <= sc->nx; i++) {
            size_t k = (size_t)j * (sc->nx + 2) + i;
            if (!isfinite(h[k]) || !isfinite(sa[k])) bad++;
            smin = fmin(smin, sa[k]);
            smax = fmax(smax, sa[k]);
            hmin = fmin(hmin, h[k]);
            hmax = fmax(hmax, h[k]);
        }
    if (bad) {
        snprintf(err, sizeof err, "%ld points hold NaN or infinity after %d steps (%s form%s)", bad, s.steps,
                 s.p.form == SED_FORM_PAPER ? "paper" : "conservative",
                 s.p.form == SED_FORM_PAPER ? ": the printed (4) leaves [0, 1] and blows up, docs/sediment.md 6" : "");
        goto fail;
    }
    double t_end = s.steps * s.p.dt;
    double cps = wall > 0 ? (double)sc->nx * sc->ny * s.steps / wall : 0;
    const char *prec = opt->backend == BACKEND_GPU && !dbl ? "single" : "double";
    const char *form = s.p.form == SED_FORM_PAPER ? "paper" : "conservative";

    hi = ring_interior(h, sc->nx, sc->ny);
    si = ring_interior(sa, sc->nx, sc->ny);
    if (!hi || !si) {
        snprintf(err, sizeof err, "out of memory");
        goto fail;
    }
    if (asc_write(outdir_path(od, "h.asc"), sc->nx, sc->ny, sc->xll, sc->yll, sc->dx, sc->dy, hi, NULL, err,
                  sizeof err) ||
        asc_write(outdir_path(od, "s.asc"), sc->nx, sc->ny, sc->xll, sc->yll, sc->dx, sc->dy, si, NULL, err,
                  sizeof err))
        goto fail;
    {
        char title[200];
        snprintf(title, sizeof title, "basin height h, t = %.4g s (%s %s)", t_end, backend_name(opt->backend), prec);
        if (png_write_field(outdir_path(od, "height.png"), sc->nx, sc->ny, hi, NULL, hi, hmin,
                            hmax > hmin ? hmax : hmin + 1, CMAP_TERRAIN, 0, title, "m", err, sizeof err))
            goto fail;
        snprintf(title, sizeof title, "sand fraction s, t = %.4g s (%s form)", t_end, form);
        if (png_write_field(outdir_path(od, "sand.png"), sc->nx, sc->ny, si, NULL, NULL, 0, 1, CMAP_VIRIDIS, 0, title,
                            "-", err, sizeof err))
            goto fail;
    }
    json_writer *w = json_open(outdir_path(od, "summary.json"), err, sizeof err);
    if (!w) goto fail;
    json_str(w, "scheme", "sediment");
    json_str(w, "source", sc->source);
    json_str(w, "backend", backend_name(opt->backend));
    json_str(w, "solver", e.name);
    json_str(w, "renderer", opt->backend == BACKEND_GPU ? renderer : "none (CPU)");
    json_str(w, "precision", prec);
    json_str(w, "form", form);
    json_int(w, "nx", sc->nx);
    json_int(w, "ny", sc->ny);
    json_num(w, "dx", sc->dx);
    json_num(w, "dy", sc->dy);
    json_int(w, "steps", s.steps);
    json_num(w, "dt", s.p.dt);
    json_num(w, "dt_limit", s.dt_limit);
    json_num(w, "t_end", t_end);
    json_num(w, "wall_s", wall);
    json_num(w, "cells_per_s", cps);
    json_num(w, "mass_initial", m0);
    json_num(w, "mass_final", m1);
    json_num(w, "h_min", hmin);
    json_num(w, "h_max", hmax);
    json_num(w, "s_min", smin);
    json_num(w, "s_max", smax);
    if (have_other) {
        json_begin_object(w, "compare");
        json_str(w, "backend", backend_name(opt->compare));
        json_str(w, "solver", o.name);
        json_str(w, "precision", opt->compare == BACKEND_GPU && !dbl ? "single" : "double");
        json_num(w, "wall_s", wall_other);
        json_num(w, "linf_rel_h", lh);
        json_num(w, "linf_rel_s", ls);
        json_num(w, "speedup", wall > 0 ? wall_other / wall : 0);
        json_end_object(w);
    }
    if (json_close(w, err, sizeof err)) goto fail;
    if (outdir_commit(od, err, sizeof err)) {
        od = NULL;
        goto fail;
    }
    od = NULL;
    if (!opt->quiet) {
        printf("%s: %dx%d points, %d steps of %.6g s (t = %.6g s), %s form, on %s\n", sc->source, sc->nx, sc->ny,
               s.steps, s.p.dt, t_end, form, e.name);
        printf("  wall %.3f s, %.2f Mpoint-updates/s\n", wall, cps / 1e6);
        printf("  basin volume %.12g -> %.12g m^3 (change %.6g m^3)\n", m0, m1, m1 - m0);
        printf("  h in [%.6g, %.6g] m, s in [%.6g, %.6g]\n", hmin, hmax, smin, smax);
        if (have_other)
            printf("  vs %s: %.3f s (%.1fx), relative Linf difference h %.2e, s %.2e\n", o.name, wall_other,
                   wall > 0 ? wall_other / wall : 0, lh, ls);
        printf("  wrote %s/summary.json, h.asc s.asc, height.png sand.png\n", opt->out_dir);
    }
    rc = 0;
fail:
    if (rc) fprintf(stderr, "\nswgl: %s: %s\n", sc->source, err[0] ? err : "failed");
    outdir_abort(od);
    engine_close(&e);
    engine_close(&o);
    free(h);
    free(sa);
    free(h2);
    free(s2);
    free(hi);
    free(si);
    sed_setup_free(&s);
    gpu_context_destroy(ctx);
    return rc;
}
