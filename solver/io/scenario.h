/* scenario.h — scenario files (INI, DESIGN.md "Scenario files"), built-in cases, and
 * the fields they define, sampled on the scenario's grid.
 *
 * A value that defines a field is one of
 *   a number            a constant                       bed = 0.0
 *   a path ending .asc  an ESRI ASCII grid               bed = dem.asc  (relative to the file)
 *   anything else       an expression in x, y (m)        bed = -(1 - cos(2*pi*x)/2)
 * Expressions: numbers, x, y, pi, + - * / ^, unary -, ( ), comparisons < <= > >= == !=
 * (1 or 0), && || !, c ? a : b, and sin cos tan exp log sqrt abs floor min max.
 * x and y are the coordinates of the sample point measured from the grid's south-west
 * corner (cell centres for the shallow-water schemes, grid points for sediment).
 *
 * Field arrays here are nx*ny, row-major, j = 0 the southern row (ESRI grids are
 * flipped on reading: their first data row is the northern one).
 */
#ifndef SWGL_SCENARIO_H
#define SWGL_SCENARIO_H

#include <stddef.h>

#include "swgl_grid.h"

#include "swgl_error.h"

/* The most cells a scenario's grid may have: nx * ny after refinement by level, or an .asc
 * grid's ncols * nrows (2^28: 2 GiB per double field). */
#define SCENARIO_MAX_CELLS (1L << 28)

struct scenario_scheme;   /* scenario_scheme.h: what a scheme tells the reader */
enum side { SIDE_WEST = 0, SIDE_EAST = 1, SIDE_SOUTH = 2, SIDE_NORTH = 3 };
/* the grid's cell codes (swgl_grid.h) */
enum bc_kind { BC_WALL = CELL_WALL, BC_FREE = CELL_FREE, BC_LEVEL = CELL_LEVEL, BC_DEPTH = CELL_DEPTH,
               BC_DISCHARGE = CELL_DISCHARGE };

/* A time series: a constant (one row, file "") or a hydrograph file's rows. */
typedef struct sc_series {
    char file[256];          /* as written in the scenario ("" for a number) */
    int n;
    double *t, *v;
} sc_series;

/* A boundary segment: an item of a side's [boundary] list that is not a wall. */
typedef struct sc_segment {
    int side;                /* enum side */
    unsigned char code;      /* BC_FREE, BC_LEVEL, BC_DEPTH, BC_DISCHARGE */
    int series;              /* index into series, -1 for free */
    int cells;               /* ghosts along the side that ended with this segment */
    double length;           /* m: their faces' length */
    char text[96];           /* "west: discharge=inflow.csv 100:140" */
} sc_segment;

/* A gauge: [gauges] NAME = X Y. */
typedef struct sc_gauge {
    char name[16];
    double x, y;             /* m, map coordinates */
    int i, j;                /* the interior cell that holds it, 0-based from the south-west */
} sc_gauge;

/* A point source: [sources] NAME = X Y Q. */
typedef struct sc_source {
    char name[16];
    double x, y;             /* m, map coordinates (xll, yll + distance) */
    int i, j;                /* the interior cell that holds it, 0-based from the south-west */
    int series;              /* Q, m^3/s */
} sc_source;

#define SCENARIO_MAX_SERIES 4096

typedef struct scenario {
    char source[512];        /* the file's path, or "case NAME" */
    char dir[512];           /* folder against which relative grid paths resolve */
    const struct scenario_scheme *scheme;   /* [run] scheme: a registered one (its name: scheme->name) */
    void *params;            /* the scheme's own keys, as its scenario_scheme read them */

    /* [domain] */
    int nx, ny;              /* after refinement by level */
    double dx, dy;           /* after refinement by level */
    int level;               /* domain.level: nx, ny times 2^level, dx, dy over 2^level */
    double xll, yll;         /* south-west corner (from an .asc bed; else 0) */
    double *bed;             /* nx*ny: bed elevation z_b, m (shallow water); for kp the cell
                              * averages of the bilinear bed through bed_corner */
    double *bed_corner;      /* kp: (nx+1)*(ny+1) bed elevations at the cell corners, corner
                              * (i, j) at x = i dx, y = j dy (docs/scenarios.md); else NULL */
    unsigned char *active;   /* nx*ny: 1 computed, 0 inactive (domain.mask; default all 1) */

    /* [initial] (shallow water) */
    double *h;               /* nx*ny: depth, m, >= 0 (from eta - bed clipped at 0, or depth) */
    double *qx, *qy;         /* nx*ny: m^2/s */

    /* [boundary]: per side, the code of every ghost cell along it, west to east or
     * south to north: enum bc_kind (length ny for west/east, nx for south/north), and
     * its segment (-1 for a wall) */
    unsigned char *bc[4];
    int *bc_seg[4];
    int n_seg;
    sc_segment *seg;
    int n_series;
    sc_series *series;       /* values of segments, rain and sources */

    /* [sources] (shallow water) */
    double *rain;            /* nx*ny rain rate in m/s (times series rain_series), NULL: none */
    int rain_series;         /* -1: none (rain is a field), else a series in mm/h */
    int n_src;
    sc_source *src;

    /* [run] */
    double t_end;            /* s */
    double cfl;              /* (0, 1] */
#define SCENARIO_STEP_HOLD_MAX 64
    int step_hold;           /* [run] step_hold: a time step held for up to this many steps (1: each its own) */
    double step_margin;      /* [run] step_margin: the held step's share of the bound it is taken from */
    double g;                /* m/s^2 */
    double h_dry;            /* m, run.h_dry, default 1e-5 */
    double *manning;         /* nx*ny Manning's n ([friction] manning: the schemes with friction), NULL: none */
    int n_output_times;
    double *output_times;    /* s, increasing, each in (0, t_end] */

    /* [output] */
    int netcdf;              /* output.netcdf: 1 write run.nc, 0 not, -1 not given (where built with it) */
    int frames;              /* output.frames: 1 a picture at every output time and the end */
    double gauge_interval;   /* output.gauge_interval: s between gauge samples, 0: every step */
    int maps;                /* output.maps: the flood maps (shallow water; default 1) */
    double arrival_depth;    /* output.arrival_depth, m (default 0.01) */
    int grids;               /* output.grids: GRID_FORMAT_AUTO, _ASC or _FLT (output.h) */
    int n_gauges;
    sc_gauge *gauges;        /* [gauges] (shallow water) */

    /* what the scenario was made of, for the outputs' records */
    char *text;              /* the file's text (at most SCENARIO_MAX_TEXT bytes) or the case's */
    char *overrides;         /* the --set overrides, one per line ("" for none) */
} scenario;

#define SCENARIO_MAX_TEXT (1 << 20)

/* Loads a scenario file, applying overrides "section.key=value" after the file's own
 * values (an override of an unknown key is an error too).  On failure returns the code
 * (SWGL_ERR_INPUT for a bad file, key or value, SWGL_ERR_IO for a file that cannot be
 * read, SWGL_ERR_NO_MEMORY) and leaves in swgl_last_error() one line naming the file,
 * the line and the key, and what was expected, e.g.
 *   "case.ini:12: [run] cfl = 1.5: expected a number in (0, 1]" */
swgl_status scenario_load(scenario *sc, const char *path, const char *const *overrides,
                          int n_overrides);
/* The same for a built-in case (data/cases/NAME.ini compiled in). */
swgl_status scenario_load_case(scenario *sc, const char *name, const char *const *overrides,
                               int n_overrides);
void scenario_free(scenario *sc);      /* tolerates a zeroed or half-loaded scenario */

/* Built-in cases: their names (NULL-terminated list) and texts. */
const char *const *scenario_case_names(void);
const char *scenario_case_text(const char *name);   /* NULL if unknown */
const char *scenario_case_summary(const char *name); /* first comment line of the case */

/* The shared data folder (Malpasset's mesh, the UCL measurements; docs/validation.md):
 * SWGL_DATA when set and not empty, else the folder beside the source tree that the build
 * was configured from (SWGL_DEFAULT_DATA_DIR).  A scenario path "@data/..." starts there. */
const char *sc_data_dir(void);

#endif
