/* swgl_grid.h — the one grid every scheme and backend shares.
 *
 * nx x ny interior cells (or grid points, for sediment) with a ring of GRID_GHOST ghost
 * cells all round.  Every per-cell array, on the CPU and in a texture, has
 * grid_size(nx, ny) entries, row-major from the south-west ghost:
 *     k = grid_at(nx, i, j) = j * grid_stride(nx) + i,   i = 0..nx+1, j = 0..ny+1,
 * interior cells i = 1..nx, j = 1..ny; grid_in(nx, i, j) indexes the interior with
 * 0-based (i, j), i.e. grid_at(nx, i + 1, j + 1).
 *
 * Every cell carries a code (enum cell_code); the GLSL passes get the same numbers
 * through CELL_CODE_GLSL, prepended to their defines, so C and GLSL cannot drift:
 *   CELL_ACTIVE  a computed volume;
 *   CELL_WALL    a ghost (ring cell, or inactive cell next to an active one) that closes
 *                the edge it shares with an active cell;
 *   CELL_FREE    a ghost that makes the shared edge transmissive (zero-order extrapolation);
 *   CELL_OFF     padding that touches no active cell (never read);
 *   CELL_LEVEL, CELL_DEPTH, CELL_DISCHARGE  ghosts of the ring with a value (a water-surface
 *                elevation, a depth, an inflow; cpu_ref/swe.h "Boundary data").
 * No GL here: cpu_ref uses it too. */
#ifndef SWGL_GRID_H
#define SWGL_GRID_H

#include <stddef.h>

#define GRID_GHOST 1

enum cell_code {
    CELL_ACTIVE = 0, CELL_WALL = 1, CELL_FREE = 2, CELL_OFF = 3,
    CELL_LEVEL = 4, CELL_DEPTH = 5, CELL_DISCHARGE = 6
};

/* The boundary rule of the shallow-water schemes (roe and kp, on the CPU and the GPU): a
 * non-active cell of code c seen across a face from an active cell shows it the active
 * cell's own state with the momentum normal to the face multiplied by GRID_BC_SIGN(c):
 * -1 for a wall (and CELL_OFF, treated as one): a mirror, nothing flows through the face;
 * +1 for a free outlet: a copy, zero-order extrapolation.  The same text is GLSL (below),
 * so the passes and the CPU solvers cannot drift.  The ghosts with a value (level, depth,
 * discharge) count as +1 here, for the slopes of kp's reconstruction (a zero gradient,
 * as a free outlet); at the face itself they show the state of cpu_ref/swe.h
 * "Boundary data" instead.
 * c may be an integer code or a floating-point one (a texture channel, a SIMD lane). */
#define GRID_BC_SIGN(c) ((c) == CELL_WALL || (c) == CELL_OFF ? -1 : 1)

/* The cell codes as GLSL float constants (a texture channel holds the code), and the
 * boundary rule. */
#define CELL_CODE_GLSL                                                                   \
    "#define CELL_ACTIVE 0.0\n#define CELL_WALL 1.0\n#define CELL_FREE 2.0\n#define CELL_OFF 3.0\n" \
    "#define CELL_LEVEL 4.0\n#define CELL_DEPTH 5.0\n#define CELL_DISCHARGE 6.0\n"          \
    "#define GRID_BC_SIGN(c) ((c) == CELL_WALL || (c) == CELL_OFF ? -1.0 : 1.0)\n"

/* Whether any of the n codes is a ghost with a value (level, depth, discharge): where none
 * is (walls and free outlets only, whose segments serve only the accounts), the GPU passes
 * are built with SWGL_PLAIN_BOUNDARIES, which drops the value codes' branches (the same
 * operations for walls and free outlets; fewer registers). */
static inline int grid_has_value_codes(const unsigned char *code, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (code[k] == CELL_LEVEL || code[k] == CELL_DEPTH || code[k] == CELL_DISCHARGE) return 1;
    return 0;
}
#define GRID_PLAIN_GLSL "#define SWGL_PLAIN_BOUNDARIES 1\n"

static inline int grid_stride(int nx) { return nx + 2 * GRID_GHOST; }
static inline int grid_rows(int ny) { return ny + 2 * GRID_GHOST; }
static inline size_t grid_size(int nx, int ny) { return (size_t)grid_stride(nx) * (size_t)grid_rows(ny); }
static inline size_t grid_at(int nx, int i, int j) { return (size_t)j * (size_t)grid_stride(nx) + (size_t)i; }
static inline size_t grid_in(int nx, int i, int j) { return grid_at(nx, i + GRID_GHOST, j + GRID_GHOST); }

/* The nx*ny interior of a ghost-ring field as a new malloc'ed array (row 0 southern);
 * NULL when out of memory. */
double *grid_interior(const double *v, int nx, int ny);

/* Kahan sum of v * cell over the interior cells whose code is CELL_ACTIVE (code NULL:
 * every interior cell): a mass check must not drown in its own rounding. */
double grid_volume(const double *v, const unsigned char *code, int nx, int ny, double cell);

/* Cell codes of a domain: interior cells ACTIVE where active[] (nx*ny, row 0 southern;
 * NULL: all) is non-zero; a non-active cell that touches an active one across an edge is
 * a ghost: on the ring it takes its side's code from side[s][m] (s = 0 west, 1 east,
 * 2 south, 3 north; m counted from the south or west end, length ny or nx; NULL: wall),
 * inside the domain it is a wall; everything else is OFF. */
void grid_codes(int nx, int ny, const unsigned char *active, unsigned char *const side[4],
                unsigned char *code);

/* Copies the boundary cells' values into the ghost ring (corners from the diagonal
 * interior cell). */
void grid_copy_ring(double *f, int nx, int ny);

#endif
