/* swe_maps.h — the flood maps of a shallow-water run (docs/outputs.md "Flood maps"):
 * per active cell the largest depth, the largest speed, the time of the largest depth,
 * the arrival time (the first time the depth exceeds [output] arrival_depth; -1, written
 * as NODATA, where it never does) and the largest hazard h (|v| + 0.5), updated after
 * every step from the new state.  The GPU backends keep them in textures and update them
 * in a pass per step (shaders/swe/swe_maps.glsl, the same rule in float); the CPU
 * backends through swe_maps_update from the state after each step. */
#ifndef SWGL_SWE_MAPS_H
#define SWGL_SWE_MAPS_H

#include "scheme.h"

enum { SWE_MAP_MAX_H = 0, SWE_MAP_MAX_SPEED, SWE_MAP_T_MAX_H, SWE_MAP_ARRIVAL, SWE_MAP_MAX_HAZARD, SWE_MAP_COUNT };

typedef struct swe_maps {
    int nx, ny;
    double arrival_depth, h_dry;
    double *m[SWE_MAP_COUNT];   /* grid_size each */
} swe_maps;

extern const char *const swe_map_names[SWE_MAP_COUNT];   /* "max_depth", ... (the files' names) */

/* The maps of the state f (ghost-ring h, qx, qy) at the start t0. */
swgl_status swe_maps_init(swe_maps *m, const scheme_setup *s, double *const *f, double arrival_depth, double t0);
void swe_maps_free(swe_maps *m);
/* One update from the state (h, qx, qy) at time t over the active cells of code. */
void swe_maps_update(swe_maps *m, const unsigned char *code, double *const *f, double t);
/* The five maps as ESRI grids (max_depth.asc, ...; NODATA at inactive cells and where the
 * water never arrived). */
swgl_status swe_maps_write(const swe_maps *m, const scheme_setup *s, outdir *od);

#endif
