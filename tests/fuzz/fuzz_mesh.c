/* fuzz_mesh.c — the triangle mesh reader and sampler (mesh.h): the input is split at its
 * first 0xFF byte into the nodes file and the triangles file (no 0xFF: the triangles file
 * is empty), both written to the harness's temporary folder (mesh_read reads paths); the
 * value column (4 to 8, mesh_read_column) follows from the input's length.
 *
 * On success the documented properties are checked: at least one node and one triangle,
 * every coordinate finite, the bounding box holding every node, every triangle's indices
 * within the nodes; then the mesh is sampled on a 17 x 13 grid over its bounding box
 * (corners included) and at its first 32 nodes: NaN exactly at NODATA points, the count
 * returned equal to the points inside, every value within the nodes' z range (a convex
 * combination, give or take the barycentric tolerance of 1e-6).  On failure: one line
 * of message and an empty mesh.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "mesh.h"

#define NX 17
#define NY 13

static void check_sample(const mesh *m, double zlo, double zhi, double x0, double y0, double dx, double dy, int nx,
                         int ny)
{
    double v[NX * NY];
    unsigned char nd[NX * NY];
    long inside = mesh_sample(m, x0, y0, dx, dy, nx, ny, v, nd), count = 0;
    double slack = 1e-5 * (zhi - zlo) + 1e-9 * fmax(fabs(zlo), fabs(zhi));
    for (int k = 0; k < nx * ny; k++) {
        FZ_CHECK(nd[k] == 0 || nd[k] == 1);
        FZ_CHECK(nd[k] ? isnan(v[k]) : !isnan(v[k]));
        if (nd[k]) continue;
        count++;
        FZ_CHECK(v[k] >= zlo - slack && v[k] <= zhi + slack);
    }
    FZ_CHECK(inside == count);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *cut = memchr(data, 0xff, size);
    size_t n1 = cut ? (size_t)(cut - data) : size;
    char np[1200], tp[1200];
    fz_write(np, sizeof np, "nodes.csv", data, n1);
    fz_write(tp, sizeof tp, "triangles.csv", cut ? cut + 1 : data, cut ? size - n1 - 1 : 0);
    mesh m;
    /* the value column (mesh_read_column): 4 (z, mesh_read) to MESH_MAX_COLUMN, from the
     * input's length, so that every corpus entry keeps its column */
    int column = 4 + (int)(size % (MESH_MAX_COLUMN - 3));
    swgl_status st = column == 4 ? mesh_read(np, tp, &m) : mesh_read_column(np, tp, column, &m);
    if (st != SWGL_OK) {
        FZ_CHECK(strlen(swgl_last_error()) > 0 && !strchr(swgl_last_error(), '\n'));
        FZ_CHECK(m.n_nodes == 0 && m.n_tri == 0 && !m.x && !m.y && !m.z && !m.tri);
        mesh_free(&m);
        return 0;
    }
    FZ_CHECK(m.n_nodes >= 1 && m.n_tri >= 1 && m.x && m.y && m.z && m.tri);
    double zlo = INFINITY, zhi = -INFINITY;
    for (long k = 0; k < m.n_nodes; k++) {
        FZ_CHECK(isfinite(m.x[k]) && isfinite(m.y[k]) && isfinite(m.z[k]));
        FZ_CHECK(m.x[k] >= m.xmin && m.x[k] <= m.xmax && m.y[k] >= m.ymin && m.y[k] <= m.ymax);
        zlo = fmin(zlo, m.z[k]), zhi = fmax(zhi, m.z[k]);
    }
    for (long t = 0; t < 3 * m.n_tri; t++) FZ_CHECK(m.tri[t] >= 0 && m.tri[t] < m.n_nodes);
    double dx = (m.xmax - m.xmin) / (NX - 1), dy = (m.ymax - m.ymin) / (NY - 1);
    check_sample(&m, zlo, zhi, m.xmin, m.ymin, dx > 0 ? dx : 1, dy > 0 ? dy : 1, NX, NY);
    for (long k = 0; k < m.n_nodes && k < 32; k++) check_sample(&m, zlo, zhi, m.x[k], m.y[k], 1, 1, 1, 1);
    mesh_free(&m);
    return 0;
}
