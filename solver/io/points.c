/* points.c — the table of named points (points.h). */
#include "points.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int number(const char *s, double *v)
{
    char *end;
    while (*s == ' ' || *s == '\t') s++;
    if (!*s) return 0;
    *v = strtod(s, &end);
    while (*end == ' ' || *end == '\t') end++;
    return *end == '\0' && isfinite(*v);
}

void points_free(point_table *t)
{
    free(t->id);
    free(t->x);
    free(t->y);
    memset(t, 0, sizeof *t);
}

swgl_status points_read(FILE *f, const char *name, point_table *t)
{
    memset(t, 0, sizeof *t);
    char *line = NULL, sh[64];
    size_t cap = 0;
    ssize_t len;
    int lineno = 0, seen = 0;
    swgl_status st = SWGL_OK;
    while (st == SWGL_OK && (len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        if (memchr(line, '\0', (size_t)len)) {
            st = swgl_fail(SWGL_ERR_INPUT, "%s:%d: a NUL byte: expected text", name, lineno);
            break;
        }
        line[strcspn(line, "\r\n")] = '\0';
        const char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '#' || *p == '\0') continue;
        char *field[3] = {line, NULL, NULL};
        for (int k = 1; k < 3; k++) {
            char *c = strchr(field[k - 1], ',');
            if (!c) break;
            *c = '\0';
            field[k] = c + 1;
        }
        if (field[2]) {
            char *c = strchr(field[2], ',');
            if (c) *c = '\0';
        }
        double x, y;
        int numeric = field[1] && number(field[1], &x);
        if (!seen++ && !numeric) continue;   /* the header */
        if (!field[2] || !numeric || !number(field[2], &y)) {
            st = swgl_fail(SWGL_ERR_INPUT, "%s:%d: expected id,x,y (a name and two numbers, m) but found '%s'", name,
                           lineno, swgl_shown(line, sh, sizeof sh));
            break;
        }
        char *id = field[0];
        while (*id == ' ' || *id == '\t') id++;
        size_t n = strlen(id);
        while (n && (id[n - 1] == ' ' || id[n - 1] == '\t')) id[--n] = '\0';
        int ok = n >= 1 && n <= POINTS_ID_MAX;
        for (size_t k = 0; ok && k < n; k++) ok = id[k] > ' ' && id[k] < 0x7f;
        if (!ok) {
            st = swgl_fail(SWGL_ERR_INPUT, "%s:%d: expected an id of 1 to %d printable characters without spaces, "
                           "found '%s'", name, lineno, POINTS_ID_MAX, swgl_shown(id, sh, sizeof sh));
            break;
        }
        if (t->n == POINTS_MAX) {
            st = swgl_fail(SWGL_ERR_INPUT, "%s:%d: more than %d points", name, lineno, POINTS_MAX);
            break;
        }
        if (t->n % 64 == 0) {
            size_t m = (size_t)t->n + 64;
            void *a = realloc(t->id, m * sizeof *t->id), *b = a ? realloc(t->x, m * sizeof(double)) : NULL;
            if (a) t->id = a;
            if (b) t->x = b;
            void *c = b ? realloc(t->y, m * sizeof(double)) : NULL;
            if (c) t->y = c;
            if (!c) {
                st = swgl_fail(SWGL_ERR_NO_MEMORY, "%s: out of memory", name);
                break;
            }
        }
        memcpy(t->id[t->n], id, n + 1);
        t->x[t->n] = x;
        t->y[t->n++] = y;
    }
    free(line);
    if (st == SWGL_OK && t->n == 0) st = swgl_fail(SWGL_ERR_INPUT, "%s: no points (expected lines id,x,y)", name);
    if (st != SWGL_OK) points_free(t);
    return st;
}
