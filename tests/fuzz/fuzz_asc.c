/* fuzz_asc.c — the ESRI ASCII grid reader: asc_read on the input bytes, written to a file
 * in the harness's temporary folder (asc_read reads a path, as the loader does).
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

static void read_once(const char *path, int with_nodata)
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
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[1200];
    fz_write(path, sizeof path, "grid.asc", data, size);
    read_once(path, 1);
    read_once(path, 0);
    return 0;
}
