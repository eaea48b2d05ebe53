/* swe.h — the shallow-water problem on a Cartesian grid with a ghost ring, as every
 * shallow-water scheme (roe; kp to come) and backend takes it, and its one validation.
 * The Roe scheme's CPU solvers are in roe_cpu.h.
 *
 * Layout shared by the CPU and GPU solvers (and by solver/, which fills it from a
 * scenario): the ghost-ring grid of swgl_grid.h, every per-cell array grid_size(nx, ny)
 * entries, k = grid_at(nx, i, j), i = 0..nx+1 (west to east), j = 0..ny+1 (south to
 * north); interior cells i = 1..nx, j = 1..ny.  Cell (i, j) has its centre at
 * x = (i - 0.5) dx, y = (j - 0.5) dy.
 *
 * Every cell carries a code of enum cell_code (swgl_grid.h):
 *   CELL_ACTIVE  a computed volume;
 *   CELL_WALL    a ghost (ring cell or inactive cell next to an active one) that closes
 *                the edge it shares with an active cell: q.n = 0;
 *   CELL_FREE    a ghost that makes the shared edge transmissive (zero-order
 *                extrapolation: the exterior state is the interior one);
 *   CELL_OFF     padding that touches no active cell (never read).
 * Boundary edges build their exterior state from the interior cell and the ghost's
 * code (wall: mirror of the normal discharge; free: copy), with the exterior bed equal
 * to the interior one, so a wall is exact for any shape of the active region.
 *
 * H is Lastra's depth function, measured downward from a datum: H = -z_b.
 * State W = (h, qx, qy), free surface eta = h - H.
 */
#ifndef SWGL_SWE_H
#define SWGL_SWE_H

#include "swgl_error.h"
#include "swgl_grid.h"

typedef struct swe_problem {
    int nx, ny;                 /* interior cells */
    double dx, dy;              /* m */
    double g;                   /* m/s^2 */
    double cfl;                 /* gamma in (8), 0 < cfl <= 1 */
    double h_dry;               /* m: a cell with h <= h_dry is dry (velocity 0) */
    double kappa;               /* m: thin-film depth of the Roe solvers' velocity
                                 * desingularization (roe_cpu.h (M5)); 0: off */
    const double *H;            /* (nx+2)*(ny+2): depth function H = -z_b */
    const unsigned char *code;  /* (nx+2)*(ny+2): enum cell_code (swgl_grid.h) */
} swe_problem;

/* The one validation of a problem, called by every backend (CPU and GPU): SWGL_ERR_ARG
 * with "swe: ..." naming what is wrong (nx, ny >= 1; dx, dy, g > 0; cfl in (0, 1];
 * h_dry, kappa >= 0; H and code given). */
swgl_status swe_problem_check(const swe_problem *p);

#endif
