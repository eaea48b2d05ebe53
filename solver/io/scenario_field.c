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

static int field_from_grid(const sc_entry *e, const sc_grid *g, double *out,
                           unsigned char *nodata, char *err, size_t errlen)
{
    char path[1024], msg[768];
    int nx, ny;
    double xll, yll, dx, dy, *v;
    unsigned char *nd;
    sc_grid_path(g->dir, e->value, path, sizeof path);
    if (asc_read(path, &nx, &ny, &xll, &yll, &dx, &dy, &v, &nd, msg, sizeof msg) < 0) {
        if (e->is_override) snprintf(err, errlen, "%s (%s)", msg, e->where);
        else snprintf(err, errlen, "%s ([%s] %s, %s)", msg, e->section, e->key, e->where);
        return -1;
    }
    int ok = nx == g->nx && ny == g->ny && close_enough(dx, g->dx) && close_enough(dy, g->dy);
    if (ok && g->from_file)
        ok = fabs(xll - g->xll) <= 1e-6 * g->dx && fabs(yll - g->yll) <= 1e-6 * g->dy;
    if (!ok) {
        sc_entry_error(e, err, errlen, "grid of the wrong size: %d x %d cells of %g x %g m at "
                       "(%g, %g), the domain is %d x %d cells of %g x %g m%s", nx, ny, dx, dy,
                       xll, yll, g->nx, g->ny, g->dx, g->dy, g->from_file ? " at the same corner" : "");
        free(v);
        free(nd);
        return -1;
    }
    size_t n = (size_t)nx * (size_t)ny;
    for (size_t k = 0; k < n; k++) {
        if (nd[k] && !nodata) {
            sc_entry_error(e, err, errlen, "NODATA at cell (%zu, %zu) (i, j from the south-west)",
                           k % (size_t)nx, k / (size_t)nx);
            free(v);
            free(nd);
            return -1;
        }
        out[k] = v[k];
        if (nodata) nodata[k] = nd[k];
    }
    free(v);
    free(nd);
    return 0;
}

static int field_from_expr(const sc_entry *e, const sc_grid *g, double *out, unsigned char *nodata,
                           char *err, size_t errlen)
{
    char msg[256];
    if (!*e->value) {
        sc_entry_error(e, err, errlen, "expected a number, an .asc grid or an expression in x, y");
        return -1;
    }
    expr *x = expr_compile(e->value, msg, sizeof msg);
    if (!x) {
        sc_entry_error(e, err, errlen, "bad expression: %s", msg);
        return -1;
    }
    for (int j = 0; j < g->ny; j++) {
        for (int i = 0; i < g->nx; i++) {
            double px = (i + g->offset) * g->dx, py = (j + g->offset) * g->dy;
            double v = expr_eval(x, px, py);
            if (!isfinite(v)) {
                sc_entry_error(e, err, errlen, "the expression is %s at x = %g, y = %g (m)",
                               isnan(v) ? "not a number" : v > 0 ? "+infinite" : "-infinite", px, py);
                expr_free(x);
                return -1;
            }
            size_t k = (size_t)j * (size_t)g->nx + (size_t)i;
            out[k] = v;
            if (nodata) nodata[k] = 0;
        }
    }
    expr_free(x);
    return 0;
}

int sc_field(const sc_entry *e, const sc_grid *g, double *out, unsigned char *nodata,
             char *err, size_t errlen)
{
    if (sc_value_is_grid(e->value)) return field_from_grid(e, g, out, nodata, err, errlen);
    return field_from_expr(e, g, out, nodata, err, errlen);
}
