/* fuzz_points.c — the point-table reader ([gauges] KEY = FILE.csv; points.h): points_read
 * on the input bytes through fmemopen.  On success: 1 to POINTS_MAX points, each id 1 to
 * POINTS_ID_MAX printable characters without spaces, x and y finite; on failure one line
 * of message and an empty table. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fuzz_common.h"
#include "points.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) return 0;   /* fmemopen of 0 bytes is unspecified */
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f) return 0;
    point_table t;
    swgl_status st = points_read(f, "fuzz.csv", &t);
    fclose(f);
    if (st == SWGL_OK) {
        FZ_CHECK(t.n >= 1 && t.n <= POINTS_MAX);
        for (int k = 0; k < t.n; k++) {
            size_t n = strlen(t.id[k]);
            FZ_CHECK(n >= 1 && n <= POINTS_ID_MAX);
            for (size_t i = 0; i < n; i++) FZ_CHECK(t.id[k][i] > ' ' && t.id[k][i] < 0x7f);
            FZ_CHECK(isfinite(t.x[k]) && isfinite(t.y[k]));
        }
    } else {
        FZ_CHECK(strlen(swgl_last_error()) > 0 && !strchr(swgl_last_error(), '\n'));
        FZ_CHECK(t.n == 0 && !t.id && !t.x && !t.y);
    }
    points_free(&t);
    return 0;
}
