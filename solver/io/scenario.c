/* scenario.c — interpreting a scenario's entries (scenario_ini.c) into a struct scenario:
 * the scheme, the grid, the active cells, the initial fields, the boundary codes, the run
 * and sediment parameters; every value is checked and every failure becomes one line
 * naming the file, the line, the key and what was expected (docs/scenarios.md).
 *
 * Order of interpretation: run.scheme first (it decides which keys are allowed and where
 * the fields are sampled), then the grid (from an .asc bed or height grid, else from
 * nx, ny, dx, dy refined by level), the mask, the fields, the boundaries, the rest.
 */
#include "scenario_int.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <unistd.h>

#include "hydrograph.h"
#include "mesh.h"
#include "points.h"
#include "output.h"

#define MAX_CELLS SCENARIO_MAX_CELLS
#define MAX_LEVEL 10

enum range { R_ANY, R_POS, R_NONNEG, R_CFL, R_CFL_KP, R_THETA };

typedef struct build {
    scenario *sc;
    sc_table *t;
    sc_grid grid;
    double *grid_values;          /* the .asc bed / height that gave the grid, or NULL */
    unsigned char *grid_nodata;
    mesh grid_mesh;               /* the mesh(NODES, TRIANGLES) bed that gave the grid */
    int have_mesh;
} build;

const char *scheme_name(enum scheme_kind k)
{
    switch (k) {
    case SCHEME_ROE: return "roe";
    case SCHEME_KP: return "kp";
    case SCHEME_SEDIMENT: return "sediment";
    case SCHEME_HLLC: return "hllc";
    }
    return "?";
}

static const char *const side_names[4] = {"west", "east", "south", "north"};

/* ---- messages and scalar values ---------------------------------------------------- */

static swgl_status missing(build *b, const char *section, const char *key, const char *expected)
{
    return swgl_fail(SWGL_ERR_INPUT, "%s: [%s] %s is missing: expected %s", b->t->file, section,
                     key, expected);
}

static swgl_status no_memory(build *b)
{
    return swgl_fail(SWGL_ERR_NO_MEMORY, "%s: out of memory", b->t->file);
}

/* Decimal text, as numbers are written in expressions: [+-] digits [. digits]
 * [e [+-] digits] (no hex, inf or nan). */
static int decimal_syntax(const char *s)
{
    static const char digits[] = "0123456789";
    if (*s == '+' || *s == '-') s++;
    size_t d = strspn(s, digits);
    s += d;
    if (*s == '.') {
        size_t f = strspn(++s, digits);
        s += f;
        d += f;
    }
    if (!d) return 0;
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-') s++;
        size_t e = strspn(s, digits);
        if (!e) return 0;
        s += e;
    }
    return *s == '\0';
}

/* The same for s[0..end) after white space (what strtod read). */
static int decimal_span(const char *s, const char *end)
{
    while (s < end && isspace((unsigned char)*s)) s++;
    char buf[128];
    if (end - s >= (long)sizeof buf) return 0;
    snprintf(buf, sizeof buf, "%.*s", (int)(end - s), s);
    return decimal_syntax(buf);
}

/* A finite number in a double's range. */
static int parse_number(const char *s, double *v)
{
    if (!decimal_syntax(s)) return 0;
    errno = 0;
    *v = strtod(s, NULL);
    return errno != ERANGE && isfinite(*v);
}

/* An integer: digits, or a number with an integer value such as 1e3.  *v stays a double,
 * so that a huge one is range-checked before any conversion; one beyond a double's range
 * (1e999) is +-HUGE_VAL. */
static int parse_integer(const char *s, double *v)
{
    if (!decimal_syntax(s)) return 0;
    errno = 0;
    *v = strtod(s, NULL);
    if (errno == ERANGE) return fabs(*v) > 1;   /* overflow; an underflow is no integer */
    return isfinite(*v) && *v == floor(*v);
}

/* " (out of range)" after "expected ..." for decimal text beyond a double's range. */
static const char *range_note(const char *s)
{
    double v;
    if (!decimal_syntax(s)) return "";
    errno = 0;
    v = strtod(s, NULL);
    return errno == ERANGE && fabs(v) > 1 ? " (out of range)" : "";
}

static int in_range(double v, enum range r)
{
    switch (r) {
    case R_POS: return v > 0;
    case R_NONNEG: return v >= 0;
    case R_CFL: return v > 0 && v <= 1;
    case R_CFL_KP: return v > 0 && v <= 0.25;
    case R_THETA: return v >= 1 && v <= 2;
    default: return 1;
    }
}

static const char *range_text(enum range r)
{
    switch (r) {
    case R_POS: return "a number > 0";
    case R_NONNEG: return "a number >= 0";
    case R_CFL: return "a number in (0, 1]";
    case R_CFL_KP: return "a number in (0, 0.25] for scheme = kp (a quarter cell per step: Brodtkorb et al. (8), "
                          "which keeps the depth positive)";
    case R_THETA: return "a number in [1, 2]";
    default: return "a number";
    }
}

/* A number; *v keeps def when the key is absent and not required. */
static swgl_status get_num(build *b, const char *section, const char *key, int required,
                           enum range r, double *v)
{
    sc_entry *e = sc_value(b->t, section, key);
    if (!e) return required ? missing(b, section, key, range_text(r)) : SWGL_OK;
    if (!parse_number(e->value, v) || !in_range(*v, r))
        return sc_entry_error(e, SWGL_ERR_INPUT, "expected %s%s", range_text(r), range_note(e->value));
    return SWGL_OK;
}

/* An integer >= min, as a double (callers check the upper end before converting); *v
 * keeps its value when the key is absent and not required. */
static swgl_status get_integer(build *b, const char *section, const char *key, int required,
                               int min, double *v)
{
    sc_entry *e = sc_value(b->t, section, key);
    if (!e) {
        if (!required) return SWGL_OK;
        return swgl_fail(SWGL_ERR_INPUT, "%s: [%s] %s is missing: expected an integer >= %d",
                         b->t->file, section, key, min);
    }
    if (!parse_integer(e->value, v) || *v < min)
        return sc_entry_error(e, SWGL_ERR_INPUT, "expected an integer >= %d", min);
    return SWGL_OK;
}

/* An integer in [min, max]. */
static swgl_status get_int(build *b, const char *section, const char *key, int required, int min,
                           int max, int *v)
{
    double x = *v;
    swgl_status st = get_integer(b, section, key, required, min, &x);
    if (st != SWGL_OK) return st;
    if (x > max)
        return sc_entry_error(sc_value(b->t, section, key), SWGL_ERR_INPUT,
                              "expected an integer from %d to %d", min, max);
    *v = (int)x;
    return SWGL_OK;
}

/* One of words (NULL-terminated): its index in *v. */
static swgl_status get_word(build *b, const char *section, const char *key,
                            const char *const *words, const char *expected, int *v)
{
    sc_entry *e = sc_value(b->t, section, key);
    if (!e) return SWGL_OK;
    for (int i = 0; words[i]; i++) {
        if (strcmp(e->value, words[i]) == 0) {
            *v = i;
            return SWGL_OK;
        }
    }
    return sc_entry_error(e, SWGL_ERR_INPUT, "expected %s", expected);
}

/* ---- scheme and key families ------------------------------------------------------- */

static swgl_status read_scheme(build *b)
{
    static const char *const names[] = {"roe", "kp", "sediment", "hllc", NULL};   /* enum scheme_kind's order */
    int k = SCHEME_ROE;
    swgl_status st = get_word(b, "run", "scheme", names, "roe, kp, hllc or sediment", &k);
    if (st != SWGL_OK) return st;
    b->sc->scheme = (enum scheme_kind)k;
    return SWGL_OK;
}

/* Shallow-water keys are errors with scheme = sediment, sediment keys with the others,
 * and a key of one shallow-water scheme ([roe] kappa; [kp]; [hllc] kappa; [friction],
 * which kp and hllc take: docs/scenarios.md) with the others. */
static swgl_status check_families(build *b)
{
    enum scheme_kind k = b->sc->scheme;
    for (int i = 0; i < b->t->n; i++) {
        sc_entry *e = &b->t->e[i];
        enum key_family f = FAM_ALL;
        sc_key_known(e->section, e->key, &f);
        if (!e->value[0] || strcmp(e->section, "domain") == 0) continue;  /* bed: ignored */
        int ok = f == FAM_ALL || (f == FAM_SW && k != SCHEME_SEDIMENT) || (f == FAM_SED && k == SCHEME_SEDIMENT) ||
                 (f == FAM_ROE && k == SCHEME_ROE) || (f == FAM_KP && k == SCHEME_KP) ||
                 (f == FAM_HLLC && k == SCHEME_HLLC) || (f == FAM_FRICTION && (k == SCHEME_KP || k == SCHEME_HLLC));
        if (!ok)
            return sc_entry_error(e, SWGL_ERR_INPUT, "a %s key, not allowed with scheme = %s",
                                  f == FAM_SED ? "sediment" : f == FAM_ROE ? "roe" : f == FAM_KP ? "kp"
                                  : f == FAM_HLLC ? "hllc" : f == FAM_FRICTION ? "kp or hllc" : "shallow-water",
                                  scheme_name(k));
    }
    return SWGL_OK;
}

/* ---- the grid ---------------------------------------------------------------------- */

static int is_sediment(const build *b)
{
    return b->sc->scheme == SCHEME_SEDIMENT;
}

/* With an .asc grid: nx, ny, dx, dy keys must agree with it, level must be 0. */
static swgl_status check_against_grid(build *b, const sc_entry *ge)
{
    static const char *const keys[4] = {"nx", "ny", "dx", "dy"};
    double have[4] = {b->grid.nx, b->grid.ny, b->grid.dx, b->grid.dy};
    for (int i = 0; i < 4; i++) {
        sc_entry *e = sc_value(b->t, "domain", keys[i]);
        double v;
        if (e && (!parse_number(e->value, &v) || fabs(v - have[i]) > 1e-6 * have[i]))
            return sc_entry_error(e, SWGL_ERR_INPUT, "disagrees with the grid %s, which has %s = %g",
                                  ge->value, keys[i], have[i]);
    }
    static const char *const corner[2] = {"xll", "yll"};
    double at[2] = {b->grid.xll, b->grid.yll};
    for (int i = 0; i < 2; i++) {
        sc_entry *e = sc_value(b->t, "domain", corner[i]);
        double v;
        if (e && !parse_number(e->value, &v))
            return sc_entry_error(e, SWGL_ERR_INPUT, "expected a number%s", range_note(e->value));
        if (e && fabs(v - at[i]) > 1e-6 * b->grid.dx)
            return sc_entry_error(e, SWGL_ERR_INPUT, "disagrees with the grid %s, whose corner has "
                                  "%s = %.9g", ge->value, corner[i], at[i]);
    }
    sc_entry *e = sc_value(b->t, "domain", "level");
    double level;
    if (e && (!parse_integer(e->value, &level) || level != 0))
        return sc_entry_error(e, SWGL_ERR_INPUT, "expected 0: the grid %s fixes the resolution",
                              ge->value);
    return SWGL_OK;
}

/* [domain] xll, yll: the grid's south-west corner in map coordinates (default 0). */
static swgl_status get_corner(build *b)
{
    swgl_status st;
    if ((st = get_num(b, "domain", "xll", 0, R_ANY, &b->grid.xll)) ||
        (st = get_num(b, "domain", "yll", 0, R_ANY, &b->grid.yll)))
        return st;
    return SWGL_OK;
}

/* bed = mesh(NODES, TRIANGLES) (or the sediment scheme's height): dx, dy are required and
 * level must be 0; the corner xll, yll defaults to the mesh's bounding-box minimum and nx,
 * ny to the cells that cover the box.  The mesh is sampled later (sample_mesh_grid), once
 * the grid is known to fit in memory. */
static swgl_status grid_from_mesh(build *b, const sc_entry *ge)
{
    sc_grid *g = &b->grid;
    swgl_status st = sc_mesh_read(ge, g->dir, &b->grid_mesh);
    if (st != SWGL_OK) return st;
    b->have_mesh = 1;
    const mesh *m = &b->grid_mesh;
    double nx = 0, ny = 0, level = 0;
    g->xll = m->xmin;
    g->yll = m->ymin;
    if ((st = get_num(b, "domain", "dx", 1, R_POS, &g->dx)) ||
        (st = get_num(b, "domain", "dy", 1, R_POS, &g->dy)) || (st = get_corner(b)) ||
        (st = get_integer(b, "domain", "nx", 0, 1, &nx)) ||
        (st = get_integer(b, "domain", "ny", 0, 1, &ny)) ||
        (st = get_integer(b, "domain", "level", 0, 0, &level)))
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

static swgl_status sample_mesh_grid(build *b, const sc_entry *ge)
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

static swgl_status grid_from_file(build *b, const sc_entry *ge)
{
    char path[1024];
    sc_grid *g = &b->grid;
    sc_grid_path(g->dir, ge->value, path, sizeof path);
    swgl_status st = asc_read(path, &g->nx, &g->ny, &g->xll, &g->yll, &g->dx, &g->dy,
                              &b->grid_values, &b->grid_nodata);
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
static swgl_status grid_from_keys(build *b)
{
    sc_grid *g = &b->grid;
    double nx = 0, ny = 0, level = 0;
    swgl_status st;
    if ((st = get_integer(b, "domain", "nx", 1, 1, &nx)) ||
        (st = get_integer(b, "domain", "ny", 1, 1, &ny)) ||
        (st = get_num(b, "domain", "dx", 1, R_POS, &g->dx)) ||
        (st = get_num(b, "domain", "dy", 1, R_POS, &g->dy)) ||
        (st = get_integer(b, "domain", "level", 0, 0, &level)) || (st = get_corner(b)))
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

/* Bytes a run needs per cell, at most: the scenario fields, the scheme's problem and state,
 * the run's two copies of the state for --compare, the output grids, and the worst pair of
 * backends a --compare can hold, counting the GPU's textures, which llvmpipe (the renderer
 * of a machine without a GPU) keeps in host memory.  Measured peaks (slope between 1000^2
 * and 1400^2 cells): kp gpu --precision double --compare cpu-scalar with friction ~680
 * (cpu-scalar alone 397: it keeps every cell's four point values, the face fluxes and both
 * RK2 states in double); roe gpu --precision double --compare cpu-scalar ~375; sediment
 * ~160. */
#define BYTES_PER_CELL_SW 400.0
#define BYTES_PER_CELL_KP 720.0
#define BYTES_PER_CELL_SED 160.0

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
static swgl_status check_memory(build *b)
{
    double cells = (double)b->grid.nx * (double)b->grid.ny;
    double per_cell = is_sediment(b) ? BYTES_PER_CELL_SED : b->sc->scheme == SCHEME_KP ? BYTES_PER_CELL_KP : BYTES_PER_CELL_SW;
    double need = cells * per_cell;
    const char *what;
    double have = memory_available(&what);
    if (need <= have) return SWGL_OK;
    const double gib = 1024.0 * 1024.0 * 1024.0;
    return swgl_fail(SWGL_ERR_NO_MEMORY,
                     "%s: a %d x %d grid needs about %.1f GiB of memory for a %s run (%.0f bytes a cell); %s "
                     "%.1f GiB: choose a coarser grid ([domain] nx, ny, dx, dy, level, or the grid file's)",
                     b->t->file, b->grid.nx, b->grid.ny, need / gib, scheme_name(b->sc->scheme), per_cell, what,
                     have / gib);
}

static swgl_status setup_grid(build *b)
{
    const char *section = is_sediment(b) ? "initial" : "domain";
    const char *key = is_sediment(b) ? "height" : "bed";
    sc_entry *ge = sc_value(b->t, section, key);
    b->grid.offset = is_sediment(b) ? 0.0 : 0.5;
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

/* ---- fields ------------------------------------------------------------------------ */

static size_t ncells(const build *b)
{
    return (size_t)b->grid.nx * (size_t)b->grid.ny;
}

static double *new_field(build *b)
{
    double *v = calloc(ncells(b), sizeof *v);
    if (!v) swgl_fail(SWGL_ERR_NO_MEMORY, "%s: out of memory for %zu cells", b->t->file, ncells(b));
    return v;
}

/* Fills *out from [section] key, or with def when absent (def NaN: required).  NODATA is
 * allowed only at inactive cells, where the value becomes 0. */
static swgl_status get_field(build *b, const char *section, const char *key, double def,
                             double **out)
{
    size_t n = ncells(b);
    if (!(*out = new_field(b))) return SWGL_ERR_NO_MEMORY;
    sc_entry *e = sc_value(b->t, section, key);
    if (!e) {
        if (isnan(def)) return missing(b, section, key, "a number, an .asc grid or an expression");
        for (size_t k = 0; k < n; k++) (*out)[k] = def;
        return SWGL_OK;
    }
    unsigned char *nd = calloc(n, 1);
    if (!nd) return no_memory(b);
    swgl_status st = sc_field(e, &b->grid, *out, nd);
    for (size_t k = 0; st == SWGL_OK && k < n; k++) {
        if (!nd[k]) continue;
        if (b->sc->active[k])
            st = sc_entry_error(e, SWGL_ERR_INPUT, "NODATA at active cell (%zu, %zu) (i, j from "
                                "the south-west)", k % (size_t)b->grid.nx, k / (size_t)b->grid.nx);
        (*out)[k] = 0;
    }
    free(nd);
    return st;
}

/* Every active cell's value in [lo, hi]. */
static swgl_status check_field(build *b, const char *section, const char *key, const double *v,
                               double lo, double hi, const char *expected)
{
    for (size_t k = 0; k < ncells(b); k++) {
        if (!b->sc->active[k] || (v[k] >= lo && v[k] <= hi)) continue;
        sc_entry *e = sc_value(b->t, section, key);
        int i = (int)(k % (size_t)b->grid.nx), j = (int)(k / (size_t)b->grid.nx);
        double off = b->grid.offset;
        if (e) return sc_entry_error(e, SWGL_ERR_INPUT, "expected %s, found %g at cell (%d, %d), "
                                     "x = %g, y = %g (m)", expected, v[k], i, j,
                                     (i + off) * b->grid.dx, (j + off) * b->grid.dy);
        return swgl_fail(SWGL_ERR_INPUT, "%s: [%s] %s: expected %s", b->t->file, section, key,
                         expected);
    }
    return SWGL_OK;
}

/* domain.mask and the NODATA cells of the grid: sc->active. */
static swgl_status read_mask(build *b)
{
    size_t n = ncells(b);
    scenario *sc = b->sc;
    if (!(sc->active = malloc(n))) return no_memory(b);
    for (size_t k = 0; k < n; k++) sc->active[k] = !(b->grid_nodata && b->grid_nodata[k]);
    sc_entry *e = sc_value(b->t, "domain", "mask");
    if (!e) return SWGL_OK;
    double *m = new_field(b);
    unsigned char *nd = calloc(n, 1);
    swgl_status st = m && nd ? sc_field(e, &b->grid, m, nd) : SWGL_ERR_NO_MEMORY;
    if (m && !nd) no_memory(b);
    for (size_t k = 0; st == SWGL_OK && k < n; k++)
        if (nd[k] || m[k] == 0) sc->active[k] = 0;
    free(m);
    free(nd);
    return st;
}

/* The field that gave the grid (bed or height): NODATA cells (inactive) become 0. */
static swgl_status grid_field(build *b, const char *section, const char *key, double **out)
{
    if (!b->grid_values) return get_field(b, section, key, NAN, out);
    *out = b->grid_values;
    b->grid_values = NULL;
    for (size_t k = 0; k < ncells(b); k++)
        if (b->grid_nodata[k]) (*out)[k] = 0;
    return SWGL_OK;
}

/* scheme = kp: the bed at the cell corners (docs/scenarios.md "The bed of kp"), and the
 * cell values replaced by the bilinear bed's cell averages (the mean of the four
 * corners), so that h = eta - bed, the outputs' eta = bed + h and the scheme's
 * w = B_ij + h all use the bed the scheme uses, and a lake at rest stays one.
 *  - a number or an expression: sampled at the corners x = i dx, y = j dy;
 *  - an .asc grid (values at cell centres): a corner takes the mean of the active cells
 *    among the (up to) four that touch it (all of them when none is active). */
static swgl_status corner_bed(build *b)
{
    scenario *sc = b->sc;
    int nx = b->grid.nx, ny = b->grid.ny;
    size_t nc = (size_t)(nx + 1) * (size_t)(ny + 1);
    if (!(sc->bed_corner = calloc(nc, sizeof(double)))) return no_memory(b);
    sc_entry *e = sc_value(b->t, "domain", "bed");
    if (e && !sc_value_is_grid(e->value) && !b->have_mesh) {
        sc_grid g = b->grid;
        g.nx = nx + 1;
        g.ny = ny + 1;
        g.offset = 0.0;
        swgl_status st = sc_field(e, &g, sc->bed_corner, NULL);
        if (st != SWGL_OK) return st;
    } else if (!e) {
        for (size_t k = 0; k < nc; k++) sc->bed_corner[k] = sc->bed[0];
    } else {
        for (int j = 0; j <= ny; j++)
            for (int i = 0; i <= nx; i++) {
                double sum[2] = {0, 0};
                int cnt[2] = {0, 0};
                for (int dj = -1; dj <= 0; dj++)
                    for (int di = -1; di <= 0; di++) {
                        int ci = i + di, cj = j + dj;
                        if (ci < 0 || cj < 0 || ci >= nx || cj >= ny) continue;
                        size_t c = (size_t)cj * nx + ci;
                        int a = sc->active[c] != 0;
                        sum[a] += sc->bed[c];
                        cnt[a]++;
                    }
                int a = cnt[1] > 0;
                sc->bed_corner[(size_t)j * (nx + 1) + i] = sum[a] / cnt[a];
            }
        /* a mesh: its own value at each corner inside it (the cell means above stay at
         * the corners outside, on the mesh's edge) */
        if (b->have_mesh) {
            double *v = malloc(nc * sizeof(double));
            unsigned char *nd = malloc(nc);
            if (!v || !nd) {
                free(v);
                free(nd);
                return no_memory(b);
            }
            mesh_sample(&b->grid_mesh, b->grid.xll, b->grid.yll, b->grid.dx, b->grid.dy, nx + 1, ny + 1, v, nd);
            for (size_t k = 0; k < nc; k++)
                if (!nd[k]) sc->bed_corner[k] = v[k];
            free(v);
            free(nd);
        }
    }
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            const double *c = sc->bed_corner + (size_t)j * (nx + 1) + i;
            sc->bed[(size_t)j * nx + i] = 0.25 * ((c[0] + c[1]) + (c[nx + 1] + c[nx + 2]));
        }
    return SWGL_OK;
}

/* [friction] manning (kp): NULL when absent or 0 everywhere. */
static swgl_status read_friction(build *b)
{
    scenario *sc = b->sc;
    if (!sc_value(b->t, "friction", "manning")) return SWGL_OK;
    swgl_status st = get_field(b, "friction", "manning", 0.0, &sc->manning);
    if (st == SWGL_OK)
        st = check_field(b, "friction", "manning", sc->manning, 0, 1, "Manning's n in [0, 1] (s m^-1/3)");
    if (st != SWGL_OK) return st;
    int any = 0;
    for (size_t k = 0; k < ncells(b); k++) {
        if (!sc->active[k]) sc->manning[k] = 0;
        any |= sc->manning[k] > 0;
    }
    if (!any) {
        free(sc->manning);
        sc->manning = NULL;
    }
    return SWGL_OK;
}

/* eta or depth (exactly one), qx, qy; then h = max(eta - bed, 0) and zero at inactive cells. */
static swgl_status shallow_water_fields(build *b)
{
    scenario *sc = b->sc;
    sc_entry *eta = sc_value(b->t, "initial", "eta");
    sc_entry *depth = sc_value(b->t, "initial", "depth");
    if (eta && depth) {
        int eta_later = eta->is_override > depth->is_override ||
                        (eta->is_override == depth->is_override && eta->line > depth->line);
        return sc_entry_error(eta_later ? eta : depth, SWGL_ERR_INPUT,
                              "give eta or depth, not both (the other is at %s)",
                              eta_later ? depth->where : eta->where);
    }
    if (!eta && !depth)
        return swgl_fail(SWGL_ERR_INPUT, "%s: [initial]: expected exactly one of eta or depth",
                         b->t->file);
    swgl_status st;
    if ((st = grid_field(b, "domain", "bed", &sc->bed)) ||
        (st = get_field(b, "initial", eta ? "eta" : "depth", NAN, &sc->h)) ||
        (st = get_field(b, "initial", "qx", 0.0, &sc->qx)) ||
        (st = get_field(b, "initial", "qy", 0.0, &sc->qy)))
        return st;
    if (depth && (st = check_field(b, "initial", "depth", sc->h, 0, INFINITY, "a depth >= 0")))
        return st;
    if (b->sc->scheme == SCHEME_KP && (st = corner_bed(b)) != SWGL_OK) return st;
    for (size_t k = 0; k < ncells(b); k++) {
        if (eta) sc->h[k] = fmax(sc->h[k] - sc->bed[k], 0.0);
        if (!sc->active[k]) sc->h[k] = sc->qx[k] = sc->qy[k] = 0;
    }
    return SWGL_OK;
}

static swgl_status sediment_fields(build *b)
{
    scenario *sc = b->sc;
    swgl_status st;
    if ((st = grid_field(b, "initial", "height", &sc->height)) ||
        (st = get_field(b, "initial", "sand", 1.0, &sc->sand)) ||
        (st = get_field(b, "sediment", "alpha", 1.0, &sc->alpha)) ||
        (st = get_field(b, "sediment", "beta", 0.5, &sc->beta)))
        return st;
    if ((st = check_field(b, "initial", "sand", sc->sand, 0, 1, "a sand fraction s in [0, 1]")) ||
        (st = check_field(b, "sediment", "alpha", sc->alpha, 0, INFINITY, "alpha >= 0")) ||
        (st = check_field(b, "sediment", "beta", sc->beta, 0, INFINITY, "beta >= 0")))
        return st;
    return SWGL_OK;
}

/* ---- time series, boundaries and sources ------------------------------------------- */

static swgl_status series_of(build *b, const sc_entry *e, char *tok, double lo, double hi, const char *what,
                             sc_series *se);

/* The series of a value: a number (a constant) or a hydrograph file (relative to the
 * scenario's folder); every value in [lo, hi].  *index gets its index in sc->series. */
static swgl_status add_series(build *b, const sc_entry *e, const char *value, size_t len, double lo, double hi,
                              const char *what, int *index)
{
    scenario *sc = b->sc;
    if (sc->n_series >= SCENARIO_MAX_SERIES)
        return sc_entry_error(e, SWGL_ERR_INPUT, "more than %d values and hydrographs", SCENARIO_MAX_SERIES);
    sc_series *ns = realloc(sc->series, (size_t)(sc->n_series + 1) * sizeof *ns);
    if (!ns) return no_memory(b);
    sc->series = ns;
    sc_series *se = &sc->series[sc->n_series];
    memset(se, 0, sizeof *se);
    char *tok = malloc(len + 1);
    if (!tok) return no_memory(b);
    memcpy(tok, value, len);
    tok[len] = '\0';
    swgl_status st = series_of(b, e, tok, lo, hi, what, se);
    free(tok);
    if (st != SWGL_OK) return st;
    *index = sc->n_series++;
    return SWGL_OK;
}

/* The series of one value's text tok into se (add_series). */
static swgl_status series_of(build *b, const sc_entry *e, char *tok, double lo, double hi, const char *what,
                             sc_series *se)
{
    scenario *sc = b->sc;
    double v;
    if (strchr(tok, ';') || strchr(tok, ':')) {   /* an inline series "T:V;T:V;..." */
        int n = 1;
        for (const char *c = tok; *c; c++) n += *c == ';';
        se->t = malloc((size_t)n * sizeof(double));
        se->v = malloc((size_t)n * sizeof(double));
        if (!se->t || !se->v) {
            free(se->t);
            free(se->v);
            se->t = se->v = NULL;
            return no_memory(b);
        }
        int k = 0;
        const char *why = NULL;
        for (char *c = tok; !why;) {
            char *end = c + strcspn(c, ";"), *colon = memchr(c, ':', (size_t)(end - c)), sep = *end;
            *end = '\0';
            if (colon) *colon = '\0';
            if (!colon || !parse_number(c, &se->t[k]) || !parse_number(colon + 1, &se->v[k]))
                why = "expected T:V pairs separated by ';' (time in s)";
            else if (k && !(se->t[k] > se->t[k - 1])) why = "times must increase";
            else if (!(se->v[k] >= lo && se->v[k] <= hi)) why = what;
            if (colon) *colon = ':';
            *end = sep;
            if (why) {
                free(se->t);
                free(se->v);
                se->t = se->v = NULL;
                return sc_entry_error(e, SWGL_ERR_INPUT, "inline series '%.60s%s', pair %d: %s%s", tok,
                                      strlen(tok) > 60 ? "..." : "", k + 1,
                                      why == what ? "expected " : "", why);
            }
            k++;
            if (!sep) break;
            c = end + 1;
        }
        if (k < 2) {
            free(se->t);
            free(se->v);
            se->t = se->v = NULL;
            return sc_entry_error(e, SWGL_ERR_INPUT, "inline series '%.60s': expected at least two T:V pairs", tok);
        }
        se->n = k;
        snprintf(se->file, sizeof se->file, "%s", tok);
    } else if (decimal_syntax(tok) && !parse_number(tok, &v)) {
        return sc_entry_error(e, SWGL_ERR_INPUT, "%.40s: expected %s, a finite number", tok, what);
    } else if (parse_number(tok, &v)) {
        if (!(v >= lo && v <= hi)) return sc_entry_error(e, SWGL_ERR_INPUT, "%s: expected %s", tok, what);
        se->t = malloc(sizeof(double));
        se->v = malloc(sizeof(double));
        if (!se->t || !se->v) {
            free(se->t);
            free(se->v);
            return no_memory(b);
        }
        se->n = 1;
        se->t[0] = 0.0;
        se->v[0] = v;
    } else {
        char path[1100];
        hydrograph h;
        sc_grid_path(sc->dir, tok, path, sizeof path);
        swgl_status st = hydrograph_load(path, lo, hi, what, &h);
        if (st != SWGL_OK) return sc_entry_error(e, st == SWGL_ERR_IO ? SWGL_ERR_IO : st, "%s", swgl_last_error());
        se->n = h.n;
        se->t = h.t;
        se->v = h.v;
        snprintf(se->file, sizeof se->file, "%s", tok);
    }
    return SWGL_OK;
}

static int bc_type(const char *s, size_t n)
{
    static const struct { const char *name; int code; } types[] = {
        {"wall", BC_WALL}, {"free", BC_FREE}, {"level", BC_LEVEL}, {"depth", BC_DEPTH}, {"discharge", BC_DISCHARGE}};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (n == strlen(types[i].name) && strncmp(s, types[i].name, n) == 0) return types[i].code;
    return 0;
}

/* One item "TYPE[=VALUE] [FROM:TO]" applied to the side's codes[0..n) and segs. */
static swgl_status bc_item(build *b, const sc_entry *e, int side, const char *item, size_t len, unsigned char *codes,
                           int *segs, int n, double d)
{
    static const char *expected = "wall, free, level=V, depth=V or discharge=V (V a number or a hydrograph "
                                  "CSV), or a comma-separated list of such items each optionally followed by FROM:TO "
                                  "(m along the side)";
    scenario *sc = b->sc;
    while (len && isspace((unsigned char)*item)) item++, len--;
    while (len && isspace((unsigned char)item[len - 1])) len--;
    size_t w = 0;
    while (w < len && isalpha((unsigned char)item[w])) w++;
    int type = bc_type(item, w);
    const char *val = NULL;
    size_t vlen = 0, p0 = w;
    if (type && p0 < len && item[p0] == '=') {
        val = item + p0 + 1;
        while (vlen < len - p0 - 1 && !isspace((unsigned char)val[vlen])) vlen++;
        p0 += 1 + vlen;
    }
    char rest[128];
    snprintf(rest, sizeof rest, "%.*s", (int)(len - p0 < 127 ? len - p0 : 127), item + p0);
    if (len - p0 > 127) type = 0;    /* no FROM:TO is that long */
    if (type && p0 < len && !isspace((unsigned char)item[p0])) type = 0;
    double from = -INFINITY, to = INFINITY;
    char *p = rest, *end;
    while (isspace((unsigned char)*p)) p++;
    if (type && *p) {
        from = strtod(p, &end);
        if (end == p || *end != ':' || !decimal_span(p, end)) type = 0;
        else {
            p = end + 1;
            to = strtod(p, &end);
            if (end == p || *end || !decimal_span(p, end) || !isfinite(from) || !isfinite(to) ||
                to < from)
                type = 0;
        }
    }
    if (!type)
        return sc_entry_error(e, SWGL_ERR_INPUT, "expected %s; cannot read '%.*s%s'", expected,
                              (int)(len < 80 ? len : 80), item, len > 80 ? "..." : "");
    int valued = type == BC_LEVEL || type == BC_DEPTH || type == BC_DISCHARGE;
    if (valued && (!val || !vlen))
        return sc_entry_error(e, SWGL_ERR_INPUT, "'%.*s' needs a value: %.*s=V, V a number or a hydrograph CSV",
                              (int)(len < 80 ? len : 80), item, (int)w, item);
    if (!valued && val)
        return sc_entry_error(e, SWGL_ERR_INPUT, "'%.*s': %.*s takes no value", (int)(len < 80 ? len : 80), item,
                              (int)w, item);
    if (valued && sc->scheme == SCHEME_SEDIMENT)
        return sc_entry_error(e, SWGL_ERR_INPUT, "'%.*s': the sediment scheme takes wall or free only (its inflow "
                              "is [sediment] inflow_*)", (int)(len < 80 ? len : 80), item);
    int series = -1;
    if (valued) {
        swgl_status st;
        if (type == BC_LEVEL) st = add_series(b, e, val, vlen, -INFINITY, INFINITY, "a level in m", &series);
        else if (type == BC_DEPTH) st = add_series(b, e, val, vlen, 0, INFINITY, "a depth >= 0 (m)", &series);
        else
            st = add_series(b, e, val, vlen, 0, INFINITY,
                            "a discharge >= 0 (m^3/s into the domain; a negative one is a point source's)", &series);
        if (st != SWGL_OK) return st;
    }
    int seg = -1;
    if (type != BC_WALL) {
        sc_segment *ns = realloc(sc->seg, (size_t)(sc->n_seg + 1) * sizeof *ns);
        if (!ns) return no_memory(b);
        sc->seg = ns;
        seg = sc->n_seg++;
        sc_segment *g = &sc->seg[seg];
        memset(g, 0, sizeof *g);
        g->side = side;
        g->code = (unsigned char)type;
        g->series = series;
        snprintf(g->text, sizeof g->text, "%s: %.*s", side_names[side], (int)(len < 80 ? len : 80), item);
    }
    int hit = 0;
    for (int i = 0; i < n; i++) {
        double c = (i + b->grid.offset) * d;
        if (c >= from && c <= to) codes[i] = (unsigned char)type, segs[i] = seg, hit = 1;
    }
    if (!hit)
        return sc_entry_error(e, SWGL_ERR_INPUT, "'%.*s' covers no boundary cell (cell positions "
                              "are %g, %g, ... m along the side)", (int)len, item,
                              b->grid.offset * d, (1 + b->grid.offset) * d);
    return SWGL_OK;
}

static swgl_status read_boundary(build *b, int side)
{
    int n = side < 2 ? b->grid.ny : b->grid.nx;
    double d = side < 2 ? b->grid.dy : b->grid.dx;
    unsigned char *codes = malloc((size_t)n);
    int *segs = malloc((size_t)n * sizeof *segs);
    b->sc->bc[side] = codes;
    b->sc->bc_seg[side] = segs;
    if (!codes || !segs) return no_memory(b);
    memset(codes, BC_WALL, (size_t)n);
    for (int i = 0; i < n; i++) segs[i] = -1;
    sc_entry *e = sc_value(b->t, "boundary", side_names[side]);
    if (!e) return SWGL_OK;
    for (const char *p = e->value;;) {
        size_t len = strcspn(p, ",");
        swgl_status st = bc_item(b, e, side, p, len, codes, segs, n, d);
        if (st != SWGL_OK) return st;
        if (!p[len]) break;
        p += len + 1;
    }
    return SWGL_OK;
}

/* The segments' cells and lengths: the ghosts beside an active cell (a ring ghost beside
 * an inactive cell is no boundary).  A discharge must reach the domain somewhere. */
static swgl_status segment_lengths(build *b)
{
    scenario *sc = b->sc;
    for (int side = 0; side < 4; side++) {
        int n = side < 2 ? sc->ny : sc->nx;
        double d = side < 2 ? sc->dy : sc->dx;
        for (int m = 0; m < n; m++) {
            int i = side == SIDE_WEST ? 0 : side == SIDE_EAST ? sc->nx - 1 : m;
            int j = side == SIDE_SOUTH ? 0 : side == SIDE_NORTH ? sc->ny - 1 : m;
            int s = sc->bc_seg[side][m];
            if (s < 0) continue;
            if (!sc->active[(size_t)j * (size_t)sc->nx + (size_t)i]) {
                sc->bc_seg[side][m] = -1;
                continue;
            }
            sc->seg[s].cells++;
            sc->seg[s].length += d;
        }
    }
    for (int s = 0; s < sc->n_seg; s++)
        if (sc->seg[s].code == BC_DISCHARGE && sc->seg[s].cells == 0) {
            sc_entry *e = sc_value(b->t, "boundary", side_names[sc->seg[s].side]);
            return sc_entry_error(e, SWGL_ERR_INPUT, "'%s': the discharge reaches no active cell (the cells beside "
                                  "it are masked out or covered by a later item)", sc->seg[s].text);
        }
    return SWGL_OK;
}

/* The active interior cell (i, j) that holds the point (x, y) (map coordinates, m), or an
 * error naming entry e. */
static swgl_status locate(build *b, const sc_entry *e, double x, double y, int *i, int *j)
{
    const scenario *sc = b->sc;
    double fi = (x - sc->xll) / sc->dx, fj = (y - sc->yll) / sc->dy;
    if (!(fi >= 0 && fi < sc->nx && fj >= 0 && fj < sc->ny))
        return sc_entry_error(e, SWGL_ERR_INPUT, "(%g, %g) is outside the grid [%g, %g] x [%g, %g] (m)", x, y, sc->xll,
                              sc->xll + sc->nx * sc->dx, sc->yll, sc->yll + sc->ny * sc->dy);
    *i = (int)fi, *j = (int)fj;
    if (!sc->active[(size_t)*j * (size_t)sc->nx + (size_t)*i])
        return sc_entry_error(e, SWGL_ERR_INPUT, "(%g, %g) is in cell (%d, %d), which is not active", x, y, *i, *j);
    return SWGL_OK;
}

/* One gauge more: name at (x, y) (map coordinates), for entry e. */
static swgl_status add_gauge(build *b, const sc_entry *e, const char *name, double x, double y)
{
    scenario *sc = b->sc;
    int i = 0, j = 0;
    swgl_status st = locate(b, e, x, y, &i, &j);
    if (st != SWGL_OK) return st;
    sc_gauge *ng = realloc(sc->gauges, (size_t)(sc->n_gauges + 1) * sizeof *ng);
    if (!ng) return no_memory(b);
    sc->gauges = ng;
    sc_gauge *g = &sc->gauges[sc->n_gauges++];
    memset(g, 0, sizeof *g);
    snprintf(g->name, sizeof g->name, "%s", name);
    g->x = x, g->y = y, g->i = i, g->j = j;
    return SWGL_OK;
}

/* [gauges] KEY = FILE.csv: a gauge at every point of the file (points.h), named KEY + its
 * id, or its id when that already begins with KEY (P = police.csv with ids P1, P2, ...). */
static swgl_status gauges_from_file(build *b, const sc_entry *e)
{
    char path[1024];
    sc_grid_path(b->grid.dir, e->value, path, sizeof path);
    FILE *f = fopen(path, "r");
    if (!f) return sc_entry_error(e, SWGL_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    point_table t;
    swgl_status st = points_read(f, path, &t);
    fclose(f);
    if (st != SWGL_OK) return sc_entry_error(e, st, "%s", swgl_last_error());
    size_t kl = strlen(e->key);
    for (int k = 0; st == SWGL_OK && k < t.n; k++) {
        char name[64];
        snprintf(name, sizeof name, "%s%s", strncmp(t.id[k], e->key, kl) == 0 ? "" : e->key, t.id[k]);
        if (strlen(name) >= sizeof b->sc->gauges->name)
            st = sc_entry_error(e, SWGL_ERR_INPUT, "the gauge name '%s' (point %s of %s) is longer than %zu characters",
                                name, t.id[k], path, sizeof b->sc->gauges->name - 1);
        else
            st = add_gauge(b, e, name, t.x[k], t.y[k]);
    }
    points_free(&t);
    return st;
}

/* [gauges] NAME = X Y or KEY = FILE.csv, and [output] gauge_interval. */
static swgl_status read_gauges(build *b)
{
    scenario *sc = b->sc;
    swgl_status st = get_num(b, "output", "gauge_interval", 0, R_NONNEG, &sc->gauge_interval);
    for (int k = 0; st == SWGL_OK && k < b->t->n; k++) {
        sc_entry *e = &b->t->e[k];
        if (strcmp(e->section, "gauges") != 0 || !e->value[0] || sc_value(b->t, "gauges", e->key) != e) continue;
        size_t vl = strlen(e->value);
        if (vl > 4 && strcasecmp(e->value + vl - 4, ".csv") == 0) {
            if ((st = gauges_from_file(b, e)) != SWGL_OK) return st;
            continue;
        }
        char xs[64] = "", ys[64] = "", extra[8] = "";
        double x, y;
        int n = sscanf(e->value, "%63s %63s %7s", xs, ys, extra);
        if (n != 2 || !parse_number(xs, &x) || !parse_number(ys, &y))
            return sc_entry_error(e, SWGL_ERR_INPUT, "expected X Y: the gauge's point (m, map coordinates)");
        if ((st = add_gauge(b, e, e->key, x, y)) != SWGL_OK) return st;
    }
    return st;
}

/* [sources] rain and the point sources NAME = X Y Q. */
static swgl_status read_sources(build *b)
{
    scenario *sc = b->sc;
    sc->rain_series = -1;
    sc_entry *e = sc_value(b->t, "sources", "rain");
    if (e) {
        size_t n = strlen(e->value);
        swgl_status st;
        if ((n > 4 && strcasecmp(e->value + n - 4, ".csv") == 0) || strchr(e->value, ';')) {
            /* a hydrograph in mm/h, uniform in space */
            if ((st = add_series(b, e, e->value, n, 0, INFINITY, "a rain rate >= 0 (mm/h)", &sc->rain_series)))
                return st;
            if (!(sc->rain = new_field(b))) return SWGL_ERR_NO_MEMORY;
            for (size_t k = 0; k < ncells(b); k++) sc->rain[k] = sc->active[k] ? 1.0 / 3.6e6 : 0.0;
        } else {
            if ((st = get_field(b, "sources", "rain", 0.0, &sc->rain)) ||
                (st = check_field(b, "sources", "rain", sc->rain, 0, INFINITY, "a rain rate >= 0 (mm/h)")))
                return st;
            int any = 0;
            for (size_t k = 0; k < ncells(b); k++) {
                sc->rain[k] = sc->active[k] ? sc->rain[k] / 3.6e6 : 0.0;   /* mm/h -> m/s */
                any |= sc->rain[k] > 0.0;
            }
            if (!any) {
                free(sc->rain);
                sc->rain = NULL;
            }
        }
    }
    for (int k = 0; k < b->t->n; k++) {
        sc_entry *s = &b->t->e[k];
        if (strcmp(s->section, "sources") != 0 || strcmp(s->key, "rain") == 0 || !s->value[0]) continue;
        /* the last entry of a name wins (an override after the file) */
        if (sc_value(b->t, "sources", s->key) != s) continue;
        char xs[64], ys[64];
        const char *p = s->value;
        size_t a = strcspn(p, " \t"), bq;
        double x, y;
        snprintf(xs, sizeof xs, "%.*s", (int)(a < 63 ? a : 63), p);
        p += a + strspn(p + a, " \t");
        bq = strcspn(p, " \t");
        snprintf(ys, sizeof ys, "%.*s", (int)(bq < 63 ? bq : 63), p);
        p += bq + strspn(p + bq, " \t");
        size_t ql = strcspn(p, " \t");
        if (!parse_number(xs, &x) || !parse_number(ys, &y) || !ql || p[ql + strspn(p + ql, " \t")])
            return sc_entry_error(s, SWGL_ERR_INPUT, "expected X Y Q: the point (m, map coordinates) and the "
                                  "discharge in m^3/s (a number or a hydrograph CSV; < 0 takes water out)");
        int i = 0, j = 0;
        swgl_status pst = locate(b, s, x, y, &i, &j);
        if (pst != SWGL_OK) return pst;
        sc_source *ns = realloc(sc->src, (size_t)(sc->n_src + 1) * sizeof *ns);
        if (!ns) return no_memory(b);
        sc->src = ns;
        sc_source *src = &sc->src[sc->n_src];
        memset(src, 0, sizeof *src);
        snprintf(src->name, sizeof src->name, "%s", s->key);
        src->x = x, src->y = y, src->i = i, src->j = j;
        swgl_status st = add_series(b, s, p, ql, -INFINITY, INFINITY, "a discharge in m^3/s", &src->series);
        if (st != SWGL_OK) return st;
        sc->n_src++;
    }
    return SWGL_OK;
}

/* ---- [run] ------------------------------------------------------------------------- */

static swgl_status read_output_times(build *b)
{
    scenario *sc = b->sc;
    sc_entry *e = sc_value(b->t, "run", "output_times");
    if (!e) return SWGL_OK;
    if (sc->t_end == 0) return sc_entry_error(e, SWGL_ERR_INPUT, "output times need [run] t_end");
    const char *p = e->value;
    double last = 0;
    int cap = 0;
    for (;;) {
        while (*p == ',' || isspace((unsigned char)*p)) p++;
        if (!*p) break;
        char tok[64];
        size_t n = strcspn(p, ", \t\r\n\v\f");
        snprintf(tok, sizeof tok, "%.*s", (int)(n < 63 ? n : 63), p);
        double t;
        const char *why = n > 63 ? "is too long to be a number"
                        : !parse_number(tok, &t) ? "is not a number"
                        : !(t > 0 && t <= sc->t_end) ? "is outside (0, t_end]"
                        : (sc->n_output_times && t <= last) ? "is not after the time before it"
                        : NULL;
        if (why)
            return sc_entry_error(e, SWGL_ERR_INPUT, "expected increasing times in (0, t_end = %g]: "
                                  "'%s%s' %s", sc->t_end, tok, n > 63 ? "..." : "", why);
        if (sc->n_output_times == cap) {
            if (cap > INT_MAX / 2) return no_memory(b);
            cap = cap ? 2 * cap : 16;
            double *ts = realloc(sc->output_times, (size_t)cap * sizeof *ts);
            if (!ts) return no_memory(b);
            sc->output_times = ts;
        }
        sc->output_times[sc->n_output_times++] = last = t;
        p += n;
    }
    return SWGL_OK;
}

static swgl_status read_run(build *b)
{
    scenario *sc = b->sc;
    sc->cfl = 0.9;
    sc->g = 9.81;
    sc->h_dry = 1e-5;
    sc->roe_kappa = -1;   /* not given: the scheme's default */
    sc->kp_kappa = -1;
    sc->hllc_kappa = -1;
    sc->kp_theta = 1.3;
    sc->kp_rk2 = 1;
    sc->kp_early_exit = 0;
    int kp = sc->scheme == SCHEME_KP;
    if (kp) sc->cfl = 0.25;   /* (8): a quarter cell per step */
    /* sediment: t_end may be left out when sediment.steps counts the steps */
    int steps = 0;
    swgl_status st;
    if (is_sediment(b) && (st = get_int(b, "sediment", "steps", 0, 0, INT_MAX, &steps))) return st;
    if ((st = get_num(b, "run", "t_end", !(is_sediment(b) && steps > 0), R_POS, &sc->t_end)) ||
        (st = get_num(b, "run", "cfl", 0, kp ? R_CFL_KP : R_CFL, &sc->cfl)) ||
        (st = get_num(b, "run", "g", 0, R_POS, &sc->g)) ||
        (st = get_num(b, "run", "h_dry", 0, R_POS, &sc->h_dry)) ||
        (st = get_num(b, "roe", "kappa", 0, R_NONNEG, &sc->roe_kappa)) ||
        (st = get_num(b, "kp", "kappa", 0, R_NONNEG, &sc->kp_kappa)) ||
        (st = get_num(b, "hllc", "kappa", 0, R_NONNEG, &sc->hllc_kappa)) ||
        (st = get_num(b, "kp", "theta", 0, R_THETA, &sc->kp_theta)))
        return st;
    static const char *const integrators[] = {"euler", "rk2", NULL};
    static const char *const modes[] = {"auto", "on", "off", NULL};
    if ((st = get_word(b, "kp", "integrator", integrators, "rk2 or euler", &sc->kp_rk2)) ||
        (st = get_word(b, "kp", "early_exit", modes, "auto, on or off", &sc->kp_early_exit)))
        return st;
    return read_output_times(b);
}

/* ---- [sediment] scalars ------------------------------------------------------------ */

static swgl_status read_sediment(build *b)
{
    static const char *const forms[] = {"paper", "conservative", NULL};
    static const char *const sides[] = {"west", "east", "south", "north", "none", NULL};
    scenario *sc = b->sc;
    int side = 4;
    sc->cs = sc->cm = sc->layer = 1.0;
    sc->inflow_side = -1;
    sc->sed_form = 1;    /* conservative; paper, (4) as printed, lets s leave [0, 1] */
    swgl_status st;
    if ((st = get_num(b, "sediment", "cs", 0, R_POS, &sc->cs)) ||
        (st = get_num(b, "sediment", "cm", 0, R_POS, &sc->cm)) ||
        (st = get_num(b, "sediment", "layer", 0, R_POS, &sc->layer)) ||
        (st = get_num(b, "sediment", "dt", 0, R_POS, &sc->sed_dt)) ||
        (st = get_int(b, "sediment", "steps", 0, 0, INT_MAX, &sc->sed_steps)) ||
        (st = get_word(b, "sediment", "form", forms, "paper or conservative", &sc->sed_form)) ||
        (st = get_word(b, "sediment", "inflow_side", sides, "none, west, east, south or north",
                       &side)))
        return st;
    sc->inflow_side = side == 4 ? -1 : side;
    double len = side < 2 ? (sc->ny - 1) * sc->dy : (sc->nx - 1) * sc->dx;
    sc->inflow_from = 0;
    sc->inflow_to = len;
    if ((st = get_num(b, "sediment", "inflow_from", 0, R_NONNEG, &sc->inflow_from)) ||
        (st = get_num(b, "sediment", "inflow_to", 0, R_NONNEG, &sc->inflow_to)) ||
        (st = get_num(b, "sediment", "inflow_sand", 0, R_NONNEG, &sc->inflow_sand)) ||
        (st = get_num(b, "sediment", "inflow_mud", 0, R_NONNEG, &sc->inflow_mud)))
        return st;
    if (sc->inflow_to < sc->inflow_from) {
        sc_entry *e = sc_value(b->t, "sediment", "inflow_to");
        if (!e) e = sc_value(b->t, "sediment", "inflow_from");
        return sc_entry_error(e, SWGL_ERR_INPUT, "expected inflow_from <= inflow_to (%g m along "
                              "the side)", sc->inflow_to);
    }
    return SWGL_OK;
}

/* ---- putting it together ----------------------------------------------------------- */

static swgl_status build_scenario(build *b)
{
    swgl_status st;
    if ((st = read_scheme(b)) || (st = check_families(b)) || (st = setup_grid(b)) ||
        (st = read_mask(b)))
        return st;
    st = is_sediment(b) ? sediment_fields(b) : shallow_water_fields(b);
    for (int s = 0; st == SWGL_OK && s < 4; s++) st = read_boundary(b, s);
    if (st == SWGL_OK && !is_sediment(b)) st = segment_lengths(b);
    if (st == SWGL_OK && !is_sediment(b)) st = read_sources(b);
    if (st == SWGL_OK && !is_sediment(b)) st = read_gauges(b);
    if (st == SWGL_OK) st = read_run(b);
    if (st == SWGL_OK && is_sediment(b)) st = read_sediment(b);
    if (st == SWGL_OK && (b->sc->scheme == SCHEME_KP || b->sc->scheme == SCHEME_HLLC)) st = read_friction(b);
    if (st == SWGL_OK) {
        static const char *const yes_no[] = {"false", "true", "0", "1", "no", "yes", NULL};
        int v = -1;
        st = get_word(b, "output", "netcdf", yes_no, "true or false", &v);
        b->sc->netcdf = v < 0 ? -1 : v % 2;
        v = 0;
        if (st == SWGL_OK) st = get_word(b, "output", "frames", yes_no, "true or false", &v);
        b->sc->frames = v % 2;
        v = 1;
        if (st == SWGL_OK) st = get_word(b, "output", "maps", yes_no, "true or false", &v);
        b->sc->maps = v % 2 && !is_sediment(b);
        b->sc->arrival_depth = 0.01;
        if (st == SWGL_OK) st = get_num(b, "output", "arrival_depth", 0, R_NONNEG, &b->sc->arrival_depth);
    }
    return st;
}

/* Bytes of the valid UTF-8 character at s that is not a control character; 0 if none. */
static size_t text_char(const unsigned char *s)
{
    if (s[0] < 0x80) return s[0] >= 0x20 && s[0] != 0x7f;
    size_t n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
    if (!n || s[0] > 0xf4) return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80) return 0;
    if (s[0] == 0xe0 && s[1] < 0xa0) return 0;      /* overlong */
    if (s[0] == 0xed && s[1] >= 0xa0) return 0;     /* surrogates */
    if (s[0] == 0xf0 && s[1] < 0x90) return 0;      /* overlong */
    if (s[0] == 0xf4 && s[1] >= 0x90) return 0;     /* beyond U+10FFFF */
    return n;
}

/* The message, whatever bytes a file or override put into it, made one line of valid
 * UTF-8: control bytes and bytes of invalid UTF-8 become \xNN. */
static swgl_status clean_message(swgl_status st)
{
    const unsigned char *m = (const unsigned char *)swgl_last_error();
    char out[8192];
    size_t o = 0;
    for (size_t i = 0; m[i];) {
        size_t n = text_char(m + i);
        if (o + (n ? n : 4) >= sizeof out) break;
        if (n) {
            memcpy(out + o, m + i, n);
            o += n;
            i += n;
        } else {
            o += (size_t)snprintf(out + o, sizeof out - o, "\\x%02x", m[i++]);
        }
    }
    out[o] = '\0';
    return swgl_fail(st, "%s", out);
}

/* The scenario's text (f rewound and read again, at most SCENARIO_MAX_TEXT bytes, or the
 * case's text) and its overrides, one per line, for the outputs' records. */
static swgl_status keep_text(scenario *sc, FILE *f, const char *text, const char *const *overrides, int n_overrides)
{
    size_t len = 1;
    long size = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        size_t n = (size_t)size < SCENARIO_MAX_TEXT ? (size_t)size : SCENARIO_MAX_TEXT;
        if (!(sc->text = malloc(n + 1))) goto no_memory;
        n = fread(sc->text, 1, n, f);
        sc->text[n] = '\0';
    } else if (!(sc->text = strdup(f ? "" : text ? text : ""))) {   /* a pipe: no text kept */
        goto no_memory;
    }
    for (int i = 0; i < n_overrides; i++) len += strlen(overrides[i]) + 1;
    if (!(sc->overrides = malloc(len))) goto no_memory;
    sc->overrides[0] = '\0';
    for (int i = 0, o = 0; i < n_overrides; i++) o += sprintf(sc->overrides + o, "%s%s", i ? "\n" : "", overrides[i]);
    return SWGL_OK;
no_memory:
    return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory for the scenario's text");
}

/* Reads the table (from f or text), applies the overrides, builds sc. */
static swgl_status load(scenario *sc, const char *file, FILE *f, const char *text,
                        const char *const *overrides, int n_overrides)
{
    sc_table t = {0};
    snprintf(t.file, sizeof t.file, "%s", file);
    swgl_status st = sc_table_read(&t, f, text);
    for (int i = 0; st == SWGL_OK && i < n_overrides; i++) st = sc_table_override(&t, overrides[i]);
    if (st == SWGL_OK) {
        build b = {.sc = sc, .t = &t};
        b.grid.dir = sc->dir;
        st = build_scenario(&b);
        free(b.grid_values);
        free(b.grid_nodata);
        if (b.have_mesh) mesh_free(&b.grid_mesh);
    }
    if (st == SWGL_OK) st = keep_text(sc, f, text, overrides, n_overrides);
    sc_table_free(&t);
    if (st != SWGL_OK) {
        scenario_free(sc);
        clean_message(st);
    }
    return st;
}

swgl_status scenario_load(scenario *sc, const char *path, const char *const *overrides,
                          int n_overrides)
{
    memset(sc, 0, sizeof *sc);
    snprintf(sc->source, sizeof sc->source, "%s", path);
    const char *slash = strrchr(path, '/');
    if (slash) snprintf(sc->dir, sizeof sc->dir, "%.*s", (int)(slash == path ? 1 : slash - path), path);
    else snprintf(sc->dir, sizeof sc->dir, ".");
    FILE *f = fopen(path, "r");
    if (!f) return swgl_fail(SWGL_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    swgl_status st = load(sc, path, f, NULL, overrides, n_overrides);
    fclose(f);
    return st;
}

swgl_status scenario_load_case(scenario *sc, const char *name, const char *const *overrides,
                               int n_overrides)
{
    memset(sc, 0, sizeof *sc);
    const char *text = scenario_case_text(name);
    if (!text)
        return swgl_fail(SWGL_ERR_INPUT, "%s: no such built-in case (swgl list-cases lists them)",
                         name);
    char file[300];
    snprintf(sc->source, sizeof sc->source, "case %s", name);
    sc->dir[0] = '\0';    /* relative grid paths: the current directory */
    snprintf(file, sizeof file, "%.250s.ini", name);
    return load(sc, file, NULL, text, overrides, n_overrides);
}

void scenario_free(scenario *sc)
{
    if (!sc) return;
    free(sc->bed);
    free(sc->bed_corner);
    free(sc->manning);
    free(sc->active);
    free(sc->h);
    free(sc->qx);
    free(sc->qy);
    for (int s = 0; s < 4; s++) {
        free(sc->bc[s]);
        free(sc->bc_seg[s]);
    }
    free(sc->seg);
    for (int s = 0; s < sc->n_series; s++) {
        free(sc->series[s].t);
        free(sc->series[s].v);
    }
    free(sc->series);
    free(sc->rain);
    free(sc->src);
    free(sc->text);
    free(sc->overrides);
    free(sc->gauges);
    free(sc->output_times);
    free(sc->alpha);
    free(sc->beta);
    free(sc->height);
    free(sc->sand);
    memset(sc, 0, sizeof *sc);
}
