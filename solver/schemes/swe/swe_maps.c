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

void swe_maps_prepare(swe_maps *m, const scheme_setup *s, double *const *f, double arrival_depth, double t0)
{
    memset(m, 0, sizeof *m);
    m->nx = s->nx;
    m->ny = s->ny;
    m->arrival_depth = arrival_depth;
    m->h_dry = s->sc->h_dry;
    m->f0 = f;
    m->code = s->code;
    m->t0 = t0;
}

swgl_status swe_maps_alloc(swe_maps *m)
{
    size_t n = grid_size(m->nx, m->ny);
    for (int k = 0; k < SWE_MAP_COUNT; k++)
        if (!(m->m[k] = malloc(n * sizeof(double)))) {
            for (int q = 0; q < SWE_MAP_COUNT; q++) free(m->m[q]), m->m[q] = NULL;
            return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory for the flood maps");
        }
    return SWGL_OK;
}

swgl_status swe_maps_make(swe_maps *m)
{
    if (m->m[0]) return SWGL_OK;
    long n = (long)grid_size(m->nx, m->ny);
    swgl_status st = swe_maps_alloc(m);
    if (st != SWGL_OK) return st;
    /* (every core: the pages cleared where they are first written) */
#pragma omp parallel for schedule(static)
    for (long k = 0; k < n; k++) {
        double v[SWE_MAP_COUNT];
        swe_maps_start_cell(m, (size_t)k, v);
        for (int c = 0; c < SWE_MAP_COUNT; c++) m->m[c][k] = v[c];
    }
    return SWGL_OK;
}

swgl_status swe_maps_init(swe_maps *m, const scheme_setup *s, double *const *f, double arrival_depth, double t0)
{
    swe_maps_prepare(m, s, f, arrival_depth, t0);
    return swe_maps_make(m);
}

/* The rule of shaders/swe/swe_maps.glsl, in double (swe_maps_cell), after every step of a
 * CPU backend: on the calling thread (the fast solvers choose their threads by the
 * machine's load, cpu_ref/cpu_info.h), a map written only where it changed. */
void swe_maps_update(swe_maps *m, const unsigned char *code, double *const *f, double t)
{
    size_t n = grid_size(m->nx, m->ny);
    for (size_t k = 0; k < n; k++) {
        if (code[k] != CELL_ACTIVE) continue;
        double v[SWE_MAP_COUNT], was[SWE_MAP_COUNT];
        for (int c = 0; c < SWE_MAP_COUNT; c++) v[c] = was[c] = m->m[c][k];
        swe_maps_cell(v, f[0][k], f[1][k], f[2][k], m->h_dry, m->arrival_depth, t);
        for (int c = 0; c < SWE_MAP_COUNT; c++)
            if (v[c] != was[c]) m->m[c][k] = v[c];
    }
}

swgl_status swe_maps_write(const swe_maps *m, const scheme_setup *s, outdir *od)
{
    const scenario *sc = s->sc;
    swgl_status st = m->m[0] ? SWGL_OK : swgl_fail(SWGL_ERR_ARG, "swe_maps_write: the maps were not read back");
    /* (each map from the ghost-ring array as it is: no copy; arrival's -1, never reached, NODATA) */
    for (int k = 0; st == SWGL_OK && k < SWE_MAP_COUNT; k++) {
        const grid_values g = {&m->m[k][grid_in(s->nx, 0, 0)], (size_t)grid_stride(s->nx), NULL, sc->active,
                               k == SWE_MAP_ARRIVAL};
        st = grid_write_at(od, swe_map_names[k], sc->grids, s->nx, s->ny, sc->xll, sc->yll, sc->dx, sc->dy, &g);
    }
    return st;
}
