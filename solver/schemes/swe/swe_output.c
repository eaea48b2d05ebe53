/* swe_output.c — what a shallow-water run (roe, kp) writes and reports: h, qx, qy, eta as
 * ESRI grids (ASCII, or binary floats for large grids: output.h grid_write), a picture of the depth, the longitudinal cut along the domain's middle
 * (the cut of Lastra's Figures 12-13 for lastra-test2, y = 2.5 m), and the depth range
 * in the summary.  The state fields are (h, qx, qy) on the ghost-ring grid for every
 * shallow-water scheme; eta = bed + h with the scenario's bed (for kp, the cell averages
 * of its bilinear bed). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swe_output.h"

swgl_status swe_write_grids(const scheme_setup *s, double *const *f, outdir *od, const char *suffix)
{
    const scenario *sc = s->sc;
    int nx = s->nx, ny = s->ny;
    swgl_status st = SWGL_OK;
    /* (the fields as they lie, with their ghost ring: no copy; eta = z_b + h) */
    static const char *names[4] = {"h", "qx", "qy", "eta"};
    for (int k = 0; k < 4 && st == SWGL_OK; k++) {
        char name[96];
        snprintf(name, sizeof name, "%s%s", names[k], suffix);
        const grid_values g = {&f[k < 3 ? k : 0][grid_in(nx, 0, 0)], (size_t)grid_stride(nx), k == 3 ? sc->bed : NULL,
                               sc->active, 0};
        st = grid_write_at(od, name, sc->grids, nx, ny, sc->xll, sc->yll, sc->dx, sc->dy, &g);
    }
    return st;
}

static void h_range(const scheme_setup *s, const double *h, double *hmin, double *hmax)
{
    double lo = INFINITY, hi = 0;
#pragma omp parallel for schedule(static) reduction(min : lo) reduction(max : hi)
    for (int j = 0; j < s->ny; j++)
        for (int i = 0; i < s->nx; i++) {
            size_t k = grid_in(s->nx, i, j);
            if (s->code[k] != CELL_ACTIVE) continue;
            lo = fmin(lo, h[k]);
            hi = fmax(hi, h[k]);
        }
    *hmin = lo;
    *hmax = hi;
}

/* the row(s) whose centre is nearest the middle: one row for odd ny, the mean of two for even */
static swgl_status write_cut(const scheme_setup *s, double *const *f, const char *path)
{
    const scenario *sc = s->sc;
    int nx = s->nx, ny = s->ny, j0 = (ny - 1) / 2, j1 = ny / 2;
    FILE *o = fopen(path, "w");
    if (!o) return swgl_fail(SWGL_ERR_IO, "%s: cannot write", path);
    fprintf(o, "# longitudinal cut at y = %g m (cell rows %d..%d averaged)\n", sc->yll + 0.5 * ny * sc->dy, j0, j1);
    fprintf(o, "x_m,bed_m,h_m,eta_m,qx_m2s\n");
    for (int i = 0; i < nx; i++) {
        double b = 0.5 * (sc->bed[(size_t)j0 * nx + i] + sc->bed[(size_t)j1 * nx + i]);
        double h = 0.5 * (f[0][grid_in(nx, i, j0)] + f[0][grid_in(nx, i, j1)]);
        double q = 0.5 * (f[1][grid_in(nx, i, j0)] + f[1][grid_in(nx, i, j1)]);
        fprintf(o, "%.9g,%.9g,%.9g,%.9g,%.9g\n", sc->xll + (i + 0.5) * sc->dx, b, h, b + h, q);
    }
    if (fclose(o)) return swgl_fail(SWGL_ERR_IO, "%s: write failed", path);
    return SWGL_OK;
}

swgl_status swe_write_final(const scheme_setup *s, double *const *f, outdir *od, const char *backend,
                               char *written, size_t len)
{
    const scenario *sc = s->sc;
    swgl_status st = write_cut(s, f, outdir_path(od, "cut_y.csv"));
    if (st != SWGL_OK) return st;
    double hmin, hmax;
    h_range(s, f[0], &hmin, &hmax);
    char title[160];
    snprintf(title, sizeof title, "depth h, t = %g s (%s)", s->t_end, backend);
    /* (the depth read where it lies, with its ghost ring: a grid past 2048 cells a side is
     * drawn every so many cells from it, a smaller one's interior copied first) */
    st = png_write_field_at(outdir_path(od, "depth.png"), s->nx, s->ny, &f[0][grid_in(s->nx, 0, 0)],
                            (size_t)grid_stride(s->nx), sc->active, sc->bed, 0, hmax > 0 ? hmax : 1, CMAP_DEPTH, 0,
                            title, "m");
    const char *e = grid_format_ext(sc->grids, s->nx, s->ny);
    snprintf(written, len, "h.%s qx.%s qy.%s eta.%s%s, depth.png, cut_y.csv", e, e, e, e,
             e[0] == 'f' ? " (with their .hdr)" : "");
    return st;
}

swgl_status swe_write_frame(const scheme_setup *s, double *const *f, outdir *od, const char *suffix, double t)
{
    const scenario *sc = s->sc;
    double h0min, h0max, hmin, hmax;
    h_range(s, s->init[0], &h0min, &h0max);
    h_range(s, f[0], &hmin, &hmax);
    double top = h0max > 0 ? h0max : hmax > 0 ? hmax : 1;   /* the initial depth's scale */
    char title[160], file[96];
    snprintf(title, sizeof title, "depth h, t = %.6g s", t);
    snprintf(file, sizeof file, "depth%s.png", suffix);
    return png_write_field_at(outdir_path(od, file), s->nx, s->ny, &f[0][grid_in(s->nx, 0, 0)],
                              (size_t)grid_stride(s->nx), sc->active, sc->bed, 0, top, CMAP_DEPTH, 0, title, "m");
}

static long active_cells(const scheme_setup *s)
{
    long a = 0;
    for (size_t k = 0; k < grid_size(s->nx, s->ny); k++) a += s->code[k] == CELL_ACTIVE;
    return a;
}

void swe_summary(const scheme_setup *s, double *const *f, json_writer *w)
{
    double hmin, hmax;
    h_range(s, f[0], &hmin, &hmax);
    json_int(w, "active_cells", active_cells(s));
    json_num(w, "cfl", s->sc->cfl);
    json_num(w, "h_min", hmin);
    json_num(w, "h_max", hmax);
}

void swe_print(const scheme_setup *s, double *const *f, FILE *out)
{
    double hmin, hmax;
    h_range(s, f[0], &hmin, &hmax);
    fprintf(out, "  h in [%.6g, %.6g] m over %ld active cells\n", hmin, hmax, active_cells(s));
}

