/* test_api_mpi.c — the public API over MPI ranks (swgl.h: every call on a sim is collective,
 * and swgl_sim_field gives the whole grid on every rank).  Run as one rank, it writes the
 * reference (the fields after run_to and a step, and the volume, as raw doubles) to
 * argv[1]; run under mpirun -n P, every rank checks its own whole-grid fields against that
 * file to the bit (the CPU backends over ranks do the same operations on the same values:
 * tests/test_mpi.sh), set_field and the observers included.  Each rank ends with "N passed,
 * N failed" (the ranks past 0 print too: the sim is made with tune mpi.verbose=on) and its
 * exit status.  A fourth argument "chosen" runs the halo 4 steps wide, exchanged every 2 or 4
 * steps as timed (tune mpi.every=4,mpi.choose=on): the state set between the runs (set_field)
 * then falls within or after the rounds that choose. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "swgl.h"

static int g_steps;
static swgl_status count(swgl_sim *sim, swgl_event ev, double t, void *user)
{
    (void)sim, (void)ev, (void)t, (void)user;
    g_steps++;
    return SWGL_OK;
}

int main(int argc, char **argv)
{
    if (swgl_mpi_init(&argc, &argv) != 0) {
        printf("FAIL  swgl_mpi_init\n");
        return 1;
    }
    if (argc < 3) {
        printf("usage: test_api_mpi REFERENCE write|check [BACKEND [chosen]]\n");
        return 2;
    }
    const int write = strcmp(argv[2], "write") == 0, rank = swgl_mpi_rank(), P = swgl_mpi_size();
    const char *backend = argc > 3 ? argv[3] : "cpu-scalar";
    const int chosen = argc > 4 && strcmp(argv[4], "chosen") == 0;
    const char *set[] = {"domain.nx=40", "domain.ny=30", "domain.dx=5", "domain.dy=6", NULL};
    swgl_sim_desc d = {.case_name = "dambreak", .backend = backend, .set = set,
                       .tune = chosen ? "mpi.verbose=on,mpi.every=4,mpi.choose=on" : "mpi.verbose=on"};
    swgl_sim *sim = NULL;
    if (!CHECK(swgl_sim_create(&d, &sim) == SWGL_OK, "rank %d of %d: create %s: %s", rank, P, backend,
               swgl_last_error()))
        return check_done();
    int nx, ny;
    swgl_sim_size(sim, &nx, &ny, NULL, NULL);
    size_t n = (size_t)nx * ny;
    swgl_sim_observe(sim, SWGL_EVENT_STEP, count, NULL);
    /* run_to, a step, twice the depth set, another run_to: the fields after each */
    double *got = calloc(4 * n + 4, sizeof(double));
    CHECK(swgl_sim_run_to(sim, 5.0) == SWGL_OK, "run_to(5)");
    swgl_sim_field(sim, "h", got);
    swgl_sim_field(sim, "qx", got + n);
    CHECK(swgl_sim_step(sim) == SWGL_OK, "a step");
    double *h = malloc(n * sizeof(double));
    swgl_sim_field(sim, "h", h);
    for (size_t k = 0; k < n; k++) h[k] *= 2;
    CHECK(swgl_sim_set_field(sim, "h", h) == SWGL_OK, "set_field(h): %s", swgl_last_error());
    CHECK(swgl_sim_run_to(sim, 20.0) == SWGL_OK, "run_to(20), past t_end");
    swgl_sim_field(sim, "h", got + 2 * n);
    swgl_sim_field(sim, "eta", got + 3 * n);
    got[4 * n] = swgl_sim_volume(sim);
    got[4 * n + 1] = (double)swgl_sim_steps(sim);
    got[4 * n + 2] = swgl_sim_time(sim);
    got[4 * n + 3] = g_steps;
    CHECK(g_steps == swgl_sim_steps(sim), "rank %d: the observer saw every step (%d)", rank, g_steps);
    /* the exchange's parts (issue 26's breakdown): none on one rank; over ranks one exchange a
     * step (roe: Euler, one stage 0 a step), its parts summing to no more than its time (the
     * parts are timed inside it: 1 us of slack for the clock's reads), a halo sent */
    {
        static const char *const names[] = {"exchange_s", "exchanges", "exchange_read_s", "exchange_wire_s",
                                            "exchange_write_s", "bound_s", "halo_bytes", "stage_s", "advance_s",
                                            "agree_s"};
        double v[10], wall = 0;
        int got_all = swgl_sim_stat(sim, "wall_s", &wall) == SWGL_OK;
        for (int k = 0; k < 10; k++) got_all &= swgl_sim_stat(sim, names[k], &v[k]) == SWGL_OK;
        CHECK(got_all, "rank %d: every exchange number is a stat: %s", rank, swgl_last_error());
        if (P == 1)
            CHECK(v[0] == 0 && v[1] == 0 && v[6] == 0 && v[7] == 0 && v[8] == 0 && v[9] == 0,
                  "one rank: no exchange, no block's stages apart (%g s, %g, %g bytes, %g s)", v[0], v[1], v[6], v[7]);
        else   /* (the stages and advances run within the steps the wall times; 10 ms of slack for the clocks) */
            CHECK(v[7] > 0 && v[8] > 0 && v[9] >= 0 && v[0] + v[5] + v[7] + v[8] + v[9] <= wall + 0.01,
                  "rank %d: the block's stages %g s, advances %g s, agreement %g s, with the exchanges and the bound "
                  "within the wall's %g s", rank, v[7], v[8], v[9], wall);
        if (P > 1 && chosen) {   /* (every 2 or 4 steps, and at the state set) */
            CHECK(v[1] >= swgl_sim_steps(sim) / 4.0 && v[1] <= swgl_sim_steps(sim) / 2.0 + 2,
                  "rank %d: an exchange every 2 to 4 steps (%g exchanges, %ld steps)", rank, v[1], swgl_sim_steps(sim));
        } else if (P > 1) {
            CHECK(v[1] == (double)swgl_sim_steps(sim), "rank %d: an exchange a step (%g exchanges, %ld steps)", rank,
                  v[1], swgl_sim_steps(sim));
            CHECK(v[2] >= 0 && v[3] >= 0 && v[4] >= 0 && v[2] + v[3] + v[4] <= v[0] + 1e-6 * v[1],
                  "rank %d: read %g + wire %g + write %g s within the exchanges' %g s", rank, v[2], v[3], v[4], v[0]);
            CHECK(v[6] > 0 && fmod(v[6], sizeof(double)) == 0,
                  "rank %d: a halo sent, whole doubles of the CPU backend's cells (%g bytes an exchange)", rank, v[6]);
            CHECK(v[5] > 0, "rank %d: the bound agreed in %g s", rank, v[5]);
        }
    }
    if (write) {
        FILE *f = fopen(argv[1], "wb");
        CHECK(f && fwrite(got, sizeof(double), 4 * n + 4, f) == 4 * n + 4 && fclose(f) == 0, "reference written");
    } else {
        double *ref = malloc((4 * n + 4) * sizeof(double));
        FILE *f = fopen(argv[1], "rb");
        int ok = f && fread(ref, sizeof(double), 4 * n + 4, f) == 4 * n + 4;
        if (f) fclose(f);
        CHECK(ok, "rank %d: the one-rank reference read", rank);
        long differ = 0;
        for (size_t k = 0; ok && k < 4 * n + 4; k++)
            differ += memcmp(&ref[k], &got[k], sizeof(double)) != 0 && !(isnan(ref[k]) && isnan(got[k]));
        CHECK(ok && differ == 0,
              "rank %d of %d: the whole grid's h, qx, eta after run_to, step, set_field and run_to, the volume and "
              "the steps are one rank's to the bit (%ld values differ)", rank, P, differ);
        free(ref);
    }
    swgl_sim_destroy(sim);
    free(got);
    free(h);
    int rc = check_done();
    swgl_mpi_finalize();
    return rc;
}
