/* output_json.c — a small writer for summary.json: one object of members written in
 * order, nested objects allowed, pretty-printed with a 2-space indent.
 *
 *   {
 *     "scheme": "roe",
 *     "nx": 200,
 *     "errors": {
 *       "l1_h": 0.0012
 *     }
 *   }
 *
 * Strings are escaped (quote, backslash, control characters as \uXXXX); numbers are
 * written with the fewest digits (up to 17) that read back to the same double; NaN and
 * infinities, which JSON cannot hold, are written as null.  Write errors are remembered
 * and reported once, by json_close.
 */
#include "output.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_DEPTH 32

struct json_writer {
    FILE *f;
    char *path;
    int depth;                 /* 1 inside the top-level object */
    int count[JSON_MAX_DEPTH]; /* members written so far at each depth */
    int misuse;                /* nesting errors: reported by json_close */
};

json_writer *json_open(const char *path)
{
    json_writer *w = calloc(1, sizeof *w);
    if (!w || !path || !(w->path = strdup(path))) {
        swgl_fail(path ? SWGL_ERR_NO_MEMORY : SWGL_ERR_ARG, "%s: %s", path ? path : "json_open",
                  path ? "out of memory" : "no path");
        free(w);
        return NULL;
    }
    w->f = fopen(path, "w");
    if (!w->f) {
        swgl_fail(SWGL_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
        free(w->path);
        free(w);
        return NULL;
    }
    fputs("{", w->f);
    w->depth = 1;
    return w;
}

/* Bytes of the valid UTF-8 sequence of 2 to 4 bytes at p; 0 if there is none. */
static int utf8_sequence(const unsigned char *p)
{
    int n = p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 ? 2 : 0;
    if (!n || p[0] > 0xf4) return 0;
    for (int i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80) return 0;     /* stops at the NUL too */
    if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xf0 && p[1] < 0x90)) return 0;   /* overlong */
    if (p[0] == 0xed && p[1] >= 0xa0) return 0;                                    /* surrogate */
    if (p[0] == 0xf4 && p[1] >= 0x90) return 0;                                    /* > U+10FFFF */
    return n;
}

/* A JSON string: JSON is UTF-8, so a byte that is not part of valid UTF-8 (a file name in
 * another encoding) is written as U+FFFD. */
static void write_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p >= 0x80) {
            int n = utf8_sequence(p);
            if (n) {
                fwrite(p, 1, (size_t)n, f);
                p += n - 1;
            } else {
                fputs("\\ufffd", f);
            }
            continue;
        }
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        case '\b': fputs("\\b", f); break;
        case '\f': fputs("\\f", f); break;
        default:
            if (*p < 0x20) fprintf(f, "\\u%04x", *p);
            else fputc(*p, f);
        }
    }
    fputc('"', f);
}

/* Comma, newline, indent and "key": for the next member. */
static void member(json_writer *w, const char *key)
{
    if (w->depth < 1) {
        w->misuse = 1;
        return;
    }
    fputs(w->count[w->depth]++ ? ",\n" : "\n", w->f);
    for (int i = 0; i < w->depth; i++) fputs("  ", w->f);
    write_string(w->f, key);
    fputs(": ", w->f);
}

void json_str(json_writer *w, const char *key, const char *value)
{
    if (!w) return;
    member(w, key);
    if (value) write_string(w->f, value);
    else fputs("null", w->f);
}

void json_num(json_writer *w, const char *key, double value)
{
    if (!w) return;
    member(w, key);
    if (!isfinite(value)) {
        fputs("null", w->f);
        return;
    }
    char buf[40];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, value);
        if (strtod(buf, NULL) == value) break;
    }
    fputs(buf, w->f);
}

void json_int(json_writer *w, const char *key, long long value)
{
    if (!w) return;
    member(w, key);
    fprintf(w->f, "%lld", value);
}

void json_bool(json_writer *w, const char *key, int value)
{
    if (!w) return;
    member(w, key);
    fputs(value ? "true" : "false", w->f);
}

void json_begin_object(json_writer *w, const char *key)
{
    if (!w) return;
    if (w->depth + 1 >= JSON_MAX_DEPTH) {
        w->misuse = 1;
        return;
    }
    member(w, key);
    fputs("{", w->f);
    w->depth++;
    w->count[w->depth] = 0;
}

static void end_object(json_writer *w)
{
    if (w->count[w->depth]) {
        fputs("\n", w->f);
        for (int i = 0; i < w->depth - 1; i++) fputs("  ", w->f);
    }
    fputs("}", w->f);
    w->depth--;
}

void json_end_object(json_writer *w)
{
    if (!w) return;
    if (w->depth <= 1) {
        w->misuse = 1;
        return;
    }
    end_object(w);
}

swgl_status json_close(json_writer *w)
{
    if (!w) return swgl_fail(SWGL_ERR_ARG, "json_close: no writer");
    int misuse = w->misuse || w->depth != 1;
    while (w->depth >= 1) end_object(w);
    fputs("\n", w->f);
    int bad = ferror(w->f);
    bad |= fclose(w->f) != 0;
    swgl_status st = SWGL_OK;
    if (bad || misuse)
        st = swgl_fail(bad ? SWGL_ERR_IO : SWGL_ERR_ARG, "%s: %s", w->path,
                       bad ? "write error" : "unbalanced json_begin_object / json_end_object");
    free(w->path);
    free(w);
    return st;
}
