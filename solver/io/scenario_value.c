/* scenario_value.c — the scenario's scalar values: numbers as decimal text, integers,
 * ranges, words, and the messages for a missing key or memory (scenario_int.h).
 */
#include "scenario_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

swgl_status sc_missing(sc_build *b, const char *section, const char *key, const char *expected)
{
    return swgl_fail(SWGL_ERR_INPUT, "%s: [%s] %s is missing: expected %s", b->t->file, section,
                     key, expected);
}

swgl_status sc_no_memory(sc_build *b)
{
    return swgl_fail(SWGL_ERR_NO_MEMORY, "%s: out of memory", b->t->file);
}

/* Decimal text, as numbers are written in expressions: [+-] digits [. digits]
 * [e [+-] digits] (no hex, inf or nan). */
int sc_decimal_syntax(const char *s)
{
    static const char digits[] = "0123456789";
    if (*s == '+' || *s == '-') s++;
    size_t d = strspn(s, digits);
    s += d;
    if (*s == '.') {
        size_t f = strspn(++s, digits);
        s += f;
        d += f;
    }
    if (!d) return 0;
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-') s++;
        size_t e = strspn(s, digits);
        if (!e) return 0;
        s += e;
    }
    return *s == '\0';
}

/* The same for s[0..end) after white space (what strtod read). */
int sc_decimal_span(const char *s, const char *end)
{
    while (s < end && isspace((unsigned char)*s)) s++;
    char buf[128];
    if (end - s >= (long)sizeof buf) return 0;
    snprintf(buf, sizeof buf, "%.*s", (int)(end - s), s);
    return sc_decimal_syntax(buf);
}

/* A finite number in a double's range. */
int sc_parse_number(const char *s, double *v)
{
    if (!sc_decimal_syntax(s)) return 0;
    errno = 0;
    *v = strtod(s, NULL);
    return errno != ERANGE && isfinite(*v);
}

/* An integer: digits, or a number with an integer value such as 1e3.  *v stays a double,
 * so that a huge one is range-checked before any conversion; one beyond a double's range
 * (1e999) is +-HUGE_VAL. */
int sc_parse_integer(const char *s, double *v)
{
    if (!sc_decimal_syntax(s)) return 0;
    errno = 0;
    *v = strtod(s, NULL);
    if (errno == ERANGE) return fabs(*v) > 1;   /* overflow; an underflow is no integer */
    return isfinite(*v) && *v == floor(*v);
}

/* " (out of range)" after "expected ..." for decimal text beyond a double's range. */
const char *sc_range_note(const char *s)
{
    double v;
    if (!sc_decimal_syntax(s)) return "";
    errno = 0;
    v = strtod(s, NULL);
    return errno == ERANGE && fabs(v) > 1 ? " (out of range)" : "";
}

static int in_range(double v, enum sc_range r)
{
    switch (r) {
    case R_POS: return v > 0;
    case R_NONNEG: return v >= 0;
    case R_CFL: return v > 0 && v <= 1;
    case R_CFL_KP: return v > 0 && v <= 0.25;
    case R_THETA: return v >= 1 && v <= 2;
    default: return 1;
    }
}

static const char *range_text(enum sc_range r)
{
    switch (r) {
    case R_POS: return "a number > 0";
    case R_NONNEG: return "a number >= 0";
    case R_CFL: return "a number in (0, 1]";
    case R_CFL_KP: return "a number in (0, 0.25] for scheme = kp (a quarter cell per step: Brodtkorb et al. (8), "
                          "which keeps the depth positive)";
    case R_THETA: return "a number in [1, 2]";
    default: return "a number";
    }
}

/* A number; *v keeps def when the key is absent and not required. */
swgl_status sc_get_num(sc_build *b, const char *section, const char *key, int required,
                       enum sc_range r, double *v)
{
    sc_entry *e = sc_value(b->t, section, key);
    if (!e) return required ? sc_missing(b, section, key, range_text(r)) : SWGL_OK;
    if (!sc_parse_number(e->value, v) || !in_range(*v, r))
        return sc_entry_error(e, SWGL_ERR_INPUT, "expected %s%s", range_text(r), sc_range_note(e->value));
    return SWGL_OK;
}

/* An integer >= min, as a double (callers check the upper end before converting); *v
 * keeps its value when the key is absent and not required. */
swgl_status sc_get_integer(sc_build *b, const char *section, const char *key, int required,
                           int min, double *v)
{
    sc_entry *e = sc_value(b->t, section, key);
    if (!e) {
        if (!required) return SWGL_OK;
        return swgl_fail(SWGL_ERR_INPUT, "%s: [%s] %s is missing: expected an integer >= %d",
                         b->t->file, section, key, min);
    }
    if (!sc_parse_integer(e->value, v) || *v < min)
        return sc_entry_error(e, SWGL_ERR_INPUT, "expected an integer >= %d", min);
    return SWGL_OK;
}

/* An integer in [min, max]. */
swgl_status sc_get_int(sc_build *b, const char *section, const char *key, int required, int min,
                       int max, int *v)
{
    double x = *v;
    swgl_status st = sc_get_integer(b, section, key, required, min, &x);
    if (st != SWGL_OK) return st;
    if (x > max)
        return sc_entry_error(sc_value(b->t, section, key), SWGL_ERR_INPUT,
                              "expected an integer from %d to %d", min, max);
    *v = (int)x;
    return SWGL_OK;
}

/* One of words (NULL-terminated): its index in *v. */
swgl_status sc_get_word(sc_build *b, const char *section, const char *key,
                        const char *const *words, const char *expected, int *v)
{
    sc_entry *e = sc_value(b->t, section, key);
    if (!e) return SWGL_OK;
    for (int i = 0; words[i]; i++) {
        if (strcmp(e->value, words[i]) == 0) {
            *v = i;
            return SWGL_OK;
        }
    }
    return sc_entry_error(e, SWGL_ERR_INPUT, "expected %s", expected);
}
