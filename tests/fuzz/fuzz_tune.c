/* fuzz_tune.c — the tuning keys' parser (solver/schemes/core/tuning.c), which reads the
 * text of --tune and of swgl_sim_desc.tune: tuning_parse on the input bytes (NUL-ended).
 *
 * On success the struct's text (tuning_format) parses back, over the defaults, to the same
 * struct: what was accepted is what the fields hold.  On failure the status is SWGL_ERR_ARG
 * and the message one non-empty line starting "tune: " (the program prints it).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "tuning.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = 0;
    swgl_tuning t, back;
    tuning_defaults(&t);
    swgl_status st = tuning_parse(&t, text);
    if (st == SWGL_OK) {
        char out[2048];
        tuning_format(&t, out, sizeof out);
        tuning_defaults(&back);
        FZ_CHECK(tuning_parse(&back, out) == SWGL_OK);
        FZ_CHECK(memcmp(&t, &back, sizeof t) == 0);
    } else {
        const char *m = swgl_last_error();
        FZ_CHECK(st == SWGL_ERR_ARG);
        FZ_CHECK(strncmp(m, "tune: ", 6) == 0 && strchr(m, '\n') == NULL);
    }
    free(text);
    return 0;
}
