/* test_mesh.c — triangle meshes (mesh.h): reading the two CSV files, every class of bad
 * input refused with its message, and sampling on a grid: a plane reproduced exactly on
 * an irregular triangulation in map coordinates, NODATA outside an L-shaped mesh, points
 * on nodes and shared edges inside, degenerate triangles covering nothing; and, when the
 * shared data folder has it, the Malpasset TELEMAC mesh (13,541 nodes, 26,000 triangles). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "mesh.h"

static char dir[256];

static const char *tmp_file(const char *name, const char *text, size_t len)
{
    static char path[2][512];
    static int which;
    char *p = path[which ^= 1];
    snprintf(p, 512, "%s/%s", dir, name);
    FILE *f = fopen(p, "wb");
    if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
        perror(p);
        exit(2);
    }
    return p;
}

/* mesh_read of two texts; the status, with the message in swgl_last_error(). */
static swgl_status read_texts(const char *nodes, size_t nn, const char *tris, size_t nt, mesh *m)
{
    char np[512], tp[512];
    snprintf(np, sizeof np, "%s", tmp_file("nodes.csv", nodes, nn));
    snprintf(tp, sizeof tp, "%s", tmp_file("triangles.csv", tris, nt));
    return mesh_read(np, tp, m);
}

static const char *good_nodes = "id,x,y,z\n1,0,0,1\n2,1,0,2\n3,0,1,3\n";
static const char *good_tris = "id,n1,n2,n3\n1,1,2,3\n";

/* A bad input: SWGL_ERR_INPUT with want in the message. */
static void bad(const char *what, const char *nodes, size_t nn, const char *tris, size_t nt, const char *want)
{
    mesh m;
    swgl_status st = read_texts(nodes, nn, tris, nt, &m);
    const char *msg = st == SWGL_OK ? "(none)" : swgl_last_error();
    CHECK(st == SWGL_ERR_INPUT && strstr(msg, want) && !strchr(msg, '\n'),
          "%s: SWGL_ERR_INPUT, message has '%s': %s", what, want, msg);
    CHECK(m.n_nodes == 0 && !m.x && !m.tri, "%s: the mesh is left empty", what);
    if (st == SWGL_OK) mesh_free(&m);
}

#define BADN(what, nodes, want) bad(what, nodes, strlen(nodes), good_tris, strlen(good_tris), want)
#define BADT(what, tris, want) bad(what, good_nodes, strlen(good_nodes), tris, strlen(tris), want)

static void test_bad_input(void)
{
    BADN("fewer than 4 fields", "id,x,y,z\n1,0,0,1\n2,1,0\n", "nodes.csv:3: expected 4 fields (id, x, y, z), found 3");
    BADN("empty nodes", "", "no nodes");
    BADN("header only", "id,x,y,z\n# nothing\n\n", "no nodes");
    BADT("empty triangles", "", "no triangles");
    BADT("comments only", "# a\n   \n", "no triangles");
    BADN("NaN", "1,0,0,1\n2,1,nan,2\n3,0,1,3\n", "nodes.csv:2: column 3 (y)");
    BADN("inf", "1,0,0,1\n2,1,0,inf\n3,0,1,3\n", "nodes.csv:2: column 4 (z)");
    BADN("1e999 overflows", "1,0,0,1\n2,1e999,0,2\n3,0,1,3\n", "nodes.csv:2: column 2 (x)");
    BADN("hex", "1,0,0,1\n2,0x10,0,2\n3,0,1,3\n", "nodes.csv:2: column 2 (x)");
    BADN("trailing junk", "1,0,0,1\n2,1m,0,2\n3,0,1,3\n", "'1m'");
    BADN("empty field", "1,0,0,1\n2,,0,2\n3,0,1,3\n", "nodes.csv:2: column 2 (x): '': expected a finite");
    BADN("x out of range", "1,0,0,1\n2,2e9,0,2\n3,0,1,3\n", "nodes.csv:2: column 2 (x): 2e+09: expected a value within");
    BADN("z out of range", "1,0,0,1\n2,1,0,-2e6\n3,0,1,3\n", "column 4 (z)");
    BADN("negative id", "1,0,0,1\n-2,1,0,2\n3,0,1,3\n", "nodes.csv:2: column 1 (id): '-2': expected an integer id");
    BADN("fractional id", "1,0,0,1\n2.5,1,0,2\n3,0,1,3\n", "column 1 (id): '2.5'");
    BADN("id over 2^53", "1,0,0,1\n1e16,1,0,2\n3,0,1,3\n", "column 1 (id)");
    BADN("duplicate id", "1,0,0,1\n2,1,0,2\n\n1,0,1,3\n", "nodes.csv:4: node 1 again (first at line 1)");
    {   /* strlen would stop at the NUL: pass the length */
        static const char t[] = "1,0,0,1\n2,1,0\0,2\n3,0,1,3\n";
        bad("NUL byte (whole text)", t, sizeof t - 1, good_tris, strlen(good_tris), "nodes.csv:2: a NUL byte");
    }
    BADN("a second header", "id,x,y,z\n1,0,0,1\nid,x,y,z\n", "nodes.csv:3: column 1 (id): 'id'");
    BADT("unknown node", "1,1,2,3\n2,1,2,99\n", "triangles.csv:2: column 4: node 99 is not in");
    BADT("3 fields", "1,1,2\n", "triangles.csv:1: expected 4 fields (id, n1, n2, n3), found 3");
    BADT("5 fields", "1,1,2,3,4\n", "expected 4 fields (id, n1, n2, n3), found 5");
    BADT("non-integer node", "1,1,2,3.5\n", "triangles.csv:1: column 4 (n3): '3.5'");
    BADT("negative node", "1,1,-2,3\n", "column 3 (n2): '-2'");
    BADT("huge id", "1,1,2,1e15\n", "node 1000000000000000 is not in");
    {   /* a line of 1 MB: read whole, refused for its field, not cut */
        size_t n = 1 << 20;
        char *t = malloc(n + 16);
        memcpy(t, "1,1,2,", 6);
        memset(t + 6, '3', n);
        memcpy(t + 6 + n, "\n", 2);
        bad("a 1 MB line", good_nodes, strlen(good_nodes), t, strlen(t), "triangles.csv:1: column 4 (n3): '3333");
        free(t);
    }
    {   /* missing file: SWGL_ERR_IO naming it */
        mesh m;
        char np[512];
        snprintf(np, sizeof np, "%s/no-such.csv", dir);
        swgl_status st = mesh_read(np, np, &m);
        CHECK(st == SWGL_ERR_IO && strstr(swgl_last_error(), "no-such.csv: cannot open"), "a missing file: %s",
              swgl_last_error());
    }
}

static void test_formats(void)
{
    mesh m;
    /* CRLF, semicolons, tabs and spaces, a comment, a BOM, extra node columns, ids in any
     * order and not contiguous, a header after comments */
    const char *nodes = "\xef\xbb\xbf# a comment\r\nnode;x;y;z;h0\r\n30; 0; 0; 1; 7\r\n\r\n10\t1\t0\t2\t7\r\n"
                        "20 0 1 3 7\r\n";
    const char *tris = "# elem n1 n2 n3\r\n5, 30, 10, 20\r\n";
    swgl_status st = read_texts(nodes, strlen(nodes), tris, strlen(tris), &m);
    CHECK(st == SWGL_OK, "CRLF, separators, BOM, comments, header: read (%s)", st ? swgl_last_error() : "ok");
    if (st != SWGL_OK) return;
    CHECK(m.n_nodes == 3 && m.n_tri == 1, "3 nodes, 1 triangle: %ld, %ld", m.n_nodes, m.n_tri);
    CHECK(m.tri[0] == 0 && m.tri[1] == 1 && m.tri[2] == 2, "ids 30, 10, 20 map to their file order 0, 1, 2");
    CHECK(m.xmin == 0 && m.xmax == 1 && m.ymin == 0 && m.ymax == 1, "bounding box [0,1] x [0,1]");
    mesh_free(&m);
    /* no header at all */
    const char *n2 = "1 0 0 1\n2 1 0 2\n3 0 1 3\n";
    st = read_texts(n2, strlen(n2), "7 1 2 3", 7, &m);
    CHECK(st == SWGL_OK && m.n_nodes == 3 && m.n_tri == 1, "no header, no final line end: read");
    if (st == SWGL_OK) mesh_free(&m);
}

/* ---- sampling ---- */

/* A perturbed lattice of (n+1)^2 nodes around (X0, Y0) ~ 1e4 m, each cell split along
 * alternating diagonals; z = a + b x + c y.  Returns the text of both files. */
static double X0 = 12345.678, Y0 = 9876.5432, H = 10.0;
static double plane(double x, double y) { return 50.0 + 0.013 * (x - 12000) - 0.021 * (y - 9000); }

static void lattice(int n, int hole, char **nodes, char **tris)
{
    size_t cap = 1 << 20;
    char *a = malloc(cap), *b = malloc(cap);
    size_t la = 0, lb = 0;
    la += (size_t)snprintf(a + la, cap - la, "id,x,y,z\n");
    srand(7);
    for (int j = 0; j <= n; j++)
        for (int i = 0; i <= n; i++) {
            /* interior nodes moved by up to 0.3 H, boundary nodes kept on the square */
            double px = (i > 0 && i < n) ? 0.3 * H * (2.0 * rand() / RAND_MAX - 1) : 0;
            double py = (j > 0 && j < n) ? 0.3 * H * (2.0 * rand() / RAND_MAX - 1) : 0;
            double x = X0 + i * H + px, y = Y0 + j * H + py;
            la += (size_t)snprintf(a + la, cap - la, "%d,%.17g,%.17g,%.17g\n", 1000 + 3 * (j * (n + 1) + i), x, y,
                                   plane(x, y));
        }
    int t = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            /* hole: the L shape leaves out the north-east quarter */
            if (hole && i >= n / 2 && j >= n / 2) continue;
            int p = 1000 + 3 * (j * (n + 1) + i), q = p + 3, r = p + 3 * (n + 1), s = r + 3;
            if ((i + j) % 2) {
                lb += (size_t)snprintf(b + lb, cap - lb, "%d,%d,%d,%d\n%d,%d,%d,%d\n", t, p, q, s, t + 1, p, s, r);
            } else {   /* the other diagonal, and the other orientation */
                lb += (size_t)snprintf(b + lb, cap - lb, "%d,%d,%d,%d\n%d,%d,%d,%d\n", t, p, r, q, t + 1, q, r, s);
            }
            t += 2;
        }
    *nodes = a;
    *tris = b;
}

static void test_plane(void)
{
    char *a, *b;
    int n = 20;
    lattice(n, 0, &a, &b);
    mesh m;
    swgl_status st = read_texts(a, strlen(a), b, strlen(b), &m);
    free(a), free(b);
    CHECK(st == SWGL_OK, "perturbed lattice read (%s)", st ? swgl_last_error() : "ok");
    if (st) return;
    CHECK(m.n_nodes == (n + 1) * (n + 1) && m.n_tri == 2 * n * n, "%ld nodes, %ld triangles", m.n_nodes, m.n_tri);
    /* a grid of 0.37 m spacing over the square and 3 m beyond it on each side */
    double d = 0.37;
    int nx = (int)((n * H + 6) / d) + 1, ny = nx;
    double gx = X0 - 3, gy = Y0 - 3;
    double *v = malloc((size_t)nx * ny * sizeof *v);
    unsigned char *nd = malloc((size_t)nx * ny);
    long inside = mesh_sample(&m, gx, gy, d, d, nx, ny, v, nd);
    long expect = 0, wrong_in = 0, wrong_out = 0;
    double err = 0;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            double x = gx + i * d, y = gy + j * d;
            int in = x >= X0 && x <= X0 + n * H && y >= Y0 && y <= Y0 + n * H;
            size_t k = (size_t)j * nx + i;
            expect += in;
            if (in && nd[k]) wrong_in++;
            if (!in && (!nd[k] || !isnan(v[k]))) wrong_out++;
            if (in && !nd[k]) err = fmax(err, fabs(v[k] - plane(x, y)) / fabs(plane(x, y)));
        }
    CHECK(inside == expect && wrong_in == 0 && wrong_out == 0,
          "plane: %ld points inside the square (expected %ld), %ld inside marked NODATA, %ld outside not NaN", inside,
          expect, wrong_in, wrong_out);
    /* a linear interpolant reproduces a plane; only rounding of coordinates ~1e4 m and
     * values ~50 m remains (1e-13 relative, far inside 1e-9) */
    CHECK_LE(err, 1e-9, "plane reproduced to 1e-9 relative at every point inside (worst %.3g)", err);
    free(v), free(nd);
    mesh_free(&m);
}

static void test_L_shape(void)
{
    char *a, *b;
    int n = 10;
    lattice(n, 1, &a, &b);
    mesh m;
    swgl_status st = read_texts(a, strlen(a), b, strlen(b), &m);
    free(a), free(b);
    CHECK(st == SWGL_OK, "L-shaped mesh read (%s)", st ? swgl_last_error() : "ok");
    if (st) return;
    CHECK(m.n_tri == 2 * (n * n - (n / 2) * (n / 2)), "L shape: %ld triangles", m.n_tri);
    /* points at the centres of 1 m cells over the bounding box; the L's inner edges run
     * through perturbed nodes (up to 0.3 H = 3 m off the lines x = X0 + 50, y = Y0 + 50) */
    int nx = n * (int)H, ny = nx;
    double gx = X0 + 0.5, gy = Y0 + 0.5;
    double *v = malloc((size_t)nx * ny * sizeof *v);
    unsigned char *nd = malloc((size_t)nx * ny);
    long inside = mesh_sample(&m, gx, gy, 1, 1, nx, ny, v, nd);
    /* the cells of the missing quarter whose centre is clear of the perturbed inner lines
     * (more than 0.3 H = 3 m inside the quarter) must be NODATA; those clear of it, inside */
    long out_ok = 0, out_n = 0, in_ok = 0, in_n = 0, nodata_total = 0;
    double lim = X0 + n / 2 * H, limy = Y0 + n / 2 * H;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            double x = gx + i, y = gy + j;
            size_t k = (size_t)j * nx + i;
            nodata_total += nd[k];
            if (x > lim + 3 && y > limy + 3) out_n++, out_ok += nd[k] && isnan(v[k]);
            if (x < lim - 3 || y < limy - 3) in_n++, in_ok += !nd[k] && fabs(v[k] - plane(x, y)) <= 1e-9 * 100;
        }
    CHECK(out_n > 0 && out_ok == out_n, "L shape: all %ld points well inside the missing quarter are NODATA (%ld)",
          out_n, out_ok);
    CHECK(in_n > 0 && in_ok == in_n, "L shape: all %ld points well inside the L hold the plane (%ld)", in_n, in_ok);
    CHECK(inside + nodata_total == (long)nx * ny, "inside (%ld) + NODATA (%ld) = every point", inside, nodata_total);
    /* the NODATA count is the missing quarter's points: about 50 x 50 = 2500, give or take
     * the perturbed inner lines (each of the 2 x 50 points along them +-) */
    CHECK(nodata_total >= 2500 - 300 && nodata_total <= 2500 + 300, "about 2500 points NODATA: %ld", nodata_total);
    free(v), free(nd);
    mesh_free(&m);
}

/* An exact check of the count outside: an unperturbed L of 3 unit squares. */
static void test_L_exact(void)
{
    const char *nodes = "1,0,0,0\n2,1,0,1\n3,2,0,2\n4,0,1,10\n5,1,1,11\n6,2,1,12\n7,0,2,20\n8,1,2,21\n";
    const char *tris = "1,1,2,5\n2,1,5,4\n3,2,3,6\n4,2,6,5\n5,4,5,8\n6,4,8,7\n";
    mesh m;
    swgl_status st = read_texts(nodes, strlen(nodes), tris, strlen(tris), &m);
    CHECK(st == SWGL_OK, "unit L read (%s)", st ? swgl_last_error() : "ok");
    if (st) return;
    /* points every 0.25 m over [0, 2]^2: 9 x 9 = 81; outside: x > 1 and y > 1: 4 x 4 = 16 */
    double v[81];
    unsigned char nd[81];
    long inside = mesh_sample(&m, 0, 0, 0.25, 0.25, 9, 9, v, nd);
    long out = 0, bad_value = 0;
    for (int j = 0; j < 9; j++)
        for (int i = 0; i < 9; i++) {
            double x = 0.25 * i, y = 0.25 * j;
            int k = j * 9 + i, want_out = x > 1 && y > 1;
            out += nd[k];
            if (want_out != nd[k]) bad_value++;
            /* z = x + 10 y is linear on every triangle: exact to rounding (1e-12) */
            if (!want_out && fabs(v[k] - (x + 10 * y)) > 1e-12) bad_value++;
        }
    CHECK(out == 16 && inside == 65 && bad_value == 0,
          "unit L: 16 points NODATA (%ld), 65 inside (%ld), %ld wrong; the re-entrant corner (1,1) and edges inside",
          out, inside, bad_value);
    /* the nodes themselves and midpoints of shared edges take the node values */
    CHECK(!nd[4 * 9 + 4] && v[4 * 9 + 4] == 11, "node (1,1), shared by 6 triangles, is inside with z = 11: %g",
          v[4 * 9 + 4]);
    CHECK(!nd[2 * 9 + 4] && fabs(v[2 * 9 + 4] - 6) <= 1e-12, "(1, 0.5) on the shared edge 2-5: z = 6 (%g)",
          v[2 * 9 + 4]);
    CHECK(!nd[2 * 9 + 2] && fabs(v[2 * 9 + 2] - 5.5) <= 1e-12, "(0.5, 0.5) on the diagonal 1-5: z = 5.5 (%g)",
          v[2 * 9 + 2]);
    for (int k = 0; k < m.n_nodes; k++) {   /* each node by a 1 x 1 grid on it */
        double z;
        unsigned char o;
        long c = mesh_sample(&m, m.x[k], m.y[k], 1, 1, 1, 1, &z, &o);
        CHECK(c == 1 && !o && z == m.z[k], "node %d at (%g, %g): inside, z = %g exactly (%g)", k + 1, m.x[k],
              m.y[k], m.z[k], z);
    }
    mesh_free(&m);
}

static void test_degenerate(void)
{
    /* three collinear nodes, a triangle naming one node twice: both cover nothing */
    const char *nodes = "1,0,0,1\n2,1,1,2\n3,2,2,3\n4,0,2,4\n";
    const char *tris = "1,1,2,3\n2,1,1,4\n3,4,4,4\n";
    mesh m;
    swgl_status st = read_texts(nodes, strlen(nodes), tris, strlen(tris), &m);
    CHECK(st == SWGL_OK && m.n_tri == 3, "degenerate triangles are read (%s)", st ? swgl_last_error() : "ok");
    if (st) return;
    double v[25];
    unsigned char nd[25];
    long inside = mesh_sample(&m, 0, 0, 0.5, 0.5, 5, 5, v, nd);
    int all = 1;
    for (int k = 0; k < 25; k++) all &= nd[k] && isnan(v[k]);
    CHECK(inside == 0 && all, "zero-area triangles cover nothing, not even their nodes: %ld inside", inside);
    /* a grid far away, and a bad spacing: nothing inside, no trouble */
    CHECK(mesh_sample(&m, 1e8, -1e8, 1e-3, 1e-3, 5, 5, v, nd) == 0, "a grid far from the mesh: 0 inside");
    CHECK(mesh_sample(&m, 0, 0, 0, 1, 5, 5, v, nd) == 0 && nd[0] == 1, "dx = 0: 0 inside, all NODATA");
    mesh_free(&m);
}

/* A triangle whose bounding box is far larger than the grid: clipped, still exact. */
static void test_huge_triangle(void)
{
    const char *nodes = "1,-1e8,-1e8,0\n2,1e8,-1e8,0\n3,0,1e8,0\n";
    const char *tris = "1,1,2,3\n";
    mesh m;
    swgl_status st = read_texts(nodes, strlen(nodes), tris, strlen(tris), &m);
    CHECK(st == SWGL_OK, "a 2e8 m triangle is read");
    if (st) return;
    int n = 200;
    double *v = malloc(sizeof *v * n * n);
    long inside = mesh_sample(&m, 5e3, 5e3, 1, 1, n, n, v, NULL);
    CHECK(inside == (long)n * n && v[0] == 0, "a 200 x 200 grid inside a huge triangle: all %d inside (%ld)", n * n,
          inside);
    free(v);
    mesh_free(&m);
}

static void test_malpasset(void)
{
    const char *data = getenv("SWGL_DATA");
    char np[1024], tp[1024];
    snprintf(np, sizeof np, "%s/malpasset/telemac_small_nodes.csv", data ? data : "");
    snprintf(tp, sizeof tp, "%s/malpasset/telemac_small_triangles.csv", data ? data : "");
    if (!data || access(np, R_OK) != 0 || access(tp, R_OK) != 0) {
        printf("skip  the Malpasset mesh: %s not found (SWGL_DATA unset or without malpasset/)\n", np);
        return;
    }
    mesh m;
    swgl_status st = mesh_read(np, tp, &m);
    CHECK(st == SWGL_OK, "Malpasset mesh read (%s)", st ? swgl_last_error() : "ok");
    if (st) return;
    CHECK(m.n_nodes == 13541 && m.n_tri == 26000, "13541 nodes, 26000 triangles: %ld, %ld", m.n_nodes, m.n_tri);
    /* every 10th node, sampled at its own position, gives its z: linear interpolation
     * reproduces the nodes; 1e-6 m allows rounding of the barycentric weights (1e-12) times
     * z differences of ~100 m */
    long bad = 0, n = 0;
    double worst = 0;
    for (long k = 0; k < m.n_nodes; k += 10) {
        double z;
        unsigned char o;
        long c = mesh_sample(&m, m.x[k], m.y[k], 1, 1, 1, 1, &z, &o);
        n++;
        if (c != 1 || o) bad++;
        else worst = fmax(worst, fabs(z - m.z[k]));
    }
    CHECK(bad == 0, "all %ld sampled nodes are inside (%ld not)", n, bad);
    CHECK_LE(worst, 1e-6, "z at the nodes within 1e-6 m (worst %.3g m)", worst);
    /* 15 m cells over the bounding box: the inside count is the mesh's area / 225 m^2
     * within 1% (the boundary's cells, about perimeter / 15 of ~1/2 chance each, are a
     * small fraction of the ~100,000 inside) */
    double area = 0;
    for (long t = 0; t < m.n_tri; t++) {
        const long *v = m.tri + 3 * t;
        area += 0.5 * fabs((m.x[v[1]] - m.x[v[0]]) * (m.y[v[2]] - m.y[v[0]]) -
                           (m.x[v[2]] - m.x[v[0]]) * (m.y[v[1]] - m.y[v[0]]));
    }
    int nx = (int)ceil((m.xmax - m.xmin) / 15), ny = (int)ceil((m.ymax - m.ymin) / 15);
    double *v = malloc((size_t)nx * ny * sizeof *v);
    long inside = mesh_sample(&m, m.xmin + 7.5, m.ymin + 7.5, 15, 15, nx, ny, v, NULL);
    double expect = area / 225;
    CHECK_NEAR(inside, expect, 0.01 * expect, "Malpasset at 15 m (%d x %d): cells inside = area / 225 m^2 within 1%%",
               nx, ny);
    free(v);
    mesh_free(&m);
}

/* mesh_read_column: the value from another column of the nodes file (a depth, a surface) */
static void test_column(void)
{
    char np[512], tp[512];
    snprintf(np, sizeof np, "%s", tmp_file("nodes.csv", "id,x,y,z,h,eta\n1,0,0,1,5,6\n2,1,0,2,0,2\n3,0,1,3,1,4\n", 51));
    snprintf(tp, sizeof tp, "%s", tmp_file("triangles.csv", good_tris, strlen(good_tris)));
    mesh m;
    swgl_status st = mesh_read_column(np, tp, 5, &m);
    CHECK(st == SWGL_OK && m.n_nodes == 3 && m.z[0] == 5 && m.z[1] == 0 && m.z[2] == 1,
          "column 5 is read in place of z (%s)", st ? swgl_last_error() : "read");
    if (st == SWGL_OK) {
        double v[1];
        mesh_sample(&m, 0.25, 0.25, 1, 1, 1, 1, v, NULL);
        /* the plane through (0,0,5), (1,0,0), (0,1,1): 5 - 5x - 4y */
        CHECK_NEAR(v[0], 5 - 5 * 0.25 - 4 * 0.25, 1e-12, "column 5 sampled linearly at (0.25, 0.25)");
        mesh_free(&m);
    }
    st = mesh_read_column(np, tp, 4, &m);
    CHECK(st == SWGL_OK && m.z[2] == 3, "column 4 is z, as mesh_read");
    if (st == SWGL_OK) mesh_free(&m);
    st = mesh_read_column(np, tp, 7, &m);
    CHECK(st == SWGL_ERR_INPUT && strstr(swgl_last_error(), "nodes.csv:2: expected 7 fields"),
          "a column past the line's end: %s", swgl_last_error());
    st = mesh_read_column(np, tp, 3, &m);
    CHECK(st == SWGL_ERR_ARG && strstr(swgl_last_error(), "expected 4 (z) to 8"), "column 3 is refused: %s",
          swgl_last_error());
    snprintf(np, sizeof np, "%s", tmp_file("nodes.csv", "1,0,0,1,5\n2,1,0,2,x\n3,0,1,3,1\n", 30));
    st = mesh_read_column(np, tp, 5, &m);
    CHECK(st == SWGL_ERR_INPUT && strstr(swgl_last_error(), "nodes.csv:2: column 5 (value): 'x'"),
          "a bad value names its line and column: %s", swgl_last_error());
}

int main(void)
{
    snprintf(dir, sizeof dir, "%s/swgl-test-mesh-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 2;
    }
    test_bad_input();
    test_formats();
    test_plane();
    test_L_shape();
    test_L_exact();
    test_degenerate();
    test_huge_triangle();
    test_malpasset();
    test_column();
    char p[600];
    snprintf(p, sizeof p, "%s/nodes.csv", dir);
    unlink(p);
    snprintf(p, sizeof p, "%s/triangles.csv", dir);
    unlink(p);
    rmdir(dir);
    return check_done();
}
