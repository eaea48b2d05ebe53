/* scenario_cases.c — the built-in cases: data/cases/NAME.ini, embedded at build time
 * (shaders/embed.cmake) into swgl_cases_files[], listed here by NAME (the file name
 * without ".ini").  The summary of a case is its first comment line.
 *
 * Global state: the name and summary tables below are filled once, on first use, from
 * the embedded (constant) files; they never change afterwards.  Not thread-safe before
 * the first call.
 */
#include "scenario.h"

#include <ctype.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

struct swgl_embedded { const char *name; const char *text; };
extern const struct swgl_embedded swgl_cases_files[];

#define MAX_CASES 64

static struct {
    int ready;
    const char *names[MAX_CASES + 1];
    char name_buf[MAX_CASES][64];
    char summary[MAX_CASES][160];
    const char *text[MAX_CASES];
} cases;

/* The first line starting with ';' or '#', without the marker and spaces. */
static void first_comment(const char *text, char *out, size_t len)
{
    out[0] = '\0';
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        const char *q = p;
        while (q < p + n && isspace((unsigned char)*q)) q++;
        if (q < p + n && (*q == ';' || *q == '#')) {
            q++;
            while (q < p + n && (isspace((unsigned char)*q) || *q == ';' || *q == '#')) q++;
            size_t m = (size_t)(p + n - q);
            while (m && isspace((unsigned char)q[m - 1])) m--;
            snprintf(out, len, "%.*s", (int)m, q);
            return;
        }
        p += n + (p[n] == '\n');
    }
}

static void fill_cases(void)
{
    if (cases.ready) return;
    int n = 0;
    for (int i = 0; swgl_cases_files[i].name && n < MAX_CASES; i++) {
        const char *file = swgl_cases_files[i].name;
        size_t len = strlen(file);
        if (len < 5 || strcmp(file + len - 4, ".ini") != 0 || len - 4 >= sizeof cases.name_buf[n])
            continue;
        snprintf(cases.name_buf[n], sizeof cases.name_buf[n], "%.*s", (int)(len - 4), file);
        cases.names[n] = cases.name_buf[n];
        cases.text[n] = swgl_cases_files[i].text;
        first_comment(cases.text[n], cases.summary[n], sizeof cases.summary[n]);
        n++;
    }
    cases.names[n] = NULL;
    cases.ready = 1;
}

static int find_case(const char *name)
{
    fill_cases();
    for (int i = 0; name && cases.names[i]; i++)
        if (strcmp(cases.names[i], name) == 0) return i;
    return -1;
}

const char *const *scenario_case_names(void)
{
    fill_cases();
    return cases.names;
}

const char *scenario_case_text(const char *name)
{
    int i = find_case(name);
    return i < 0 ? NULL : cases.text[i];
}

const char *scenario_case_summary(const char *name)
{
    int i = find_case(name);
    return i < 0 ? NULL : cases.summary[i];
}

#ifndef SWGL_DEFAULT_DATA_DIR
#define SWGL_DEFAULT_DATA_DIR "../shared/data"
#endif

const char *sc_data_dir(void)
{
    const char *d = getenv("SWGL_DATA");
    return d && *d ? d : SWGL_DEFAULT_DATA_DIR;
}
