/* cli_trace.c — `swgl trace SCENARIO|--case NAME [--steps N] [--out DIR]`: the passes of
 * the N-th step of a scenario on the GPU, each array as pictures with DIR/index.html
 * (swgl_sim_trace_step). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "swgl.h"

int cmd_trace(int argc, char **argv)
{
    swgl_sim_desc d = {.backend = "gpu"};
    const char *out = "trace";
    long steps = 1;
    int nsets = 0;
    static char tune[CLI_TUNE_MAX];
    tune[0] = '\0';
    d.tune = tune;
    const char **sets = calloc((size_t)argc + 1, sizeof *sets);
    if (!sets) return 1;
    for (int i = 0; i < argc; i++) {
        int more = i + 1 < argc;
        if (strcmp(argv[i], "--case") == 0 && more) d.case_name = argv[++i];
        else if (strcmp(argv[i], "--out") == 0 && more) out = argv[++i];
        else if (strcmp(argv[i], "--steps") == 0 && more) steps = atol(argv[++i]);
        else if (strcmp(argv[i], "--set") == 0 && more) sets[nsets++] = argv[++i];
        else if (strcmp(argv[i], "--device") == 0 && more) d.use_device = 1, d.device = atoi(argv[++i]);
        else if (strcmp(argv[i], "--backend") == 0 && more &&
                 (!strcmp(argv[i + 1], "gpu") || !strcmp(argv[i + 1], "gpu-compute")))
            d.backend = argv[++i];
        else if (strcmp(argv[i], "--tune") == 0 && more) {
            int t = cli_tune("trace", argv[++i], tune, sizeof tune);
            if (t) {
                free(sets);
                return t > 0 ? 0 : 2;
            }
        } else if (argv[i][0] != '-' && !d.scenario) d.scenario = argv[i];
        else {
            fprintf(stderr, "swgl trace: unexpected '%s'; usage: swgl trace SCENARIO|--case NAME [--steps N] "
                            "[--out DIR] [--set K=V] [--device N] [--backend gpu|gpu-compute] [--tune K=V]\n", argv[i]);
            free(sets);
            return 2;
        }
    }
    if (steps < 1 || (!d.scenario && !d.case_name) || (d.scenario && d.case_name)) {
        fprintf(stderr, "swgl trace: give a scenario file or --case NAME, and --steps N >= 1\n");
        free(sets);
        return 2;
    }
    d.set = sets;
    swgl_sim *sim = NULL;
    int passes = 0;
    swgl_status st = swgl_sim_create(&d, &sim);
    for (long n = 1; st == SWGL_OK && n < steps; n++) st = swgl_sim_step(sim);
    if (st == SWGL_OK) st = swgl_sim_trace_step(sim, out, &passes);
    int rc = 1;
    if (st == SWGL_OK) {
        swgl_sim_info info;
        swgl_sim_get_info(sim, &info);
        printf("%s: %d passes of step %ld traced into %s/index.html\n", info.source, passes, steps, out);
        rc = 0;
    } else {
        fprintf(stderr, "swgl: %s\n", swgl_last_error());
    }
    swgl_sim_destroy(sim);
    free(sets);
    return rc;
}
