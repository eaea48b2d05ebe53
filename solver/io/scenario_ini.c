/* scenario_ini.c — reading a scenario's INI text into a table of entries, through the
 * system libinih (ini_parse_stream), and applying "section.key=value" overrides.
 *
 * libinih is built with a 200-byte line buffer on the stack and its handler is not told
 * line numbers, so this file feeds it through its own reader:
 *  - the reader reads each whole physical line itself (getline, or from the built-in
 *    text) and counts lines; libinih calls the handler right after the reader hands it a
 *    line, so the handler knows the line number of every key;
 *  - leading spaces are dropped, so an indented line is an ordinary line (libinih's
 *    multi-line continuation values are not used);
 *  - a section header is checked against the known sections here, so that an unknown
 *    section is an error even when it holds no keys;
 *  - a line too long for libinih's buffer is handed over as "key = v", and the reader
 *    keeps the full value (inline comment removed, as libinih would) aside for that one
 *    line: the handler, called before the reader is called again, takes it instead of
 *    "v".  Nothing in the text marks a long line, so no byte of a value can pose as one;
 *    a long section header is handed over as "[name]" (libinih ignores what follows);
 *  - a line ends at "\n", "\r\n" or a lone "\r"; a NUL byte is an error (at once: a
 *    stream of NULs is not read to its end).
 * The first error stops reading: the reader then returns NULL (end of input).
 */
#include "scenario_int.h"

#include <ctype.h>
#include <ini.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The generic keys (a scheme's own sections and keys are its scenario_scheme's). */
static const struct sc_known_key known_keys[] = {
    {"domain", "nx", FAM_ALL}, {"domain", "ny", FAM_ALL}, {"domain", "dx", FAM_ALL},
    {"domain", "dy", FAM_ALL}, {"domain", "level", FAM_ALL}, {"domain", "bed", FAM_SW},
    {"domain", "mask", FAM_ALL}, {"domain", "xll", FAM_ALL}, {"domain", "yll", FAM_ALL},
    {"initial", "eta", FAM_SW}, {"initial", "depth", FAM_SW}, {"initial", "qx", FAM_SW},
    {"initial", "qy", FAM_SW}, {"friction", "manning", FAM_FRICTION},
    {"boundary", "west", FAM_ALL}, {"boundary", "east", FAM_ALL},
    {"boundary", "south", FAM_ALL}, {"boundary", "north", FAM_ALL},
    {"run", "scheme", FAM_ALL}, {"run", "t_end", FAM_ALL}, {"run", "cfl", FAM_ALL},
    {"run", "g", FAM_ALL}, {"run", "h_dry", FAM_ALL}, {"run", "output_times", FAM_ALL},
    {"run", "step_hold", FAM_SW}, {"run", "step_margin", FAM_SW},
    {"sources", "rain", FAM_SW},
    {"output", "netcdf", FAM_ALL}, {"output", "frames", FAM_ALL}, {"output", "gauge_interval", FAM_SW},
    {"output", "maps", FAM_SW}, {"output", "arrival_depth", FAM_SW},
    {"output", "grids", FAM_ALL},
    {NULL, NULL, FAM_ALL}
};

static const char *const known_sections[] = {"domain", "initial", "boundary", "run", "sources", "output", "gauges",
                                             "friction", NULL};

/* "[domain], [initial], ..., [output], or a scheme's: [roe], [kp], [hllc] or [sediment]" */
void sc_sections_text(char *out, size_t len)
{
    size_t o = 0;
    out[0] = 0;
    for (int i = 0; known_sections[i]; i++) {
        int w = snprintf(out + o, len - o, "%s[%s]", i ? ", " : "", known_sections[i]);
        if (w > 0 && (size_t)w < len - o) o += (size_t)w;
    }
    sc_scheme_sections_text(out + o, len - o);
}

int sc_section_known(const char *section)
{
    for (int i = 0; known_sections[i]; i++)
        if (strcmp(known_sections[i], section) == 0) return 1;
    return sc_scheme_section(section) != NULL;
}

static const struct sc_known_key *find_key(const struct sc_known_key *t, const char *section, const char *key)
{
    for (int i = 0; t[i].section; i++)
        if (strcmp(t[i].section, section) == 0 && strcmp(t[i].key, key) == 0) return &t[i];
    return NULL;
}

int sc_key_known(const char *section, const char *key, enum key_family *family)
{
    return sc_key_owner(section, key, family, NULL);
}

int sc_key_owner(const char *section, const char *key, enum key_family *family, const scenario_scheme **owner)
{
    const struct sc_known_key *k = find_key(known_keys, section, key);
    const scenario_scheme *s = k ? NULL : sc_scheme_key(section, key);
    if (owner) *owner = s;
    if (k || s) {
        if (family) *family = k ? k->family : FAM_SCHEME;
        return 1;
    }
    /* [sources] NAME = X Y Q and [gauges] NAME = X Y: any name is a point source or a
     * gauge (a name, not a number, at most 15 characters: sc_entry's key) */
    if ((strcmp(section, "sources") == 0 || strcmp(section, "gauges") == 0) && strlen(key) < 16 &&
        (isalpha((unsigned char)key[0]) || key[0] == '_')) {
        for (const char *c = key; *c; c++)
            if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-') return 0;
        if (family) *family = FAM_SW;
        return 1;
    }
    return 0;
}

/* ---- the table --------------------------------------------------------------------- */

swgl_status sc_entry_error(const sc_entry *e, swgl_status code, const char *fmt, ...)
{
    char msg[4096];    /* first: the arguments may point into swgl_last_error() */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (e->is_override) return swgl_fail(code, "%s: %s", e->where, msg);
    return swgl_fail(code, "%s: [%s] %s = %.80s%s: %s", e->where, e->section, e->key, e->value,
                     strlen(e->value) > 80 ? "..." : "", msg);
}

sc_entry *sc_table_find(sc_table *t, const char *section, const char *key)
{
    for (int i = 0; i < t->n; i++)
        if (strcmp(t->e[i].section, section) == 0 && strcmp(t->e[i].key, key) == 0) return &t->e[i];
    return NULL;
}

sc_entry *sc_value(sc_table *t, const char *section, const char *key)
{
    sc_entry *e = sc_table_find(t, section, key);
    return e && e->value[0] ? e : NULL;
}

static sc_entry *table_add(sc_table *t)
{
    if (t->n == t->cap) {
        int cap = t->cap ? 2 * t->cap : 32;
        sc_entry *e = realloc(t->e, (size_t)cap * sizeof *e);
        if (!e) return NULL;
        t->e = e;
        t->cap = cap;
    }
    sc_entry *e = &t->e[t->n++];
    memset(e, 0, sizeof *e);
    return e;
}

void sc_table_free(sc_table *t)
{
    if (!t) return;
    for (int i = 0; i < t->n; i++) free(t->e[i].value);
    free(t->e);
    t->e = NULL;
    t->n = t->cap = 0;
}

/* A copy of s[0..n) without leading and trailing spaces. */
static char *trimmed_copy(const char *s, size_t n)
{
    while (n && isspace((unsigned char)*s)) s++, n--;
    while (n && isspace((unsigned char)s[n - 1])) n--;
    char *c = malloc(n + 1);
    if (!c) return NULL;
    memcpy(c, s, n);
    c[n] = '\0';
    return c;
}

/* ---- the reader and the handler ---------------------------------------------------- */

typedef struct ini_stream {
    sc_table *t;
    FILE *f;                 /* either a file ... */
    const char *text;        /* ... or text */
    char *line;              /* the current physical line */
    size_t cap;
    int lineno;
    char *long_value;        /* the value of the current line when it was too long for
                              * libinih (malloc'ed), else NULL */
    swgl_status failed;      /* SWGL_OK, or the first failure (its message is set) */
} ini_stream;

static swgl_status stream_fail(ini_stream *s, swgl_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* "case.ini:12: " + message; only the first failure is kept (and returned). */
static swgl_status stream_fail(ini_stream *s, swgl_status code, const char *fmt, ...)
{
    if (s->failed) return s->failed;
    char msg[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return s->failed = swgl_fail(code, "%s:%d: %s", s->t->file, s->lineno, msg);
}

/* The next byte of the input, EOF at the end. */
static int next_byte(ini_stream *s)
{
    if (s->f) return getc(s->f);
    return *s->text ? (unsigned char)*s->text++ : EOF;
}

/* The next physical line into s->line without its line ending ("\n", "\r\n" or "\r");
 * -1 at the end, or on a NUL byte or out of memory (s->failed set). */
static long next_line(ini_stream *s)
{
    size_t n = 0;
    int c = next_byte(s);
    if (c == EOF) return -1;
    s->lineno++;
    for (; c != EOF && c != '\n'; c = next_byte(s)) {
        if (c == '\r') {
            int d = next_byte(s);
            if (d != '\n' && d != EOF) {
                if (s->f) ungetc(d, s->f);
                else s->text--;
            }
            break;
        }
        if (c == '\0') {
            stream_fail(s, SWGL_ERR_INPUT, "a NUL byte at column %zu (expected text)", n + 1);
            return -1;
        }
        if (n + 1 >= s->cap) {
            size_t cap = s->cap ? 2 * s->cap : 256;
            char *b = realloc(s->line, cap);
            if (!b) {
                stream_fail(s, SWGL_ERR_NO_MEMORY, "out of memory for a line of %zu bytes", n);
                return -1;
            }
            s->line = b;
            s->cap = cap;
        }
        s->line[n++] = (char)c;
    }
    if (!s->line) {    /* an empty first line */
        if (!(s->line = malloc(s->cap = 256))) {
            stream_fail(s, SWGL_ERR_NO_MEMORY, "out of memory");
            return -1;
        }
    }
    s->line[n] = '\0';
    return n > (size_t)LONG_MAX ? -1 : (long)n;
}

/* "[name]": an unknown name is an error here. */
static void check_section(ini_stream *s, const char *p)
{
    const char *end = strchr(p, ']');
    if (!end) return;   /* libinih reports the malformed header */
    size_t n = (size_t)(end - p - 1);
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(n < 63 ? n : 63), p + 1);
    if (!sc_section_known(name)) {
        char known[512];
        sc_sections_text(known, sizeof known);
        stream_fail(s, SWGL_ERR_INPUT, "unknown section [%s] (expected %s)", name, known);
    }
}

/* A line too long for libinih: keeps the value aside in s->long_value and hands over
 * "key = v" (a section header: "[name]", a comment: ";"). */
static swgl_status shorten_line(ini_stream *s, const char *p, char *str, int num)
{
    if (*p == ';' || *p == '#') {
        snprintf(str, (size_t)num, ";\n");
        return SWGL_OK;
    }
    if (*p == '[') {
        const char *end = strchr(p, ']');
        if (end && end - p + 3 <= num) snprintf(str, (size_t)num, "%.*s\n", (int)(end - p + 1), p);
        else snprintf(str, (size_t)num, "[\n");    /* malformed: libinih reports the line */
        return SWGL_OK;
    }
    size_t k = strcspn(p, "=:");
    if (!p[k] || k > 60) return stream_fail(s, SWGL_ERR_INPUT, "expected [section] or key = value");
    const char *v = p + k + 1;
    size_t n = 0;
    for (; v[n]; n++)     /* an inline comment starts at ';' after a space, as in libinih */
        if (v[n] == ';' && n > 0 && isspace((unsigned char)v[n - 1])) break;
    if (!(s->long_value = trimmed_copy(v, n))) return stream_fail(s, SWGL_ERR_NO_MEMORY, "out of memory");
    snprintf(str, (size_t)num, "%.*s= v\n", (int)k, p);
    return SWGL_OK;
}

static char *reader(char *str, int num, void *stream)
{
    ini_stream *s = stream;
    free(s->long_value);     /* the previous line's: its handler call is over */
    s->long_value = NULL;
    if (s->failed) return NULL;
    long n = next_line(s);
    if (n < 0) return NULL;
    const char *p = s->line;
    while (isspace((unsigned char)*p)) p++, n--;
    if (*p == '[') check_section(s, p);
    if (s->failed) return NULL;
    if (n + 2 <= num - 1) {
        snprintf(str, (size_t)num, "%s\n", p);
        return str;
    }
    return shorten_line(s, p, str, num) == SWGL_OK ? str : NULL;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
    ini_stream *s = user;
    if (s->failed) return 0;
    if (s->long_value) value = s->long_value;
    if (!*section) {
        stream_fail(s, SWGL_ERR_INPUT, "%s = %s: key outside any section", name, value);
        return 0;
    }
    if (!sc_key_known(section, name, NULL)) {
        if ((strcmp(section, "sources") == 0 || strcmp(section, "gauges") == 0) && strlen(name) >= 16)
            stream_fail(s, SWGL_ERR_INPUT, "[%s] %.40s%s: a %s's name has at most 15 characters", section, name,
                        strlen(name) > 40 ? "..." : "", section[0] == 's' ? "point source" : "gauge");
        else stream_fail(s, SWGL_ERR_INPUT, "[%s] %s: unknown key", section, name);
        return 0;
    }
    const sc_entry *old = sc_table_find(s->t, section, name);
    if (old) {
        stream_fail(s, SWGL_ERR_INPUT, "[%s] %s: duplicate key (first given on line %d)", section,
                    name, old->line);
        return 0;
    }
    sc_entry *e = table_add(s->t);
    if (!e || !(e->value = trimmed_copy(value, strlen(value)))) {
        if (e) s->t->n--;
        stream_fail(s, SWGL_ERR_NO_MEMORY, "out of memory");
        return 0;
    }
    snprintf(e->section, sizeof e->section, "%s", section);
    snprintf(e->key, sizeof e->key, "%s", name);
    snprintf(e->where, sizeof e->where, "%s:%d", s->t->file, s->lineno);
    e->line = s->lineno;
    return 1;
}

swgl_status sc_table_read(sc_table *t, FILE *f, const char *text)
{
    ini_stream s = {.t = t, .f = f, .text = text};
    int rc = ini_parse_stream(reader, &s, handler, &s);
    if (!s.failed && rc > 0) {
        s.lineno = rc;
        stream_fail(&s, SWGL_ERR_INPUT, "expected [section] or key = value");
    } else if (!s.failed && rc != 0) {
        stream_fail(&s, rc == -2 ? SWGL_ERR_NO_MEMORY : SWGL_ERR_IO, "cannot read the file");
    }
    free(s.long_value);
    free(s.line);
    return s.failed;
}

/* ---- overrides --------------------------------------------------------------------- */

/* Trims s[0..n) into out (size 16); 0 if it is too long to be a known name. */
static int copy_name(char out[16], const char *s, size_t n)
{
    while (n && isspace((unsigned char)*s)) s++, n--;
    while (n && isspace((unsigned char)s[n - 1])) n--;
    if (n >= 16) return 0;
    memcpy(out, s, n);
    out[n] = '\0';
    return 1;
}

swgl_status sc_table_override(sc_table *t, const char *ov)
{
    if (!ov) return swgl_fail(SWGL_ERR_INPUT, "--set: expected section.key=value");
    const char *dot = strchr(ov, '.'), *eq = strchr(ov, '=');
    if (!dot || !eq || dot > eq)
        return swgl_fail(SWGL_ERR_INPUT, "--set %.500s: expected section.key=value", ov);
    char section[16], key[16];
    int named = copy_name(section, ov, (size_t)(dot - ov)) && copy_name(key, dot + 1, (size_t)(eq - dot - 1));
    if (named && (!section[0] || !key[0]))
        return swgl_fail(SWGL_ERR_INPUT, "--set %.500s: expected section.key=value (the %s is empty)",
                         ov, section[0] ? "key" : "section");
    if (!named || !sc_key_known(section, key, NULL))
        return swgl_fail(SWGL_ERR_INPUT, "--set %.500s: unknown key", ov);
    char *value = trimmed_copy(eq + 1, strlen(eq + 1));
    sc_entry *e = value ? sc_table_find(t, section, key) : NULL;
    if (value && !e && (e = table_add(t))) {
        memcpy(e->section, section, sizeof section);
        memcpy(e->key, key, sizeof key);
        e->value = NULL;
    }
    if (!value || !e) {
        free(value);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "--set %.500s: out of memory", ov);
    }
    free(e->value);
    e->value = value;
    e->line = 0;
    e->is_override = 1;
    snprintf(e->where, sizeof e->where, "--set %.580s", ov);
    return SWGL_OK;
}
