/* mesh.h — a triangulated irregular network (TIN: nodes with an elevation, triangles over
 * them) read from two CSV files, and sampled on a regular grid by linear interpolation on
 * the triangles.  Used by `swgl grid-from-mesh` and by a scenario's `bed = mesh(NODES,
 * TRIANGLES)` (the Malpasset case's TELEMAC mesh; docs/scenarios.md, docs/validation.md).
 *
 * Files (docs/scenarios.md "Triangle meshes"):
 *   NODES      one node a line: id, x, y, z (m; further columns are ignored, or one of
 *              them is read in place of z: mesh_read_column)
 *   TRIANGLES  one triangle a line: id, n1, n2, n3 (node ids of the NODES file); exactly
 *              these 4 fields (a 6-node element is an error, not a triangle)
 * Fields are separated by commas, semicolons, tabs or spaces (blanks around a comma belong
 * to it: "1,,2" has an empty field, an error); a line starting with '#' is a comment,
 * blank lines are skipped, and the first other line may be a header (a line whose first
 * field is not a number).  Lines end in \n or \r\n and may be of any length; a UTF-8 BOM
 * is skipped; a NUL byte is an error.  Numbers are decimal text read whole by strtod (no
 * hex, inf, nan), finite, |x|, |y| <= 1e9 m, |z| <= 1e6 m.  Ids are integers in [0, 2^53]
 * (any order, not necessarily contiguous, each node id once; a triangle's own id is
 * checked and otherwise unused); they map to indices through a sorted copy and a binary
 * search, so a large id costs nothing.  Triangles may be of either orientation; a
 * triangle of zero area (or a sliver thinner than 1e-14 of its length) covers nothing.
 *
 * Every failure returns SWGL_ERR_INPUT (SWGL_ERR_NO_MEMORY, SWGL_ERR_IO) with a one-line
 * message naming the file and line and what was expected (swgl_error.h).
 */
#ifndef SWGL_MESH_H
#define SWGL_MESH_H

#include <stddef.h>

#include "swgl_error.h"

/* The most nodes and triangles a mesh may have (each file's data lines). */
#define MESH_MAX_NODES (1L << 26)
#define MESH_MAX_TRIANGLES (1L << 27)

typedef struct mesh {
    long n_nodes, n_tri;
    double *x, *y, *z;        /* n_nodes each */
    long *tri;                /* 3 * n_tri: 0-based indices into x, y, z */
    double xmin, xmax, ymin, ymax;   /* the nodes' bounding box (m) */
} mesh;

/* Reads both files into *m (zeroed first; mesh_free it on success). */
swgl_status mesh_read(const char *nodes_path, const char *triangles_path, mesh *m);
/* The same with the value at the nodes (z in *m) read from field `column` of each node
 * line (1-based: 4 is z, as mesh_read; up to MESH_MAX_COLUMN), e.g. a depth or a water
 * surface the file carries beside the bed; the line must have that many fields. */
#define MESH_MAX_COLUMN 8
swgl_status mesh_read_column(const char *nodes_path, const char *triangles_path, int column, mesh *m);
void mesh_free(mesh *m);

/* Samples the mesh at the nx * ny points (x0 + i dx, y0 + j dy), i < nx, j < ny, row-major
 * with j = 0 the southern row: out[j nx + i] is the linear interpolant of the triangle
 * that holds the point (a point on a shared edge or node takes either: they agree), or
 * NaN with nodata[k] = 1 (nodata may be NULL) where no triangle holds it.  Returns the
 * number of points inside the mesh.
 *
 * A point is held when its three barycentric coordinates (computed relative to the
 * triangle's first vertex) are >= -tol, tol = 1e-12 plus the rounding of the points' map
 * coordinates, at most 1e-6: points on edges and nodes are inside.  The cost is about
 * the triangles' areas in grid points (each one's box clipped to the grid) plus nx * ny.
 * dx or dy not > 0, or a non-finite x0, y0: every point NODATA, 0 returned. */
long mesh_sample(const mesh *m, double x0, double y0, double dx, double dy, int nx, int ny,
                 double *out, unsigned char *nodata);

#endif
