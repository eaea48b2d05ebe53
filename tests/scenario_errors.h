/* scenario_errors.h — the harness of the scenario error tests (test_scenario_errors.c:
 * keys and values; test_scenario_file_errors.c: the files a scenario names and the bytes
 * of its text): a small scenario written into a fresh temporary folder as case.ini, loaded,
 * and the message it must give.  Each test program includes this once. */
#ifndef SWGL_TEST_SCENARIO_ERRORS_H
#define SWGL_TEST_SCENARIO_ERRORS_H

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "keys.h"
#include "scenario.h"

static char tmp_dir[256], data_dir[1024];

/* A valid shallow-water scenario; cases replace or add lines. */
#define GOOD_DOMAIN "[domain]\nnx = 10\nny = 5\ndx = 0.5\ndy = 0.5\nbed = 0\n"
#define GOOD_INITIAL "[initial]\neta = 1\n"
#define GOOD_RUN "[run]\nt_end = 1\n"
#define GOOD GOOD_DOMAIN GOOD_INITIAL GOOD_RUN

/* Loads bytes[0..n) as TMP/case.ini with the overrides; returns the message ("(loaded)"
 * on success). */
static inline const char *load_bytes(const char *bytes, size_t n, const char *const *ov, int nov,
                              char *err, size_t len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/case.ini", tmp_dir);
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(err, len, "cannot write %s", path);
        return err;
    }
    fwrite(bytes, 1, n, f);
    fclose(f);
    scenario sc;
    swgl_clear_error();
    swgl_status rc = scenario_load(&sc, path, ov, nov);
    if (rc == 0) {
        snprintf(err, len, "(loaded)");
        scenario_free(&sc);
    } else if (!swgl_last_error()[0]) {
        snprintf(err, len, "(failed with no message)");
    } else {
        snprintf(err, len, "%s", swgl_last_error());
    }
    return err;
}

static inline const char *load_text(const char *text, const char *const *ov, int nov, char *err, size_t len)
{
    return load_bytes(text, strlen(text), ov, nov, err, len);
}

/* The load must fail with a one-line message containing want. */
#define EXPECT_ERROR(text, want) expect_error_(__LINE__, text, NULL, 0, want)
#define EXPECT_OV_ERROR(text, ov, want) expect_error_(__LINE__, text, ov, 1, want)

/* A message is one line of printable text: no control byte (a file's are written \xNN). */
static inline int one_line(const char *m)
{
    for (const unsigned char *p = (const unsigned char *)m; *p; p++)
        if (*p < 0x20 || *p == 0x7f) return 0;
    return 1;
}

static inline void expect_error_(int line, const char *text, const char *const *ov, int nov, const char *want)
{
    char err[1024];
    load_text(text, ov, nov, err, sizeof err);
    check_(strstr(err, want) != NULL && one_line(err), __FILE__, line, "message",
           "want \"%s\", got \"%s\"", want, err);
}

/* The same for bytes that may hold NULs. */
#define EXPECT_BYTES_ERROR(bytes, want) expect_bytes_error_(__LINE__, bytes, sizeof bytes - 1, want)

static inline void expect_bytes_error_(int line, const char *bytes, size_t n, const char *want)
{
    char err[1024];
    load_bytes(bytes, n, NULL, 0, err, sizeof err);
    check_(strstr(err, want) != NULL && one_line(err), __FILE__, line, "message",
           "want \"%s\", got \"%s\"", want, err);
}

/* tests/data/NAME loaded as the scenario must fail with want. */
static inline void expect_file_error_(int line, const char *name, const char *want)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", data_dir, name);
    scenario sc;
    swgl_clear_error();
    swgl_status rc = scenario_load(&sc, path, NULL, 0);
    if (rc == SWGL_OK) scenario_free(&sc);
    check_(rc != SWGL_OK && strstr(swgl_last_error(), want) && one_line(swgl_last_error()), __FILE__,
           line, "message", "want \"%s\", got \"%s\"", want, rc == SWGL_OK ? "(loaded)" : swgl_last_error());
}
#define EXPECT_FILE_ERROR(name, want) expect_file_error_(__LINE__, name, want)

/* A scenario whose bed is tests/data/NAME. */
static inline const char *with_bed(const char *name)
{
    static char text[2048];
    snprintf(text, sizeof text, "[domain]\nbed = %s/%s\n" GOOD_INITIAL GOOD_RUN, data_dir, name);
    return text;
}

/* A file in the temporary folder (beside case.ini). */
static inline void put_file(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmp_dir, name);
    FILE *f = fopen(path, "wb");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* Sets data_dir (data: the argument the test got, else tests/data) and makes tmp_dir; 0, or 1 when the
 * temporary folder cannot be made. */
static inline int scenario_errors_setup(const char *data)
{
    snprintf(data_dir, sizeof data_dir, "%s", data ? data : "tests/data");
    snprintf(tmp_dir, sizeof tmp_dir, "%s/swgl-scenario-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmp_dir)) {
        printf("cannot make a temporary folder\n");
        return 1;
    }
    return 0;
}

/* Removes case.ini and the temporary folder; the checks' result as the exit status. */
static inline int scenario_errors_done(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/case.ini", tmp_dir);
    unlink(path);
    rmdir(tmp_dir);
    return check_done();
}

#endif
