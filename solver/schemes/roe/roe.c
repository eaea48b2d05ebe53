/* roe.c — scheme = roe (Lastra et al. 2009; docs/roe.md): the problem on the ghost-ring
 * grid from a scenario; what a run of it writes is every shallow-water scheme's
 * (swe_output.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "roe.h"
#include "roe_keys.h"
#include "swe_output.h"

static void setup_free(scheme_setup *s)
{
    roe_problem *rp = s->problem;
    if (rp) {
        free(rp->H);
        swe_forcing_release(&rp->forcing);
    }
    scheme_setup_release(s);
}

static swgl_status setup(const scenario *sc, scheme_setup *s)
{
    int nx = sc->nx, ny = sc->ny;
    swgl_status st = scheme_setup_begin(s, sc, sizeof(roe_problem), 3, 1);
    if (st != SWGL_OK) return st;
    roe_problem *rp = s->problem;
    if (!(rp->H = calloc(grid_size(nx, ny), sizeof(double)))) {
        setup_free(s);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory for a %dx%d grid", nx, ny);
    }
    s->t_end = sc->t_end;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            size_t k = grid_in(nx, i, j), q = (size_t)j * nx + i;
            rp->H[k] = -sc->bed[q];
            if (s->code[k] != CELL_ACTIVE) continue;
            s->init[0][k] = sc->h[q];
            s->init[1][k] = sc->qx[q];
            s->init[2][k] = sc->qy[q];
        }
    /* roe.kappa: the thin-film depth of the velocity desingularization (cpu_ref/roe_cpu.h
     * (M5)); default K0 max(dx, dy), K0 = 1e-2, as Brodtkorb et al. choose for theirs */
    const roe_params *keys = sc->params;
    double kappa = keys->kappa >= 0 ? keys->kappa : 1e-2 * fmax(sc->dx, sc->dy);
    rp->p = (swe_problem){.nx = nx, .ny = ny, .dx = sc->dx, .dy = sc->dy, .g = sc->g, .cfl = sc->cfl,
                          .h_dry = sc->h_dry, .kappa = kappa, .H = rp->H, .code = s->code};
    if ((st = swe_forcing_build(sc, 0.0, &rp->forcing)) != SWGL_OK) {
        setup_free(s);
        return st;
    }
    rp->p.forcing = &rp->forcing.f;
    return SWGL_OK;
}

/* A block of the grid for a rank of a run over MPI (scheme_desc window): H of the block
 * and its ring from g's, and its share of the boundary data, rain and sources
 * (swe_forcing_window) */
static swgl_status window(const scheme_setup *g, const int win[4], const int own[4], scheme_setup *l)
{
    const roe_problem *gr = g->problem;
    swgl_status st = scheme_window_begin(g, win, sizeof(roe_problem), 3, l);
    if (st != SWGL_OK) return st;
    roe_problem *rp = l->problem;
    if (!(rp->H = malloc(grid_size(l->nx, l->ny) * sizeof(double)))) {
        setup_free(l);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory for a %dx%d block", l->nx, l->ny);
    }
    scheme_window_field(gr->H, g->nx, win, rp->H);
    if ((st = swe_forcing_window(&gr->p, g->init[0], win, own, &rp->forcing)) != SWGL_OK) {
        setup_free(l);
        return st;
    }
    rp->p = gr->p;
    rp->p.nx = l->nx;
    rp->p.ny = l->ny;
    rp->p.H = rp->H;
    rp->p.code = l->code;
    rp->p.forcing = &rp->forcing.f;
    for (int q = 0; q < 4; q++) rp->p.own[q] = own[q];
    return SWGL_OK;
}

/* The cells around a block a step reads: an edge reads the two cells beside it, and its
 * positivity limit (M3) the donor's drain time tau, made from all four of the donor's
 * edges: 2 */
static int halo(const scheme_setup *s)
{
    (void)s;
    return 2;
}

/* (8): dt = 2 cfl dx dy / S with S = sum over the 4 edges of |Gamma| (|u_n| + c) <=
 * 2 (dx + dy) s_max, so a bound dt means a wave speed s_max >= cfl dx dy / ((dx + dy) dt) */
static double speed_scale(const scheme_setup *s) { return s->sc->cfl * s->dx * s->dy / (s->dx + s->dy); }

static const swe_forcing *forcing(const scheme_setup *s)
{
    const roe_problem *rp = s->problem;
    return &rp->forcing.f;
}

const scheme_desc scheme_roe = {
    .name = "roe",
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
    .backends = {&roe_backend_gpu, &roe_backend_cpu, &roe_backend_cpu_scalar},
};
