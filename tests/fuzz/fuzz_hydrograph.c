/* fuzz_hydrograph.c — the time series reader (hydrograph.h): hydrograph_read on the input
 * bytes through fmemopen, as the loader reads a file.  On success the documented
 * properties are checked: at least two rows, times strictly increasing and finite, every
 * value finite and in the range asked for, and the step mean (hydrograph_mean) over each
 * interval between two rows (where its length is finite) within the two rows' values;
 * on failure one line of message. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fuzz_common.h"
#include "hydrograph.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) return 0;   /* fmemopen of 0 bytes is unspecified */
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f) return 0;
    hydrograph h;
    swgl_status st = hydrograph_read(f, "fuzz.csv", 0.0, 1e6, "a value in [0, 1e6]", &h);
    fclose(f);
    if (st == SWGL_OK) {
        FZ_CHECK(h.n >= 2 && h.t && h.v);
        for (int k = 0; k < h.n; k++) {
            FZ_CHECK(isfinite(h.t[k]) && h.v[k] >= 0.0 && h.v[k] <= 1e6);
            if (k) FZ_CHECK(h.t[k] > h.t[k - 1]);
        }
        /* the mean of a linear piece lies between its ends (1e-9 of the range's 1e6: a
         * few roundings of the integral and the division) */
        for (int k = 0; k + 1 < h.n && k < 64; k++) {
            double dt = h.t[k + 1] - h.t[k];
            if (!(dt > 0.0) || !isfinite(dt)) continue;
            double m = hydrograph_mean(&h, h.t[k], dt);
            FZ_CHECK(m >= fmin(h.v[k], h.v[k + 1]) - 1e-3 && m <= fmax(h.v[k], h.v[k + 1]) + 1e-3);
        }
    } else {
        FZ_CHECK(strlen(swgl_last_error()) > 0 && !strchr(swgl_last_error(), '\n'));
        FZ_CHECK(h.n == 0 && !h.t && !h.v);
    }
    hydrograph_free(&h);
    return 0;
}
