/* scenario_fields.c — the fields on the grid: the active cells ([domain] mask and the
 * grid's NODATA), a field from a key with its default and range, and the shallow-water
 * initial state ([domain] bed, [initial] eta or depth, qx, qy).
 */
#include "scenario_int.h"

#include <math.h>
#include <stdlib.h>

size_t sc_ncells(const sc_build *b)
{
    return (size_t)b->grid.nx * (size_t)b->grid.ny;
}

double *sc_new_field(sc_build *b)
{
    double *v = calloc(sc_ncells(b), sizeof *v);
    if (!v) swgl_fail(SWGL_ERR_NO_MEMORY, "%s: out of memory for %zu cells", b->t->file, sc_ncells(b));
    return v;
}

/* Fills *out from [section] key, or with def when absent (def NaN: required).  NODATA is
 * allowed only at inactive cells, where the value becomes 0. */
swgl_status sc_get_field(sc_build *b, const char *section, const char *key, double def,
                         double **out)
{
    size_t n = sc_ncells(b);
    if (!(*out = sc_new_field(b))) return SWGL_ERR_NO_MEMORY;
    sc_entry *e = sc_value(b->t, section, key);
    if (!e) {
        if (isnan(def)) return sc_missing(b, section, key, "a number, an .asc grid or an expression");
        double *o = *out;
#pragma omp parallel for schedule(static)
        for (long k = 0; k < (long)n; k++) o[k] = def;
        return SWGL_OK;
    }
    unsigned char *nd = calloc(n, 1);
    if (!nd) return sc_no_memory(b);
    swgl_status st = sc_field(e, &b->grid, *out, nd);
    /* (every core; the first active cell with NODATA in row order named) */
    long bad = (long)n;
    double *o = *out;
    const unsigned char *act = b->sc->active;
    if (st == SWGL_OK) {
#pragma omp parallel for schedule(static) reduction(min : bad)
        for (long k = 0; k < (long)n; k++) {
            if (!nd[k]) continue;
            if (act[k] && k < bad) bad = k;
            o[k] = 0;
        }
    }
    if (st == SWGL_OK && bad < (long)n)
        st = sc_entry_error(e, SWGL_ERR_INPUT, "NODATA at active cell (%zu, %zu) (i, j from the south-west)",
                            (size_t)bad % (size_t)b->grid.nx, (size_t)bad / (size_t)b->grid.nx);
    free(nd);
    return st;
}

/* Every active cell's value in [lo, hi]. */
swgl_status sc_check_field(sc_build *b, const char *section, const char *key, const double *v,
                           double lo, double hi, const char *expected)
{
    /* (every core: the first cell out of range in row order) */
    long n = (long)sc_ncells(b), bad = n;
    const unsigned char *act = b->sc->active;
#pragma omp parallel for schedule(static) reduction(min : bad)
    for (long q = 0; q < n; q++)
        if (act[q] && !(v[q] >= lo && v[q] <= hi) && q < bad) bad = q;
    if (bad == n) return SWGL_OK;
    size_t k = (size_t)bad;
    sc_entry *e = sc_value(b->t, section, key);
    int i = (int)(k % (size_t)b->grid.nx), j = (int)(k / (size_t)b->grid.nx);
    double off = b->grid.offset;
    if (e)
        return sc_entry_error(e, SWGL_ERR_INPUT, "expected %s, found %g at cell (%d, %d), x = %g, y = %g (m)", expected,
                              v[k], i, j, (i + off) * b->grid.dx, (j + off) * b->grid.dy);
    return swgl_fail(SWGL_ERR_INPUT, "%s: [%s] %s: expected %s", b->t->file, section, key, expected);
}

/* domain.mask and the NODATA cells of the grid: sc->active. */
swgl_status sc_read_mask(sc_build *b)
{
    size_t n = sc_ncells(b);
    scenario *sc = b->sc;
    if (!(sc->active = malloc(n))) return sc_no_memory(b);
    unsigned char *act = sc->active;
    const unsigned char *gnd = b->grid_nodata;
#pragma omp parallel for schedule(static)
    for (long k = 0; k < (long)n; k++) act[k] = !(gnd && gnd[k]);
    sc_entry *e = sc_value(b->t, "domain", "mask");
    if (!e) return SWGL_OK;
    double *m = sc_new_field(b);
    unsigned char *nd = calloc(n, 1);
    swgl_status st = m && nd ? sc_field(e, &b->grid, m, nd) : SWGL_ERR_NO_MEMORY;
    if (m && !nd) sc_no_memory(b);
    for (size_t k = 0; st == SWGL_OK && k < n; k++)
        if (nd[k] || m[k] == 0) sc->active[k] = 0;
    free(m);
    free(nd);
    return st;
}

/* The field that gave the grid (bed or height): NODATA cells (inactive) become 0. */
swgl_status sc_grid_field(sc_build *b, const char *section, const char *key, double **out)
{
    if (!b->grid_values) return sc_get_field(b, section, key, NAN, out);
    *out = b->grid_values;
    b->grid_values = NULL;
    for (size_t k = 0; k < sc_ncells(b); k++)
        if (b->grid_nodata[k]) (*out)[k] = 0;
    return SWGL_OK;
}
/* eta or depth (exactly one), qx, qy; then h = max(eta - bed, 0) and zero at inactive cells. */
swgl_status sc_shallow_water_fields(sc_build *b)
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
    if ((st = sc_grid_field(b, "domain", "bed", &sc->bed)) ||
        (st = sc_get_field(b, "initial", eta ? "eta" : "depth", NAN, &sc->h)) ||
        (st = sc_get_field(b, "initial", "qx", 0.0, &sc->qx)) ||
        (st = sc_get_field(b, "initial", "qy", 0.0, &sc->qy)))
        return st;
    if (depth && (st = sc_check_field(b, "initial", "depth", sc->h, 0, INFINITY, "a depth >= 0")))
        return st;
    if ((st = sc_scheme_bed(b)) != SWGL_OK) return st;
    long n = (long)sc_ncells(b);
    int from_eta = eta != NULL;
#pragma omp parallel for schedule(static)
    for (long k = 0; k < n; k++) {
        if (from_eta) sc->h[k] = fmax(sc->h[k] - sc->bed[k], 0.0);
        if (!sc->active[k]) sc->h[k] = sc->qx[k] = sc->qy[k] = 0;
    }
    return SWGL_OK;
}
