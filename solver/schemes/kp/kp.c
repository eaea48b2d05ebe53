/* kp.c — scheme = kp (Kurganov & Petrova 2007 as Brodtkorb et al. 2011 run it;
 * docs/kp.md): the problem on the ghost-ring grid from a scenario.  The bed comes at
 * the cell corners (scenario.h bed_corner, docs/scenarios.md "The bed of kp"); the cell
 * values of the scenario's bed are the bilinear bed's cell averages, so h, eta and the
 * scheme's w = B_ij + h agree.  What a run writes is every shallow-water scheme's
 * (swe_output.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kp.h"
#include "kp_keys.h"
#include "swe_output.h"

static void setup_free(scheme_setup *s)
{
    kp_setup_problem *kp = s->problem;
    if (kp) {
        free(kp->H);
        free(kp->Bc);
        free(kp->manning);
        swe_forcing_release(&kp->forcing);
    }
    scheme_setup_release(s);
}

static swgl_status setup(const scenario *sc, scheme_setup *s)
{
    int nx = sc->nx, ny = sc->ny;
    if (!sc->bed_corner) return swgl_fail(SWGL_ERR_ARG, "kp: the scenario has no corner bed (scheme = kp?)");
    swgl_status st = scheme_setup_begin(s, sc, sizeof(kp_setup_problem), 3, 1);
    if (st != SWGL_OK) return st;
    kp_setup_problem *kp = s->problem;
    size_t n = grid_size(nx, ny), nc = (size_t)(nx + 1) * (size_t)(ny + 1);
    kp->H = calloc(n, sizeof(double));
    kp->Bc = malloc(nc * sizeof(double));
    if (sc->manning) kp->manning = calloc(n, sizeof(double));
    if (!kp->H || !kp->Bc || (sc->manning && !kp->manning)) {
        setup_free(s);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory for a %dx%d grid", nx, ny);
    }
    /* The datum: the solvers keep the surface w = B + h, which float holds to half an
     * ulp of |w|; measured from the middle of the bed's range, |w| stays within half the
     * relief plus the depth, however high the terrain (a valley at 100 m lost 1e-3 of its
     * tide's water in float without it, 1e-6 with it).  A change of vertical origin only:
     * h, the velocities and what is written are the same. */
    double bmin = INFINITY, bmax = -INFINITY;   /* over the active cells (NODATA elsewhere) */
    long nq = (long)nx * ny;
#pragma omp parallel for schedule(static) reduction(min : bmin) reduction(max : bmax)
    for (long q = 0; q < nq; q++)
        if (sc->active[q]) bmin = fmin(bmin, sc->bed[q]), bmax = fmax(bmax, sc->bed[q]);
    kp->datum = bmin <= bmax ? 0.5 * (bmin + bmax) : 0.0;
    /* (every core: the arrays' pages cleared where they are first written) */
#pragma omp parallel for schedule(static)
    for (long k = 0; k < (long)nc; k++) kp->Bc[k] = sc->bed_corner[k] - kp->datum;
    s->t_end = sc->t_end;
#pragma omp parallel for schedule(static)
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            size_t k = grid_in(nx, i, j), q = (size_t)j * nx + i;
            kp->H[k] = -(sc->bed[q] - kp->datum);
            if (kp->manning) kp->manning[k] = sc->manning[q];
            if (s->code[k] != CELL_ACTIVE) continue;
            s->init[0][k] = sc->h[q];
            s->init[1][k] = sc->qx[q];
            s->init[2][k] = sc->qy[q];
        }
    /* kp.kappa: Brodtkorb et al. (6) with K0 = 1e-2 (their choice for float), scaled
     * with the larger cell side as roe.kappa is.  kp.desingularize: depth (default), kappa
     * the depth below which (5) desingularizes u, max(h^4, kappa^4) (their prose: "for a 15
     * meter grid cell size our approach desingularizes the fluxes for water depths less than
     * 15 cm"); printed, (5) as printed, max(h^4, kappa), as Kurganov and Petrova's epsilon
     * = max(dx^4, dy^4): the depth kappa^(1/4) (0.795 m for Malpasset's 0.4).  Every backend
     * takes the depth (kp_problem's kappa), so the two readings share all code. */
    const kp_params *kpp = sc->params;
    double kappa = kpp->kappa >= 0 ? kpp->kappa : 1e-2 * fmax(sc->dx, sc->dy);
    if (kpp->printed) kappa = sqrt(sqrt(kappa));
    kp->p = (kp_problem){
        .sw = {.nx = nx, .ny = ny, .dx = sc->dx, .dy = sc->dy, .g = sc->g, .cfl = sc->cfl, .h_dry = sc->h_dry,
               .kappa = kappa, .H = kp->H, .code = s->code},
        .Bc = kp->Bc,
        .manning = kp->manning,
        .cap_depth = kpp->cap_depth >= 0 ? kpp->cap_depth : 0.1 * fmax(sc->dx, sc->dy),
        .theta = kpp->theta,
        .rk2 = kpp->rk2,
        .early_exit = (enum kp_early_exit)kpp->early_exit,
    };
    if ((st = swe_forcing_build(sc, kp->datum, &kp->forcing)) != SWGL_OK) {
        setup_free(s);
        return st;
    }
    kp->p.sw.forcing = &kp->forcing.f;
    if ((st = kp_problem_check(&kp->p)) != SWGL_OK) setup_free(s);
    return st;
}

/* A block of the grid for a rank of a run over MPI (scheme_desc window): the corner bed,
 * H and Manning's n of the block and its ring from g's, the datum g's, and its share of the
 * boundary data, rain and sources (swe_forcing_window) */
static swgl_status window(const scheme_setup *g, const int win[4], const int own[4], scheme_setup *l)
{
    const kp_setup_problem *gk = g->problem;
    swgl_status st = scheme_window_begin(g, win, sizeof(kp_setup_problem), 3, l);
    if (st != SWGL_OK) return st;
    kp_setup_problem *kp = l->problem;
    int nx = l->nx, ny = l->ny;
    size_t n = grid_size(nx, ny);
    kp->H = malloc(n * sizeof(double));
    kp->Bc = malloc((size_t)(nx + 1) * (size_t)(ny + 1) * sizeof(double));
    if (gk->manning) kp->manning = malloc(n * sizeof(double));
    if (!kp->H || !kp->Bc || (gk->manning && !kp->manning)) {
        setup_free(l);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory for a %dx%d block", nx, ny);
    }
    scheme_window_field(gk->H, g->nx, win, kp->H);
    if (gk->manning) scheme_window_field(gk->manning, g->nx, win, kp->manning);
    for (int j = 0; j <= ny; j++)
        for (int i = 0; i <= nx; i++)
            kp->Bc[(size_t)j * (nx + 1) + i] = gk->Bc[(size_t)(win[1] + j) * (g->nx + 1) + (win[0] + i)];
    kp->datum = gk->datum;
    if ((st = swe_forcing_window(&gk->p.sw, g->init[0], win, own, &kp->forcing)) != SWGL_OK) {
        setup_free(l);
        return st;
    }
    kp->p = gk->p;
    kp->p.sw.nx = nx;
    kp->p.sw.ny = ny;
    kp->p.sw.H = kp->H;
    kp->p.sw.code = l->code;
    kp->p.sw.forcing = &kp->forcing.f;
    for (int q = 0; q < 4; q++) kp->p.sw.own[q] = own[q];
    kp->p.Bc = kp->Bc;
    kp->p.manning = kp->manning;
    if ((st = kp_problem_check(&kp->p)) != SWGL_OK) setup_free(l);
    return st;
}

/* The cells around a block a step reads: a face's points read two cells each side, so
 * an Euler step needs 2; RK2's second stage reads Q* two cells out, which the first makes
 * from Q^n two cells further: 4 */
static int halo(const scheme_setup *s)
{
    const kp_setup_problem *kp = s->problem;
    return kp->p.rk2 ? 4 : 2;
}

/* (8): dt = cfl min(dx / a_x, dy / a_y), so a bound dt means a speed a >= cfl min(dx, dy) / dt */
static double speed_scale(const scheme_setup *s) { return s->sc->cfl * fmin(s->dx, s->dy); }

static void describe_run(const scheme_setup *s, char *line, size_t len)
{
    const kp_setup_problem *kp = s->problem;
    static const char *ee[3] = {"auto", "on", "off"};
    double nmin = INFINITY, nmax = 0;
    for (size_t k = 0; kp->manning && k < grid_size(s->nx, s->ny); k++)
        if (s->code[k] == CELL_ACTIVE) nmin = fmin(nmin, kp->manning[k]), nmax = fmax(nmax, kp->manning[k]);
    char fr[64] = "no friction";
    if (kp->manning && nmin == nmax) snprintf(fr, sizeof fr, "Manning n %g", nmax);
    else if (kp->manning) snprintf(fr, sizeof fr, "Manning n %g .. %g", nmin, nmax);
    const kp_params *kpp = s->sc ? s->sc->params : NULL;
    char kap[96];
    if (kpp && kpp->printed)
        snprintf(kap, sizeof kap, "kappa %g m^4 as (5) is printed (a depth of %g m)", kp->p.sw.kappa * kp->p.sw.kappa * kp->p.sw.kappa * kp->p.sw.kappa, kp->p.sw.kappa);
    else snprintf(kap, sizeof kap, "kappa %g m", kp->p.sw.kappa);
    snprintf(line, len, "kp: %s, theta %g, %s, cfl %g, early exit %s, %s", kp->p.rk2 ? "RK2" : "Euler",
             kp->p.theta, kap, kp->p.sw.cfl, ee[kp->p.early_exit], fr);
}

static const swe_forcing *forcing(const scheme_setup *s)
{
    const kp_setup_problem *kp = s->problem;
    return &kp->forcing.f;
}

const scheme_desc scheme_kp = {
    .name = "kp",
    .native = "surface",
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
    .describe_run = describe_run,
    .forcing = forcing,
    .window = window,
    .halo = halo,
    .backends = {&kp_backend_gpu, &kp_backend_cpu, &kp_backend_cpu_scalar},
};
