/* hllc.c — scheme = hllc (first-order HLLC with the hydrostatic reconstruction of
 * Audusse et al. 2004 and Manning friction; docs/hllc.md): the problem on the
 * ghost-ring grid from a scenario, as roe.c builds it, plus Manning's n; what a run of it
 * writes is every shallow-water scheme's (swe_output.c).  Backends: gpu and gpu-compute
 * (hllc_gpu.c, on roe's first-order edge engine with hllc's face), cpu and cpu-scalar
 * (hllc_cpu.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hllc.h"
#include "hllc_keys.h"
#include "swe_output.h"

static void setup_free(scheme_setup *s)
{
    hllc_setup_problem *hp = s->problem;
    if (hp) {
        free(hp->H);
        free(hp->manning);
        swe_forcing_release(&hp->forcing);
    }
    scheme_setup_release(s);
}

static swgl_status setup(const scenario *sc, scheme_setup *s)
{
    int nx = sc->nx, ny = sc->ny;
    swgl_status st = scheme_setup_begin(s, sc, sizeof(hllc_setup_problem), 3, 1);
    if (st != SWGL_OK) return st;
    hllc_setup_problem *hp = s->problem;
    size_t n = grid_size(nx, ny);
    hp->H = calloc(n, sizeof(double));
    if (sc->manning) hp->manning = calloc(n, sizeof(double));
    if (!hp->H || (sc->manning && !hp->manning)) {
        setup_free(s);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory for a %dx%d grid", nx, ny);
    }
    s->t_end = sc->t_end;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            size_t k = grid_in(nx, i, j), q = (size_t)j * nx + i;
            hp->H[k] = -sc->bed[q];
            if (hp->manning) hp->manning[k] = sc->manning[q];
            if (s->code[k] != CELL_ACTIVE) continue;
            s->init[0][k] = sc->h[q];
            s->init[1][k] = sc->qx[q];
            s->init[2][k] = sc->qy[q];
        }
    /* hllc.kappa: the thin-film depth of the velocity desingularization (roe_cpu.h (M5)),
     * default as roe's: K0 max(dx, dy), K0 = 1e-2 */
    const hllc_params *hpp = sc->params;
    double kappa = hpp->kappa >= 0 ? hpp->kappa : 1e-2 * fmax(sc->dx, sc->dy);
    hp->p.sw = (swe_problem){.nx = nx, .ny = ny, .dx = sc->dx, .dy = sc->dy, .g = sc->g, .cfl = sc->cfl,
                             .h_dry = sc->h_dry, .kappa = kappa, .H = hp->H, .code = s->code};
    hp->p.manning = hp->manning;
    if ((st = swe_forcing_build(sc, 0.0, &hp->forcing)) != SWGL_OK) {
        setup_free(s);
        return st;
    }
    hp->p.sw.forcing = &hp->forcing.f;
    return SWGL_OK;
}

/* A block of the grid for a rank of a run over MPI (scheme_desc window), as roe's */
static swgl_status window(const scheme_setup *g, const int win[4], const int own[4], scheme_setup *l)
{
    const hllc_setup_problem *gh = g->problem;
    swgl_status st = scheme_window_begin(g, win, sizeof(hllc_setup_problem), 3, l);
    if (st != SWGL_OK) return st;
    hllc_setup_problem *hp = l->problem;
    size_t n = grid_size(l->nx, l->ny);
    hp->H = malloc(n * sizeof(double));
    if (gh->manning) hp->manning = malloc(n * sizeof(double));
    if (!hp->H || (gh->manning && !hp->manning)) {
        setup_free(l);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory for a %dx%d block", l->nx, l->ny);
    }
    scheme_window_field(gh->H, g->nx, win, hp->H);
    if (gh->manning) scheme_window_field(gh->manning, g->nx, win, hp->manning);
    if ((st = swe_forcing_window(&gh->p.sw, g->init[0], win, own, &hp->forcing)) != SWGL_OK) {
        setup_free(l);
        return st;
    }
    hp->p = gh->p;
    hp->p.sw.nx = l->nx;
    hp->p.sw.ny = l->ny;
    hp->p.sw.H = hp->H;
    hp->p.sw.code = l->code;
    hp->p.sw.forcing = &hp->forcing.f;
    hp->p.manning = hp->manning;
    for (int q = 0; q < 4; q++) hp->p.sw.own[q] = own[q];
    return SWGL_OK;
}

/* A face reads the two cells beside it, and its draining limit (H6) the donor's drain
 * time, made from all four of the donor's faces: 2 */
static int halo(const scheme_setup *s)
{
    (void)s;
    return 2;
}

/* (H5): dt = 2 cfl dx dy / S with S = sum over the 4 faces of |Gamma| s_e <= 2 (dx + dy)
 * s_max, as roe's (8) */
static double speed_scale(const scheme_setup *s) { return s->sc->cfl * s->dx * s->dy / (s->dx + s->dy); }

static const swe_forcing *forcing(const scheme_setup *s)
{
    const hllc_setup_problem *hp = s->problem;
    return &hp->forcing.f;
}

const scheme_desc scheme_hllc = {
    .name = "hllc",
    .n_fields = 3,
    .fields = {"h", "qx", "qy"},
    .cell_word = "cells",
    .setup = setup,
    .setup_free = setup_free,
    .write_grids = swe_write_grids,
    .write_final = swe_write_final,
    .write_frame = swe_write_frame,
    .summary = swe_summary,
    .print = swe_print,
    .speed_scale = speed_scale,
    .describe_run = NULL,
    .forcing = forcing,
    .window = window,
    .halo = halo,
    .backends = {&hllc_backend_gpu, &hllc_backend_cpu, &hllc_backend_cpu_scalar},
};
