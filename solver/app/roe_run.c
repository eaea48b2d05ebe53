/* roe_run.c — `swgl run` for scheme = roe: run the scenario on the chosen backend
 * (and, with --compare, on a second one), then write summary.json, the final state as
 * ESRI grids, a picture of the depth, and the longitudinal cut along the domain's
 * middle (the cut of Lastra's Figures 12-13 for lastra-test2, y = 2.5 m). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_context.h"
#include "output.h"
#include "roe.h"

typedef struct fields {
    int nx, ny;
    double *h, *qx, *qy;      /* ghost-ring layout */
} fields;

static int fields_alloc(fields *f, int nx, int ny)
{
    size_t n = (size_t)(nx + 2) * (ny + 2);
    f->nx = nx;
    f->ny = ny;
    f->h = calloc(n, sizeof(double));
    f->qx = calloc(n, sizeof(double));
    f->qy = calloc(n, sizeof(double));
    return f->h && f->qx && f->qy ? 0 : -1;
}

static void fields_free(fields *f)
{
    free(f->h);
    free(f->qx);
    free(f->qy);
}

/* interior cell (i, j) of an nx*ny field, row j = 0 southern */
static size_t ring(int nx, int i, int j) { return (size_t)(j + 1) * (nx + 2) + (i + 1); }

typedef struct norms { double l1_h, l1_q, linf_h; } norms;

static norms difference(const fields *a, const fields *b, const unsigned char *code)
{
    double dh = 0, nh = 0, dq = 0, nq = 0, mx = 0;
    for (int j = 0; j < a->ny; j++)
        for (int i = 0; i < a->nx; i++) {
            size_t k = ring(a->nx, i, j);
            if (code[k] != SWE_ACTIVE) continue;
            double e = fabs(a->h[k] - b->h[k]);
            dh += e;
            nh += fabs(b->h[k]);
            mx = e > mx ? e : mx;
            dq += fabs(a->qx[k] - b->qx[k]) + fabs(a->qy[k] - b->qy[k]);
            nq += fabs(b->qx[k]) + fabs(b->qy[k]);
        }
    norms n = {nh > 0 ? dh / nh : dh, nq > 0 ? dq / nq : dq, mx};
    return n;
}

typedef struct snap_ctx {
    const scenario *sc;
    const roe_setup *setup;
    outdir *od;
    fields *f;
    char *err;
    size_t errlen;
} snap_ctx;

static int write_grids(const scenario *sc, const roe_setup *s, const fields *f, outdir *od, const char *suffix,
                       char *err, size_t errlen)
{
    int nx = sc->nx, ny = sc->ny, rc = 0;
    double *h = ring_interior(f->h, nx, ny), *qx = ring_interior(f->qx, nx, ny),
           *qy = ring_interior(f->qy, nx, ny), *eta = ring_interior(f->h, nx, ny);
    if (!h || !qx || !qy || !eta) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    } else {
        for (size_t k = 0; k < (size_t)nx * ny; k++) eta[k] += sc->bed[k];   /* eta = z_b + h */
    }
    const char *names[4] = {"h", "qx", "qy", "eta"};
    double *vals[4] = {h, qx, qy, eta};
    for (int k = 0; k < 4 && rc == 0; k++) {
        char file[96];
        snprintf(file, sizeof file, "%s%s.asc", names[k], suffix);
        rc = asc_write(outdir_path(od, file), nx, ny, sc->xll, sc->yll, sc->dx, sc->dy, vals[k], sc->active, err,
                       errlen);
    }
    (void)s;
    free(h);
    free(qx);
    free(qy);
    free(eta);
    return rc;
}

static int on_stop(void *user, double t, roe_engine *e)
{
    snap_ctx *c = user;
    if (t >= c->sc->t_end) return 0;
    char suffix[64];
    snprintf(suffix, sizeof suffix, "_t%g", t);
    if (roe_engine_get(e, c->f->h, c->f->qx, c->f->qy, c->err, c->errlen)) return -1;
    return write_grids(c->sc, c->setup, c->f, c->od, suffix, c->err, c->errlen);
}

static int write_cut(const scenario *sc, const fields *f, const char *path, char *err, size_t errlen)
{
    /* the row(s) whose centre is nearest the middle: one row for odd ny, the mean of two for even */
    int nx = sc->nx, ny = sc->ny, j0 = (ny - 1) / 2, j1 = ny / 2;
    FILE *o = fopen(path, "w");
    if (!o) {
        snprintf(err, errlen, "%s: cannot write", path);
        return -1;
    }
    fprintf(o, "# longitudinal cut at y = %g m (cell rows %d..%d averaged)\n", sc->yll + 0.5 * ny * sc->dy, j0, j1);
    fprintf(o, "x_m,bed_m,h_m,eta_m,qx_m2s\n");
    for (int i = 0; i < nx; i++) {
        double b = 0.5 * (sc->bed[(size_t)j0 * nx + i] + sc->bed[(size_t)j1 * nx + i]);
        double h = 0.5 * (f->h[ring(nx, i, j0)] + f->h[ring(nx, i, j1)]);
        double q = 0.5 * (f->qx[ring(nx, i, j0)] + f->qx[ring(nx, i, j1)]);
        fprintf(o, "%.9g,%.9g,%.9g,%.9g,%.9g\n", sc->xll + (i + 0.5) * sc->dx, b, h, b + h, q);
    }
    if (fclose(o)) {
        snprintf(err, errlen, "%s: write failed", path);
        return -1;
    }
    return 0;
}

int roe_run(const scenario *sc, const run_options *opt)
{
    char err[2048] = "";
    roe_setup s;
    roe_engine main_e = {0}, other = {0};
    fields f = {0}, g = {0};
    outdir *od = NULL;
    gpu_context *ctx = NULL;
    int rc = 1, have_other = 0;
    double *stops = NULL;
    long steps = 0, steps_other = 0;
    double wall = 0, wall_other = 0;
    norms nd = {0};

    if (roe_setup_build(&s, sc, err, sizeof err)) goto fail;
    if (opt->backend == BACKEND_GPU || opt->compare == BACKEND_GPU) {
        gpu_context_desc d = {opt->device, opt->device >= 0};
        if (gpu_context_create(&d, &ctx) != SWGL_OK) {
            snprintf(err, sizeof err, "%s", swgl_last_error());
            goto fail;
        }
    }
    const char *renderer = ctx ? gpu_context_info(ctx)->renderer : "none";
    if (fields_alloc(&f, sc->nx, sc->ny) || fields_alloc(&g, sc->nx, sc->ny)) {
        snprintf(err, sizeof err, "out of memory");
        goto fail;
    }
    if (!(od = outdir_open(opt->out_dir, err, sizeof err))) goto fail;

    int nstops = 0;
    stops = malloc((size_t)(sc->n_output_times + 1) * sizeof(double));
    if (!stops) goto fail;
    for (int i = 0; i < sc->n_output_times; i++)
        if (sc->output_times[i] < sc->t_end) stops[nstops++] = sc->output_times[i];
    stops[nstops++] = sc->t_end;

    if (roe_engine_open(&main_e, opt->backend, &s, renderer, err, sizeof err)) goto fail;
    if (!opt->quiet)
        fprintf(stderr, "swgl: %s, %dx%d cells, to t = %g s on %s\n", sc->source, sc->nx, sc->ny, sc->t_end,
                main_e.name);
    snap_ctx sctx = {sc, &s, od, &f, err, sizeof err};
    if (roe_engine_run(&main_e, stops, nstops, opt->progress, &steps, &wall, on_stop, &sctx, err, sizeof err))
        goto fail;
    if (roe_engine_get(&main_e, f.h, f.qx, f.qy, err, sizeof err)) goto fail;
    roe_engine_close(&main_e);

    if (opt->compare != BACKEND_NONE) {
        if (roe_engine_open(&other, opt->compare, &s, renderer, err, sizeof err)) goto fail;
        if (!opt->quiet) fprintf(stderr, "swgl: comparing with %s\n", other.name);
        if (roe_engine_run(&other, &sc->t_end, 1, opt->progress, &steps_other, &wall_other, NULL, NULL, err,
                           sizeof err) ||
            roe_engine_get(&other, g.h, g.qx, g.qy, err, sizeof err))
            goto fail;
        nd = difference(&f, &g, s.code);
        have_other = 1;
    }

    /* checks and sums */
    double cell = sc->dx * sc->dy;
    double m0 = ring_volume(s.h, s.code, sc->nx, sc->ny, cell), m1 = ring_volume(f.h, s.code, sc->nx, sc->ny, cell);
    double hmin = INFINITY, hmax = 0;
    long nan_cells = 0;
    for (int j = 0; j < sc->ny; j++)
        for (int i = 0; i < sc->nx; i++) {
            size_t k = ring(sc->nx, i, j);
            if (s.code[k] != SWE_ACTIVE) continue;
            if (!isfinite(f.h[k]) || !isfinite(f.qx[k]) || !isfinite(f.qy[k])) nan_cells++;
            hmin = f.h[k] < hmin ? f.h[k] : hmin;
            hmax = f.h[k] > hmax ? f.h[k] : hmax;
        }
    if (nan_cells) {
        snprintf(err, sizeof err, "%ld cells hold NaN or infinity at t = %g s", nan_cells, sc->t_end);
        goto fail;
    }
    long active = 0;
    for (size_t k = 0; k < (size_t)(sc->nx + 2) * (sc->ny + 2); k++) active += s.code[k] == SWE_ACTIVE;
    double cps = wall > 0 ? (double)active * steps / wall : 0;

    /* outputs */
    if (write_grids(sc, &s, &f, od, "", err, sizeof err)) goto fail;
    if (write_cut(sc, &f, outdir_path(od, "cut_y.csv"), err, sizeof err)) goto fail;
    {
        double *h = ring_interior(f.h, sc->nx, sc->ny);
        char title[160];
        snprintf(title, sizeof title, "depth h, t = %g s (%s)", sc->t_end, backend_name(opt->backend));
        int prc = h ? png_write_field(outdir_path(od, "depth.png"), sc->nx, sc->ny, h, sc->active, sc->bed, 0,
                                      hmax > 0 ? hmax : 1, CMAP_DEPTH, 0, title, "m", err, sizeof err)
                    : -1;
        free(h);
        if (prc) goto fail;
    }
    json_writer *w = json_open(outdir_path(od, "summary.json"), err, sizeof err);
    if (!w) goto fail;
    json_str(w, "scheme", "roe");
    json_str(w, "source", sc->source);
    json_str(w, "backend", backend_name(opt->backend));
    json_str(w, "solver", main_e.name);
    json_str(w, "renderer", opt->backend == BACKEND_GPU ? renderer : "none (CPU)");
    json_str(w, "precision", opt->backend == BACKEND_CPU_SCALAR ? "double" : "single");
    json_int(w, "nx", sc->nx);
    json_int(w, "ny", sc->ny);
    json_num(w, "dx", sc->dx);
    json_num(w, "dy", sc->dy);
    json_int(w, "active_cells", active);
    json_int(w, "steps", steps);
    json_num(w, "t_end", sc->t_end);
    json_num(w, "cfl", sc->cfl);
    json_num(w, "wall_s", wall);
    json_num(w, "cells_per_s", cps);
    json_num(w, "mass_initial", m0);
    json_num(w, "mass_final", m1);
    json_num(w, "mass_rel_change", m0 > 0 ? (m1 - m0) / m0 : 0);
    json_num(w, "h_min", hmin);
    json_num(w, "h_max", hmax);
    if (have_other) {
        json_begin_object(w, "compare");
        json_str(w, "backend", backend_name(opt->compare));
        json_str(w, "solver", other.name);
        json_int(w, "steps", steps_other);
        json_num(w, "wall_s", wall_other);
        json_num(w, "l1_rel_h", nd.l1_h);
        json_num(w, "l1_rel_q", nd.l1_q);
        json_num(w, "linf_h", nd.linf_h);
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
        printf("%s: %dx%d cells, t = %g s in %ld steps on %s\n", sc->source, sc->nx, sc->ny, sc->t_end, steps,
               main_e.name);
        printf("  wall %.3f s, %.2f Mcell-updates/s\n", wall, cps / 1e6);
        printf("  water volume %.9g -> %.9g m^3 (relative change %.2e)\n", m0, m1, m0 > 0 ? (m1 - m0) / m0 : 0);
        if (have_other)
            printf("  vs %s: %.3f s (%.1fx), relative L1 difference h %.2e, q %.2e\n", other.name, wall_other,
                   wall > 0 ? wall_other / wall : 0, nd.l1_h, nd.l1_q);
        printf("  wrote %s/summary.json, h.asc qx.asc qy.asc eta.asc, depth.png, cut_y.csv\n", opt->out_dir);
    }
    rc = 0;
fail:
    if (rc) fprintf(stderr, "\nswgl: %s: %s\n", sc->source, err[0] ? err : "failed");
    outdir_abort(od);
    roe_engine_close(&main_e);
    roe_engine_close(&other);
    fields_free(&f);
    fields_free(&g);
    free(stops);
    roe_setup_free(&s);
    gpu_context_destroy(ctx);
    return rc;
}
