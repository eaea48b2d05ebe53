/* roe_gpu.h — the Lastra et al. (2009) Roe scheme as fragment passes (Lastra 4.3),
 * in single or double precision, and the first-order edge engine it is: any face in the
 * shared signature (cpu_ref/swe.h swe_face_fn, shaders/swe/swe_face.glsl) with the same
 * draining update, roe's face and hllc's (roe_gpu_create_face):
 * edge pass (MRT) -> per-cell sums, local dt and drain time (MRT) -> min reduction ->
 * volume update with the positivity limiter; boundary edges build the ghost state
 * themselves (shaders/roe/roe_edge.glsl).  The backend for scheme.h is roe_backend_gpu
 * (roe.h); these calls are for tests and benches. */
#ifndef SWGL_ROE_GPU_H
#define SWGL_ROE_GPU_H

#include "swe.h"
#include "swe_maps.h"
#include "swgl_error.h"

typedef struct roe_gpu roe_gpu;

/* p is checked by swe_problem_check (as on the CPU); p->code must outlive the solver.
 * roe_gpu_create: single precision (float4 arrays, roe's default); roe_gpu_create_ex
 * with use_double: the same passes in double (packed doubles; the context must have
 * GL_ARB_gpu_shader_fp64, else the passes fail to build: the backend checks first). */
swgl_status roe_gpu_create(const swe_problem *p, roe_gpu **out);
swgl_status roe_gpu_create_ex(const swe_problem *p, int use_double, roe_gpu **out);
/* The face a scheme runs on the engine and its friction: face_define, the program define
 * that picks the face's GLSL (shaders/roe/roe_edges.glsl: NULL roe's, "SWGL_FACE_HLLC"
 * hllc's); manning, Manning's n per cell (grid_size; NULL: no friction, and the update
 * is built without it), semi-implicit as hllc_cpu.h (H7).  NULL face: roe's, no friction.
 * tune: the tuning choices (tuning.h; NULL: the defaults): roe.fused, roe.group. */
typedef struct roe_gpu_face {
    const char *face_define;
    const double *manning;
    const char *scheme;      /* the scheme's name, for messages (NULL: "roe") */
} roe_gpu_face;
struct swgl_tuning;
swgl_status roe_gpu_create_face(const swe_problem *p, int use_double, const roe_gpu_face *face,
                                const struct swgl_tuning *tune, roe_gpu **out);
int roe_gpu_is_double(const roe_gpu *r);
void roe_gpu_destroy(roe_gpu *r);
/* arrays of grid_size(nx, ny) doubles (swgl_grid.h); inactive cells are set to 0 */
swgl_status roe_gpu_set_state(roe_gpu *r, const double *h, const double *qx, const double *qy);
swgl_status roe_gpu_get_state(roe_gpu *r, double *h, double *qx, double *qy);
/* The edge sweep of the current state: *dt_stable = the bound (8) (+inf when no wave
 * moves, NaN or <= 0 when the state has blown up). */
swgl_status roe_gpu_rates(roe_gpu *r, double *dt_stable);
/* The update with dt (at most the bound rates returned). */
swgl_status roe_gpu_apply(roe_gpu *r, double dt);
/* Steps from t to stop with dt chosen on the GPU (scheme_backend.run_to, clock.glsl). */
struct timeloop_span;
swgl_status roe_gpu_run_to(roe_gpu *r, double t, double stop, int stop_index, double dt_floor,
                           struct timeloop_span *sp);
/* The same through stops[0..n-1] (scheme.h run_stops), the state's texels at the n_cells
 * cells kept at each landing (gpu_gather_capture; compute passes, float) */
swgl_status roe_gpu_run_stops(roe_gpu *r, double t, const double *stops, int n, int stop_index, double dt_floor,
                              const size_t *cells, int n_cells, struct timeloop_span *sp);

/* Boundary data, rain and sources (cpu_ref/swe.h): the time of the next step (the host
 * clock's), whether the problem has any (then the time loop runs stage and advance, not
 * run_to), and the accounts since the start. */
void roe_gpu_set_time(roe_gpu *r, double t, double stop);
int roe_gpu_host_clock(const roe_gpu *r);
swgl_status roe_gpu_account(const roe_gpu *r, swe_account *a);

/* The flood maps (swe_maps.h): kept on the GPU from m's state, a pass after every step. */
swgl_status roe_gpu_maps_start(roe_gpu *r, swe_maps *m);
swgl_status roe_gpu_maps_read(roe_gpu *r, swe_maps *m);

#endif
