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
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"

#define MAX_CELLS (1L << 28)
#define MAX_LEVEL 10

enum range { R_ANY, R_POS, R_NONNEG, R_CFL };

typedef struct build {
    scenario *sc;
    sc_table *t;
    sc_grid grid;
    double *grid_values;          /* the .asc bed / height that gave the grid, or NULL */
    unsigned char *grid_nodata;
    char *err;
    size_t errlen;
} build;

const char *scheme_name(enum scheme_kind k)
{
    switch (k) {
    case SCHEME_ROE: return "roe";
    case SCHEME_KP: return "kp";
    case SCHEME_SEDIMENT: return "sediment";
    }
    return "?";
}

static const char *const side_names[4] = {"west", "east", "south", "north"};

/* ---- messages and scalar values ---------------------------------------------------- */

static int missing(build *b, const char *section, const char *key, const char *expected)
{
    snprintf(b->err, b->errlen, "%s: [%s] %s is missing: expected %s", b->t->file, section, key,
             expected);
    return -1;
}

static int parse_number(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return end != s && *end == '\0' && errno != ERANGE && isfinite(*v);
}

static int in_range(double v, enum range r)
{
    switch (r) {
    case R_POS: return v > 0;
    case R_NONNEG: return v >= 0;
    case R_CFL: return v > 0 && v <= 1;
    default: return 1;
    }
}

static const char *range_text(enum range r)
{
    switch (r) {
    case R_POS: return "a number > 0";
    case R_NONNEG: return "a number >= 0";
    case R_CFL: return "a number in (0, 1]";
    default: return "a number";
    }
}

/* A number; *v keeps def when the key is absent and not required. */
static int get_num(build *b, const char *section, const char *key, int required, enum range r,
                   double *v)
{
    sc_entry *e = sc_value(b->t, section, key);
    if (!e) return required ? missing(b, section, key, range_text(r)) : 0;
    if (!parse_number(e->value, v) || !in_range(*v, r)) {
        sc_entry_error(e, b->err, b->errlen, "expected %s", range_text(r));
        return -1;
    }
    return 0;
}

static int get_int(build *b, const char *section, const char *key, int required, int min,
                   int *v)
{
    sc_entry *e = sc_value(b->t, section, key);
    if (!e) {
        if (!required) return 0;
        snprintf(b->err, b->errlen, "%s: [%s] %s is missing: expected an integer >= %d",
                 b->t->file, section, key, min);
        return -1;
    }
    char *end;
    errno = 0;
    long x = strtol(e->value, &end, 10);
    if (end == e->value || *end || errno || x < min || x > 1000000000L) {
        sc_entry_error(e, b->err, b->errlen, "expected an integer >= %d", min);
        return -1;
    }
    *v = (int)x;
    return 0;
}

/* One of words (NULL-terminated): its index in *v. */
static int get_word(build *b, const char *section, const char *key, const char *const *words,
                    const char *expected, int *v)
{
    sc_entry *e = sc_value(b->t, section, key);
    if (!e) return 0;
    for (int i = 0; words[i]; i++) {
        if (strcmp(e->value, words[i]) == 0) {
            *v = i;
            return 0;
        }
    }
    sc_entry_error(e, b->err, b->errlen, "expected %s", expected);
    return -1;
}

/* ---- scheme and key families ------------------------------------------------------- */

static int read_scheme(build *b)
{
    static const char *const names[] = {"roe", "kp", "sediment", NULL};
    int k = SCHEME_ROE;
    if (get_word(b, "run", "scheme", names, "roe, kp or sediment", &k) < 0) return -1;
    b->sc->scheme = (enum scheme_kind)k;
    return 0;
}

/* Shallow-water keys are errors with scheme = sediment, sediment keys with the others. */
static int check_families(build *b)
{
    enum key_family want = b->sc->scheme == SCHEME_SEDIMENT ? FAM_SED : FAM_SW;
    for (int i = 0; i < b->t->n; i++) {
        sc_entry *e = &b->t->e[i];
        enum key_family f = FAM_ALL;
        sc_key_known(e->section, e->key, &f);
        if (!e->value[0] || strcmp(e->section, "domain") == 0) continue;  /* bed: ignored */
        if (f != FAM_ALL && f != want) {
            sc_entry_error(e, b->err, b->errlen, "a %s key, not allowed with scheme = %s",
                           f == FAM_SED ? "sediment" : "shallow-water", scheme_name(b->sc->scheme));
            return -1;
        }
    }
    return 0;
}

/* ---- the grid ---------------------------------------------------------------------- */

static int is_sediment(const build *b)
{
    return b->sc->scheme == SCHEME_SEDIMENT;
}

/* With an .asc grid: nx, ny, dx, dy keys must agree with it, level must be 0. */
static int check_against_grid(build *b, const sc_entry *ge)
{
    static const char *const keys[4] = {"nx", "ny", "dx", "dy"};
    double have[4] = {b->grid.nx, b->grid.ny, b->grid.dx, b->grid.dy};
    for (int i = 0; i < 4; i++) {
        sc_entry *e = sc_value(b->t, "domain", keys[i]);
        double v;
        if (e && (!parse_number(e->value, &v) || fabs(v - have[i]) > 1e-6 * have[i])) {
            sc_entry_error(e, b->err, b->errlen, "disagrees with the grid %s, which has %s = %g",
                           ge->value, keys[i], have[i]);
            return -1;
        }
    }
    sc_entry *e = sc_value(b->t, "domain", "level");
    if (e && strcmp(e->value, "0") != 0) {
        sc_entry_error(e, b->err, b->errlen, "expected 0: the grid %s fixes the resolution", ge->value);
        return -1;
    }
    return 0;
}

static int grid_from_file(build *b, const sc_entry *ge)
{
    char path[1024], msg[768];
    sc_grid *g = &b->grid;
    sc_grid_path(g->dir, ge->value, path, sizeof path);
    if (asc_read(path, &g->nx, &g->ny, &g->xll, &g->yll, &g->dx, &g->dy, &b->grid_values,
                 &b->grid_nodata, msg, sizeof msg) < 0) {
        if (ge->is_override) snprintf(b->err, b->errlen, "%s (%s)", msg, ge->where);
        else snprintf(b->err, b->errlen, "%s ([%s] %s, %s)", msg, ge->section, ge->key, ge->where);
        return -1;
    }
    g->from_file = 1;
    return check_against_grid(b, ge);
}

static int grid_from_keys(build *b)
{
    sc_grid *g = &b->grid;
    int level = 0;
    if (get_int(b, "domain", "nx", 1, 1, &g->nx) < 0 || get_int(b, "domain", "ny", 1, 1, &g->ny) < 0 ||
        get_num(b, "domain", "dx", 1, R_POS, &g->dx) < 0 || get_num(b, "domain", "dy", 1, R_POS, &g->dy) < 0 ||
        get_int(b, "domain", "level", 0, 0, &level) < 0)
        return -1;
    sc_entry *le = sc_value(b->t, "domain", "level");
    if (level > MAX_LEVEL || (double)g->nx * g->ny * pow(4.0, level) > (double)MAX_CELLS) {
        if (le) sc_entry_error(le, b->err, b->errlen, "too fine: at most %ld cells and level %d",
                               MAX_CELLS, MAX_LEVEL);
        else snprintf(b->err, b->errlen, "%s: [domain] nx x ny: too many cells (at most %ld)",
                      b->t->file, MAX_CELLS);
        return -1;
    }
    b->sc->level = level;
    g->nx <<= level;
    g->ny <<= level;
    g->dx /= (double)(1 << level);
    g->dy /= (double)(1 << level);
    return 0;
}

static int setup_grid(build *b)
{
    const char *section = is_sediment(b) ? "initial" : "domain";
    const char *key = is_sediment(b) ? "height" : "bed";
    sc_entry *ge = sc_value(b->t, section, key);
    b->grid.offset = is_sediment(b) ? 0.0 : 0.5;
    int rc = ge && sc_value_is_grid(ge->value) ? grid_from_file(b, ge) : grid_from_keys(b);
    if (rc < 0) return -1;
    scenario *sc = b->sc;
    sc->nx = b->grid.nx;
    sc->ny = b->grid.ny;
    sc->dx = b->grid.dx;
    sc->dy = b->grid.dy;
    sc->xll = b->grid.xll;
    sc->yll = b->grid.yll;
    return 0;
}

/* ---- fields ------------------------------------------------------------------------ */

static size_t ncells(const build *b)
{
    return (size_t)b->grid.nx * (size_t)b->grid.ny;
}

static double *new_field(build *b)
{
    double *v = calloc(ncells(b), sizeof *v);
    if (!v) snprintf(b->err, b->errlen, "%s: out of memory for %zu cells", b->t->file, ncells(b));
    return v;
}

/* Fills *out from [section] key, or with def when absent (def NaN: required).  NODATA is
 * allowed only at inactive cells, where the value becomes 0. */
static int get_field(build *b, const char *section, const char *key, double def, double **out)
{
    size_t n = ncells(b);
    if (!(*out = new_field(b))) return -1;
    sc_entry *e = sc_value(b->t, section, key);
    if (!e) {
        if (isnan(def)) return missing(b, section, key, "a number, an .asc grid or an expression");
        for (size_t k = 0; k < n; k++) (*out)[k] = def;
        return 0;
    }
    unsigned char *nd = calloc(n, 1);
    if (!nd) {
        snprintf(b->err, b->errlen, "%s: out of memory", b->t->file);
        return -1;
    }
    int rc = sc_field(e, &b->grid, *out, nd, b->err, b->errlen);
    for (size_t k = 0; rc == 0 && k < n; k++) {
        if (!nd[k]) continue;
        if (b->sc->active[k]) {
            sc_entry_error(e, b->err, b->errlen, "NODATA at active cell (%zu, %zu) (i, j from "
                           "the south-west)", k % (size_t)b->grid.nx, k / (size_t)b->grid.nx);
            rc = -1;
        }
        (*out)[k] = 0;
    }
    free(nd);
    return rc;
}

/* Every active cell's value in [lo, hi]. */
static int check_field(build *b, const char *section, const char *key, const double *v,
                       double lo, double hi, const char *expected)
{
    for (size_t k = 0; k < ncells(b); k++) {
        if (!b->sc->active[k] || (v[k] >= lo && v[k] <= hi)) continue;
        sc_entry *e = sc_value(b->t, section, key);
        int i = (int)(k % (size_t)b->grid.nx), j = (int)(k / (size_t)b->grid.nx);
        double off = b->grid.offset;
        if (e) sc_entry_error(e, b->err, b->errlen, "expected %s, found %g at cell (%d, %d), "
                              "x = %g, y = %g (m)", expected, v[k], i, j, (i + off) * b->grid.dx,
                              (j + off) * b->grid.dy);
        else snprintf(b->err, b->errlen, "%s: [%s] %s: expected %s", b->t->file, section, key, expected);
        return -1;
    }
    return 0;
}

/* domain.mask and the NODATA cells of the grid: sc->active. */
static int read_mask(build *b)
{
    size_t n = ncells(b);
    scenario *sc = b->sc;
    if (!(sc->active = malloc(n))) {
        snprintf(b->err, b->errlen, "%s: out of memory", b->t->file);
        return -1;
    }
    for (size_t k = 0; k < n; k++) sc->active[k] = !(b->grid_nodata && b->grid_nodata[k]);
    sc_entry *e = sc_value(b->t, "domain", "mask");
    if (!e) return 0;
    double *m = new_field(b);
    unsigned char *nd = calloc(n, 1);
    int rc = m && nd ? sc_field(e, &b->grid, m, nd, b->err, b->errlen) : -1;
    if (m && !nd) snprintf(b->err, b->errlen, "%s: out of memory", b->t->file);
    for (size_t k = 0; rc == 0 && k < n; k++)
        if (nd[k] || m[k] == 0) sc->active[k] = 0;
    free(m);
    free(nd);
    return rc;
}

/* The field that gave the grid (bed or height): NODATA cells (inactive) become 0. */
static int grid_field(build *b, const char *section, const char *key, double **out)
{
    if (!b->grid_values) return get_field(b, section, key, NAN, out);
    *out = b->grid_values;
    b->grid_values = NULL;
    for (size_t k = 0; k < ncells(b); k++)
        if (b->grid_nodata[k]) (*out)[k] = 0;
    return 0;
}

/* eta or depth (exactly one), qx, qy; then h = max(eta - bed, 0) and zero at inactive cells. */
static int shallow_water_fields(build *b)
{
    scenario *sc = b->sc;
    sc_entry *eta = sc_value(b->t, "initial", "eta");
    sc_entry *depth = sc_value(b->t, "initial", "depth");
    if (eta && depth) {
        int eta_later = eta->is_override > depth->is_override ||
                        (eta->is_override == depth->is_override && eta->line > depth->line);
        sc_entry_error(eta_later ? eta : depth, b->err, b->errlen,
                       "give eta or depth, not both (the other is at %s)",
                       eta_later ? depth->where : eta->where);
        return -1;
    }
    if (!eta && !depth) {
        snprintf(b->err, b->errlen, "%s: [initial]: expected exactly one of eta or depth", b->t->file);
        return -1;
    }
    if (grid_field(b, "domain", "bed", &sc->bed) < 0 ||
        get_field(b, "initial", eta ? "eta" : "depth", NAN, &sc->h) < 0 ||
        get_field(b, "initial", "qx", 0.0, &sc->qx) < 0 || get_field(b, "initial", "qy", 0.0, &sc->qy) < 0)
        return -1;
    if (depth && check_field(b, "initial", "depth", sc->h, 0, INFINITY, "a depth >= 0") < 0)
        return -1;
    for (size_t k = 0; k < ncells(b); k++) {
        if (eta) sc->h[k] = fmax(sc->h[k] - sc->bed[k], 0.0);
        if (!sc->active[k]) sc->h[k] = sc->qx[k] = sc->qy[k] = 0;
    }
    return 0;
}

static int sediment_fields(build *b)
{
    scenario *sc = b->sc;
    if (grid_field(b, "initial", "height", &sc->height) < 0 ||
        get_field(b, "initial", "sand", 1.0, &sc->sand) < 0 ||
        get_field(b, "sediment", "alpha", 1.0, &sc->alpha) < 0 ||
        get_field(b, "sediment", "beta", 0.5, &sc->beta) < 0)
        return -1;
    if (check_field(b, "initial", "sand", sc->sand, 0, 1, "a sand fraction s in [0, 1]") < 0 ||
        check_field(b, "sediment", "alpha", sc->alpha, 0, INFINITY, "alpha >= 0") < 0 ||
        check_field(b, "sediment", "beta", sc->beta, 0, INFINITY, "beta >= 0") < 0)
        return -1;
    return 0;
}

/* ---- boundaries -------------------------------------------------------------------- */

static int bc_type(const char *s, size_t n)
{
    if (n == 4 && strncmp(s, "wall", 4) == 0) return BC_WALL;
    if (n == 4 && strncmp(s, "free", 4) == 0) return BC_FREE;
    return 0;
}

/* One item "type" or "type FROM:TO" applied to codes[0..n). */
static int bc_item(build *b, const sc_entry *e, const char *item, size_t len, unsigned char *codes,
                   int n, double d)
{
    static const char *expected = "wall or free, or a comma-separated list of TYPE and "
                                  "TYPE FROM:TO items (TYPE wall or free, FROM and TO in m along the side)";
    while (len && isspace((unsigned char)*item)) item++, len--;
    while (len && isspace((unsigned char)item[len - 1])) len--;
    size_t w = 0;
    while (w < len && isalpha((unsigned char)item[w])) w++;
    int type = bc_type(item, w);
    char rest[128];
    snprintf(rest, sizeof rest, "%.*s", (int)(len - w < 127 ? len - w : 127), item + w);
    double from = -INFINITY, to = INFINITY;
    char *p = rest, *end;
    while (isspace((unsigned char)*p)) p++;
    if (type && *p) {
        from = strtod(p, &end);
        if (end == p || *end != ':') type = 0;
        else {
            p = end + 1;
            to = strtod(p, &end);
            if (end == p || *end || !isfinite(from) || !isfinite(to) || to < from) type = 0;
        }
    }
    if (!type) {
        sc_entry_error(e, b->err, b->errlen, "expected %s; cannot read '%.*s'", expected, (int)len, item);
        return -1;
    }
    int hit = 0;
    for (int i = 0; i < n; i++) {
        double c = (i + b->grid.offset) * d;
        if (c >= from && c <= to) codes[i] = (unsigned char)type, hit = 1;
    }
    if (!hit) {
        sc_entry_error(e, b->err, b->errlen, "'%.*s' covers no boundary cell (cell positions "
                       "are %g, %g, ... m along the side)", (int)len, item, b->grid.offset * d,
                       (1 + b->grid.offset) * d);
        return -1;
    }
    return 0;
}

static int read_boundary(build *b, int side)
{
    int n = side < 2 ? b->grid.ny : b->grid.nx;
    double d = side < 2 ? b->grid.dy : b->grid.dx;
    unsigned char *codes = malloc((size_t)n);
    if (!codes) {
        snprintf(b->err, b->errlen, "%s: out of memory", b->t->file);
        return -1;
    }
    b->sc->bc[side] = codes;
    memset(codes, BC_WALL, (size_t)n);
    sc_entry *e = sc_value(b->t, "boundary", side_names[side]);
    if (!e) return 0;
    for (const char *p = e->value;;) {
        size_t len = strcspn(p, ",");
        if (bc_item(b, e, p, len, codes, n, d) < 0) return -1;
        if (!p[len]) break;
        p += len + 1;
    }
    return 0;
}

/* ---- [run] ------------------------------------------------------------------------- */

static int read_output_times(build *b)
{
    scenario *sc = b->sc;
    sc_entry *e = sc_value(b->t, "run", "output_times");
    if (!e) return 0;
    if (sc->t_end == 0) {
        sc_entry_error(e, b->err, b->errlen, "output times need [run] t_end");
        return -1;
    }
    const char *p = e->value;
    double last = 0;
    for (;;) {
        while (*p == ',' || isspace((unsigned char)*p)) p++;
        if (!*p) break;
        char tok[64];
        size_t n = strcspn(p, ", \t");
        snprintf(tok, sizeof tok, "%.*s", (int)(n < 63 ? n : 63), p);
        double t;
        const char *why = !parse_number(tok, &t) ? "is not a number"
                        : !(t > 0 && t <= sc->t_end) ? "is outside (0, t_end]"
                        : (sc->n_output_times && t <= last) ? "is not after the time before it"
                        : NULL;
        if (why) {
            sc_entry_error(e, b->err, b->errlen, "expected increasing times in (0, t_end = %g]: "
                           "'%s' %s", sc->t_end, tok, why);
            return -1;
        }
        double *ts = realloc(sc->output_times, (size_t)(sc->n_output_times + 1) * sizeof *ts);
        if (!ts) {
            snprintf(b->err, b->errlen, "%s: out of memory", b->t->file);
            return -1;
        }
        sc->output_times = ts;
        ts[sc->n_output_times++] = last = t;
        p += n;
    }
    return 0;
}

static int read_run(build *b)
{
    scenario *sc = b->sc;
    sc->cfl = 0.9;
    sc->g = 9.81;
    sc->h_dry = 1e-5;
    /* sediment: t_end may be left out when sediment.steps counts the steps */
    int steps = 0;
    if (is_sediment(b) && get_int(b, "sediment", "steps", 0, 0, &steps) < 0) return -1;
    if (get_num(b, "run", "t_end", !(is_sediment(b) && steps > 0), R_POS, &sc->t_end) < 0 ||
        get_num(b, "run", "cfl", 0, R_CFL, &sc->cfl) < 0 ||
        get_num(b, "run", "g", 0, R_POS, &sc->g) < 0 ||
        get_num(b, "run", "h_dry", 0, R_POS, &sc->h_dry) < 0)
        return -1;
    return read_output_times(b);
}

/* ---- [sediment] scalars ------------------------------------------------------------ */

static int read_sediment(build *b)
{
    static const char *const forms[] = {"paper", "conservative", NULL};
    static const char *const sides[] = {"west", "east", "south", "north", "none", NULL};
    scenario *sc = b->sc;
    int side = 4;
    sc->cs = sc->cm = sc->layer = 1.0;
    sc->inflow_side = -1;
    if (get_num(b, "sediment", "cs", 0, R_POS, &sc->cs) < 0 ||
        get_num(b, "sediment", "cm", 0, R_POS, &sc->cm) < 0 ||
        get_num(b, "sediment", "layer", 0, R_POS, &sc->layer) < 0 ||
        get_num(b, "sediment", "dt", 0, R_POS, &sc->sed_dt) < 0 ||
        get_int(b, "sediment", "steps", 0, 0, &sc->sed_steps) < 0 ||
        get_word(b, "sediment", "form", forms, "paper or conservative", &sc->sed_form) < 0 ||
        get_word(b, "sediment", "inflow_side", sides, "none, west, east, south or north", &side) < 0)
        return -1;
    sc->inflow_side = side == 4 ? -1 : side;
    double len = side < 2 ? (sc->ny - 1) * sc->dy : (sc->nx - 1) * sc->dx;
    sc->inflow_from = 0;
    sc->inflow_to = len;
    if (get_num(b, "sediment", "inflow_from", 0, R_NONNEG, &sc->inflow_from) < 0 ||
        get_num(b, "sediment", "inflow_to", 0, R_NONNEG, &sc->inflow_to) < 0 ||
        get_num(b, "sediment", "inflow_sand", 0, R_NONNEG, &sc->inflow_sand) < 0 ||
        get_num(b, "sediment", "inflow_mud", 0, R_NONNEG, &sc->inflow_mud) < 0)
        return -1;
    if (sc->inflow_to < sc->inflow_from) {
        sc_entry *e = sc_value(b->t, "sediment", "inflow_to");
        if (!e) e = sc_value(b->t, "sediment", "inflow_from");
        sc_entry_error(e, b->err, b->errlen, "expected inflow_from <= inflow_to (%g m along the side)",
                       sc->inflow_to);
        return -1;
    }
    return 0;
}

/* ---- putting it together ----------------------------------------------------------- */

static int build_scenario(build *b)
{
    if (read_scheme(b) < 0 || check_families(b) < 0 || setup_grid(b) < 0 || read_mask(b) < 0)
        return -1;
    int rc = is_sediment(b) ? sediment_fields(b) : shallow_water_fields(b);
    for (int s = 0; rc == 0 && s < 4; s++) rc = read_boundary(b, s);
    if (rc == 0) rc = read_run(b);
    if (rc == 0 && is_sediment(b)) rc = read_sediment(b);
    return rc;
}

/* Reads the table (from f or text), applies the overrides, builds sc. */
static int load(scenario *sc, const char *file, FILE *f, const char *text,
                const char *const *overrides, int n_overrides, char *err, size_t errlen)
{
    sc_table t = {0};
    snprintf(t.file, sizeof t.file, "%s", file);
    int rc = sc_table_read(&t, f, text, err, errlen);
    for (int i = 0; rc == 0 && i < n_overrides; i++) rc = sc_table_override(&t, overrides[i], err, errlen);
    if (rc == 0) {
        build b = {.sc = sc, .t = &t, .err = err, .errlen = errlen};
        b.grid.dir = sc->dir;
        rc = build_scenario(&b);
        free(b.grid_values);
        free(b.grid_nodata);
    }
    sc_table_free(&t);
    if (rc != 0) scenario_free(sc);
    return rc;
}

int scenario_load(scenario *sc, const char *path, const char *const *overrides,
                  int n_overrides, char *err, size_t errlen)
{
    memset(sc, 0, sizeof *sc);
    snprintf(sc->source, sizeof sc->source, "%s", path);
    const char *slash = strrchr(path, '/');
    if (slash) snprintf(sc->dir, sizeof sc->dir, "%.*s", (int)(slash == path ? 1 : slash - path), path);
    else snprintf(sc->dir, sizeof sc->dir, ".");
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    int rc = load(sc, path, f, NULL, overrides, n_overrides, err, errlen);
    fclose(f);
    return rc;
}

int scenario_load_case(scenario *sc, const char *name, const char *const *overrides,
                       int n_overrides, char *err, size_t errlen)
{
    memset(sc, 0, sizeof *sc);
    const char *text = scenario_case_text(name);
    if (!text) {
        snprintf(err, errlen, "%s: no such built-in case (swgl list-cases lists them)", name);
        return -1;
    }
    char file[300];
    snprintf(sc->source, sizeof sc->source, "case %s", name);
    sc->dir[0] = '\0';    /* relative grid paths: the current directory */
    snprintf(file, sizeof file, "%.250s.ini", name);
    return load(sc, file, NULL, text, overrides, n_overrides, err, errlen);
}

void scenario_free(scenario *sc)
{
    if (!sc) return;
    free(sc->bed);
    free(sc->active);
    free(sc->h);
    free(sc->qx);
    free(sc->qy);
    for (int s = 0; s < 4; s++) free(sc->bc[s]);
    free(sc->output_times);
    free(sc->alpha);
    free(sc->beta);
    free(sc->height);
    free(sc->sand);
    memset(sc, 0, sizeof *sc);
}
