/* cli_run.c — `swgl run`: the scenario's run as a client of the public API (swgl.h): a sim
 * from the options, run_to its t_end, finish (the outputs committed), the summary on stdout.
 * Exit status: 0, 1 on an error, 2 on bad options, 128 + N after signal N (SIGINT, SIGTERM:
 * the run stops after its step and writes the state reached as its last, summary.json saying
 * "interrupted"). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "swgl.h"

static swgl_sim *volatile g_sim;
static volatile sig_atomic_t g_signal;

static void on_signal(int sig)
{
    g_signal = sig;
    if (g_sim) swgl_sim_request_stop(g_sim);
}

static int usage_error(const char *fmt, const char *a)
{
    fprintf(stderr, "swgl run: ");
    fprintf(stderr, fmt, a);
    fprintf(stderr, "\n");
    return 2;
}

int cmd_run(int argc, char **argv)
{
    swgl_sim_desc d = {.out = "out"};
    int quiet = 0;
    const char **sets = calloc((size_t)argc + 1, sizeof *sets);
    int nsets = 0, rc = 2;
    static char tune[CLI_TUNE_MAX];
    tune[0] = '\0';
    if (!sets) return 1;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (strcmp(a, "--case") == 0 && more) d.case_name = argv[++i];
        else if (strcmp(a, "--out") == 0 && more) d.out = argv[++i];
        else if (strcmp(a, "--set") == 0 && more) sets[nsets++] = argv[++i];
        else if (strcmp(a, "--tune") == 0 && more) {   /* refused here, before any output */
            int t = cli_tune("run", argv[++i], tune, sizeof tune);
            if (t) {
                rc = t > 0 ? 0 : 2;
                goto done;
            }
        }
        else if (strcmp(a, "--device") == 0 && more) {   /* (a negative index: automatic) */
            d.device = atoi(argv[++i]);
            d.use_device = d.device >= 0;
        }
        else if (strcmp(a, "--quiet") == 0) quiet = 1;
        else if (strcmp(a, "--restart") == 0 && more) d.restart = argv[++i];
        else if (strcmp(a, "--restart-time") == 0 && more) {
            char *end;
            d.restart_time = strtod(argv[++i], &end);
            d.restart_at_time = 1;
            if (*end || !(d.restart_time >= 0)) {
                rc = usage_error("--restart-time %s: expected a time >= 0 (s)", argv[i]);
                goto done;
            }
        } else if (strcmp(a, "--backend") == 0 && more) {
            d.backend = argv[++i];
            if (strcmp(d.backend, "gpu") && strcmp(d.backend, "gpu-compute") && strcmp(d.backend, "cpu") &&
                strcmp(d.backend, "cpu-scalar")) {
                rc = usage_error("--backend %s: expected gpu, gpu-compute, cpu or cpu-scalar", d.backend);
                goto done;
            }
        } else if (strcmp(a, "--compare") == 0 && more) {
            d.compare = argv[++i];
            if (strcmp(d.compare, "gpu") && strcmp(d.compare, "gpu-compute") && strcmp(d.compare, "cpu") &&
                strcmp(d.compare, "cpu-scalar")) {
                rc = usage_error("--compare %s: expected gpu, gpu-compute, cpu or cpu-scalar", d.compare);
                goto done;
            }
        } else if (strcmp(a, "--precision") == 0 && more) {
            d.precision = argv[++i];
            if (strcmp(d.precision, "single") && strcmp(d.precision, "double")) {
                rc = usage_error("--precision %s: expected single or double", d.precision);
                goto done;
            }
        } else if (a[0] == '-') {
            rc = usage_error("unknown option '%s' (or it lacks its value); see 'swgl --help'", a);
            goto done;
        } else if (!d.scenario) {
            d.scenario = a;
        } else {
            fprintf(stderr, "swgl run: more than one scenario given ('%s', '%s')\n", d.scenario, a);
            goto done;
        }
    }
    if (d.restart_at_time && !d.restart) {
        fprintf(stderr, "swgl run: --restart-time needs --restart FILE\n");
        goto done;
    }
    if (d.scenario && d.case_name) {
        fprintf(stderr, "swgl run: give a scenario file or --case, not both\n");
        goto done;
    }
    d.set = sets;
    d.tune = tune;
    d.progress = quiet ? SWGL_PROGRESS_NONE : isatty(STDERR_FILENO) ? SWGL_PROGRESS_TTY : SWGL_PROGRESS_LINES;

    /* SIGINT, SIGTERM: the run stops after its step and writes the state reached; over MPI
     * ranks a signal is mpirun's to pass on (a rank that stopped on its own would leave the
     * others waiting in the halo exchange) */
    const int mpi = swgl_mpi_size() > 1, rank0 = swgl_mpi_rank() == 0;
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    if (!mpi) {
        sigaction(SIGINT, &sa, &old_int);
        sigaction(SIGTERM, &sa, &old_term);
    }
    swgl_sim *sim = NULL;
    rc = 1;
    int interrupted = 0;   /* the run to t_end was stopped by a signal */
    swgl_status st = swgl_sim_create(&d, &sim);
    if (st == SWGL_OK) {
        g_sim = sim;
        if (g_signal) swgl_sim_request_stop(sim);   /* (a signal before the sim existed) */
        st = swgl_sim_run_to(sim, swgl_sim_t_end(sim));
        interrupted = st == SWGL_ERR_INTERRUPTED;
        if (interrupted && rank0) {
            swgl_sim_info info;
            swgl_sim_get_info(sim, &info);
            fprintf(stderr, "%sswgl: %s: stopped by signal %d at t = %.9g s after %ld steps; writing the state reached\n",
                    quiet ? "" : "\n", info.solver, (int)g_signal, swgl_sim_time(sim), swgl_sim_steps(sim));
        }
        if (st == SWGL_OK || st == SWGL_ERR_INTERRUPTED) st = swgl_sim_finish(sim);
        g_sim = NULL;
    }
    if (st == SWGL_OK) {
        rc = interrupted ? 128 + (g_signal ? g_signal : SIGINT) : 0;
        if (!quiet && rank0) swgl_sim_print_summary(sim, stdout);
        if (interrupted && rank0)
            fprintf(stderr, "swgl: interrupted: the outputs hold the state at t = %.9g s\n", swgl_sim_time(sim));
    } else if (rank0) {
        char msg[4096];
        snprintf(msg, sizeof msg, "%s", swgl_last_error()[0] ? swgl_last_error() : "failed");
        swgl_sim_info info;
        if (sim && swgl_sim_get_info(sim, &info) == SWGL_OK) fprintf(stderr, "\nswgl: %s: %s\n", info.source, msg);
        else fprintf(stderr, "swgl: %s\n", msg);   /* (the message names the file or the option) */
    }
    if (rc && g_signal) rc = 128 + g_signal;
    swgl_sim_destroy(sim);
    if (!mpi) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
    }
done:
    free(sets);
    if (!swgl_has("clean-exit")) {   /* HDF5's exit handlers crash on a file whose write failed */
        fflush(NULL);
        _exit(rc);
    }
    return rc;
}
