/* fuzz_common.h — what the harnesses share: one private temporary folder per process
 * (under $TMPDIR, else /tmp), files written into it, and its removal at exit.
 *
 * The folder, swgl-fuzz-PID-XXXXXX, is made on first use and removed by an atexit
 * handler when libFuzzer ends normally (-max_total_time, -runs).  A crash ends the
 * process without atexit: the next harness to start removes the folders of processes
 * that no longer exist, and tests/fuzz/run.sh also points TMPDIR at a folder of its own
 * and removes that after each harness.
 */
#ifndef SWGL_FUZZ_COMMON_H
#define SWGL_FUZZ_COMMON_H

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char fz_dir[1024];

/* Removes every file in dir, then dir (it holds only a harness's files). */
static inline void fz_remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char p[2048];
        while ((e = readdir(d))) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
        closedir(d);
    }
    rmdir(dir);
}

static inline void fz_cleanup(void)
{
    if (!fz_dir[0]) return;
    fz_remove_dir(fz_dir);
    fz_dir[0] = '\0';
}

/* Removes base/swgl-fuzz-PID-XXXXXX folders of processes that have ended (crashed). */
static inline void fz_remove_stale(const char *base)
{
    DIR *d = opendir(base);
    if (!d) return;
    struct dirent *e;
    char p[2048];
    while ((e = readdir(d))) {
        int pid = 0, end = 0;
        if (sscanf(e->d_name, "swgl-fuzz-%d-%*6[A-Za-z0-9]%n", &pid, &end) != 1 || end == 0 ||
            e->d_name[end] != '\0' || pid <= 0 || pid == (int)getpid())
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;   /* alive, or not ours */
        snprintf(p, sizeof p, "%s/%s", base, e->d_name);
        fz_remove_dir(p);
    }
    closedir(d);
}

/* The folder, made on first call; exits the process if it cannot be made. */
static inline const char *fz_tmpdir(void)
{
    if (fz_dir[0]) return fz_dir;
    const char *base = getenv("TMPDIR");
    if (!base || !*base) base = "/tmp";
    fz_remove_stale(base);
    snprintf(fz_dir, sizeof fz_dir, "%s/swgl-fuzz-%d-XXXXXX", base, (int)getpid());
    if (!mkdtemp(fz_dir)) {
        perror("fuzz: mkdtemp");
        exit(2);
    }
    atexit(fz_cleanup);
    return fz_dir;
}

/* DIR/name into buf. */
static inline const char *fz_path(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", fz_tmpdir(), name);
    return buf;
}

/* Writes data[0..n) to DIR/name (replacing it); exits the process on a write error,
 * which is the harness's problem, not a finding in the code under test. */
static inline const char *fz_write(char *buf, size_t len, const char *name, const void *data, size_t n)
{
    fz_path(buf, len, name);
    FILE *f = fopen(buf, "wb");
    if (!f || (n && fwrite(data, 1, n, f) != n) || fclose(f) != 0) {
        perror(buf);
        exit(2);
    }
    return buf;
}

/* A harness's own check failed: a finding (libFuzzer saves the input as a crash). */
#define FZ_CHECK(cond)                                                                        \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            fprintf(stderr, "%s:%d: fuzz check failed: %s\n", __FILE__, __LINE__, #cond);    \
            abort();                                                                          \
        }                                                                                     \
    } while (0)

#endif
