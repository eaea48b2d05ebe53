/* sim_gauges.c — gauges.csv ([gauges], [output] gauge_interval; docs/outputs.md "Gauges"):
 * per gauge h, eta, u, v at the start, then after every step or at every gauge time, and at
 * the end; sampled from the running backend (scheme_sample: the GPU backends gather the
 * gauges' texels) or from the ghost-ring fields.  Opened by sim_outputs_open, written by the
 * gauges' observer and swgl_sim_finish (sim_outputs.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"

/* ---- gauges.csv ([gauges], [output] gauge_interval): per gauge h, eta, u, v at the start,
 * then after every step, or at every multiple of the interval, and at the end ------------- */

void gauge_free(gauge_ctx *g)
{
    if (g->f) fclose(g->f);
    free(g->cells);
    for (int q = 0; q < SCHEME_MAX_FIELDS; q++) free(g->v[q]);
    scheme_fields_free(&g->scratch);
    memset(g, 0, sizeof *g);
}

/* one line from the sampled fields v[0..2] = h, qx, qy */
static swgl_status gauge_line(gauge_ctx *g, double t)
{
    const scenario *sc = g->s->sc;
    fprintf(g->f, "%.9g", t);
    for (int m = 0; m < g->n; m++) {
        double h = g->v[0][m], bed = sc->bed[(size_t)sc->gauges[m].j * (size_t)sc->nx + (size_t)sc->gauges[m].i];
        int wet = h > sc->h_dry;
        fprintf(g->f, ",%.9g,%.9g,%.9g,%.9g", h, bed + h, wet ? g->v[1][m] / h : 0.0, wet ? g->v[2][m] / h : 0.0);
    }
    fputc('\n', g->f);
    g->last = t;
    if (ferror(g->f)) return swgl_fail(SWGL_ERR_IO, "%s: write failed", g->path);
    return SWGL_OK;
}

/* a line from ghost-ring fields (the initial state, the final one) */
swgl_status gauge_fields(gauge_ctx *g, double t, double *const *f)
{
    if (!g->f) return SWGL_OK;
    for (int q = 0; q < 3; q++)
        for (int m = 0; m < g->n; m++) g->v[q][m] = f[q][g->cells[m]];
    return gauge_line(g, t);
}

/* a line from the running instance */
swgl_status gauge_sample(gauge_ctx *g, double t, scheme_inst *in)
{
    if (!g->f || t == g->last) return SWGL_OK;
    swgl_status st = scheme_sample(in, g->cells, g->n, g->scratch.f, g->v);
    return st == SWGL_OK ? gauge_line(g, t) : st;
}

swgl_status gauge_open(gauge_ctx *g, const scheme_desc *d, const scheme_setup *s, outdir *od, double t0)
{
    const scenario *sc = s->sc;
    memset(g, 0, sizeof *g);
    g->s = s;
    g->n = sc->n_gauges;
    g->last = -1;
    if (!g->n) return SWGL_OK;
    snprintf(g->path, sizeof g->path, "%s", outdir_path(od, "gauges.csv"));
    if (!(g->cells = malloc((size_t)g->n * sizeof *g->cells))) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    for (int q = 0; q < SCHEME_MAX_FIELDS; q++)
        if (!(g->v[q] = calloc((size_t)g->n, sizeof(double)))) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    swgl_status st = scheme_fields_alloc(&g->scratch, d, s->nx, s->ny);
    if (st != SWGL_OK) return st;
    for (int m = 0; m < g->n; m++) g->cells[m] = grid_in(s->nx, sc->gauges[m].i, sc->gauges[m].j);
    if (!(g->f = fopen(g->path, "w"))) return swgl_fail(SWGL_ERR_IO, "%s: cannot write", g->path);
    fprintf(g->f, "time_s");
    for (int m = 0; m < g->n; m++)
        fprintf(g->f, ",%s_h_m,%s_eta_m,%s_u_ms,%s_v_ms", sc->gauges[m].name, sc->gauges[m].name, sc->gauges[m].name,
                sc->gauges[m].name);
    fputc('\n', g->f);
    return gauge_fields(g, t0, s->init);
}
