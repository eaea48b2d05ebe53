/* test_scenario_errors.c — every class of error in a scenario's keys and values fails (a
 * status other than SWGL_OK) and leaves in swgl_last_error() one line naming the file, the
 * line, the key and what was expected (docs/scenarios.md, "Errors"): sections and keys,
 * numbers and their ranges, the initial state, boundaries and their series, expressions,
 * output times, the sediment and kp keys, the cap on cells.  The files a scenario names
 * and the bytes of its text: test_scenario_file_errors.c.
 *
 * Each case is a small scenario written into a fresh temporary folder as case.ini (its
 * text is here, next to the message it must give; scenario_errors.h). */
#include "scenario_errors.h"

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
    /* the held time step (timeloop.c): a whole number of steps from 1 to 64, a share of the bound */
    EXPECT_ERROR(GOOD "step_hold = 0\n", "case.ini:11: [run] step_hold = 0: expected an integer >= 1");
    EXPECT_ERROR(GOOD "step_hold = 65\n", "case.ini:11: [run] step_hold = 65: expected an integer from 1 to 64");
    EXPECT_ERROR(GOOD "step_hold = 2.5\n", "case.ini:11: [run] step_hold = 2.5: expected an integer >= 1");
    EXPECT_ERROR(GOOD "step_hold = often\n", "case.ini:11: [run] step_hold = often: expected an integer >= 1");
    EXPECT_ERROR(GOOD "step_margin = 0\n", "case.ini:11: [run] step_margin = 0: expected a number in (0, 1]");
    EXPECT_ERROR(GOOD "step_margin = 1.1\n", "case.ini:11: [run] step_margin = 1.1: expected a number in (0, 1]");
    EXPECT_ERROR(GOOD "step_margin = nan\n", "case.ini:11: [run] step_margin = nan: expected a number in (0, 1]");
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
    /* (the sediment scheme steps a fixed dt: a held step would take margin x it) */
    const char *ov3[] = {"run.step_hold=8"};
    EXPECT_OV_ERROR(SED_BASE, ov3, "--set run.step_hold=8: a shallow-water key, not allowed with scheme = sediment");
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
    EXPECT_ERROR(GOOD_DOMAIN GOOD_INITIAL KP_RUN "[kp]\ndesingularize = paper\n",
                 "case.ini:13: [kp] desingularize = paper: expected depth or printed");
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

/* argv[1]: the folder of the test data (tests/data; CMake passes its path), else the
 * relative tests/data */
int main(int argc, char **argv)
{
    scheme_keys_install();   /* the schemes' keys, before a scenario is read */
    if (scenario_errors_setup(argc > 1 ? argv[1] : NULL)) return 1;
    test_good_base();
    test_structure();
    test_initial();
    test_numbers();
    test_boundary();
    test_boundary_values();
    test_expressions();
    test_output_times();
    test_sediment();
    test_kp();
    test_cell_cap();
    test_number_text();
    return scenario_errors_done();
}
