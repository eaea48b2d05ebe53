/* timed_run.c — a run through swgl's C API timed, and nothing written: the time loop's wall,
 * its steps and cells/s, and over MPI ranks the halo exchange's parts (swgl_sim_stat).  The
 * figures of docs/mpi.md's and docs/performance.md's "through the API" tables come from it:
 * a run as a program drives it, without the outputs a `swgl run` writes.
 *
 *     ./timed_run BACKEND CASE T_END TUNE [section.key=value ...]
 *     ./timed_run gpu-compute circular-dambreak 0.8 - run.scheme=roe domain.nx=4096 domain.ny=4096
 *     mpirun -n 2 ./timed_run gpu-compute circular-dambreak 0.8 - run.scheme=roe domain.ny=8192 ...
 *
 * TUNE: tuning items as --tune takes them ("mpi.every=8,clock_every=16"), or "-" for none.
 * One line: "RESULT name=value ..." (rank 0's times: the exchange's parts, stages, advances); with
 * TUNE mpi.verbose=on also each other rank's, "RANKn name=value ...". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <swgl.h>

#define MAX_SET 32

int main(int argc, char **argv)
{
    swgl_mpi_init(&argc, &argv);
    char *end = NULL;
    double t_end = argc > 3 ? strtod(argv[3], &end) : 0;
    if (argc < 5 || argc - 5 > MAX_SET || !end || *end || !(t_end > 0)) {
        fprintf(stderr, "usage: timed_run BACKEND CASE T_END TUNE [section.key=value ...] (T_END > 0 s, TUNE "
                        "\"-\" for none, at most %d settings)\n", MAX_SET);
        swgl_mpi_finalize();
        return 2;
    }
    const char *set[MAX_SET + 1] = {0};
    for (int k = 5; k < argc; k++) set[k - 5] = argv[k];
    swgl_sim_desc d = {.case_name = argv[2], .backend = argv[1], .set = set,
                       .tune = strcmp(argv[4], "-") != 0 ? argv[4] : NULL};
    swgl_sim *sim = NULL;
    int rc = 0;
    if (swgl_sim_create(&d, &sim) != SWGL_OK || swgl_sim_run_to(sim, t_end) != SWGL_OK) {
        fprintf(stderr, "timed_run: %s\n", swgl_last_error());
        rc = 1;
    }
    static const char *const names[] = {"wall_s", "steps", "cells_per_s", "exchanges", "exchange_s",
                                        "exchange_read_s", "exchange_wire_s", "exchange_write_s", "bound_s",
                                        "halo_bytes", "stage_s", "advance_s", "agree_s", "held_windows", "held_cut",
                                        "held_retaken"};
    if (rc == 0) {   /* (every rank's line; ranks but 0 print only with mpi.verbose=on) */
        int r = swgl_mpi_rank();
        if (r == 0) printf("RESULT");
        else printf("RANK%d", r);
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
            double v;
            if (swgl_sim_stat(sim, names[k], &v) == SWGL_OK) printf(" %s=%.6g", names[k], v);
        }
        printf("\n");
        fflush(stdout);
    }
    swgl_sim_destroy(sim);
    swgl_mpi_finalize();
    return rc;
}
