/* test_scenario_errors.c — every class of scenario error fails (a status other than
 * SWGL_OK) and leaves in swgl_last_error() one line naming the file, the line, the key and
 * what was expected (docs/scenarios.md, "Errors").
 *
 * Each case is a small scenario written into a fresh temporary folder as case.ini (its
 * text is here, next to the message it must give); grid files come from tests/data. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "scenario.h"

static char tmp_dir[256], data_dir[1024];

/* A valid shallow-water scenario; cases replace or add lines. */
#define GOOD_DOMAIN "[domain]\nnx = 10\nny = 5\ndx = 0.5\ndy = 0.5\nbed = 0\n"
#define GOOD_INITIAL "[initial]\neta = 1\n"
#define GOOD_RUN "[run]\nt_end = 1\n"
#define GOOD GOOD_DOMAIN GOOD_INITIAL GOOD_RUN

/* Loads bytes[0..n) as TMP/case.ini with the overrides; returns the message ("(loaded)"
 * on success). */
static const char *load_bytes(const char *bytes, size_t n, const char *const *ov, int nov,
                              char *err, size_t len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/case.ini", tmp_dir);
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(err, len, "cannot write %s", path);
        return err;
    }
    fwrite(bytes, 1, n, f);
    fclose(f);
    scenario sc;
    swgl_clear_error();
    swgl_status rc = scenario_load(&sc, path, ov, nov);
    if (rc == 0) {
        snprintf(err, len, "(loaded)");
        scenario_free(&sc);
    } else if (!swgl_last_error()[0]) {
        snprintf(err, len, "(failed with no message)");
    } else {
        snprintf(err, len, "%s", swgl_last_error());
    }
    return err;
}

static const char *load_text(const char *text, const char *const *ov, int nov, char *err, size_t len)
{
    return load_bytes(text, strlen(text), ov, nov, err, len);
}

/* The load must fail with a one-line message containing want. */
#define EXPECT_ERROR(text, want) expect_error_(__LINE__, text, NULL, 0, want)
#define EXPECT_OV_ERROR(text, ov, want) expect_error_(__LINE__, text, ov, 1, want)

/* A message is one line of printable text: no control byte (a file's are written \xNN). */
static int one_line(const char *m)
{
    for (const unsigned char *p = (const unsigned char *)m; *p; p++)
        if (*p < 0x20 || *p == 0x7f) return 0;
    return 1;
}

static void expect_error_(int line, const char *text, const char *const *ov, int nov, const char *want)
{
    char err[1024];
    load_text(text, ov, nov, err, sizeof err);
    check_(strstr(err, want) != NULL && one_line(err), __FILE__, line, "message",
           "want \"%s\", got \"%s\"", want, err);
}

/* The same for bytes that may hold NULs. */
#define EXPECT_BYTES_ERROR(bytes, want) expect_bytes_error_(__LINE__, bytes, sizeof bytes - 1, want)

static void expect_bytes_error_(int line, const char *bytes, size_t n, const char *want)
{
    char err[1024];
    load_bytes(bytes, n, NULL, 0, err, sizeof err);
    check_(strstr(err, want) != NULL && one_line(err), __FILE__, line, "message",
           "want \"%s\", got \"%s\"", want, err);
}

/* tests/data/NAME loaded as the scenario must fail with want. */
static void expect_file_error_(int line, const char *name, const char *want)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", data_dir, name);
    scenario sc;
    swgl_clear_error();
    swgl_status rc = scenario_load(&sc, path, NULL, 0);
    if (rc == SWGL_OK) scenario_free(&sc);
    check_(rc != SWGL_OK && strstr(swgl_last_error(), want) && one_line(swgl_last_error()), __FILE__,
           line, "message", "want \"%s\", got \"%s\"", want, rc == SWGL_OK ? "(loaded)" : swgl_last_error());
}
#define EXPECT_FILE_ERROR(name, want) expect_file_error_(__LINE__, name, want)

static void test_good_base(void)
{
    char err[1024];
    CHECK(strcmp(load_text(GOOD, NULL, 0, err, sizeof err), "(loaded)") == 0, "the base loads: %s", err);
    CHECK(strcmp(load_text(GOOD "[boundary]\nwest = \n", NULL, 0, err, sizeof err), "(loaded)") == 0,
          "an empty value means not given: %s", err);
}

static void test_structure(void)
{
    EXPECT_ERROR(GOOD "[physics]\nnu = 1\n", "case.ini:11: unknown section [physics]");
    EXPECT_ERROR(GOOD "[empty]\n", "case.ini:11: unknown section [empty]");
    EXPECT_ERROR(GOOD_DOMAIN "nz = 3\n" GOOD_INITIAL GOOD_RUN, "case.ini:7: [domain] nz: unknown key");
    EXPECT_ERROR("nx = 3\n" GOOD, "case.ini:1: nx = 3: key outside any section");
    EXPECT_ERROR(GOOD_DOMAIN GOOD_INITIAL GOOD_RUN "cfl = 0.5\ncfl = 0.6\n",
                 "case.ini:12: [run] cfl: duplicate key (first given on line 11)");
    EXPECT_ERROR(GOOD "just words\n", "case.ini:11: expected [section] or key = value");
    EXPECT_ERROR(GOOD "[run\n", "case.ini:11: expected [section] or key = value");
    const char *ov[] = {"run.nonsense=3"};
    EXPECT_OV_ERROR(GOOD, ov, "--set run.nonsense=3: unknown key");
    const char *ov2[] = {"cfl=3"};
    EXPECT_OV_ERROR(GOOD, ov2, "--set cfl=3: expected section.key=value");
    const char *ov3[] = {"run.cfl=1.5"};
    EXPECT_OV_ERROR(GOOD, ov3, "--set run.cfl=1.5: expected a number in (0, 1]");
}

static void test_missing_files(void)
{
    scenario sc;
    swgl_status rc = scenario_load(&sc, "/nonexistent/case.ini", NULL, 0);
    CHECK(rc != SWGL_OK && strstr(swgl_last_error(), "/nonexistent/case.ini: cannot open"), "%s",
          swgl_last_error());
    rc = scenario_load_case(&sc, "no-such-case", NULL, 0);
    CHECK(rc != SWGL_OK && strstr(swgl_last_error(), "no-such-case: no such built-in case"), "%s",
          swgl_last_error());
    EXPECT_ERROR("[domain]\nbed = missing.asc\n" GOOD_INITIAL GOOD_RUN, "missing.asc: cannot open");
    EXPECT_ERROR("[domain]\nbed = missing.asc\n" GOOD_INITIAL GOOD_RUN, "([domain] bed, ");
    EXPECT_ERROR(GOOD_DOMAIN "[initial]\neta = nope.asc\n" GOOD_RUN, "nope.asc: cannot open");
}

/* A scenario whose bed is tests/data/NAME. */
static const char *with_bed(const char *name)
{
    static char text[2048];
    snprintf(text, sizeof text, "[domain]\nbed = %s/%s\n" GOOD_INITIAL GOOD_RUN, data_dir, name);
    return text;
}

static void put_file(const char *name, const char *text);

/* bed = mesh(NODES, TRIANGLES), [domain] xll/yll, @data paths, [gauges] KEY = FILE.csv. */
static void test_mesh_values(void)
{
    char text[4096];
#define MESH_BED(extra) snprintf(text, sizeof text, "[domain]\ndx = 1\ndy = 1\n%sbed = mesh(%s/mesh-l-nodes.csv, " \
                                 "%s/mesh-l-triangles.csv)\n" GOOD_INITIAL GOOD_RUN, extra, data_dir, data_dir)
    MESH_BED("");
    EXPECT_ERROR(text, "(loaded)");
    MESH_BED("level = 1\n");
    EXPECT_ERROR(text, "[domain] level = 1: expected 0: with a mesh bed the cell size is dx, dy");
    snprintf(text, sizeof text, "[domain]\ndy = 1\nbed = mesh(%s/mesh-l-nodes.csv, %s/mesh-l-triangles.csv)\n"
             GOOD_INITIAL GOOD_RUN, data_dir, data_dir);
    EXPECT_ERROR(text, "[domain] dx is missing");
    EXPECT_ERROR("[domain]\ndx = 1\ndy = 1\nbed = mesh(a.csv)\n" GOOD_INITIAL GOOD_RUN,
                 "expected mesh(NODES.csv, TRIANGLES.csv) or mesh(NODES.csv, TRIANGLES.csv, COLUMN): two paths "
                 "separated by a comma");
    /* the value column: 4 (z) to 8, and the file must have it */
    snprintf(text, sizeof text, "[domain]\ndx = 1\ndy = 1\nbed = mesh(%s/mesh-l-nodes.csv, %s/mesh-l-triangles.csv, "
             "4)\n" GOOD_INITIAL GOOD_RUN, data_dir, data_dir);
    EXPECT_ERROR(text, "(loaded)");
    snprintf(text, sizeof text, "[domain]\ndx = 1\ndy = 1\nbed = mesh(%s/mesh-l-nodes.csv, %s/mesh-l-triangles.csv, "
             "5)\n" GOOD_INITIAL GOOD_RUN, data_dir, data_dir);
    EXPECT_ERROR(text, "mesh-l-nodes.csv:4: expected 5 fields (id, x, y, ..., the value in column 5), found 4");
    EXPECT_ERROR("[domain]\ndx = 1\ndy = 1\nbed = mesh(a.csv, b.csv, 3)\n" GOOD_INITIAL GOOD_RUN,
                 "COLUMN '3': expected the nodes file's column of the value, an integer from 4 (z) to 8");
    EXPECT_ERROR("[domain]\ndx = 1\ndy = 1\nbed = mesh(a.csv, b.csv, 5x)\n" GOOD_INITIAL GOOD_RUN, "COLUMN '5x'");
    EXPECT_ERROR("[domain]\ndx = 1\ndy = 1\nbed = mesh(a.csv, b.csv, 5, 6)\n" GOOD_INITIAL GOOD_RUN,
                 "more than three arguments");
    EXPECT_ERROR("[domain]\ndx = 1\ndy = 1\nbed = mesh(a.csv, b.csv, )\n" GOOD_INITIAL GOOD_RUN, "the column is empty");
    EXPECT_ERROR("[domain]\ndx = 1\ndy = 1\nbed = mesh(, b.csv)\n" GOOD_INITIAL GOOD_RUN, "the first path is empty");
    EXPECT_ERROR("[domain]\ndx = 1\ndy = 1\nbed = mesh(nope.csv, b.csv)\n" GOOD_INITIAL GOOD_RUN, "nope.csv");
    EXPECT_ERROR("[domain]\ndx = 1\ndy = 1\nbed = mesh(@data/no-such-dir/n.csv, @data/no-such-dir/t.csv)\n"
                 GOOD_INITIAL GOOD_RUN, "the shared data is not there");
    EXPECT_ERROR("[domain]\ndx = 1\ndy = 1\nbed = mesh(@data/no-such-dir/n.csv, @data/no-such-dir/t.csv)\n"
                 GOOD_INITIAL GOOD_RUN, "set SWGL_DATA to the folder that holds it");
    MESH_BED("xll = 2000\nnx = 3\nny = 3\n");
    EXPECT_ERROR(text, "no cell of the 3 x 3 grid at (2000, 2000) lies in the mesh");
    MESH_BED("nx = 0.5\n");
    EXPECT_ERROR(text, "[domain] nx = 0.5: expected an integer >= 1");
    EXPECT_ERROR("[domain]\ndx = 1\ndy = 1\nbed = mesh()\n" GOOD_INITIAL GOOD_RUN,
                 "[domain] bed = mesh(): expected mesh(NODES.csv, TRIANGLES.csv)");
    MESH_BED("xll = abc\n");
    EXPECT_ERROR(text, "[domain] xll = abc: expected a number");
    /* a mesh for another field than the grid's: NODATA at an active cell is an error */
    snprintf(text, sizeof text, "[domain]\nnx = 10\nny = 8\ndx = 1\ndy = 1\nxll = 1000\nyll = 2000\nbed = "
             "mesh(%s/mesh-l-nodes.csv, %s/mesh-l-triangles.csv)\n" GOOD_INITIAL GOOD_RUN, data_dir, data_dir);
    EXPECT_ERROR(text, "(loaded)");
    snprintf(text, sizeof text, GOOD_DOMAIN "xll = 1000\nyll = 2000\n[initial]\neta = mesh(%s/mesh-l-nodes.csv, "
             "%s/mesh-l-triangles.csv)\n" GOOD_RUN, data_dir, data_dir);
    EXPECT_ERROR(text, "(loaded)");
    snprintf(text, sizeof text, GOOD_DOMAIN "xll = 995\nyll = 2000\n[initial]\neta = mesh(%s/mesh-l-nodes.csv, "
             "%s/mesh-l-triangles.csv)\n" GOOD_RUN, data_dir, data_dir);
    EXPECT_ERROR(text, "NODATA at active cell (0, 0)");
    /* [gauges] KEY = FILE.csv */
    put_file("pts-bad.csv", "id,x,y\nA,1,2\nB,3\n");
    put_file("pts-nan.csv", "A,1,nan\n");
    put_file("pts-empty.csv", "# nothing\nid,x,y\n");
    put_file("pts-out.csv", "A,1000,1\n");
    put_file("pts-long.csv", "ABCDEFGHIJKLMNO,1,1\n");
    EXPECT_ERROR(GOOD "[gauges]\nk = pts-bad.csv\n", "pts-bad.csv:3: expected id,x,y (a name and two numbers, m) but found 'B'");
    EXPECT_ERROR(GOOD "[gauges]\nk = pts-bad.csv\n", "[gauges] k = pts-bad.csv");
    EXPECT_ERROR(GOOD "[gauges]\nk = pts-nan.csv\n", "pts-nan.csv:1: expected id,x,y");
    EXPECT_ERROR(GOOD "[gauges]\nk = pts-empty.csv\n", "pts-empty.csv: no points");
    EXPECT_ERROR(GOOD "[gauges]\nk = pts-out.csv\n", "(1000, 1) is outside the grid");
    EXPECT_ERROR(GOOD "[gauges]\nk = pts-long.csv\n", "the gauge name 'kABCDEFGHIJKLMNO' (point ABCDEFGHIJKLMNO of");
    EXPECT_ERROR(GOOD "[gauges]\nk = nowhere.csv\n", "nowhere.csv: cannot open");
    static const char *const pts[] = {"pts-bad.csv", "pts-nan.csv", "pts-empty.csv", "pts-out.csv", "pts-long.csv"};
    for (int k = 0; k < 5; k++) {
        char path[600];
        snprintf(path, sizeof path, "%s/%s", tmp_dir, pts[k]);
        unlink(path);
    }
    /* an .asc grid fixes the corner */
    snprintf(text, sizeof text, "[domain]\nxll = 5\nbed = %s/grid-bed.asc\n" GOOD_INITIAL GOOD_RUN, data_dir);
    EXPECT_ERROR(text, "[domain] xll = 5: disagrees with the grid");
    snprintf(text, sizeof text, "[domain]\nyll = abc\nbed = %s/grid-bed.asc\n" GOOD_INITIAL GOOD_RUN, data_dir);
    EXPECT_ERROR(text, "[domain] yll = abc: expected a number");
#undef MESH_BED
}

static void test_bad_grids(void)
{
    EXPECT_ERROR(with_bed("bad-header.asc"), "bad-header.asc:5: bad header: unknown keyword 'celsize'");
    EXPECT_ERROR(with_bed("short.asc"), "short.asc:7: short data: expected 3 x 2 = 6 values, found 5");
    EXPECT_ERROR(with_bed("nonnumeric.asc"), "nonnumeric.asc:7: expected a number, found 'abc'");
    EXPECT_ERROR(with_bed("nan.asc"), "nan.asc:6: expected a finite number, found 'nan'");
    EXPECT_ERROR(with_bed("inf.asc"), "inf.asc:7: expected a finite number, found 'inf'");
    EXPECT_ERROR(with_bed("nan.asc"), "[domain] bed, ");
    /* a second grid not matching the first, a grid not matching the domain */
    char text[4096];
    snprintf(text, sizeof text, "[domain]\nbed = %s/grid-bed.asc\n[initial]\neta = %s/small.asc\n" GOOD_RUN,
             data_dir, data_dir);
    EXPECT_ERROR(text, "case.ini:4: [initial] eta = ");
    EXPECT_ERROR(text, "small.asc: grid of the wrong size: 3 x 2 cells of 1 x 1 m at (0, 0), the "
                       "domain is 4 x 3 cells of 2 x 2 m");
    snprintf(text, sizeof text, GOOD_DOMAIN "[initial]\ndepth = %s/small.asc\n" GOOD_RUN, data_dir);
    EXPECT_ERROR(text, "case.ini:8: [initial] depth = ");
    EXPECT_ERROR(text, "grid of the wrong size: 3 x 2 cells");
    /* nx etc. given with a grid bed must agree with it; level must be 0 */
    snprintf(text, sizeof text, "[domain]\nnx = 5\nbed = %s/grid-bed.asc\n" GOOD_INITIAL GOOD_RUN, data_dir);
    EXPECT_ERROR(text, "case.ini:2: [domain] nx = 5: disagrees with the grid");
    snprintf(text, sizeof text, "[domain]\nlevel = 1\nbed = %s/grid-bed.asc\n" GOOD_INITIAL GOOD_RUN, data_dir);
    EXPECT_ERROR(text, "case.ini:2: [domain] level = 1: expected 0: the grid");
    /* NODATA in a field where the cell is active */
    snprintf(text, sizeof text, "[domain]\nnx = 4\nny = 3\ndx = 2\ndy = 2\nbed = 0\n[initial]\n"
             "eta = %s/grid-eta.asc\n" GOOD_RUN, data_dir);
    EXPECT_ERROR(text, "case.ini:8: [initial] eta = ");
    EXPECT_ERROR(text, "grid-eta.asc: NODATA at active cell (2, 1)");
}

static void test_initial(void)
{
    EXPECT_ERROR(GOOD_DOMAIN "[initial]\neta = 1\ndepth = 1\n" GOOD_RUN,
                 "case.ini:9: [initial] depth = 1: give eta or depth, not both (the other is at ");
    EXPECT_ERROR(GOOD_DOMAIN "[initial]\nqx = 1\n" GOOD_RUN, "case.ini: [initial]: expected exactly one of eta or depth");
    EXPECT_ERROR(GOOD_DOMAIN "[initial]\ndepth = x - 1\n" GOOD_RUN,
                 "case.ini:8: [initial] depth = x - 1: expected a depth >= 0, found -0.75 at cell (0, 0), x = 0.25, y = 0.25 (m)");
    EXPECT_ERROR(GOOD_DOMAIN "[initial]\ndepth = -0.5\n" GOOD_RUN, "expected a depth >= 0");
    char err[512];
    CHECK(strcmp(load_text(GOOD_DOMAIN "[initial]\neta = -2\n" GOOD_RUN, NULL, 0, err, sizeof err),
                 "(loaded)") == 0, "eta below the bed is dry, not an error: %s", err);
    EXPECT_ERROR(GOOD_DOMAIN "[initial]\nheight = 1\n" GOOD_RUN,
                 "case.ini:8: [initial] height = 1: a sediment key, not allowed with scheme = roe");
    EXPECT_ERROR(GOOD "[sediment]\nalpha = 1\n", "case.ini:12: [sediment] alpha = 1: a sediment key, not allowed with scheme = roe");
}

static void test_numbers(void)
{
    EXPECT_ERROR(GOOD "cfl = 1.5\n", "case.ini:11: [run] cfl = 1.5: expected a number in (0, 1]");
    EXPECT_ERROR(GOOD "cfl = 0\n", "case.ini:11: [run] cfl = 0: expected a number in (0, 1]");
    EXPECT_ERROR(GOOD "cfl = fast\n", "case.ini:11: [run] cfl = fast: expected a number in (0, 1]");
    EXPECT_ERROR(GOOD "g = -9.81\n", "case.ini:11: [run] g = -9.81: expected a number > 0");
    EXPECT_ERROR(GOOD "h_dry = 0\n", "case.ini:11: [run] h_dry = 0: expected a number > 0");
    EXPECT_ERROR(GOOD "[roe]\nkappa = -1\n", "case.ini:12: [roe] kappa = -1: expected a number >= 0");
    EXPECT_ERROR(GOOD_DOMAIN GOOD_INITIAL "[run]\nt_end = 0\n", "case.ini:10: [run] t_end = 0: expected a number > 0");
    EXPECT_ERROR(GOOD_DOMAIN GOOD_INITIAL "[run]\ncfl = 0.5\n", "case.ini: [run] t_end is missing: expected a number > 0");
    EXPECT_ERROR(GOOD_DOMAIN GOOD_INITIAL GOOD_RUN "scheme = euler\n", "case.ini:11: [run] scheme = euler: expected roe, kp, hllc or sediment");
    const char *dom[] = {
        "[domain]\nnx = 0\nny = 5\ndx = 0.5\ndy = 0.5\nbed = 0\n",
        "[domain]\nnx = 10\nny = -5\ndx = 0.5\ndy = 0.5\nbed = 0\n",
        "[domain]\nnx = 10\nny = 5\ndx = 0\ndy = 0.5\nbed = 0\n",
        "[domain]\nnx = 10\nny = 5\ndx = 0.5\ndy = -1\nbed = 0\n",
        "[domain]\nnx = 2.5\nny = 5\ndx = 0.5\ndy = 0.5\nbed = 0\n",
    };
    const char *want[] = {
        "case.ini:2: [domain] nx = 0: expected an integer >= 1",
        "case.ini:3: [domain] ny = -5: expected an integer >= 1",
        "case.ini:4: [domain] dx = 0: expected a number > 0",
        "case.ini:5: [domain] dy = -1: expected a number > 0",
        "case.ini:2: [domain] nx = 2.5: expected an integer >= 1",
    };
    for (int i = 0; i < 5; i++) {
        char text[1024];
        snprintf(text, sizeof text, "%s" GOOD_INITIAL GOOD_RUN, dom[i]);
        EXPECT_ERROR(text, want[i]);
    }
    EXPECT_ERROR("[domain]\nny = 5\ndx = 0.5\ndy = 0.5\nbed = 0\n" GOOD_INITIAL GOOD_RUN,
                 "case.ini: [domain] nx is missing: expected an integer >= 1");
    EXPECT_ERROR(GOOD_DOMAIN "level = -1\n" GOOD_INITIAL GOOD_RUN, "case.ini:7: [domain] level = -1: expected an integer >= 0");
    EXPECT_ERROR(GOOD_DOMAIN "level = 14\n" GOOD_INITIAL GOOD_RUN, "case.ini:7: [domain] level = 14: too fine");
}

static void test_boundary(void)
{
    EXPECT_ERROR(GOOD "[boundary]\nwest = open\n", "case.ini:12: [boundary] west = open: expected wall, free, level=V");
    EXPECT_ERROR(GOOD "[boundary]\nwest = wall, free 2:1\n", "case.ini:12: [boundary] west = wall, free 2:1: expected wall, free, level=V");
    EXPECT_ERROR(GOOD "[boundary]\nwest = wall, free 1-2\n", "cannot read 'free 1-2'");
    EXPECT_ERROR(GOOD "[boundary]\nsouth = wall,\n", "cannot read ''");
    EXPECT_ERROR(GOOD "[boundary]\nnorth = free 7:8\n", "case.ini:12: [boundary] north = free 7:8: 'free 7:8' covers no boundary cell");
}

/* A file in the temporary folder (beside case.ini). */
static void put_file(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmp_dir, name);
    FILE *f = fopen(path, "wb");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* Issue 10: boundary values, hydrograph files, sources: every malformed one names the
 * file (and line) and what was expected. */
static void test_boundary_values(void)
{
    const char *kp = "[domain]\nnx = 10\nny = 5\ndx = 0.5\ndy = 0.5\nbed = 0\n[initial]\neta = 1\n"
                     "[run]\nscheme = kp\nt_end = 1\n";
    char text[1024];
#define KP_WITH(extra) (snprintf(text, sizeof text, "%s%s", kp, extra), text)
    EXPECT_ERROR(KP_WITH("[boundary]\nwest = level\n"), "case.ini:13: [boundary] west = level: 'level' needs a value");
    EXPECT_ERROR(KP_WITH("[boundary]\nwest = free=2\n"), "'free=2': free takes no value");
    EXPECT_ERROR(KP_WITH("[boundary]\nwest = discharge=-1\n"), "-1: expected a discharge >= 0");
    EXPECT_ERROR(KP_WITH("[boundary]\nwest = depth=-0.5 1:2\n"), "-0.5: expected a depth >= 0");
    EXPECT_ERROR(KP_WITH("[boundary]\nwest = discharge=q.csv\n"), "q.csv: cannot open");
    put_file("nohead.csv", "0,1\n10,2\n");
    EXPECT_ERROR(KP_WITH("[boundary]\nwest = discharge=nohead.csv\n"), "nohead.csv:1: '0,1': expected a header line");
    put_file("down.csv", "time_s,q_m3s\n0,1\n10,2\n5,3\n");
    EXPECT_ERROR(KP_WITH("[boundary]\nwest = discharge=down.csv\n"), "down.csv:4: time 5 is not after the time before it");
    put_file("same.csv", "time_s,q_m3s\n0,1\n0,2\n");
    EXPECT_ERROR(KP_WITH("[boundary]\nwest = discharge=same.csv\n"), "same.csv:3: time 0 is not after");
    put_file("text.csv", "time_s,q_m3s\n0,1\n10,lots\n");
    EXPECT_ERROR(KP_WITH("[boundary]\neast = level=text.csv\n"), "text.csv:3: '10,lots': expected two numbers");
    put_file("one.csv", "time_s,q_m3s\n0,1\n");
    EXPECT_ERROR(KP_WITH("[boundary]\nwest = discharge=one.csv\n"), "one.csv: 1 row: expected at least two rows");
    put_file("empty.csv", "");
    EXPECT_ERROR(KP_WITH("[boundary]\nwest = discharge=empty.csv\n"), "empty.csv: empty");
    put_file("neg.csv", "time_s,q_m3s\n0,1\n10,-2\n");
    EXPECT_ERROR(KP_WITH("[boundary]\nwest = discharge=neg.csv\n"), "neg.csv:3: value -2: expected a discharge >= 0");
    put_file("nan.csv", "time_s,q_m3s\n0,1\n10,nan\n");
    EXPECT_ERROR(KP_WITH("[boundary]\nwest = discharge=nan.csv\n"), "nan.csv:3: '10,nan': expected two numbers");
    put_file("three.csv", "time_s,q_m3s\n0,1,2\n10,2\n");
    EXPECT_ERROR(KP_WITH("[boundary]\nwest = discharge=three.csv\n"), "three.csv:2: '0,1,2': expected two numbers");
    EXPECT_ERROR(KP_WITH("[boundary]\nwest = discharge=0:1;0:2\n"), "inline series '0:1;0:2', pair 2: times must increase");
    EXPECT_ERROR(KP_WITH("[boundary]\nwest = discharge=0:1;\n"), "inline series '0:1;', pair 2: expected T:V pairs");
    EXPECT_ERROR(KP_WITH("[sources]\nrain = -3\n"), "[sources] rain = -3: expected a rain rate >= 0 (mm/h)");
    EXPECT_ERROR(KP_WITH("[sources]\nwell = 100 1 2\n"), "[sources] well = 100 1 2: (100, 1) is outside the grid");
    EXPECT_ERROR(KP_WITH("[sources]\nwell = 1 1\n"), "[sources] well = 1 1: expected X Y Q");
    EXPECT_ERROR(KP_WITH("[sources]\nwell = 1 1 much\n"), "much: cannot open");
    EXPECT_ERROR(KP_WITH("[sources]\nabcdefghijklmnop = 1 1 1\n"), "a point source's name has at most 15 characters");
    EXPECT_ERROR(KP_WITH("[boundary]\nwest = discharge=1e400\n"), "1e400: expected a discharge >= 0");
    EXPECT_ERROR(KP_WITH("[boundary]\nwest = level=0:1\n"), "inline series '0:1': expected at least two T:V pairs");
    EXPECT_ERROR(KP_WITH("[output]\nnetcdf = maybe\n"), "[output] netcdf = maybe: expected true or false");
    /* the sediment scheme has its own inflow */
    EXPECT_ERROR("[domain]\nnx = 8\nny = 8\ndx = 1\ndy = 1\n[initial]\nheight = 0\n[boundary]\nwest = level=1\n"
                 "[run]\nscheme = sediment\nt_end = 1\n",
                 "the sediment scheme takes wall or free only");
#undef KP_WITH
}

static void test_expressions(void)
{
    EXPECT_ERROR("[domain]\nnx = 10\nny = 5\ndx = 0.5\ndy = 0.5\nbed = 1 + * x\n" GOOD_INITIAL GOOD_RUN,
                 "case.ini:6: [domain] bed = 1 + * x: bad expression: column 5: expected a number, x, y, X, Y, pi, a function or '('");
    EXPECT_ERROR("[domain]\nnx = 10\nny = 5\ndx = 0.5\ndy = 0.5\nbed = 0\n[initial]\neta = sin(z)\n" GOOD_RUN,
                 "case.ini:8: [initial] eta = sin(z): bad expression: column 5: unknown name 'z'");
    EXPECT_ERROR("[domain]\nnx = 10\nny = 5\ndx = 0.5\ndy = 0.5\nbed = log(x - 1)\n" GOOD_INITIAL GOOD_RUN,
                 "case.ini:6: [domain] bed = log(x - 1): the expression is not a number at x = 0.25, y = 0.25 (m)");
    EXPECT_ERROR("[domain]\nnx = 10\nny = 5\ndx = 0.5\ndy = 0.5\nbed = \n" GOOD_INITIAL GOOD_RUN,
                 "case.ini: [domain] bed is missing");
}

static void test_output_times(void)
{
    EXPECT_ERROR(GOOD "output_times = 0.5, 0.25\n", "case.ini:11: [run] output_times = 0.5, 0.25: expected increasing times in (0, t_end = 1]: '0.25' is not after the time before it");
    EXPECT_ERROR(GOOD "output_times = 0.5, 0.5\n", "'0.5' is not after the time before it");
    EXPECT_ERROR(GOOD "output_times = 0.5, 2\n", "'2' is outside (0, t_end]");
    EXPECT_ERROR(GOOD "output_times = 0, 0.5\n", "'0' is outside (0, t_end]");
    EXPECT_ERROR(GOOD "output_times = 0.5, soon\n", "'soon' is not a number");
}

#define SED_BASE "[domain]\nnx = 4\nny = 4\ndx = 1\ndy = 1\n[initial]\nheight = 0\nsand = 0.5\n[run]\nscheme = sediment\nt_end = 1\n[sediment]\n"

static void test_sediment(void)
{
    char err[512];
    CHECK(strcmp(load_text(SED_BASE, NULL, 0, err, sizeof err), "(loaded)") == 0, "sediment base: %s", err);
    EXPECT_ERROR(SED_BASE "alpha = -1\n", "case.ini:13: [sediment] alpha = -1: expected alpha >= 0, found -1 at cell (0, 0), x = 0, y = 0 (m)");
    EXPECT_ERROR(SED_BASE "beta = x - 2\n", "case.ini:13: [sediment] beta = x - 2: expected beta >= 0, found -2");
    EXPECT_ERROR(SED_BASE "cs = -1\n", "case.ini:13: [sediment] cs = -1: expected a number > 0");
    EXPECT_ERROR(SED_BASE "cm = -0.5\n", "case.ini:13: [sediment] cm = -0.5: expected a number > 0");
    EXPECT_ERROR(SED_BASE "layer = -2\n", "case.ini:13: [sediment] layer = -2: expected a number > 0");
    EXPECT_ERROR(SED_BASE "steps = -2\n", "case.ini:13: [sediment] steps = -2: expected an integer >= 0");
    EXPECT_ERROR(SED_BASE "form = fancy\n", "case.ini:13: [sediment] form = fancy: expected paper or conservative");
    EXPECT_ERROR(SED_BASE "inflow_side = up\n", "expected none, west, east, south or north");
    EXPECT_ERROR(SED_BASE "inflow_mud = -1\n", "case.ini:13: [sediment] inflow_mud = -1: expected a number >= 0");
    EXPECT_ERROR(SED_BASE "inflow_from = 3\ninflow_to = 1\n", "case.ini:14: [sediment] inflow_to = 1: expected inflow_from <= inflow_to");
    const char *ov[] = {"initial.sand=1.5"};
    EXPECT_OV_ERROR(SED_BASE, ov, "--set initial.sand=1.5: expected a sand fraction s in [0, 1], found 1.5");
    const char *ov2[] = {"initial.sand=y - 0.5"};
    EXPECT_OV_ERROR(SED_BASE, ov2, "found -0.5 at cell (0, 0)");
    EXPECT_ERROR("[domain]\nnx = 4\nny = 4\ndx = 1\ndy = 1\n[initial]\nheight = 0\neta = 1\n[run]\nscheme = sediment\nt_end = 1\n",
                 "case.ini:8: [initial] eta = 1: a shallow-water key, not allowed with scheme = sediment");
}

/* scheme = kp: its keys and their ranges; a key of the other shallow-water scheme. */
#define KP_RUN "[run]\nscheme = kp\nt_end = 1\n"
static void test_kp(void)
{
    EXPECT_ERROR(GOOD_DOMAIN GOOD_INITIAL KP_RUN "cfl = 0.5\n",
                 "case.ini:12: [run] cfl = 0.5: expected a number in (0, 0.25] for scheme = kp");
    EXPECT_ERROR(GOOD_DOMAIN GOOD_INITIAL KP_RUN "[kp]\ntheta = 2.5\n",
                 "case.ini:13: [kp] theta = 2.5: expected a number in [1, 2]");
    EXPECT_ERROR(GOOD_DOMAIN GOOD_INITIAL KP_RUN "[kp]\nkappa = -1\n", "case.ini:13: [kp] kappa = -1: expected a number >= 0");
    EXPECT_ERROR(GOOD_DOMAIN GOOD_INITIAL KP_RUN "[kp]\nintegrator = rk4\n",
                 "case.ini:13: [kp] integrator = rk4: expected rk2 or euler");
    EXPECT_ERROR(GOOD_DOMAIN GOOD_INITIAL KP_RUN "[kp]\nearly_exit = yes\n",
                 "case.ini:13: [kp] early_exit = yes: expected auto, on or off");
    EXPECT_ERROR(GOOD_DOMAIN GOOD_INITIAL KP_RUN "[friction]\nmanning = x - 1\n",
                 "case.ini:13: [friction] manning = x - 1: expected Manning's n in [0, 1] (s m^-1/3), found -0.75 at cell (0, 0)");
    EXPECT_ERROR(GOOD_DOMAIN GOOD_INITIAL KP_RUN "[friction]\nmanning = 1e20\n",
                 "case.ini:13: [friction] manning = 1e20: expected Manning's n in [0, 1] (s m^-1/3), found 1e+20");
    EXPECT_ERROR(GOOD_DOMAIN GOOD_INITIAL KP_RUN "[friction]\nmanning = nope.asc\n", "nope.asc");
    EXPECT_ERROR(GOOD_DOMAIN GOOD_INITIAL KP_RUN "[roe]\nkappa = 0.1\n",
                 "case.ini:13: [roe] kappa = 0.1: a roe key, not allowed with scheme = kp");
    EXPECT_ERROR(GOOD "[kp]\ntheta = 1.5\n", "case.ini:12: [kp] theta = 1.5: a kp key, not allowed with scheme = roe");
    EXPECT_ERROR(GOOD "[friction]\nmanning = 0.03\n",
                 "case.ini:12: [friction] manning = 0.03: a kp or hllc key, not allowed with scheme = roe");
    /* an expression bed is sampled at the corners too: a value that is not finite there
     * names the corner (x = 0 is a corner, not a cell centre) */
    EXPECT_ERROR("[domain]\nnx = 10\nny = 5\ndx = 0.5\ndy = 0.5\nbed = log(x)\n" GOOD_INITIAL KP_RUN,
                 "case.ini:6: [domain] bed = log(x): the expression is -infinite at x = 0, y = 0 (m)");
}

/* A value starting with byte 0x01 (fuzzer): libinih's long-line marker once, which indexed
 * a table of long values by the byte (a crash with no long line, a read past the table
 * after one).  Any bytes give a clean error or a clean load, and messages show control
 * bytes and invalid UTF-8 as \xNN. */
static void test_control_bytes(void)
{
    EXPECT_FILE_ERROR("ctl01.ini", "ctl01.ini:1: a = \\x01: key outside any section");   /* printf 'a=\x01\n' */
    EXPECT_ERROR(GOOD_DOMAIN GOOD_INITIAL "[run]\nt_end = \x01" "99\n",
                 "case.ini:10: [run] t_end = \\x0199: expected a number > 0");
    /* after a long line (its value kept aside) */
    char text[4096];
    int n = snprintf(text, sizeof text, GOOD "output_times = ");
    for (int i = 1; i <= 100; i++) n += snprintf(text + n, sizeof text - (size_t)n, "0.%02d, ", i % 100);
    snprintf(text + n, sizeof text - (size_t)n, "\ncfl = \x01" "7\ng = \x01\n");
    EXPECT_ERROR(text, "case.ini:12: [run] cfl = \\x017: expected a number in (0, 1]");
    /* a long line whose value starts with 0x01 */
    n = snprintf(text, sizeof text, GOOD "output_times = \x01");
    for (int i = 0; i < 300; i++) text[n++] = '9';
    text[n] = '\0';
    EXPECT_ERROR(text, "case.ini:11: [run] output_times = \\x019999");
    EXPECT_ERROR(text, "'\\x0199999999");
    EXPECT_ERROR(GOOD "scheme = \x1b[31mred\n", "case.ini:11: [run] scheme = \\x1b[31mred: expected roe, kp, hllc or sediment");
    EXPECT_ERROR(GOOD "c\xff\xfel = 1\n", "case.ini:11: [run] c\\xff\\xfel: unknown key");
    EXPECT_ERROR(GOOD "scheme = r\xc3\xa9" "e\n", "[run] scheme = r\xc3\xa9" "e: expected");   /* valid UTF-8 stays */
    const char *ov[] = {"run.cfl=0.5\n[run]\ng=1"};
    EXPECT_OV_ERROR(GOOD, ov, "--set run.cfl=0.5\\x0a[run]\\x0ag=1: expected a number in (0, 1]");
    /* NUL bytes: an error at once, not a value cut short */
    EXPECT_BYTES_ERROR(GOOD "cfl = 0.5\0junk\n", "case.ini:11: a NUL byte at column 10 (expected text)");
    EXPECT_BYTES_ERROR("\0\0\0\0", "case.ini:1: a NUL byte at column 1");
}

/* Line ends: \n, \r\n and a lone \r (old Mac files) all end a line; the line numbers of
 * messages count them. */
static void test_line_ends(void)
{
    char err[1024];
    CHECK(strcmp(load_text("[domain]\rnx = 10\rny = 5\rdx = 0.5\rdy = 0.5\rbed = 0\r[initial]\reta = 1\r"
                           "[run]\rt_end = 1\r", NULL, 0, err, sizeof err), "(loaded)") == 0,
          "CR-only line ends: %s", err);
    EXPECT_ERROR("[domain]\rnx = 10\rny = 5\rdx = 0.5\rdy = 0.5\rbed = 0\r[initial]\reta = 1\r"
                 "[run]\rt_end = 1\rcfl = 7\r", "case.ini:11: [run] cfl = 7: expected a number in (0, 1]");
    EXPECT_ERROR("[domain]\r\nnx = 10\rny = 5\ndx = 0.5\r\ndy = 0.5\rbed = 0\n[initial]\reta = 1\r\n"
                 "[run]\nt_end = 1\r\rcfl = 7", "case.ini:12: [run] cfl = 7: expected");
    /* a long section header (its comment past libinih's buffer) and a long comment */
    char text[4096];
    int n = snprintf(text, sizeof text, "; %0300d\n[domain] ; %0300d\nnx = 10\nny = 5\ndx = 0.5\n"
                     "dy = 0.5\nbed = 0\n" GOOD_INITIAL GOOD_RUN, 0, 0);
    CHECK(n < (int)sizeof text && strcmp(load_text(text, NULL, 0, err, sizeof err), "(loaded)") == 0,
          "long comment lines: %s", err);
    snprintf(text, sizeof text, GOOD "[%0300d]\n", 0);
    EXPECT_ERROR(text, "case.ini:11: unknown section [000");
    snprintf(text, sizeof text, GOOD "[%0300d\n", 0);
    EXPECT_ERROR(text, "case.ini:11: expected [section] or key = value");
    snprintf(text, sizeof text, GOOD "[run ; %0300d\n", 0);
    EXPECT_ERROR(text, "case.ini:11: expected [section] or key = value");
    EXPECT_ERROR(GOOD "[roe]\n[physics]\n", "case.ini:12: unknown section [physics] (expected [domain], "
                 "[initial], [boundary], [run], [roe], [kp], [friction], [sources], [gauges], [sediment] or [output])");
}

/* Too many cells: the message names the key at fault (nx, ny or level), the cap and
 * what was asked; integers are range-checked as doubles before any conversion. */
static void test_cell_cap(void)
{
    EXPECT_ERROR("[domain]\nnx = 2000000000\nny = 5\ndx = 0.5\ndy = 0.5\nbed = 0\n" GOOD_INITIAL GOOD_RUN,
                 "case.ini:2: [domain] nx = 2000000000: too many cells: nx x ny = 2000000000 x 5, at most 268435456");
    EXPECT_ERROR("[domain]\nnx = 1000000000\nny = 5\ndx = 0.5\ndy = 0.5\nlevel = 0\nbed = 0\n" GOOD_INITIAL GOOD_RUN,
                 "case.ini:2: [domain] nx = 1000000000: too many cells: nx x ny = 1000000000 x 5, at most 268435456");
    EXPECT_ERROR("[domain]\nnx = 1e9\nny = 5\ndx = 0.5\ndy = 0.5\nlevel = 0\nbed = 0\n" GOOD_INITIAL GOOD_RUN,
                 "case.ini:2: [domain] nx = 1e9: too many cells: nx x ny = 1e9 x 5, at most 268435456");
    EXPECT_ERROR("[domain]\nnx = 10\nny = 1e308\ndx = 0.5\ndy = 0.5\nbed = 0\n" GOOD_INITIAL GOOD_RUN,
                 "case.ini:3: [domain] ny = 1e308: too many cells: nx x ny = 10 x 1e308, at most 268435456");
    EXPECT_ERROR("[domain]\nnx = 100000\nny = 100000\ndx = 0.5\ndy = 0.5\nbed = 0\n" GOOD_INITIAL GOOD_RUN,
                 "[domain] ny = 100000: too many cells: nx x ny = 100000 x 100000, at most 268435456");
    EXPECT_ERROR("[domain]\nnx = 100000\nny = 5\ndx = 0.5\ndy = 0.5\nlevel = 5\nbed = 0\n" GOOD_INITIAL GOOD_RUN,
                 "case.ini:6: [domain] level = 5: too fine: nx x ny x 4^level = 100000 x 5 x 4^5 = 512000000 "
                 "cells, at most 268435456");
    EXPECT_ERROR(GOOD_DOMAIN "level = 1e308\n" GOOD_INITIAL GOOD_RUN,
                 "case.ini:7: [domain] level = 1e308: too fine: expected a level from 0 to 10");
    EXPECT_ERROR(SED_BASE "steps = 3000000000\n", "case.ini:13: [sediment] steps = 3000000000: expected an "
                 "integer from 0 to 2147483647");
    EXPECT_ERROR(SED_BASE "steps = 1e308\n", "[sediment] steps = 1e308: expected an integer from 0 to 2147483647");
    char err[512];
    CHECK(strcmp(load_text("[domain]\nnx = 1e1\nny = 5.0\ndx = 0.5\ndy = 0.5\nbed = 0\n" GOOD_INITIAL GOOD_RUN,
                           NULL, 0, err, sizeof err), "(loaded)") == 0, "nx = 1e1, ny = 5.0: integers: %s", err);
    /* a built-in case with level = 0 (lastra-test1): nx, not level, is at fault */
    scenario sc;
    const char *ov[] = {"domain.nx=1000000000"};
    swgl_status rc = scenario_load_case(&sc, "lastra-test1", ov, 1);
    CHECK(rc != SWGL_OK && strstr(swgl_last_error(), "--set domain.nx=1000000000: too many cells: nx x ny = "
                                  "1000000000 x 10, at most 268435456"), "%s", swgl_last_error());
    CHECK(strcmp(load_text("[domain]\nnx = 1\nny = 2\ndx = 1\ndy = 1\nlevel = 8\nbed = 0\n" GOOD_INITIAL GOOD_RUN,
                           NULL, 0, err, sizeof err), "(loaded)") == 0, "level 8 on 1 x 2 cells: %s", err);
}

/* Numbers: decimal text only (as in expressions), finite, in a double's range. */
static void test_number_text(void)
{
    EXPECT_ERROR(GOOD "cfl = 1e999\n", "case.ini:11: [run] cfl = 1e999: expected a number in (0, 1] (out of range)");
    EXPECT_ERROR(GOOD_DOMAIN GOOD_INITIAL "[run]\nt_end = 0x10\n", "case.ini:10: [run] t_end = 0x10: expected a number > 0");
    EXPECT_ERROR(GOOD "g = -nan\n", "case.ini:11: [run] g = -nan: expected a number > 0");
    EXPECT_ERROR(GOOD "g = inf\n", "case.ini:11: [run] g = inf: expected a number > 0");
    EXPECT_ERROR("[domain]\nnx = 0x10\nny = 5\ndx = 0.5\ndy = 0.5\nbed = 0\n" GOOD_INITIAL GOOD_RUN,
                 "case.ini:2: [domain] nx = 0x10: expected an integer >= 1");
    EXPECT_ERROR(GOOD "output_times = 0.5, 1.000000000000000000000000000000000000000000000000000000000000000000e-5\n",
                 "case.ini:11: [run] output_times = 0.5, 1.0000");
    EXPECT_ERROR(GOOD "output_times = 0.5, 1.000000000000000000000000000000000000000000000000000000000000000000e-5\n",
                 "0000...' is too long to be a number");
    EXPECT_ERROR(GOOD "[boundary]\nwest = free 0x0:0x10\n", "cannot read 'free 0x0:0x10'");
    EXPECT_ERROR(GOOD "[boundary]\nwest = free 0: inf\n", "cannot read 'free 0: inf'");
    const char *ov[] = {".cfl=0.5"};
    EXPECT_OV_ERROR(GOOD, ov, "--set .cfl=0.5: expected section.key=value (the section is empty)");
    const char *ov2[] = {"run.=0.5"};
    EXPECT_OV_ERROR(GOOD, ov2, "--set run.=0.5: expected section.key=value (the key is empty)");
}

/* .asc grids that once misbehaved, as beds (tests/data): a long line after a keyword
 * (the keyword's token freed under the message), a header asking for 10^9 values with
 * three given (8 GB allocated before "short data"), ncols = 1e308 (converted to long
 * before the range check). */
static void test_hostile_grids(void)
{
    EXPECT_ERROR(with_bed("ncols-long-line.asc"), "ncols-long-line.asc:2: bad header: ncols must be a positive integer");
    EXPECT_ERROR(with_bed("huge-header.asc"), "huge-header.asc:2: bad header: too many cells: ncols x nrows = "
                 "1000000 x 1000 = 1000000000, at most 268435456 ([domain] bed, ");
    EXPECT_ERROR(with_bed("ncols-1e308.asc"), "ncols-1e308.asc:1: bad header: ncols must be at most 1000000, found 1e+308");
    char text[2048];
    /* a sediment grid: the same cap */
    snprintf(text, sizeof text, "[initial]\nheight = %s/huge-header.asc\n[run]\nscheme = sediment\nt_end = 1\n", data_dir);
    EXPECT_ERROR(text, "huge-header.asc:2: bad header: too many cells");
    EXPECT_ERROR(text, "([initial] height, ");
    EXPECT_ERROR(text, "case.ini:2)");
}

/* argv[1]: the folder of the test data (tests/data; CMake passes its path), else the
 * relative tests/data */
int main(int argc, char **argv)
{
    snprintf(data_dir, sizeof data_dir, "%s", argc > 1 ? argv[1] : "tests/data");
    snprintf(tmp_dir, sizeof tmp_dir, "%s/swgl-scenario-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmp_dir)) {
        printf("cannot make a temporary folder\n");
        return 1;
    }
    test_good_base();
    test_structure();
    test_missing_files();
    test_mesh_values();
    test_bad_grids();
    test_initial();
    test_numbers();
    test_boundary();
    test_boundary_values();
    test_expressions();
    test_output_times();
    test_sediment();
    test_kp();
    test_control_bytes();
    test_line_ends();
    test_cell_cap();
    test_number_text();
    test_hostile_grids();
    char path[512];
    snprintf(path, sizeof path, "%s/case.ini", tmp_dir);
    unlink(path);
    rmdir(tmp_dir);
    return check_done();
}
