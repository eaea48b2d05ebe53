/* swe_fv1.c — the first-order shallow-water problem on cells from a scenario (swe_fv1.h),
 * roe's and hllc's. */
#include <math.h>
#include <stdlib.h>

#include "swe_fv1.h"

void swe_fv1_setup_free(scheme_setup *s)
{
    swe_fv1 *fv = s->problem;
    if (fv) {
        free(fv->H);
        free(fv->manning);
        swe_forcing_release(&fv->forcing);
    }
    scheme_setup_release(s);
}

swgl_status swe_fv1_setup(const scenario *sc, scheme_setup *s, double kappa, int friction)
{
    int nx = sc->nx, ny = sc->ny;
    swgl_status st = scheme_setup_begin(s, sc, sizeof(swe_fv1), 3, 1);
    if (st != SWGL_OK) return st;
    swe_fv1 *fv = s->problem;
    size_t n = grid_size(nx, ny);
    int manning = friction && sc->manning;
    fv->H = calloc(n, sizeof(double));
    if (manning) fv->manning = calloc(n, sizeof(double));
    if (!fv->H || (manning && !fv->manning)) {
        swe_fv1_setup_free(s);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory for a %dx%d grid", nx, ny);
    }
    s->t_end = sc->t_end;
    /* (every core: the arrays' pages cleared where they are first written) */
#pragma omp parallel for schedule(static)
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            size_t k = grid_in(nx, i, j), q = (size_t)j * nx + i;
            fv->H[k] = -sc->bed[q];
            if (fv->manning) fv->manning[k] = sc->manning[q];
            if (s->code[k] != CELL_ACTIVE) continue;
            s->init[0][k] = sc->h[q];
            s->init[1][k] = sc->qx[q];
            s->init[2][k] = sc->qy[q];
        }
    if (!(kappa >= 0)) kappa = 1e-2 * fmax(sc->dx, sc->dy);
    fv->p = (swe_problem){.nx = nx, .ny = ny, .dx = sc->dx, .dy = sc->dy, .g = sc->g, .cfl = sc->cfl,
                          .h_dry = sc->h_dry, .kappa = kappa, .H = fv->H, .code = s->code};
    if ((st = swe_forcing_build(sc, 0.0, &fv->forcing)) != SWGL_OK) {
        swe_fv1_setup_free(s);
        return st;
    }
    fv->p.forcing = &fv->forcing.f;
    return SWGL_OK;
}

swgl_status swe_fv1_window(const scheme_setup *g, const int win[4], const int own[4], scheme_setup *l)
{
    const swe_fv1 *gf = g->problem;
    swgl_status st = scheme_window_begin(g, win, sizeof(swe_fv1), 3, l);
    if (st != SWGL_OK) return st;
    swe_fv1 *fv = l->problem;
    size_t n = grid_size(l->nx, l->ny);
    fv->H = malloc(n * sizeof(double));
    if (gf->manning) fv->manning = malloc(n * sizeof(double));
    if (!fv->H || (gf->manning && !fv->manning)) {
        swe_fv1_setup_free(l);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory for a %dx%d block", l->nx, l->ny);
    }
    scheme_window_field(gf->H, g->nx, win, fv->H);
    if (gf->manning) scheme_window_field(gf->manning, g->nx, win, fv->manning);
    if ((st = swe_forcing_window(&gf->p, g->init[0], win, own, &fv->forcing)) != SWGL_OK) {
        swe_fv1_setup_free(l);
        return st;
    }
    fv->p = gf->p;
    fv->p.nx = l->nx;
    fv->p.ny = l->ny;
    fv->p.H = fv->H;
    fv->p.code = l->code;
    fv->p.forcing = &fv->forcing.f;
    for (int q = 0; q < 4; q++) fv->p.own[q] = own[q];
    return SWGL_OK;
}

int swe_fv1_halo(const scheme_setup *s)
{
    (void)s;
    return 2;
}

double swe_fv1_speed_scale(const scheme_setup *s) { return s->sc->cfl * s->dx * s->dy / (s->dx + s->dy); }

const swe_forcing *swe_fv1_forcing(const scheme_setup *s)
{
    const swe_fv1 *fv = s->problem;
    return &fv->forcing.f;
}
