/* validate.c — `swgl validate CASE RUNDIR [--data DIR] [--out DIR]`: the dispatcher of the
 * comparisons with measured data (validate.h; validate_malpasset.c, validate_ucl.c). */
#include "validate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

static const char *usage =
    "usage: swgl validate malpasset|ucl RUNDIR [--data DIR] [--out DIR]\n"
    "  compares a finished run of the built-in case (swgl run --case malpasset|ucl-building\n"
    "  --out RUNDIR) with the measurements: a table on stdout, CSV files, gnuplot scripts and,\n"
    "  where gnuplot is installed, PNG plots in DIR (default RUNDIR).  --data: the shared data\n"
    "  folder (default: SWGL_DATA, else the one beside the source tree).\n"
    "  ucl: total depths at G1-G6 (RMS 0-30 s, mean bias 15-30 s, first arrivals), then the same\n"
    "  with the measured record's time origin shifted to align G2's first rise (docs/validation.md).\n";

/* Runs gnuplot on out_dir/script (and script2) in out_dir (the scripts name their PNG files
 * relative to it); without gnuplot on PATH, says how to draw them later.  Returns an exit
 * status. */
int validate_gnuplot(const char *out_dir, const char *script, const char *script2, int *drawn)
{
    if (drawn) *drawn = 0;
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
        fprintf(stderr, "swgl validate: gnuplot is not installed: the plots are not drawn (run 'gnuplot %s%s%s' in "
                "%s once it is; build.sh installs it)\n", script, script2 ? " " : "", script2 ? script2 : "", out_dir);
        return 0;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("swgl validate: fork");
        return 1;
    }
    if (pid == 0) {
        if (chdir(out_dir) != 0) _exit(126);
        execlp("gnuplot", "gnuplot", script, script2, (char *)NULL);
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "swgl validate: gnuplot failed on %s/%s%s%s\n", out_dir, script, script2 ? ", " : "",
                script2 ? script2 : "");
        return 1;
    }
    if (drawn) *drawn = 1;
    return 0;
}

int cmd_validate(int argc, char **argv)
{
    const char *which = NULL, *run_dir = NULL, *data = NULL, *out = NULL;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage, stdout);
            return 0;
        }
        if ((strcmp(argv[i], "--data") == 0 || strcmp(argv[i], "--out") == 0) && i + 1 == argc) {
            fprintf(stderr, "swgl validate: %s needs a folder\n%s", argv[i], usage);
            return 2;
        }
        if ((strcmp(argv[i], "--data") == 0 || strcmp(argv[i], "--out") == 0) && i + 1 < argc) {
            if (argv[i][2] == 'd') data = argv[++i];
            else out = argv[++i];
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "swgl validate: unknown option '%s'\n%s", argv[i], usage);
            return 2;
        } else if (!which) {
            which = argv[i];
        } else if (!run_dir) {
            run_dir = argv[i];
        } else {
            fprintf(stderr, "swgl validate: unexpected argument '%s'\n%s", argv[i], usage);
            return 2;
        }
    }
    if (!which || !run_dir) {
        fprintf(stderr, "swgl validate: expected a case and a run folder\n%s", usage);
        return 2;
    }
    if (!data) data = swgl_data_dir();
    if (!out) out = run_dir;
    if (strcmp(which, "malpasset") == 0) return validate_malpasset(run_dir, data, out);
    if (strcmp(which, "ucl") == 0 || strcmp(which, "ucl-building") == 0) return validate_ucl(run_dir, data, out);
    fprintf(stderr, "swgl validate: unknown case '%s' (malpasset, ucl)\n", which);
    return 2;
}
