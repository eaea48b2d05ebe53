/* swe_maps.h — the flood maps of a shallow-water run (docs/outputs.md "Flood maps"):
 * per active cell the largest depth, the largest speed, the time of the largest depth,
 * the arrival time (the first time the depth exceeds [output] arrival_depth; -1, written
 * as NODATA, where it never does) and the largest hazard h (|v| + 0.5), updated after
 * every step from the new state.  The GPU backends keep them in textures and update them
 * in a pass per step (shaders/swe/swe_maps.glsl, the same rule in float); the CPU
 * backends through swe_maps_update from the state after each step. */
#ifndef SWGL_SWE_MAPS_H
#define SWGL_SWE_MAPS_H

#include <math.h>

#include "scheme.h"

enum { SWE_MAP_MAX_H = 0, SWE_MAP_MAX_SPEED, SWE_MAP_T_MAX_H, SWE_MAP_ARRIVAL, SWE_MAP_MAX_HAZARD, SWE_MAP_COUNT };

typedef struct swe_maps {
    int nx, ny;
    double arrival_depth, h_dry;
    double *m[SWE_MAP_COUNT];   /* grid_size each; NULL until made (swe_maps_make) */
    /* the start: the state (ghost-ring h, qx, qy) and cell codes of the grid, at time t0 */
    double *const *f0;
    const unsigned char *code;
    double t0;
} swe_maps;

extern const char *const swe_map_names[SWE_MAP_COUNT];   /* "max_depth", ... (the files' names) */

/* The maps' start, the state f (ghost-ring h, qx, qy) at t0, without their arrays (f and
 * s's codes are kept by pointer: they must outlive m): a GPU backend starts its own copy
 * from it (swe_maps_start_cell), with no host arrays of the maps until it reads them back. */
void swe_maps_prepare(swe_maps *m, const scheme_setup *s, double *const *f, double arrival_depth, double t0);
/* m's arrays, made from its start where there are none yet (every core; an active cell as
 * swe_maps_start_cell gives it, the others 0 with arrival -1); swe_maps_alloc: the arrays
 * only, their values the caller's to write (every cell). */
swgl_status swe_maps_make(swe_maps *m);
swgl_status swe_maps_alloc(swe_maps *m);
/* prepare and make: the maps of the state f at the start t0. */
swgl_status swe_maps_init(swe_maps *m, const scheme_setup *s, double *const *f, double arrival_depth, double t0);
void swe_maps_free(swe_maps *m);
/* The rule of one update of a cell's maps v[SWE_MAP_COUNT] from its state (h, qx, qy) at t
 * (shaders/swe/swe_maps.glsl has it in float). */
static inline void swe_maps_cell(double *v, double h, double qx, double qy, double h_dry, double arrival, double t)
{
    double speed = h > h_dry ? sqrt(qx * qx + qy * qy) / h : 0.0, hazard = h * (speed + 0.5);
    if (h > v[SWE_MAP_MAX_H]) v[SWE_MAP_MAX_H] = h, v[SWE_MAP_T_MAX_H] = t;
    if (speed > v[SWE_MAP_MAX_SPEED]) v[SWE_MAP_MAX_SPEED] = speed;
    if (v[SWE_MAP_ARRIVAL] < 0 && h > arrival) v[SWE_MAP_ARRIVAL] = t;
    if (hazard > v[SWE_MAP_MAX_HAZARD]) v[SWE_MAP_MAX_HAZARD] = hazard;
}
/* Cell k's maps at the start (m prepared): an active cell's one update from none (0, and
 * arrival -1) with the start state; another cell's none. */
static inline void swe_maps_start_cell(const swe_maps *m, size_t k, double *v)
{
    for (int c = 0; c < SWE_MAP_COUNT; c++) v[c] = c == SWE_MAP_ARRIVAL ? -1.0 : 0.0;
    if (m->code[k] == CELL_ACTIVE)
        swe_maps_cell(v, m->f0[0][k], m->f0[1][k], m->f0[2][k], m->h_dry, m->arrival_depth, m->t0);
}
/* One update from the state (h, qx, qy) at time t over the active cells of code. */
void swe_maps_update(swe_maps *m, const unsigned char *code, double *const *f, double t);
/* The five maps as ESRI grids (max_depth.asc, ...; NODATA at inactive cells and where the
 * water never arrived). */
swgl_status swe_maps_write(const swe_maps *m, const scheme_setup *s, outdir *od);

#endif
