/* gpu_maps.h — the flood maps kept on the GPU (swe_maps.h), shared by the roe and kp GPU
 * backends: two ping-pong MRTs of (max depth, max speed, max hazard, arrival) and
 * (time of max depth, 0, 0, 0), and the scheme's maps pass (shaders/swe/swe_maps.glsl,
 * called by roe_maps.glsl / kp_maps.glsl), built with and without SWE_MAPS_DT_ON_GPU; or,
 * in a step on the GPU's clock of the compute backend, the maps updated in place by the
 * kernel or pass that writes the new state (SWE_MAPS_INLINE, gpu_maps_bind): no pass of
 * their own. */
#ifndef SWGL_GPU_MAPS_H
#define SWGL_GPU_MAPS_H

#include "gpu_pass.h"
#include "swe_maps.h"

typedef struct gpu_maps {
    gpu_mrt *maps[2];
    gpu_program *prog[2];    /* [time from the clock texels] */
    int mi;                  /* the MRT holding the latest maps */
    int w, h;                /* their size (the second MRT is made when a pass first runs) */
    swgl_status failed;      /* why that MRT could not be made (gpu_maps_begin returned NULL) */
    float arrival, hdry;
} gpu_maps;

/* Textures of w x h texels (the ghost-ring grid) from m, and the programs of the pass
 * `pass` with the scheme's defines. */
swgl_status gpu_maps_start(gpu_maps *g, int w, int h, const char *pass, const char *defs, swe_maps *m);
/* Begins a maps pass (NULL when there are no maps: nothing to do): the previous maps and
 * the uniforms bound, the time t (host clock) or from the step's clock (clock not NULL:
 * gpu_clock.h, t_known the CPU's time, which the clock counts from); the caller binds the
 * state and ends it with gpu_maps_end. */
gpu_pass *gpu_maps_begin(gpu_maps *g, gpu_pass *p, double t, const gpu_array2d *clock, double t_known);
/* SWGL_OK, or the error of the pass's target that gpu_maps_begin could not make (it then
 * returned NULL with maps kept) */
static inline swgl_status gpu_maps_status(const gpu_maps *g) { return g->failed; }
swgl_status gpu_maps_end(gpu_maps *g, gpu_pass *p);
/* Binds the latest maps as read-write images `unit` and `unit` + 1 of a program built with
 * SWE_MAPS_INLINE (and SWE_MAPS_DT_ON_GPU) that updates them in place, with their uniforms
 * (t_known as for gpu_maps_begin); 0 (nothing bound) when there are no maps. */
int gpu_maps_bind(gpu_maps *g, gpu_pass *p, int unit, double t_known);
/* whether maps are kept */
static inline int gpu_maps_on(const gpu_maps *g) { return g->maps[0] != NULL; }
/* The maps back into m over the active cells of code (grid_size). */
swgl_status gpu_maps_read(gpu_maps *g, const unsigned char *code, swe_maps *m);
void gpu_maps_destroy(gpu_maps *g);

#endif
