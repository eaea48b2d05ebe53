/* grid_from_mesh.c — swgl grid-from-mesh: a triangle mesh's elevations (mesh.h) sampled
 * at the centres of a regular grid's cells and written as an ESRI ASCII grid
 * (docs/scenarios.md "Triangle meshes").
 *
 *   swgl grid-from-mesh NODES.csv TRIANGLES.csv --cell D --out GRID.asc
 *                       [--dx DX --dy DY] [--origin X0 Y0] [--size NX NY] [--nodata V]
 *
 * The grid's south-west corner defaults to the mesh's bounding-box minimum and its size
 * to ceil(extent / D) cells (at least 1), so that it covers the mesh.  Cells whose centre
 * no triangle holds are NODATA.  The file is written in the format of asc_write
 * (output_asc.c: %.9g, row 0 the northern one) but with the chosen NODATA value, to a
 * temporary file beside GRID.asc that is renamed over it at the end: a failure leaves
 * an existing GRID.asc as it was.
 *
 * Exit status: 0; 1 on an error of the input (a file, a grid too large, a NODATA value
 * that the mesh takes); 2 on bad usage (a missing or malformed argument).  Each error is
 * one line "swgl grid-from-mesh: ..." on stderr.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mesh.h"
#include "cli.h"
#include "scenario.h"   /* SCENARIO_MAX_CELLS */

#define GFM_MAX_SIDE 1000000L   /* ncols, nrows each: what asc_read accepts */

static const char *gfm_usage =
    "usage: swgl grid-from-mesh NODES.csv TRIANGLES.csv --cell D --out GRID.asc [options]\n"
    "\n"
    "A triangle mesh's elevations on a regular grid: each cell takes the linear interpolant\n"
    "of the triangle that holds its centre; cells whose centre no triangle holds are NODATA.\n"
    "\n"
    "  NODES.csv           one node a line: id, x, y, z (m; further columns ignored)\n"
    "  TRIANGLES.csv       one triangle a line: id, n1, n2, n3 (node ids)\n"
    "                      (fields separated by commas, semicolons, tabs or spaces; '#' starts\n"
    "                      a comment line; the first line may be a header)\n"
    "  --cell D            cells of D x D m\n"
    "  --dx DX --dy DY     or cells of DX x DY m\n"
    "  --out GRID.asc      the grid (replaced only when everything succeeded)\n"
    "  --origin X0 Y0      the grid's south-west corner (default: the mesh's minimum x, y)\n"
    "  --size NX NY        cells in x and y (default: enough to cover the mesh from the origin)\n"
    "  --nodata V          the NODATA value written (default -9999; refused if the mesh takes it)\n"
    "  --help              this text\n";

/* A usage error: one line, exit 2. */
__attribute__((format(printf, 1, 2))) static int bad_usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("swgl grid-from-mesh: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputs("; see 'swgl grid-from-mesh --help'\n", stderr);
    va_end(ap);
    return 2;
}

static int parse_num(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return end != s && *end == '\0' && errno != ERANGE && isfinite(*v);
}

static int parse_count(const char *s, long *v)
{
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno == ERANGE) return 0;
    *v = x;
    return 1;
}

/* The NODATA value as it reads back from the file: its %.9g text. */
static double as_written(double v)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.9g", v);
    return strtod(buf, NULL);
}

/* Writes the grid to a temporary file beside path, then renames it over path.
 * 0 on success; else prints the error and returns 1. */
static int write_grid(const char *path, int nx, int ny, double xll, double yll, double dx, double dy,
                      const double *v, const unsigned char *nodata, double nodata_value)
{
    size_t len = strlen(path);
    char *tmp = malloc(len + 32);
    if (!tmp) {
        fprintf(stderr, "swgl grid-from-mesh: out of memory\n");
        return 1;
    }
    /* DIR/.NAME.swgl-tmp-XXXXXX beside the target (same file system: rename is atomic) */
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    snprintf(tmp, len + 32, "%.*s.%s.swgl-tmp-XXXXXX", (int)dir_len, path, path + dir_len);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fprintf(stderr, "swgl grid-from-mesh: %s: cannot create a temporary file beside it: %s\n", path,
                strerror(errno));
        free(tmp);
        return 1;
    }
    mode_t mask = umask(0);
    umask(mask);
    int failed = fchmod(fd, 0666 & ~mask) != 0;
    FILE *f = failed ? NULL : fdopen(fd, "w");
    if (!f) {
        close(fd);
        failed = 1;
    } else {
        /* the corner and the cell size in full: map coordinates of 1e7 m lose centimetres at %.9g */
        fprintf(f, "ncols %d\nnrows %d\nxllcorner %.17g\nyllcorner %.17g\n", nx, ny, xll, yll);
        if (dx == dy) fprintf(f, "cellsize %.17g\n", dx);
        else fprintf(f, "dx %.17g\ndy %.17g\n", dx, dy);
        fprintf(f, "NODATA_value %.9g\n", nodata_value);
        for (int j = ny - 1; j >= 0; j--)
            for (int i = 0; i < nx; i++) {
                size_t k = (size_t)j * (size_t)nx + (size_t)i;
                fprintf(f, i + 1 < nx ? "%.9g " : "%.9g\n", nodata[k] ? nodata_value : v[k]);
            }
        failed = fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0;
        failed |= fclose(f) != 0;
    }
    if (failed) {
        fprintf(stderr, "swgl grid-from-mesh: %s: write error: %s (%s left as it was)\n", tmp, strerror(errno), path);
        unlink(tmp);
        free(tmp);
        return 1;
    }
    if (rename(tmp, path) != 0) {
        fprintf(stderr, "swgl grid-from-mesh: %s: cannot replace it: %s\n", path, strerror(errno));
        unlink(tmp);
        free(tmp);
        return 1;
    }
    free(tmp);
    return 0;
}

int cmd_grid_from_mesh(int argc, char **argv)
{
    const char *pos[2] = {NULL, NULL}, *out = NULL;
    int npos = 0, has_origin = 0, has_size = 0, has_cell = 0, has_dx = 0, has_dy = 0;
    double cell = 0, dx = 0, dy = 0, x0 = 0, y0 = 0, nodata_value = -9999;
    long nx = 0, ny = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(gfm_usage, stdout);
            return 0;
        }
        /* options and the number of values each takes */
        int want = strcmp(a, "--cell") == 0 || strcmp(a, "--dx") == 0 || strcmp(a, "--dy") == 0 ||
                           strcmp(a, "--out") == 0 || strcmp(a, "--nodata") == 0
                       ? 1
                   : strcmp(a, "--origin") == 0 || strcmp(a, "--size") == 0 ? 2
                                                                            : 0;
        if (want == 0) {
            if (a[0] == '-' && a[1] == '-') return bad_usage("unknown option '%s'", a);
            if (npos == 2) return bad_usage("'%s': expected two files (NODES.csv TRIANGLES.csv)", a);
            pos[npos++] = a;
            continue;
        }
        if (i + want >= argc) return bad_usage("%s: expected %s after it", a, want == 1 ? "a value" : "two values");
        const char *v1 = argv[i + 1], *v2 = want == 2 ? argv[i + 2] : NULL;
        i += want;
        if (strcmp(a, "--out") == 0) {
            if (!*v1) return bad_usage("--out: expected a file name");
            out = v1;
        } else if (strcmp(a, "--size") == 0) {
            if (!parse_count(v1, &nx) || !parse_count(v2, &ny) || nx < 1 || ny < 1 || nx > GFM_MAX_SIDE ||
                ny > GFM_MAX_SIDE)
                return bad_usage("--size '%s' '%s': expected two integers from 1 to 1000000 (cells in x, y)", v1, v2);
            has_size = 1;
        } else if (strcmp(a, "--origin") == 0) {
            if (!parse_num(v1, &x0) || !parse_num(v2, &y0))
                return bad_usage("--origin '%s' '%s': expected two finite numbers (m)", v1, v2);
            has_origin = 1;
        } else if (strcmp(a, "--nodata") == 0) {
            if (!parse_num(v1, &nodata_value)) return bad_usage("--nodata '%s': expected a finite number", v1);
        } else {
            double d;
            if (!parse_num(v1, &d) || !(d > 0))
                return bad_usage("%s '%s': expected a cell size > 0 (m)", a, v1);
            if (a[2] == 'c') has_cell = 1, cell = d;
            else if (a[3] == 'x') has_dx = 1, dx = d;
            else has_dy = 1, dy = d;
        }
    }
    if (npos < 2) return bad_usage("expected two files, NODES.csv and TRIANGLES.csv");
    if (!out) return bad_usage("expected --out GRID.asc");
    if (has_cell && (has_dx || has_dy)) return bad_usage("expected either --cell D or --dx DX --dy DY, not both");
    if (!has_cell && !(has_dx && has_dy))
        return bad_usage("expected the cell size: --cell D, or both --dx DX and --dy DY");
    if (has_cell) dx = dy = cell;

    mesh m;
    if (mesh_read(pos[0], pos[1], &m) != SWGL_OK) {
        fprintf(stderr, "swgl grid-from-mesh: %s\n", swgl_last_error());
        return 1;
    }
    if (!has_origin) x0 = m.xmin, y0 = m.ymin;
    if (!has_size) {
        /* cells from the origin to the mesh's far side (a ratio a hair over an integer,
         * from rounding, adds no cell) */
        double rx = ceil((m.xmax - x0) / dx - 1e-9), ry = ceil((m.ymax - y0) / dy - 1e-9);
        rx = rx < 1 ? 1 : rx;
        ry = ry < 1 ? 1 : ry;
        if (!(rx <= GFM_MAX_SIDE && ry <= GFM_MAX_SIDE)) {
            fprintf(stderr, "swgl grid-from-mesh: the mesh (%g x %g m) needs %g x %g cells of %g x %g m: "
                    "expected at most %ld a side (a larger --cell, or --size)\n", m.xmax - x0, m.ymax - y0, rx, ry,
                    dx, dy, GFM_MAX_SIDE);
            mesh_free(&m);
            return 1;
        }
        nx = (long)rx, ny = (long)ry;
    }
    if ((double)nx * (double)ny > (double)SCENARIO_MAX_CELLS) {
        fprintf(stderr, "swgl grid-from-mesh: %ld x %ld cells: expected at most %ld (a scenario's limit; a larger "
                "--cell)\n", nx, ny, (long)SCENARIO_MAX_CELLS);
        mesh_free(&m);
        return 1;
    }
    size_t n = (size_t)nx * (size_t)ny;
    double *v = malloc(n * sizeof *v);
    unsigned char *nd = malloc(n);
    if (!v || !nd) {
        fprintf(stderr, "swgl grid-from-mesh: out of memory for %ld x %ld cells\n", nx, ny);
        free(v), free(nd), mesh_free(&m);
        return 1;
    }
    long inside = mesh_sample(&m, x0 + 0.5 * dx, y0 + 0.5 * dy, dx, dy, (int)nx, (int)ny, v, nd);
    double zlo = INFINITY, zhi = -INFINITY, nd_written = as_written(nodata_value);
    int rc = 0;
    if (inside == 0) {
        fprintf(stderr, "swgl grid-from-mesh: no cell of the %ld x %ld grid of %g x %g m from (%.9g, %.9g) lies in the "
                "mesh (x %.9g to %.9g, y %.9g to %.9g): expected an --origin, --size or cell size that covers it\n",
                nx, ny, dx, dy, x0, y0, m.xmin, m.xmax, m.ymin, m.ymax);
        rc = 1;
    }
    for (size_t k = 0; k < n && rc == 0; k++) {
        if (nd[k]) continue;
        zlo = fmin(zlo, v[k]), zhi = fmax(zhi, v[k]);
        if (as_written(v[k]) == nd_written) {
            fprintf(stderr, "swgl grid-from-mesh: the mesh takes the NODATA value %.9g at x = %.9g, y = %.9g: "
                    "expected a --nodata value that no cell takes\n", nodata_value,
                    x0 + ((double)(k % (size_t)nx) + 0.5) * dx, y0 + ((double)(k / (size_t)nx) + 0.5) * dy);
            rc = 1;
        }
    }
    if (rc == 0) rc = write_grid(out, (int)nx, (int)ny, x0, y0, dx, dy, v, nd, nodata_value);
    if (rc == 0) {
        fprintf(stderr, "swgl grid-from-mesh: %ld nodes, %ld triangles -> %s: %ld x %ld cells of ", m.n_nodes,
                m.n_tri, out, nx, ny);
        if (dx == dy) fprintf(stderr, "%g m", dx);
        else fprintf(stderr, "%g x %g m", dx, dy);
        fprintf(stderr, " from (%.9g, %.9g), %ld inside the mesh (%.1f%%), ", x0, y0, inside,
                100.0 * (double)inside / (double)n);
        fprintf(stderr, "z from %.9g to %.9g m\n", zlo, zhi);
    }
    free(v), free(nd), mesh_free(&m);
    return rc;
}
