/* gpu_redraw.h — the cells a stage's update draws again on a GPU backend with the host
 * clock (cpu_ref/swe.h), shared by the roe (and hllc) and kp GPU backends: the point
 * sources' cells, and the active cells beside the discharge faces, whose update adds the
 * step's mean less the value the faces used (swe.h "over a step"):
 *   rise = w_dt (Q-bar - Q(t_stage)) / L x len / (dx dy)            (swe_clock_inflow)
 * so that a face brings in dt Q-bar over the step, the hydrograph's integral.
 *
 * A draw is the backend's update pass once more over a rectangle of cells, from the same
 * state as the whole grid's, with one rise added after the update's clip (roe_update.glsl
 * and kp_integrate_fn.glsl u_cell_add: a rise < 0 takes no more than the cell holds).  A
 * draw replaces what the pass wrote there, so each cell is drawn once with all of its
 * rises summed: a cell with sources is drawn alone with its sources' rises and its faces'
 * (read back before and after, the sources booked what it gained less the faces' share);
 * a corner cell with two discharge faces alone with both; the other cells beside a
 * segment's faces in runs along a side, one draw per run (one rise: one segment, one face
 * length).  The faces' rises are booked at their nominal rates in the ring's accounts
 * (swe_clock_inflow_rates), as on the CPU. */
#ifndef SWGL_GPU_REDRAW_H
#define SWGL_GPU_REDRAW_H

#include "gpu_pass.h"
#include "swe.h"

typedef struct gpu_redraw_ops {
    /* the update pass over r with the rise add (m) */
    swgl_status (*draw)(void *self, const gpu_rect *r, double add);
    /* the first value of the updated state at cell k (grid_at), as the GPU holds it */
    swgl_status (*read)(void *self, size_t k, double *v);
} gpu_redraw_ops;

/* Whether a run needs the draws: point sources, or a discharge segment with a hydrograph
 * (a constant's mean is its value).  The update's programs take u_cell_add where it does. */
int gpu_redraw_any(const swe_forcing *f);

/* The draws of a stage after its update pass (the clock's stage values, swe_clock_step
 * done and its ring_rate set): w_dt the stage's weight times dt (dt; RK2's stage 1: dt/2),
 * w_src the sources' weight in the accounts (swe_sources_account), tex_w the arrays'
 * width (cell k at (k % tex_w, k / tex_w)).  Adds the faces' rates to ring_rate. */
swgl_status gpu_redraw_stage(swe_clock *c, int tex_w, double w_dt, double w_src, const gpu_redraw_ops *ops,
                             void *self);

#endif
