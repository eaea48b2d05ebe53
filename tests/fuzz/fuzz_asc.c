/* fuzz_asc.c — the raster readers: asc_read on the input bytes, written to a file in the
 * harness's temporary folder (asc_read reads a path, as the loader does), and the one entry
 * point the program reads rasters through, raster_read, which picks the reader by the name
 * ("grid.asc") or else by the first bytes ("grid.dat"): where it reads the grid, the same
 * grid as asc_read's; where it refuses a type, one line naming the file.
 *
 * Each input is read twice: with a nodata array (NODATA cells come back as NaN) and
 * without (NODATA is then an error).  On success the documented properties are checked
 * (raster.h): nx, ny >= 1, dx, dy > 0, every value finite except NODATA cells; reading
 * every value also lets ASan see an array shorter than nx*ny.
 *
 * No allocation cap here (unlike fuzz_scenario): an allocation beyond libFuzzer's
 * -malloc_limit_mb (by default -rss_limit_mb) for a short file is a finding.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "raster.h"

static int read_once(const char *path, int with_nodata)
{
    int nx = -1, ny = -1;
    double xll, yll, dx, dy, *v = NULL;
    unsigned char *nd = NULL;
    swgl_status st = asc_read(path, &nx, &ny, &xll, &yll, &dx, &dy, &v,
                              with_nodata ? &nd : NULL);
    if (st == SWGL_OK) {
        FZ_CHECK(nx >= 1 && ny >= 1 && v != NULL);
        FZ_CHECK(dx > 0 && dy > 0 && isfinite(dx) && isfinite(dy));
        FZ_CHECK(isfinite(xll) && isfinite(yll));
        FZ_CHECK(!with_nodata || nd != NULL);
        size_t n = (size_t)nx * (size_t)ny;
        for (size_t k = 0; k < n; k++) {
            if (with_nodata && nd[k]) FZ_CHECK(isnan(v[k]) && nd[k] == 1);
            else FZ_CHECK(isfinite(v[k]));
        }
    } else {
        FZ_CHECK(strlen(swgl_last_error()) > 0);   /* the program prints this line */
    }
    free(v);
    free(nd);
    return st == SWGL_OK;
}

/* raster_read on path: ok_asc says whether asc_read (with NODATA) read the same bytes */
static void read_raster(const char *path, int ok_asc, int by_name)
{
    raster r;
    memset(&r, 0, sizeof r);
    swgl_status st = raster_read(path, &r);
    if (st == SWGL_OK) {
        FZ_CHECK(ok_asc);   /* the only reader this build has */
        FZ_CHECK(r.nx >= 1 && r.ny >= 1 && r.v && r.nodata && r.format);
        FZ_CHECK(r.dx > 0 && r.dy > 0 && isfinite(r.x0) && isfinite(r.y0));
        size_t n = (size_t)r.nx * (size_t)r.ny;
        for (size_t k = 0; k < n; k++) FZ_CHECK(r.nodata[k] ? isnan(r.v[k]) : isfinite(r.v[k]));
    } else {
        FZ_CHECK(strlen(swgl_last_error()) > 0);
        if (by_name) FZ_CHECK(!ok_asc);   /* by its name an .asc is asc_read's to refuse */
    }
    raster_free(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[1200];
    fz_write(path, sizeof path, "grid.asc", data, size);
    int ok_asc = read_once(path, 1);
    read_once(path, 0);
    read_raster(path, ok_asc, 1);
    fz_write(path, sizeof path, "grid.dat", data, size);
    read_raster(path, ok_asc, 0);
    return 0;
}
