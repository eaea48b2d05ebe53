/* test_scenario_file_errors.c — every class of error in the files a scenario names and
 * in the bytes of its text fails (a status other than SWGL_OK) and leaves in
 * swgl_last_error() one line naming the file, the line and what was expected
 * (docs/scenarios.md, "Errors"): missing files, meshes and point files, grids that are
 * malformed, of the wrong size or hostile, raster types, control bytes and NULs, line
 * ends.  The keys and values: test_scenario_errors.c.
 *
 * Each case is a small scenario written into a fresh temporary folder as case.ini (its
 * text is here, next to the message it must give; scenario_errors.h); grid files come
 * from tests/data. */
#include "scenario_errors.h"

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
    /* the generic sections, then every registered scheme's own (the reader names none itself) */
    EXPECT_ERROR(GOOD "[roe]\n[physics]\n", "case.ini:12: unknown section [physics] (expected [domain], "
                 "[initial], [boundary], [run], [sources], [output], [gauges], [friction], or a scheme's: [roe], "
                 "[kp], [hllc] or [sediment])");
}

/* A raster's type (raster_read): by the name's ending, else by the first bytes; a file of
 * a type this build does not read names itself and the formats it reads; a missing one
 * cannot be opened, whatever its ending.  A value such as 1.e1 stays a number. */
static void test_raster_types(void)
{
    put_file("dem.tif", "II*");
    EXPECT_ERROR("[domain]\nbed = dem.tif\n" GOOD_INITIAL GOOD_RUN,
                 "dem.tif: unknown raster type: this build reads ESRI ASCII grid (.asc)");
    EXPECT_ERROR("[domain]\nbed = dem.tif\n" GOOD_INITIAL GOOD_RUN, "([domain] bed, ");
    EXPECT_ERROR(GOOD_DOMAIN "[initial]\neta = dem.tif\n" GOOD_RUN,
                 "dem.tif: unknown raster type: this build reads ESRI ASCII grid (.asc)");
    EXPECT_ERROR("[domain]\nbed = missing.tif\n" GOOD_INITIAL GOOD_RUN, "missing.tif: cannot open");
    EXPECT_ERROR("[domain]\nbed = missing.tif\n" GOOD_INITIAL GOOD_RUN, "([domain] bed, ");
    put_file("bed.grid", "ncols 4\nnrows 3\nxllcorner 0\nyllcorner 0\ncellsize 2\n"
                         "1 2 3 4\n5 6 7 8\n9 10 11 12\n");
    EXPECT_ERROR("[domain]\nbed = bed.grid\n" GOOD_INITIAL GOOD_RUN, "(loaded)");
    EXPECT_ERROR(GOOD_DOMAIN "[initial]\neta = 1.e1\n" GOOD_RUN, "(loaded)");
    static const char *const files[] = {"dem.tif", "bed.grid"};
    for (int k = 0; k < 2; k++) {
        char path[600];
        snprintf(path, sizeof path, "%s/%s", tmp_dir, files[k]);
        unlink(path);
    }
}

/* argv[1]: the folder of the test data (tests/data; CMake passes its path), else the
 * relative tests/data */
int main(int argc, char **argv)
{
    scheme_keys_install();   /* the schemes' keys, before a scenario is read */
    if (scenario_errors_setup(argc > 1 ? argv[1] : NULL)) return 1;
    test_missing_files();
    test_mesh_values();
    test_bad_grids();
    test_hostile_grids();
    test_control_bytes();
    test_line_ends();
    test_raster_types();
    return scenario_errors_done();
}
