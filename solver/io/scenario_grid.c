/* scenario_grid.c — the grid of a scenario: from an .asc bed or height grid, from a
 * mesh(NODES, TRIANGLES) bed, or from [domain] nx, ny, dx, dy refined by level, with its
 * corner xll, yll; and whether a run of it fits in memory.
 */
#include "scenario_int.h"

#include <math.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "mesh.h"
#include "raster.h"

#define MAX_CELLS SCENARIO_MAX_CELLS
#define MAX_LEVEL 10

/* With an .asc grid: nx, ny, dx, dy keys must agree with it, level must be 0. */
static swgl_status check_against_grid(sc_build *b, const sc_entry *ge)
{
    static const char *const keys[4] = {"nx", "ny", "dx", "dy"};
    double have[4] = {b->grid.nx, b->grid.ny, b->grid.dx, b->grid.dy};
    for (int i = 0; i < 4; i++) {
        sc_entry *e = sc_value(b->t, "domain", keys[i]);
        double v;
        if (e && (!sc_parse_number(e->value, &v) || fabs(v - have[i]) > 1e-6 * have[i]))
            return sc_entry_error(e, SWGL_ERR_INPUT, "disagrees with the grid %s, which has %s = %g",
                                  ge->value, keys[i], have[i]);
    }
    static const char *const corner[2] = {"xll", "yll"};
    double at[2] = {b->grid.xll, b->grid.yll};
    for (int i = 0; i < 2; i++) {
        sc_entry *e = sc_value(b->t, "domain", corner[i]);
        double v;
        if (e && !sc_parse_number(e->value, &v))
            return sc_entry_error(e, SWGL_ERR_INPUT, "expected a number%s", sc_range_note(e->value));
        if (e && fabs(v - at[i]) > 1e-6 * b->grid.dx)
            return sc_entry_error(e, SWGL_ERR_INPUT, "disagrees with the grid %s, whose corner has "
                                  "%s = %.9g", ge->value, corner[i], at[i]);
    }
    sc_entry *e = sc_value(b->t, "domain", "level");
    double level;
    if (e && (!sc_parse_integer(e->value, &level) || level != 0))
        return sc_entry_error(e, SWGL_ERR_INPUT, "expected 0: the grid %s fixes the resolution",
                              ge->value);
    return SWGL_OK;
}

/* [domain] xll, yll: the grid's south-west corner in map coordinates (default 0). */
static swgl_status get_corner(sc_build *b)
{
    swgl_status st;
    if ((st = sc_get_num(b, "domain", "xll", 0, R_ANY, &b->grid.xll)) ||
        (st = sc_get_num(b, "domain", "yll", 0, R_ANY, &b->grid.yll)))
        return st;
    return SWGL_OK;
}

/* bed = mesh(NODES, TRIANGLES) (or the sediment scheme's height): dx, dy are required and
 * level must be 0; the corner xll, yll defaults to the mesh's bounding-box minimum and nx,
 * ny to the cells that cover the box.  The mesh is sampled later (sample_mesh_grid), once
 * the grid is known to fit in memory. */
static swgl_status grid_from_mesh(sc_build *b, const sc_entry *ge)
{
    sc_grid *g = &b->grid;
    swgl_status st = sc_mesh_read(ge, g->dir, &b->grid_mesh);
    if (st != SWGL_OK) return st;
    b->have_mesh = 1;
    const mesh *m = &b->grid_mesh;
    double nx = 0, ny = 0, level = 0;
    g->xll = m->xmin;
    g->yll = m->ymin;
    if ((st = sc_get_num(b, "domain", "dx", 1, R_POS, &g->dx)) ||
        (st = sc_get_num(b, "domain", "dy", 1, R_POS, &g->dy)) || (st = get_corner(b)) ||
        (st = sc_get_integer(b, "domain", "nx", 0, 1, &nx)) ||
        (st = sc_get_integer(b, "domain", "ny", 0, 1, &ny)) ||
        (st = sc_get_integer(b, "domain", "level", 0, 0, &level)))
        return st;
    if (level != 0)
        return sc_entry_error(sc_value(b->t, "domain", "level"), SWGL_ERR_INPUT, "expected 0: with "
                              "a mesh bed the cell size is dx, dy");
    if (nx == 0) nx = fmax(1.0, ceil((m->xmax - g->xll) / g->dx - 1e-9));
    if (ny == 0) ny = fmax(1.0, ceil((m->ymax - g->yll) / g->dy - 1e-9));
    if (nx * ny > (double)MAX_CELLS)
        return sc_entry_error(ge, SWGL_ERR_INPUT, "too many cells: %.0f x %.0f cells of %g x %g m, "
                              "at most %ld: choose larger dx, dy", nx, ny, g->dx, g->dy, MAX_CELLS);
    g->nx = (int)nx;
    g->ny = (int)ny;
    g->from_file = 1;
    return SWGL_OK;
}

static swgl_status sample_mesh_grid(sc_build *b, const sc_entry *ge)
{
    sc_grid *g = &b->grid;
    size_t n = (size_t)g->nx * (size_t)g->ny;
    if (!(b->grid_values = malloc(n * sizeof(double))) || !(b->grid_nodata = malloc(n)))
        return swgl_fail(SWGL_ERR_NO_MEMORY, "%s: out of memory for %zu cells", b->t->file, n);
    long inside = mesh_sample(&b->grid_mesh, g->xll + g->offset * g->dx, g->yll + g->offset * g->dy,
                              g->dx, g->dy, g->nx, g->ny, b->grid_values, b->grid_nodata);
    if (inside == 0)
        return sc_entry_error(ge, SWGL_ERR_INPUT, "no cell of the %d x %d grid at (%g, %g) lies in "
                              "the mesh", g->nx, g->ny, g->xll, g->yll);
    return SWGL_OK;
}

static swgl_status grid_from_file(sc_build *b, const sc_entry *ge)
{
    char path[1024];
    sc_grid *g = &b->grid;
    sc_grid_path(g->dir, ge->value, path, sizeof path);
    raster r;
    swgl_status st = raster_read(path, &r);
    if (st == SWGL_OK) {
        g->nx = r.nx;
        g->ny = r.ny;
        g->xll = r.x0;
        g->yll = r.y0;
        g->dx = r.dx;
        g->dy = r.dy;
        b->grid_values = r.v;
        b->grid_nodata = r.nodata;
        r.v = NULL;
        r.nodata = NULL;
        raster_free(&r);
    }
    if (st != SWGL_OK) {
        if (ge->is_override) return swgl_fail(st, "%s (%s)", swgl_last_error(), ge->where);
        return swgl_fail(st, "%s ([%s] %s, %s)", swgl_last_error(), ge->section, ge->key,
                         ge->where);
    }
    g->from_file = 1;
    return check_against_grid(b, ge);
}

/* nx, ny, dx, dy and level; nx * ny * 4^level must be at most MAX_CELLS.  The integers
 * are compared as doubles, before any conversion; a message names the key at fault. */
static swgl_status grid_from_keys(sc_build *b)
{
    sc_grid *g = &b->grid;
    double nx = 0, ny = 0, level = 0;
    swgl_status st;
    if ((st = sc_get_integer(b, "domain", "nx", 1, 1, &nx)) ||
        (st = sc_get_integer(b, "domain", "ny", 1, 1, &ny)) ||
        (st = sc_get_num(b, "domain", "dx", 1, R_POS, &g->dx)) ||
        (st = sc_get_num(b, "domain", "dy", 1, R_POS, &g->dy)) ||
        (st = sc_get_integer(b, "domain", "level", 0, 0, &level)) || (st = get_corner(b)))
        return st;
    sc_entry *ex = sc_value(b->t, "domain", "nx"), *ey = sc_value(b->t, "domain", "ny");
    sc_entry *le = sc_value(b->t, "domain", "level");
    if (nx * ny > (double)MAX_CELLS) {
        /* the one at fault: the one too large by itself, else the larger */
        sc_entry *e = nx > (double)MAX_CELLS ? ex : ny > (double)MAX_CELLS ? ey : nx > ny ? ex : ey;
        return sc_entry_error(e, SWGL_ERR_INPUT, "too many cells: nx x ny = %.40s x %.40s, at most "
                              "%ld", ex->value, ey->value, MAX_CELLS);
    }
    if (level > MAX_LEVEL)
        return sc_entry_error(le, SWGL_ERR_INPUT, "too fine: expected a level from 0 to %d",
                              MAX_LEVEL);
    if (nx * ny * pow(4.0, level) > (double)MAX_CELLS)
        return sc_entry_error(le, SWGL_ERR_INPUT, "too fine: nx x ny x 4^level = %.0f x %.0f x 4^%.0f "
                              "= %.0f cells, at most %ld", nx, ny, level, nx * ny * pow(4.0, level),
                              MAX_CELLS);
    int k = (int)level;
    b->sc->level = k;
    g->nx = (int)nx << k;
    g->ny = (int)ny << k;
    g->dx /= (double)(1 << k);
    g->dy /= (double)(1 << k);
    return SWGL_OK;
}

/* The memory this process may still take: the smallest of MemAvailable (/proc/meminfo),
 * the address-space and data limits (ulimit -v, -d) less what it holds; +inf if none is
 * known.  *what names the smallest. */
static double memory_available(const char **what)
{
    double best = INFINITY;
    *what = "";
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    while (f && fgets(line, sizeof line, f)) {
        double kb;
        if (sscanf(line, "MemAvailable: %lf kB", &kb) == 1 && kb * 1024.0 < best) {
            best = kb * 1024.0;
            *what = "the machine has available (MemAvailable)";
        }
    }
    if (f) fclose(f);
    double used = 0;
    f = fopen("/proc/self/statm", "r");
    if (f) {
        double pages;
        if (fscanf(f, "%lf", &pages) == 1) used = pages * (double)sysconf(_SC_PAGESIZE);
        fclose(f);
    }
    static const int res[2] = {RLIMIT_AS, RLIMIT_DATA};
    static const char *names[2] = {"the address-space limit (ulimit -v) allows", "the data limit (ulimit -d) allows"};
    for (int k = 0; k < 2; k++) {
        struct rlimit rl;
        if (getrlimit(res[k], &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) continue;
        double left = (double)rl.rlim_cur - used;
        if (left < best) {
            best = left > 0 ? left : 0;
            *what = names[k];
        }
    }
    return best;
}

/* Before anything large is allocated: does a run of this grid fit in memory? */
static swgl_status check_memory(sc_build *b)
{
    double cells = (double)b->grid.nx * (double)b->grid.ny;
    double per_cell = sc_scheme_bytes_per_cell(b);
    double need = cells * per_cell;
    const char *what;
    double have = memory_available(&what);
    if (need <= have) return SWGL_OK;
    const double gib = 1024.0 * 1024.0 * 1024.0;
    return swgl_fail(SWGL_ERR_NO_MEMORY,
                     "%s: a %d x %d grid needs about %.1f GiB of memory for a %s run (%.0f bytes a cell); %s "
                     "%.1f GiB: choose a coarser grid ([domain] nx, ny, dx, dy, level, or the grid file's)",
                     b->t->file, b->grid.nx, b->grid.ny, need / gib, b->sc->scheme->name, per_cell, what,
                     have / gib);
}

swgl_status sc_setup_grid(sc_build *b)
{
    const scenario_scheme *ss = b->sc->scheme;
    const char *section = ss->points ? ss->grid_section : "domain";
    const char *key = ss->points ? ss->grid_key : "bed";
    sc_entry *ge = sc_value(b->t, section, key);
    b->grid.offset = ss->points ? 0.0 : 0.5;
    swgl_status st = ge && sc_value_is_grid(ge->value) ? grid_from_file(b, ge)
                     : ge && sc_value_is_mesh(ge->value) ? grid_from_mesh(b, ge) : grid_from_keys(b);
    if (st == SWGL_OK) st = check_memory(b);
    if (st == SWGL_OK && b->have_mesh) st = sample_mesh_grid(b, ge);
    if (st != SWGL_OK) return st;
    scenario *sc = b->sc;
    sc->nx = b->grid.nx;
    sc->ny = b->grid.ny;
    sc->dx = b->grid.dx;
    sc->dy = b->grid.dy;
    sc->xll = b->grid.xll;
    sc->yll = b->grid.yll;
    return SWGL_OK;
}
