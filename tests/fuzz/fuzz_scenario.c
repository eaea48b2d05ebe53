/* fuzz_scenario.c — the scenario loader as `swgl run FILE --set ...` drives it:
 * scenario_load(path, overrides) + scenario_free.
 *
 * Input: the scenario file's text, then up to 8 overrides, each after a NUL byte:
 *     TEXT \0 domain.level=1 \0 run.cfl=0.5
 * (a NUL cannot reach an override through argv, so it is the natural separator; the text
 * therefore never holds a NUL; empty pieces are skipped).  The text is written to scenario.ini in the harness's
 * temporary folder, next to small .asc grids the scenario may name: grid-bed.asc,
 * grid-eta.asc (those of tests/data/grid.ini) and small.asc, and a small triangle mesh,
 * n.csv and t.csv (mesh(n.csv, t.csv[, COLUMN])).
 *
 * On success the documented properties of the result are checked (scenario.h): every
 * field finite, h >= 0, active and boundary codes valid, output times increasing in
 * (0, t_end], and so on; reading every cell also lets ASan see a field shorter than nx*ny.
 *
 * While scenario_load runs, allocations over 256 KiB fail (return NULL): the harness is
 * linked with --wrap=malloc,calloc,realloc (CMakeLists.txt here), so the calls of the
 * project's code go through the wrappers below.  A scenario may legitimately ask for up
 * to 2^28 cells, and a field over 32768 cells with a long expression in each of its
 * fields would only make the fuzzer slow (a 10 s timeout) or hit its memory limit; with
 * the cap such a scenario exercises the loader's out-of-memory paths instead.  Huge
 * allocations of the .asc reader itself are fuzz_asc's business.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "keys.h"
#include "scenario.h"
#include "scenario_scheme.h"
#include "sediment_keys.h"

enum { ALLOC_CAP = 256 * 1024 };
static int capped;     /* 1 while scenario_load runs */

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);

void *__wrap_malloc(size_t n)
{
    return capped && n > ALLOC_CAP ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
    return capped && size && n > ALLOC_CAP / size ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
    return capped && n > ALLOC_CAP ? NULL : __real_realloc(p, n);
}

static const char grid_bed[] = "NCOLS 4\nnrows 3\nxllcorner 100.0\nyllcorner 200.0\n"
                               "cellsize 2.0\nNODATA_value -9999\n"
                               " 1  2  3  4\n 5  6 -9999 8\n 9 10 11 12\n";
static const char grid_eta[] = "ncols 4\nnrows 3\nxllcenter 101.0\nyllcenter 201.0\n"
                               "cellsize 2.0\nnodata_value -1\n"
                               " 7  7  7  7\n 7  7 -1  7\n 7  7  7  7\n";
static const char small[] = "ncols 3\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n"
                            "1 2 3\n4 5 6\n";

enum { MAX_OVERRIDES = 8 };

static void check_field(const scenario *sc, const double *v, size_t n, double lo, double hi)
{
    FZ_CHECK(v != NULL);
    for (size_t k = 0; k < n; k++) {
        FZ_CHECK(isfinite(v[k]));
        if (sc->active[k]) FZ_CHECK(v[k] >= lo && v[k] <= hi);
    }
}

static void check(const scenario *sc)
{
    FZ_CHECK(sc->nx >= 1 && sc->ny >= 1);
    FZ_CHECK(sc->dx > 0 && sc->dy > 0 && isfinite(sc->dx) && isfinite(sc->dy));
    size_t n = (size_t)sc->nx * (size_t)sc->ny;
    FZ_CHECK(sc->active != NULL);
    for (size_t k = 0; k < n; k++) FZ_CHECK(sc->active[k] == 0 || sc->active[k] == 1);
    for (int s = 0; s < 4; s++) {
        int len = s < 2 ? sc->ny : sc->nx;
        FZ_CHECK(sc->bc[s] != NULL);
        for (int i = 0; i < len; i++) FZ_CHECK(sc->bc[s][i] >= BC_WALL && sc->bc[s][i] <= BC_DISCHARGE && sc->bc[s][i] != CELL_OFF);
    }
    FZ_CHECK(sc->cfl > 0 && sc->cfl <= 1);
    FZ_CHECK(sc->g > 0 && sc->h_dry > 0);
    FZ_CHECK(sc->n_output_times == 0 || sc->output_times != NULL);
    for (int i = 0; i < sc->n_output_times; i++) {
        FZ_CHECK(sc->output_times[i] > 0 && sc->output_times[i] <= sc->t_end);
        if (i) FZ_CHECK(sc->output_times[i] > sc->output_times[i - 1]);
    }
    FZ_CHECK(sc->scheme != NULL && sc->scheme == scenario_scheme_named(sc->scheme->name));
    if (sc->scheme->points) {
        const sediment_params *p = sc->params;
        FZ_CHECK(p != NULL);
        check_field(sc, p->height, n, -INFINITY, INFINITY);
        check_field(sc, p->sand, n, 0, 1);
        check_field(sc, p->alpha, n, 0, INFINITY);
        check_field(sc, p->beta, n, 0, INFINITY);
        FZ_CHECK(p->inflow_side >= -1 && p->inflow_side <= 3);
        FZ_CHECK(p->inflow_from <= p->inflow_to);
    } else {
        FZ_CHECK(sc->t_end > 0);
        check_field(sc, sc->bed, n, -INFINITY, INFINITY);
        check_field(sc, sc->h, n, 0, INFINITY);
        check_field(sc, sc->qx, n, -INFINITY, INFINITY);
        check_field(sc, sc->qy, n, -INFINITY, INFINITY);
        for (size_t k = 0; k < n; k++) FZ_CHECK(sc->h[k] >= 0);
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    scheme_keys_install();
    char p[1200];
    fz_write(p, sizeof p, "grid-bed.asc", grid_bed, sizeof grid_bed - 1);
    fz_write(p, sizeof p, "grid-eta.asc", grid_eta, sizeof grid_eta - 1);
    fz_write(p, sizeof p, "small.asc", small, sizeof small - 1);
    /* a two-triangle mesh over [0, 4] x [0, 3] with z and two more columns (depth, surface):
     * mesh(n.csv, t.csv[, 4..6]) */
    static const char nodes[] = "id,x,y,z,h,eta\n1,0,0,1,0.5,1.5\n2,4,0,2,0,2\n3,4,3,3,1,4\n4,0,3,2,0.25,2.25\n";
    static const char tris[] = "id,n1,n2,n3\n1,1,2,3\n2,1,3,4\n";
    fz_write(p, sizeof p, "n.csv", nodes, sizeof nodes - 1);
    fz_write(p, sizeof p, "t.csv", tris, sizeof tris - 1);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, 0, size);
    size_t text_len = nul ? (size_t)(nul - data) : size;
    char path[1200];
    fz_write(path, sizeof path, "scenario.ini", data, text_len);

    /* the overrides: a NUL-terminated copy of what follows the text */
    char *rest = NULL;
    const char *ov[MAX_OVERRIDES];
    int n_ov = 0;
    if (nul) {
        size_t n = size - text_len - 1;
        rest = malloc(n + 1);
        if (!rest) return 0;
        memcpy(rest, nul + 1, n);
        rest[n] = '\0';
        for (char *p = rest; n_ov < MAX_OVERRIDES && p < rest + n; p += strlen(p) + 1)
            if (*p) ov[n_ov++] = p;      /* empty pieces (NUL NUL) are no override */
    }

    scenario sc;
    capped = 1;
    swgl_status st = scenario_load(&sc, path, ov, n_ov);
    capped = 0;
    if (st == SWGL_OK) check(&sc);
    else FZ_CHECK(strlen(swgl_last_error()) > 0);   /* the CLI prints this line */
    scenario_free(&sc);
    free(rest);
    return 0;
}
