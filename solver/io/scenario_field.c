/* scenario_field.c — one scenario value turned into a field on the grid.
 *
 *   a number or an expression   evaluated at every sample point:
 *                                 x = (i + offset) dx,  y = (j + offset) dy   (m)
 *                               offset 0.5 for cell centres (shallow water), 0 for grid
 *                               points (sediment); x, y from the grid's south-west corner
 *   a path ending ".asc"        an ESRI ASCII grid, which must have the grid's nx, ny and
 *                               cell size (and its xll, yll when the grid itself came
 *                               from a file)
 *
 * A number is just the simplest expression.  A value that is not finite at some point
 * (log(0), 1/0, ...) is an error that names the point.
 */
#include "scenario_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "expr.h"
#include "output.h"

int sc_value_is_grid(const char *value)
{
    size_t n = strlen(value);
    return n > 4 && strcasecmp(value + n - 4, ".asc") == 0;
}

const char *sc_grid_path(const char *dir, const char *value, char *buf, size_t len)
{
    if (value[0] == '/' || !dir || !*dir) snprintf(buf, len, "%s", value);
    else snprintf(buf, len, "%s/%s", dir, value);
    return buf;
}

static int close_enough(double a, double b)
{
    return fabs(a - b) <= 1e-6 * fmax(fabs(a), fabs(b));
}

static swgl_status field_from_grid(const sc_entry *e, const sc_grid *g, double *out,
                                   unsigned char *nodata)
{
    char path[1024];
    int nx, ny;
    double xll, yll, dx, dy, *v;
    unsigned char *nd;
    sc_grid_path(g->dir, e->value, path, sizeof path);
    swgl_status st = asc_read(path, &nx, &ny, &xll, &yll, &dx, &dy, &v, &nd);
    if (st != SWGL_OK) {
        if (e->is_override) return swgl_fail(st, "%s (%s)", swgl_last_error(), e->where);
        return swgl_fail(st, "%s ([%s] %s, %s)", swgl_last_error(), e->section, e->key, e->where);
    }
    int ok = nx == g->nx && ny == g->ny && close_enough(dx, g->dx) && close_enough(dy, g->dy);
    if (ok && g->from_file)
        ok = fabs(xll - g->xll) <= 1e-6 * g->dx && fabs(yll - g->yll) <= 1e-6 * g->dy;
    if (!ok) {
        sc_entry_error(e, SWGL_ERR_INPUT, "grid of the wrong size: %d x %d cells of %g x %g m at "
                       "(%g, %g), the domain is %d x %d cells of %g x %g m%s", nx, ny, dx, dy,
                       xll, yll, g->nx, g->ny, g->dx, g->dy, g->from_file ? " at the same corner" : "");
        free(v);
        free(nd);
        return SWGL_ERR_INPUT;
    }
    size_t n = (size_t)nx * (size_t)ny;
    for (size_t k = 0; k < n; k++) {
        if (nd[k] && !nodata) {
            sc_entry_error(e, SWGL_ERR_INPUT, "NODATA at cell (%zu, %zu) (i, j from the south-west)",
                           k % (size_t)nx, k / (size_t)nx);
            free(v);
            free(nd);
            return SWGL_ERR_INPUT;
        }
        out[k] = v[k];
        if (nodata) nodata[k] = nd[k];
    }
    free(v);
    free(nd);
    return SWGL_OK;
}

static swgl_status field_from_expr(const sc_entry *e, const sc_grid *g, double *out,
                                   unsigned char *nodata)
{
    if (!*e->value)
        return sc_entry_error(e, SWGL_ERR_INPUT,
                              "expected a number, an .asc grid or an expression in x, y");
    expr *x = expr_compile(e->value);
    if (!x) return sc_entry_error(e, SWGL_ERR_INPUT, "bad expression: %s", swgl_last_error());
    int uses_xy = expr_uses_xy(x);
    double constant = uses_xy ? 0 : expr_eval(x, 0, 0);   /* no x, y: evaluated once */
    for (int j = 0; j < g->ny; j++) {
        for (int i = 0; i < g->nx; i++) {
            double px = (i + g->offset) * g->dx, py = (j + g->offset) * g->dy;
            double v = uses_xy ? expr_eval(x, px, py) : constant;
            if (!isfinite(v)) {
                sc_entry_error(e, SWGL_ERR_INPUT, "the expression is %s at x = %g, y = %g (m)",
                               isnan(v) ? "not a number" : v > 0 ? "+infinite" : "-infinite", px, py);
                expr_free(x);
                return SWGL_ERR_INPUT;
            }
            size_t k = (size_t)j * (size_t)g->nx + (size_t)i;
            out[k] = v;
            if (nodata) nodata[k] = 0;
        }
    }
    expr_free(x);
    return SWGL_OK;
}

swgl_status sc_field(const sc_entry *e, const sc_grid *g, double *out, unsigned char *nodata)
{
    if (sc_value_is_grid(e->value)) return field_from_grid(e, g, out, nodata);
    return field_from_expr(e, g, out, nodata);
}
