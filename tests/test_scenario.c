/* test_scenario.c — loading scenarios that are right: every kind of value (number,
 * expression, .asc grid), the grid geometry and refinement level, the mask, boundary
 * segments, overrides, a line longer than libinih's buffer, the sediment keys, and the
 * built-in cases. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "keys.h"
#include "kp_keys.h"
#include "scenario.h"
#include "scenario_scheme.h"
#include "sediment_keys.h"

/* the scheme's own keys as its scenario_scheme read them */
#define SED(sc) ((const sediment_params *)(sc)->params)
#define KPP(sc) ((const kp_params *)(sc)->params)

#define EXACT 0.0            /* values copied or computed exactly */
#define ROUND 1e-12          /* a few double operations */
#define PI 3.14159265358979323846

static char data_dir[1024];

static const char *data(const char *name)
{
    static char path[1200];
    snprintf(path, sizeof path, "%s/%s", data_dir, name);
    return path;
}

static size_t at(const scenario *sc, int i, int j)
{
    return (size_t)j * (size_t)sc->nx + (size_t)i;
}

static void test_basic(void)
{
    scenario sc;
    swgl_status rc = scenario_load(&sc, data("basic.ini"), NULL, 0);
    if (!CHECK(rc == 0, "basic.ini loads: %s", swgl_last_error())) return;
    CHECK(strcmp(sc.scheme->name, "roe") == 0 && sc.nx == 8 && sc.ny == 4, "scheme and size");
    CHECK_NEAR(sc.dx, 0.5, EXACT, "dx");
    CHECK_NEAR(sc.dy, 0.25, EXACT, "dy");
    CHECK_NEAR(sc.xll + sc.yll, 0, EXACT, "corner at 0 without a grid");
    CHECK_NEAR(sc.bed[at(&sc, 3, 0)], -1, EXACT, "bed at x = 1.75 (cell centre)");
    CHECK_NEAR(sc.bed[at(&sc, 4, 0)], -0.5, EXACT, "bed at x = 2.25");
    CHECK_NEAR(sc.h[at(&sc, 0, 0)], 1.25, ROUND, "h = eta - bed");
    CHECK_NEAR(sc.h[at(&sc, 5, 3)], 0.75, ROUND, "h = eta - bed beyond the step");
    CHECK_NEAR(sc.qx[at(&sc, 2, 1)], 0.125, ROUND, "qx = 0.1 x at the centre x = 1.25");
    CHECK_NEAR(sc.qy[at(&sc, 2, 1)], -0.375, ROUND, "qy = -y at the centre y = 0.375");
    CHECK(sc.active[at(&sc, 7, 2)] == 0 && sc.active[at(&sc, 7, 3)] == 0, "masked cells");
    CHECK(sc.active[at(&sc, 7, 1)] == 1 && sc.active[at(&sc, 6, 3)] == 1, "unmasked cells");
    CHECK(sc.h[at(&sc, 7, 3)] == 0 && sc.qx[at(&sc, 7, 3)] == 0, "inactive cells are empty");
    CHECK(sc.bc[SIDE_WEST][0] == BC_FREE && sc.bc[SIDE_WEST][3] == BC_FREE, "west free");
    CHECK(sc.bc[SIDE_EAST][0] == BC_WALL && sc.bc[SIDE_EAST][1] == BC_WALL &&
          sc.bc[SIDE_EAST][2] == BC_FREE && sc.bc[SIDE_EAST][3] == BC_FREE, "east wall, free 0.5:1.0");
    int south_ok = 1;
    for (int i = 0; i < 8; i++) {
        int want = (i >= 2 && i <= 5) ? BC_WALL : BC_FREE;   /* centres 1.25 .. 2.75 */
        south_ok &= sc.bc[SIDE_SOUTH][i] == want;
    }
    CHECK(south_ok, "south = free, wall 1.0:2.9: later items override earlier ones");
    CHECK(sc.bc[SIDE_NORTH][0] == BC_WALL && sc.bc[SIDE_NORTH][7] == BC_WALL, "north default wall");
    CHECK_NEAR(sc.t_end, 2, EXACT, "t_end");
    CHECK_NEAR(sc.cfl, 0.5, EXACT, "cfl");
    CHECK_NEAR(sc.g, 10, EXACT, "g");
    CHECK_NEAR(sc.h_dry, 1e-4, EXACT, "h_dry");
    CHECK(sc.n_output_times == 4 && sc.output_times[1] == 1.0 && sc.output_times[3] == 2.0,
          "output_times with commas and spaces");
    CHECK(strcmp(sc.source, data("basic.ini")) == 0 && strcmp(sc.dir, data_dir) == 0, "source and dir");
    scenario_free(&sc);
    scenario_free(&sc);   /* twice: the first zeroes it */
}

static void test_defaults_and_overrides(void)
{
    scenario sc;
    const char *ov[] = {"run.cfl=0.25", "initial.eta = 1.0", "domain.level=2", "boundary.north=free"};
    swgl_status rc = scenario_load(&sc, data("basic.ini"), ov, 4);
    if (!CHECK(rc == 0, "basic.ini with overrides: %s", swgl_last_error())) return;
    CHECK_NEAR(sc.cfl, 0.25, EXACT, "run.cfl overridden");
    CHECK(sc.level == 2 && sc.nx == 32 && sc.ny == 16, "level 2: 4 times the cells each way");
    CHECK_NEAR(sc.dx, 0.125, EXACT, "level 2: dx / 4");
    CHECK_NEAR(sc.dy, 0.0625, EXACT, "level 2: dy / 4");
    CHECK_NEAR(sc.h[at(&sc, 0, 0)], 2.0, ROUND, "eta overridden: h = 1 - (-1)");
    CHECK_NEAR(sc.qx[at(&sc, 1, 0)], 0.1 * 1.5 * 0.125, ROUND, "qx at the refined centre x = 0.1875");
    CHECK(sc.bc[SIDE_NORTH][0] == BC_FREE, "boundary overridden");
    int east_free = 0;
    for (int j = 0; j < sc.ny; j++) east_free += sc.bc[SIDE_EAST][j] == BC_FREE;
    CHECK(east_free == 8, "east free 0.5:1.0 holds 8 refined cells (got %d)", east_free);
    scenario_free(&sc);
}

static void test_grid(void)
{
    scenario sc;
    swgl_status rc = scenario_load(&sc, data("grid.ini"), NULL, 0);
    if (!CHECK(rc == 0, "grid.ini loads: %s", swgl_last_error())) return;
    CHECK(sc.nx == 4 && sc.ny == 3, "the grid gives nx, ny");
    CHECK_NEAR(sc.dx, 2, EXACT, "the grid gives dx");
    CHECK_NEAR(sc.xll, 100, EXACT, "xllcorner");
    CHECK_NEAR(sc.yll, 200, EXACT, "yllcorner");
    CHECK_NEAR(sc.bed[at(&sc, 0, 0)], 9, EXACT, "row 0 is the file's last (southern) row");
    CHECK_NEAR(sc.bed[at(&sc, 3, 2)], 4, EXACT, "the file's first row is the northern one");
    CHECK(sc.active[at(&sc, 2, 1)] == 0, "a NODATA bed cell is inactive");
    CHECK(sc.active[at(&sc, 1, 1)] == 1, "other cells are active");
    CHECK_NEAR(sc.bed[at(&sc, 2, 1)], 0, EXACT, "a NODATA bed is 0");
    CHECK_NEAR(sc.h[at(&sc, 0, 0)], 0, EXACT, "eta below the bed: dry, not an error");
    CHECK_NEAR(sc.h[at(&sc, 0, 2)], 6, EXACT, "h = eta - bed");
    scenario_free(&sc);
}

static void test_long_line(void)
{
    scenario sc;
    swgl_status rc = scenario_load(&sc, data("long-line.ini"), NULL, 0);
    if (!CHECK(rc == 0, "a 1900-character line: %s", swgl_last_error())) return;
    CHECK(sc.n_output_times == 300, "300 output times (got %d)", sc.n_output_times);
    CHECK_NEAR(sc.output_times[299], 3.0, EXACT, "the last one, past character 1800");
    CHECK_NEAR(sc.cfl, 0.5, EXACT, "the key after the long line");
    scenario_free(&sc);

    /* the line counting goes on right after a long line */
    const char *ov[] = {"run.cfl=2"};
    rc = scenario_load(&sc, data("long-line.ini"), ov, 1);
    CHECK(rc != SWGL_OK && strstr(swgl_last_error(), "--set run.cfl=2: expected a number in (0, 1]"),
          "%s", swgl_last_error());
}

/* bed = x+x+...+x with 10^6 terms (a fuzzer's; it overflowed the stack when evaluated): a
 * 2 MB line, kept aside from libinih, compiled, evaluated at each cell. */
static void test_long_expression(void)
{
    enum { TERMS = 1000000 };
    char dir[256], path[300];
    snprintf(dir, sizeof dir, "%s/swgl-chain-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!CHECK(mkdtemp(dir) != NULL, "a temporary folder %s", dir)) return;
    snprintf(path, sizeof path, "%s/chain.ini", dir);
    FILE *f = fopen(path, "w");
    if (!CHECK(f != NULL, "cannot write %s", path)) return;
    fputs("[domain]\nnx = 2\nny = 1\ndx = 1\ndy = 1\nbed = x", f);
    for (int i = 1; i < TERMS; i++) fputs("+x", f);
    fputs("\n[initial]\ndepth = 1\n[run]\nt_end = 1\n", f);
    fclose(f);
    scenario sc;
    swgl_status rc = scenario_load(&sc, path, NULL, 0);
    if (CHECK(rc == SWGL_OK, "a 10^6-term bed loads: %s", rc == SWGL_OK ? "yes" : swgl_last_error())) {
        CHECK_NEAR(sc.bed[0], 0.5 * TERMS, EXACT, "10^6 x at the centre x = 0.5");
        CHECK_NEAR(sc.bed[1], 1.5 * TERMS, EXACT, "10^6 x at the centre x = 1.5");
        scenario_free(&sc);
    }
    unlink(path);
    rmdir(dir);
}

static void test_sediment(void)
{
    scenario sc;
    swgl_status rc = scenario_load(&sc, data("sediment.ini"), NULL, 0);
    if (!CHECK(rc == 0, "sediment.ini loads: %s", swgl_last_error())) return;
    CHECK(strcmp(sc.scheme->name, "sediment") == 0 && sc.nx == 5 && sc.ny == 3, "sediment scheme and size");
    CHECK(!sc.bed && !sc.h && SED(&sc)->height && SED(&sc)->sand, "sediment fields only");
    CHECK_NEAR(SED(&sc)->height[at(&sc, 2, 0)], -0.2, ROUND, "height at the grid point x = 20");
    CHECK_NEAR(SED(&sc)->sand[at(&sc, 0, 0)], 1, EXACT, "sand at y = 0");
    CHECK_NEAR(SED(&sc)->sand[at(&sc, 0, 1)], 0.25, EXACT, "sand at the grid point y = 20");
    CHECK_NEAR(SED(&sc)->alpha[at(&sc, 4, 2)], 2, EXACT, "alpha");
    CHECK_NEAR(SED(&sc)->beta[at(&sc, 4, 2)], 0.2, ROUND, "beta at x = 40");
    CHECK_NEAR(SED(&sc)->cs, 0.8, EXACT, "cs");
    CHECK_NEAR(SED(&sc)->cm, 0.7, EXACT, "cm");
    CHECK_NEAR(SED(&sc)->layer, 3, EXACT, "layer");
    CHECK_NEAR(SED(&sc)->dt, 0.05, EXACT, "dt");
    CHECK(SED(&sc)->steps == 100 && SED(&sc)->form == 1, "steps and form");
    CHECK(SED(&sc)->inflow_side == SIDE_WEST, "inflow side");
    CHECK_NEAR(SED(&sc)->inflow_from, 10, EXACT, "inflow_from");
    CHECK_NEAR(SED(&sc)->inflow_to, 30, EXACT, "inflow_to");
    CHECK_NEAR(SED(&sc)->inflow_sand, 0.5, EXACT, "inflow_sand");
    CHECK_NEAR(SED(&sc)->inflow_mud, 0.25, EXACT, "inflow_mud");
    CHECK(sc.bc[SIDE_EAST][1] == BC_FREE && sc.bc[SIDE_WEST][1] == BC_WALL, "boundaries");
    scenario_free(&sc);

    const char *ov[] = {"sediment.inflow_side=none", "sediment.form=paper", "sediment.dt=1e-3"};
    rc = scenario_load(&sc, data("sediment.ini"), ov, 3);
    CHECK(rc == 0 && SED(&sc)->inflow_side == -1 && SED(&sc)->form == 0 && SED(&sc)->dt == 1e-3, "overrides: %s",
          swgl_last_error());
    scenario_free(&sc);
}

/* sediment.form: conservative unless the scenario asks for paper, the printed (4), which
 * lets s leave [0, 1] (docs/sediment.md).  The scenarios are written to a temporary file. */
#define SED_NO_FORM "[domain]\nnx = 4\nny = 4\ndx = 1\ndy = 1\n[initial]\nheight = 0\n" \
                    "[run]\nscheme = sediment\nt_end = 1\n"

static void test_sediment_form_default(void)
{
    char dir[256], path[300];
    snprintf(dir, sizeof dir, "%s/swgl-form-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!CHECK(mkdtemp(dir) != NULL, "a temporary folder %s", dir)) return;
    snprintf(path, sizeof path, "%s/form.ini", dir);
    static const struct { const char *text; int form; const char *what; } cases[] = {
        {SED_NO_FORM, 1, "no [sediment] section: conservative"},
        {SED_NO_FORM "[sediment]\nlayer = 2\n", 1, "[sediment] without form: conservative"},
        {SED_NO_FORM "[sediment]\nform =\n", 1, "form = (empty, not given): conservative"},
        {SED_NO_FORM "[sediment]\nform = paper\n", 0, "form = paper"},
        {SED_NO_FORM "[sediment]\nform = conservative\n", 1, "form = conservative"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        FILE *f = fopen(path, "w");
        if (!f) {
            CHECK(f != NULL, "cannot write %s", path);
            break;
        }
        fputs(cases[i].text, f);
        fclose(f);
        scenario sc;
        swgl_status rc = scenario_load(&sc, path, NULL, 0);
        CHECK(rc == SWGL_OK && SED(&sc)->form == cases[i].form, "%s (sed_form %d): %s", cases[i].what,
              rc == SWGL_OK ? SED(&sc)->form : -1, rc == SWGL_OK ? "loaded" : swgl_last_error());
        scenario_free(&sc);
    }
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(SED_NO_FORM, f);
        fclose(f);
        scenario sc;
        const char *ov[] = {"sediment.form=paper"};
        swgl_status rc = scenario_load(&sc, path, ov, 1);
        CHECK(rc == SWGL_OK && SED(&sc)->form == 0, "no form in the file, --set sediment.form=paper: %s",
              rc == SWGL_OK ? "loaded" : swgl_last_error());
        scenario_free(&sc);
    }
    unlink(path);
    rmdir(dir);
}

/* scheme = kp: the corner bed of an expression (sampled at the corners) and of an .asc
 * grid (the mean of the active cells around each corner), the cell bed the mean of the
 * four corners (the bilinear bed's average), h = eta - that bed, the kp keys and their
 * defaults (cfl 0.25, theta 1.3, rk2, early exit auto). */
static void test_kp(void)
{
    scenario sc;
    const char *ov[] = {"run.scheme=kp", "run.cfl=0.2", "domain.bed=0.1 * x * x + 0.2 * y", "initial.eta=1"};
    swgl_status rc = scenario_load(&sc, data("basic.ini"), ov, 4);
    CHECK(rc == 0 && strcmp(sc.scheme->name, "kp") == 0, "scheme = kp is accepted: %s", swgl_last_error());
    CHECK(sc.scheme == scenario_scheme_named("kp"), "the registered kp");
    if (rc == 0) {
        int nx = sc.nx, ny = sc.ny;
        double e1 = 0, e2 = 0, e3 = 0;
        for (int j = 0; j <= ny; j++)
            for (int i = 0; i <= nx; i++) {
                double x = i * sc.dx, y = j * sc.dy;
                e1 = fmax(e1, fabs(sc.bed_corner[(size_t)j * (nx + 1) + i] - (0.1 * x * x + 0.2 * y)));
            }
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                /* the average of 0.1 x^2 + 0.2 y over the corners of the cell */
                double x0 = i * sc.dx, x1 = x0 + sc.dx, y0 = j * sc.dy, y1 = y0 + sc.dy;
                double b = 0.05 * (x0 * x0 + x1 * x1) + 0.1 * (y0 + y1);
                size_t k = (size_t)j * nx + i;
                e2 = fmax(e2, fabs(sc.bed[k] - b));
                if (sc.active[k]) e3 = fmax(e3, fabs(sc.h[k] - fmax(1.0 - b, 0.0)));
            }
        CHECK_LE(e1, 1e-12, "kp: the bed expression is sampled at the corners x = i dx, y = j dy");
        CHECK_LE(e2, 1e-12, "kp: a cell's bed is the mean of its four corners");
        CHECK_LE(e3, 1e-12, "kp: h = eta - (the mean of the corners), so that a lake at rest is one");
        CHECK(sc.cfl == 0.2 && KPP(&sc)->theta == 1.3 && KPP(&sc)->rk2 == 1 && KPP(&sc)->early_exit == 0 && KPP(&sc)->kappa < 0 &&
              !sc.manning, "kp defaults: theta 1.3, rk2, early exit auto, kappa from the grid, no friction");
        scenario_free(&sc);
    }
    const char *ov2[] = {"run.scheme=kp", "run.cfl="};   /* "key =": not given */
    rc = scenario_load(&sc, data("basic.ini"), ov2, 2);
    CHECK(rc == 0 && sc.cfl == 0.25, "kp: cfl defaults to 0.25 (a quarter cell per step): %g", sc.cfl);
    CHECK(rc == 0 && sc.step_hold == 1 && sc.step_margin == 0.9,
          "[run] step_hold defaults to 1 (a bound a step), step_margin to 0.9: %d, %g", sc.step_hold, sc.step_margin);
    if (rc == 0) scenario_free(&sc);
    const char *ov3[] = {"run.scheme=kp", "run.cfl=0.25", "kp.theta=2", "kp.kappa=0.5", "kp.integrator=euler",
                         "kp.early_exit=off", "friction.manning=x < 1 ? 0.03 : 0"};
    rc = scenario_load(&sc, data("basic.ini"), ov3, 7);
    CHECK(rc == 0, "kp keys load: %s", swgl_last_error());
    if (rc == 0) {
        CHECK(KPP(&sc)->theta == 2 && KPP(&sc)->kappa == 0.5 && KPP(&sc)->rk2 == 0 && KPP(&sc)->early_exit == 2 && sc.manning &&
              sc.manning[0] == 0.03 && KPP(&sc)->printed == 0,
              "kp keys: theta, kappa, integrator, early_exit, friction.manning as given; desingularize depth by default");
        scenario_free(&sc);
    }
    const char *ov3b[] = {"run.scheme=kp", "run.cfl=0.25", "kp.desingularize=printed"};
    rc = scenario_load(&sc, data("basic.ini"), ov3b, 3);
    CHECK(rc == 0 && KPP(&sc)->printed == 1, "kp.desingularize=printed: %s", rc ? swgl_last_error() : "");
    if (rc == 0) scenario_free(&sc);
    /* an .asc bed at cell centres: each corner the mean of the active cells that touch it */
    const char *ov4[] = {"run.scheme=kp"};
    rc = scenario_load(&sc, data("grid.ini"), ov4, 1);
    CHECK(rc == 0, "kp with an .asc bed: %s", swgl_last_error());
    if (rc == 0) {
        /* grid-bed.asc, south row first: 9 10 11 12 / 5 6 NODATA 8 / 1 2 3 4 (north) */
        const double *c = sc.bed_corner;
        int w = sc.nx + 1;
        CHECK_NEAR(c[0], 9.0, 1e-12, "kp .asc: the south-west corner touches one cell");
        CHECK_NEAR(c[1], 9.5, 1e-12, "kp .asc: a corner on the south side touches two cells");
        CHECK_NEAR(c[w + 1], (9 + 10 + 5 + 6) / 4.0, 1e-12, "kp .asc: an inner corner: the mean of four");
        CHECK_NEAR(c[w + 3], (11 + 12 + 8) / 3.0, 1e-12, "kp .asc: a corner by the NODATA cell: the mean of the 3 active");
        scenario_free(&sc);
    }
}

/* Volume of water sum(h) dx dy over active cells. */
static double volume(const scenario *sc)
{
    double v = 0;
    for (size_t k = 0; k < (size_t)sc->nx * (size_t)sc->ny; k++)
        if (sc->active[k]) v += sc->h[k];
    return v * sc->dx * sc->dy;
}

/* bed = mesh(NODES, TRIANGLES) (tests/data/mesh.ini): the grid covers the mesh's bounding
 * box from its south-west corner; cells outside the mesh are inactive; the bed is linear
 * on the triangles, so on this plane every value (kp: corners, and the cell averages
 * through them) is the plane's to rounding; X, Y are map coordinates. */
static double plane(double X, double Y)
{
    return 3 + 0.1 * (X - 1000) - 0.2 * (Y - 2000);
}

static void test_mesh_bed(void)
{
    scenario sc;
    swgl_status rc = scenario_load(&sc, data("mesh.ini"), NULL, 0);
    if (!CHECK(rc == 0, "mesh.ini loads: %s", swgl_last_error())) return;
    CHECK(sc.nx == 10 && sc.ny == 8, "the grid covers the bounding box: %d x %d", sc.nx, sc.ny);
    CHECK_NEAR(sc.xll, 1000, EXACT, "xll: the mesh's west edge");
    CHECK_NEAR(sc.yll, 2000, EXACT, "yll: the mesh's south edge");
    int inactive = 0;
    double worst = 0, worst_corner = 0;
    for (int j = 0; j < sc.ny; j++)
        for (int i = 0; i < sc.nx; i++) {
            size_t k = at(&sc, i, j);
            double X = sc.xll + (i + 0.5) * sc.dx, Y = sc.yll + (j + 0.5) * sc.dy;
            int outside = X > 1005 && Y > 2004;
            if (!sc.active[k]) {
                inactive++;
                CHECK(outside, "cell (%d, %d) inactive only outside the mesh", i, j);
                continue;
            }
            worst = fmax(worst, fabs(sc.bed[k] - plane(X, Y)));
            for (int c = 0; c < 4; c++) {
                int ci = i + (c & 1), cj = j + (c >> 1);
                double v = sc.bed_corner[(size_t)cj * (size_t)(sc.nx + 1) + (size_t)ci];
                worst_corner = fmax(worst_corner, fabs(v - plane(sc.xll + ci * sc.dx, sc.yll + cj * sc.dy)));
            }
        }
    CHECK(inactive == 20, "the 5 x 4 cells of the missing quarter are inactive (%d)", inactive);
    CHECK_LE(worst_corner, ROUND * 10, "kp: the bed at the active cells' corners is the plane's");
    CHECK_LE(worst, ROUND * 10, "kp: cell averages through the corners are the plane at the centre");
    CHECK_NEAR(sc.h[at(&sc, 3, 0)], 4 - plane(1003.5, 2000.5), ROUND * 10, "eta = X > 1003 ? 4 : -10 in map coordinates: wet");
    CHECK_NEAR(sc.h[at(&sc, 2, 0)], 0, EXACT, "and dry west of X = 1003");
    CHECK(sc.n_gauges == 1 && sc.gauges[0].i == 3 && sc.gauges[0].j == 0, "a gauge in map coordinates");
    scenario_free(&sc);

    /* [gauges] KEY = FILE.csv: a gauge per point, named KEY + id, or id when it begins with KEY */
    const char *ovp[] = {"gauges.P=points.csv"};
    rc = scenario_load(&sc, data("mesh.ini"), ovp, 1);
    if (CHECK(rc == 0, "mesh.ini with gauges from points.csv loads: %s", swgl_last_error())) {
        CHECK(sc.n_gauges == 4, "the file's three points and the gauge g (%d)", sc.n_gauges);
        if (sc.n_gauges == 4) {
            CHECK(strcmp(sc.gauges[1].name, "P1") == 0 && strcmp(sc.gauges[2].name, "P7") == 0 &&
                      strcmp(sc.gauges[3].name, "P3") == 0,
                  "names P1 (the id begins with P), P7 (P + 7), P3: %s %s %s", sc.gauges[1].name, sc.gauges[2].name,
                  sc.gauges[3].name);
            CHECK(sc.gauges[2].i == 3 && sc.gauges[2].j == 1 && sc.gauges[1].i == 0 && sc.gauges[1].j == 0,
                  "their cells from the map coordinates (7 at (1003.5, 2001.5): cell (3, 1))");
            CHECK_NEAR(sc.gauges[2].x, 1003.5, EXACT, "x read with its spaces");
        }
        scenario_free(&sc);
    }

    /* the corner moved west and the grid made coarser by keys */
    const char *ov[] = {"domain.xll=998", "domain.dx=2", "domain.dy=2"};
    rc = scenario_load(&sc, data("mesh.ini"), ov, 3);
    if (CHECK(rc == 0, "mesh.ini with xll = 998, dx = dy = 2 loads: %s", swgl_last_error())) {
        CHECK(sc.nx == 6 && sc.ny == 4, "12 m by 8 m at 2 m: 6 x 4 (%d x %d)", sc.nx, sc.ny);
        CHECK(!sc.active[at(&sc, 0, 0)], "the column west of the mesh is inactive");
        CHECK_NEAR(sc.bed[at(&sc, 1, 0)], plane(1001, 2001), ROUND * 10, "the plane at the corner's centre");
        scenario_free(&sc);
    }
    /* roe samples the cell centres directly */
    const char *ov2[] = {"run.scheme=roe", "run.cfl=0.9"};
    rc = scenario_load(&sc, data("mesh.ini"), ov2, 2);
    if (CHECK(rc == 0, "mesh.ini with roe loads: %s", swgl_last_error())) {
        CHECK_NEAR(sc.bed[at(&sc, 7, 1)], plane(1007.5, 2001.5), ROUND * 10, "roe: the bed at the centre");
        CHECK(sc.bed_corner == NULL, "roe: no corner bed");
        scenario_free(&sc);
    }
}

/* [domain] xll, yll on a grid from keys: X, Y and the gauges in map coordinates. */
static void test_corner_keys(void)
{
    scenario sc;
    const char *ov[] = {"domain.xll=500", "domain.yll=-20", "initial.eta=X > 501 && Y < -19.5 ? 2 : 1"};
    swgl_status rc = scenario_load(&sc, data("basic.ini"), ov, 3);
    if (!CHECK(rc == 0, "basic.ini with xll, yll loads: %s", swgl_last_error())) return;
    CHECK_NEAR(sc.xll, 500, EXACT, "xll from the key");
    CHECK_NEAR(sc.yll, -20, EXACT, "yll from the key");
    /* cell centres X = 500.25, 500.75, 501.25, ...; Y = -19.875 in the southern row;
     * the bed is -1 there (x < 2) */
    CHECK_NEAR(sc.h[at(&sc, 2, 0)], 3, ROUND, "eta = 2 east of X = 501 (cell 2, X = 501.25): h = 3");
    CHECK_NEAR(sc.h[at(&sc, 1, 0)], 2, ROUND, "eta = 1 west of it (cell 1, X = 500.75): h = 2");
    CHECK_NEAR(sc.h[at(&sc, 2, 1)], 3, ROUND, "row 1 (Y = -19.625) is south of Y = -19.5: h = 3");
    CHECK_NEAR(sc.h[at(&sc, 2, 2)], 2, ROUND, "row 2 (Y = -19.375) is north of it: h = 2");
    scenario_free(&sc);
}

static void test_cases(void)
{
    const char *const *names = scenario_case_names();
    const char *want[] = {"dambreak", "lake-at-rest", "lastra-test1", "lastra-test2"};
    for (int w = 0; w < 4; w++) {
        int found = 0;
        for (int i = 0; names[i]; i++) found |= strcmp(names[i], want[w]) == 0;
        CHECK(found, "built-in case %s is listed", want[w]);
        const char *summary = scenario_case_summary(want[w]);
        CHECK(summary && strlen(summary) > 10 && summary[0] != ';', "summary of %s: %s", want[w],
              summary ? summary : "(null)");
    }
    CHECK(scenario_case_text("no-such-case") == NULL, "unknown case: no text");

    scenario sc;
    char mesh_path[1200];
    snprintf(mesh_path, sizeof mesh_path, "%s/malpasset/telemac_small_nodes.csv", sc_data_dir());
    int have_malpasset = access(mesh_path, R_OK) == 0;
    if (!have_malpasset) printf("# %s is not there: the case malpasset is not loaded\n", mesh_path);
    for (int i = 0; names[i]; i++) {
        if (!have_malpasset && strcmp(names[i], "malpasset") == 0) continue;
        swgl_status rc = scenario_load_case(&sc, names[i], NULL, 0);
        CHECK(rc == 0, "case %s loads: %s", names[i], swgl_last_error());
        scenario_free(&sc);
    }

    if (scenario_load_case(&sc, "lastra-test1", NULL, 0) == 0) {
        CHECK(sc.nx == 100 && sc.ny == 10 && sc.dx == 0.1 && sc.cfl == 0.9 && sc.t_end == 5, "test 1 grid");
        CHECK_NEAR(sc.h[at(&sc, 0, 0)], 1 - cos(2 * PI * 0.05) / 2 + 2, ROUND, "test 1: h = H + 2 left");
        CHECK_NEAR(sc.h[at(&sc, 60, 5)], 1 - cos(2 * PI * 6.05) / 2, ROUND, "test 1: h = H right");
        CHECK(strcmp(sc.source, "case lastra-test1") == 0, "source names the case");
        scenario_free(&sc);
    }
    const char *ov[] = {"domain.level=1"};
    if (scenario_load_case(&sc, "lastra-test2", ov, 1) == 0) {
        CHECK(sc.nx == 250 && sc.ny == 50, "test 2 at level 1: Q_1 = 12500 cells");
        CHECK_NEAR(sc.h[at(&sc, 0, 0)], 10, EXACT, "test 2: h = H = 10");
        CHECK_NEAR(sc.h[at(&sc, 100, 0)], 9, EXACT, "test 2: h = H = 9 on the step (x = 10.05)");
        CHECK_NEAR(sc.qx[at(&sc, 166, 0)], -350, EXACT, "test 2: qx left of 50/3 (x = 16.65)");
        CHECK_NEAR(sc.qx[at(&sc, 167, 0)], 350, EXACT, "test 2: qx right of 50/3 (x = 16.75)");
        CHECK(sc.bc[SIDE_WEST][0] == BC_FREE && sc.bc[SIDE_SOUTH][0] == BC_WALL, "test 2 boundaries");
        scenario_free(&sc);
    }
    if (scenario_load_case(&sc, "dambreak", NULL, 0) == 0) {
        int dam = 0, dry = 0;
        for (size_t k = 0; k < (size_t)sc.nx * (size_t)sc.ny; k++) {
            dam += !sc.active[k];
            dry += sc.active[k] && sc.h[k] == 0;
        }
        CHECK(sc.nx == 200 && sc.ny == 200, "dam break: 200 x 200");
        CHECK(dam == 2 * 160, "dam: 2 cells thick, 160 m long besides the breach (got %d)", dam);
        CHECK(dry > 20, "dam break: a dry island (%d cells)", dry);
        /* upstream 99 columns + the 40 breach cells at 10 m, downstream the same at 1 m,
         * less what the island displaces (at most its 1 m top slice, under 1000 m^3) */
        double full = (99 * 200 + 40) * 10.0 + (99 * 200 + 40) * 1.0;
        CHECK_LE(volume(&sc), full, "dam break: water volume");
        CHECK_LE(full - 1000, volume(&sc), "dam break: the island displaces < 1000 m^3");
        scenario_free(&sc);
    }
    if (scenario_load_case(&sc, "lake-at-rest", NULL, 0) == 0) {
        int dry = 0, flat = 1;
        for (size_t k = 0; k < (size_t)sc.nx * (size_t)sc.ny; k++) {
            dry += sc.h[k] == 0;
            if (sc.h[k] > 0) flat &= fabs(sc.h[k] + sc.bed[k]) < ROUND;
        }
        CHECK(dry > 10 && dry < 200, "lake at rest: an island of dry cells (%d)", dry);
        CHECK(flat, "lake at rest: eta = 0 where wet");
        scenario_free(&sc);
    }
}

/* argv[1]: the folder of the test data (tests/data; CMake passes its path), else the
 * relative tests/data */
int main(int argc, char **argv)
{
    scheme_keys_install();
    snprintf(data_dir, sizeof data_dir, "%s", argc > 1 ? argv[1] : "tests/data");
    test_basic();
    test_defaults_and_overrides();
    test_grid();
    test_long_line();
    test_long_expression();
    test_sediment();
    test_sediment_form_default();
    test_kp();
    test_mesh_bed();
    test_corner_keys();
    test_cases();
    return check_done();
}
