/* swe_maps.c — the flood maps on the CPU and their files (swe_maps.h). */
#include "swe_maps.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const swe_map_names[SWE_MAP_COUNT] = {"max_depth", "max_speed", "time_of_max_depth", "arrival_time",
                                                  "max_hazard"};

void swe_maps_free(swe_maps *m)
{
    if (!m) return;
    for (int k = 0; k < SWE_MAP_COUNT; k++) free(m->m[k]);
    memset(m, 0, sizeof *m);
}

swgl_status swe_maps_init(swe_maps *m, const scheme_setup *s, double *const *f, double arrival_depth, double t0)
{
    memset(m, 0, sizeof *m);
    m->nx = s->nx;
    m->ny = s->ny;
    m->arrival_depth = arrival_depth;
    m->h_dry = s->sc->h_dry;
    size_t n = grid_size(s->nx, s->ny);
    for (int k = 0; k < SWE_MAP_COUNT; k++)
        if (!(m->m[k] = calloc(n, sizeof(double)))) {
            swe_maps_free(m);
            return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory for the flood maps");
        }
    for (size_t k = 0; k < n; k++) m->m[SWE_MAP_ARRIVAL][k] = -1.0;
    swe_maps_update(m, s->code, f, t0);
    return SWGL_OK;
}

/* The rule of shaders/swe/swe_maps.glsl, in double. */
void swe_maps_update(swe_maps *m, const unsigned char *code, double *const *f, double t)
{
    size_t n = grid_size(m->nx, m->ny);
    double *mh = m->m[SWE_MAP_MAX_H], *ms = m->m[SWE_MAP_MAX_SPEED], *mt = m->m[SWE_MAP_T_MAX_H];
    double *ma = m->m[SWE_MAP_ARRIVAL], *mz = m->m[SWE_MAP_MAX_HAZARD];
    for (size_t k = 0; k < n; k++) {
        if (code[k] != CELL_ACTIVE) continue;
        double h = f[0][k], speed = h > m->h_dry ? sqrt(f[1][k] * f[1][k] + f[2][k] * f[2][k]) / h : 0.0;
        double hazard = h * (speed + 0.5);
        if (h > mh[k]) mh[k] = h, mt[k] = t;
        if (speed > ms[k]) ms[k] = speed;
        if (ma[k] < 0 && h > m->arrival_depth) ma[k] = t;
        if (hazard > mz[k]) mz[k] = hazard;
    }
}

swgl_status swe_maps_write(const swe_maps *m, const scheme_setup *s, outdir *od)
{
    const scenario *sc = s->sc;
    swgl_status st = SWGL_OK;
    /* (each map from the ghost-ring array as it is: no copy; arrival's -1, never reached, NODATA) */
    for (int k = 0; st == SWGL_OK && k < SWE_MAP_COUNT; k++) {
        const grid_values g = {&m->m[k][grid_in(s->nx, 0, 0)], (size_t)grid_stride(s->nx), NULL, sc->active,
                               k == SWE_MAP_ARRIVAL};
        st = grid_write_at(od, swe_map_names[k], sc->grids, s->nx, s->ny, sc->xll, sc->yll, sc->dx, sc->dy, &g);
    }
    return st;
}
