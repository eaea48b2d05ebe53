/* scenario_field.c — one scenario value turned into a field on the grid.
 *
 *   a number or an expression   evaluated at every sample point:
 *                                 x = (i + offset) dx,  y = (j + offset) dy   (m)
 *                               offset 0.5 for cell centres (shallow water), 0 for grid
 *                               points (sediment); x, y from the grid's south-west corner
 *   a path ending ".asc"        a raster (raster_read: an ESRI ASCII grid), which must
 *   (or any file name that is   have the grid's nx, ny and cell size (and its xll, yll
 *   not an expression)          when the grid itself came from a file)
 *   mesh(NODES, TRIANGLES[, C]) a triangle mesh (mesh.h; C: the nodes file's value column,
 *                               4 = z when absent) sampled at the sample points in
 *                               map coordinates (xll + x, yll + y) by linear interpolation
 *                               on its triangles; NODATA outside it
 * Paths are relative to the scenario's folder; one that starts "@data/" is in the shared
 * data folder (sc_data_dir(): SWGL_DATA).
 *
 * A number is just the simplest expression.  A value that is not finite at some point
 * (log(0), 1/0, ...) is an error that names the point.
 */
#include "scenario_int.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <errno.h>
#include <unistd.h>

#include "expr.h"
#include "mesh.h"
#include "raster.h"

/* A name ending ".EXT" (EXT a letter, then letters or digits: 8 at most) */
static int has_file_ending(const char *value)
{
    const char *dot = strrchr(value, '.');
    if (!dot || dot == value || !isalpha((unsigned char)dot[1])) return 0;
    size_t n = 0;
    for (const char *c = dot + 1; *c; c++, n++)
        if (!isalnum((unsigned char)*c)) return 0;
    return n <= 8;
}

int sc_value_is_grid(const char *value)
{
    if (raster_known_ending(value)) return 1;
    if (!has_file_ending(value)) return 0;
    /* a file name, not an expression such as 2.e3 (raster_read then names its type) */
    expr *x = expr_compile(value);
    expr_free(x);
    return x == NULL;
}

const char *sc_grid_path(const char *dir, const char *value, char *buf, size_t len)
{
    int n;   /* (a path cut short is found by the callers: strlen(buf) + 1 == len) */
    if (strncmp(value, "@data/", 6) == 0) n = snprintf(buf, len, "%s/%s", sc_data_dir(), value + 6);
    else if (value[0] == '/' || !dir || !*dir) n = snprintf(buf, len, "%s", value);
    else n = snprintf(buf, len, "%s/%s", dir, value);
    if (n < 0 && len) buf[0] = '\0';
    return buf;
}

int sc_value_is_mesh(const char *value)
{
    size_t n = strlen(value);
    return n >= 6 && strncasecmp(value, "mesh(", 5) == 0 && value[n - 1] == ')';
}

/* "mesh(A, B[, C])": the two paths, trimmed, resolved against dir, and the nodes file's
 * value column C (4, z, when absent). */
static swgl_status mesh_args(const sc_entry *e, const char *dir, char *nodes, char *tris, size_t len, int *column)
{
    static const char *syntax = "expected mesh(NODES.csv, TRIANGLES.csv) or mesh(NODES.csv, TRIANGLES.csv, COLUMN)";
    const char *v = e->value + 5, *end = e->value + strlen(e->value) - 1;
    const char *from[3], *to[3];
    int n_parts = 0;
    for (const char *p = v;; p++) {   /* split at the commas between "mesh(" and ")" */
        const char *comma = memchr(p, ',', (size_t)(end - p));
        if (n_parts == 3) return sc_entry_error(e, SWGL_ERR_INPUT, "%s: more than three arguments", syntax);
        from[n_parts] = p;
        to[n_parts++] = comma ? comma : end;
        if (!comma) break;
        p = comma;
    }
    if (n_parts < 2) return sc_entry_error(e, SWGL_ERR_INPUT, "%s: two paths separated by a comma", syntax);
    char part[3][512];
    static const char *which[3] = {"first path", "second path", "column"};
    for (int k = 0; k < n_parts; k++) {
        while (from[k] < to[k] && (*from[k] == ' ' || *from[k] == '\t')) from[k]++;
        while (to[k] > from[k] && (to[k][-1] == ' ' || to[k][-1] == '\t')) to[k]--;
        size_t n = (size_t)(to[k] - from[k]);
        if (n == 0 || n >= sizeof part[k])
            return sc_entry_error(e, SWGL_ERR_INPUT, "%s: the %s is %s", syntax, which[k], n ? "too long" : "empty");
        memcpy(part[k], from[k], n);
        part[k][n] = '\0';
    }
    *column = 4;
    if (n_parts == 3) {
        char *stop;
        long c = strtol(part[2], &stop, 10);
        if (*stop || c < 4 || c > MESH_MAX_COLUMN)
            return sc_entry_error(e, SWGL_ERR_INPUT, "%s: COLUMN '%s': expected the nodes file's column of the "
                                  "value, an integer from 4 (z) to %d", syntax, part[2], MESH_MAX_COLUMN);
        *column = (int)c;
    }
    sc_grid_path(dir, part[0], nodes, len);
    sc_grid_path(dir, part[1], tris, len);
    if (strlen(nodes) + 1 >= len || strlen(tris) + 1 >= len)
        return sc_entry_error(e, SWGL_ERR_INPUT, "a path of more than %zu bytes once resolved", len - 2);
    /* the shared data folder missing altogether: say how to point at it */
    for (int k = 0; k < 2; k++) {
        const char *path = k ? tris : nodes;
        if (strncmp(part[k], "@data/", 6) == 0 && access(path, R_OK) != 0)
            return sc_entry_error(e, SWGL_ERR_IO, "the shared data is not there: %s: %s (set SWGL_DATA to "
                                  "the folder that holds it; docs/validation.md)", path, strerror(errno));
    }
    return SWGL_OK;
}

swgl_status sc_mesh_read(const sc_entry *e, const char *dir, mesh *m)
{
    char nodes[1024], tris[1024];
    int column = 4;
    swgl_status st = mesh_args(e, dir, nodes, tris, sizeof nodes, &column);
    if (st == SWGL_OK && (st = mesh_read_column(nodes, tris, column, m)) != SWGL_OK) {
        if (e->is_override) return swgl_fail(st, "%s (%s)", swgl_last_error(), e->where);
        return swgl_fail(st, "%s ([%s] %s, %s)", swgl_last_error(), e->section, e->key, e->where);
    }
    return st;
}

static swgl_status field_from_mesh(const sc_entry *e, const sc_grid *g, double *out,
                                   unsigned char *nodata)
{
    mesh m;
    swgl_status st = sc_mesh_read(e, g->dir, &m);
    if (st != SWGL_OK) return st;
    size_t n = (size_t)g->nx * (size_t)g->ny;
    unsigned char *nd = nodata ? nodata : calloc(n, 1);
    if (!nd) {
        mesh_free(&m);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory for %zu cells", n);
    }
    mesh_sample(&m, g->xll + g->offset * g->dx, g->yll + g->offset * g->dy, g->dx, g->dy, g->nx,
                g->ny, out, nd);
    mesh_free(&m);
    for (size_t k = 0; !nodata && k < n; k++)
        if (nd[k]) {
            sc_entry_error(e, SWGL_ERR_INPUT, "the point x = %g, y = %g (m, map coordinates) is "
                           "outside the mesh", g->xll + ((double)(k % (size_t)g->nx) + g->offset) * g->dx,
                           g->yll + ((double)(k / (size_t)g->nx) + g->offset) * g->dy);
            free(nd);
            return SWGL_ERR_INPUT;
        }
    if (!nodata) free(nd);
    return SWGL_OK;
}

static int close_enough(double a, double b)
{
    return fabs(a - b) <= 1e-6 * fmax(fabs(a), fabs(b));
}

static swgl_status field_from_grid(const sc_entry *e, const sc_grid *g, double *out,
                                   unsigned char *nodata)
{
    char path[1024];
    raster r;
    sc_grid_path(g->dir, e->value, path, sizeof path);
    swgl_status st = raster_read(path, &r);
    int nx = r.nx, ny = r.ny;
    double xll = r.x0, yll = r.y0, dx = r.dx, dy = r.dy, *v = r.v;
    unsigned char *nd = r.nodata;
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
        raster_free(&r);
        return SWGL_ERR_INPUT;
    }
    size_t n = (size_t)nx * (size_t)ny;
    for (size_t k = 0; k < n; k++) {
        if (nd[k] && !nodata) {
            sc_entry_error(e, SWGL_ERR_INPUT, "NODATA at cell (%zu, %zu) (i, j from the south-west)",
                           k % (size_t)nx, k / (size_t)nx);
            raster_free(&r);
            return SWGL_ERR_INPUT;
        }
        out[k] = v[k];
        if (nodata) nodata[k] = nd[k];
    }
    raster_free(&r);
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
    expr_set_origin(x, g->xll, g->yll);
    int uses_xy = expr_uses_xy(x);
    double constant = uses_xy ? 0 : expr_eval(x, 0, 0);   /* no x, y: evaluated once */
    /* the cells in parallel (issue 28: a 4096^2 scenario's fields took seconds on one core;
     * expr_eval reads the compiled expression only), the first cell in row order whose value
     * is not finite named, as a serial loop would */
    const size_t n = (size_t)g->nx * (size_t)g->ny;
    size_t bad = n;
#pragma omp parallel for schedule(static) reduction(min : bad)
    for (int j = 0; j < g->ny; j++) {
        for (int i = 0; i < g->nx; i++) {
            double px = (i + g->offset) * g->dx, py = (j + g->offset) * g->dy;
            double v = uses_xy ? expr_eval(x, px, py) : constant;
            size_t k = (size_t)j * (size_t)g->nx + (size_t)i;
            if (!isfinite(v) && k < bad) bad = k;
            out[k] = v;
            if (nodata) nodata[k] = 0;
        }
    }
    if (bad < n) {
        const int i = (int)(bad % (size_t)g->nx), j = (int)(bad / (size_t)g->nx);
        double px = (i + g->offset) * g->dx, py = (j + g->offset) * g->dy, v = out[bad];
        sc_entry_error(e, SWGL_ERR_INPUT, "the expression is %s at x = %g, y = %g (m)",
                       isnan(v) ? "not a number" : v > 0 ? "+infinite" : "-infinite", px, py);
        expr_free(x);
        return SWGL_ERR_INPUT;
    }
    expr_free(x);
    return SWGL_OK;
}

swgl_status sc_field(const sc_entry *e, const sc_grid *g, double *out, unsigned char *nodata)
{
    if (sc_value_is_grid(e->value)) return field_from_grid(e, g, out, nodata);
    if (sc_value_is_mesh(e->value)) return field_from_mesh(e, g, out, nodata);
    return field_from_expr(e, g, out, nodata);
}
