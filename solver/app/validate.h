/* validate.h — `swgl validate CASE RUNDIR`: a finished run of a validation case compared
 * with the measurements in the shared data folder (docs/validation.md).  Each prints a
 * markdown table on stdout, writes CSV files and gnuplot scripts into OUTDIR, and runs
 * gnuplot on them where it is installed (PNG pictures beside them).  Returns a process
 * exit status: 0, 1 (a file missing or malformed, with a message on stderr naming it). */
#ifndef SWGL_VALIDATE_H
#define SWGL_VALIDATE_H

int validate_malpasset(const char *run_dir, const char *data_dir, const char *out_dir);
int validate_ucl(const char *run_dir, const char *data_dir, const char *out_dir);
/* gnuplot on out_dir/script (and script2 after it, unless NULL), run in out_dir, where
 * gnuplot is installed (else a note on stderr, and 0); returns an exit status, and *drawn
 * (unless NULL) whether gnuplot ran. */
int validate_gnuplot(const char *out_dir, const char *script, const char *script2, int *drawn);

#endif
