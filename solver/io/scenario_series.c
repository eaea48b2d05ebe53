/* scenario_series.c — the time series of a value (a boundary's level, depth or
 * discharge, the rain, a point source): a number, an inline series "T:V;T:V;..." or a
 * hydrograph file (hydrograph.h), into sc->series.
 */
#include "scenario_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydrograph.h"

static swgl_status series_of(sc_build *b, const sc_entry *e, char *tok, double lo, double hi, const char *what,
                             sc_series *se);

/* The series of a value: a number (a constant) or a hydrograph file (relative to the
 * scenario's folder); every value in [lo, hi].  *index gets its index in sc->series. */
swgl_status sc_add_series(sc_build *b, const sc_entry *e, const char *value, size_t len, double lo, double hi,
                          const char *what, int *index)
{
    scenario *sc = b->sc;
    if (sc->n_series >= SCENARIO_MAX_SERIES)
        return sc_entry_error(e, SWGL_ERR_INPUT, "more than %d values and hydrographs", SCENARIO_MAX_SERIES);
    sc_series *ns = realloc(sc->series, (size_t)(sc->n_series + 1) * sizeof *ns);
    if (!ns) return sc_no_memory(b);
    sc->series = ns;
    sc_series *se = &sc->series[sc->n_series];
    memset(se, 0, sizeof *se);
    char *tok = malloc(len + 1);
    if (!tok) return sc_no_memory(b);
    memcpy(tok, value, len);
    tok[len] = '\0';
    swgl_status st = series_of(b, e, tok, lo, hi, what, se);
    free(tok);
    if (st != SWGL_OK) return st;
    *index = sc->n_series++;
    return SWGL_OK;
}

/* The series of one value's text tok into se (add_series). */
static swgl_status series_of(sc_build *b, const sc_entry *e, char *tok, double lo, double hi, const char *what,
                             sc_series *se)
{
    scenario *sc = b->sc;
    double v;
    if (strchr(tok, ';') || strchr(tok, ':')) {   /* an inline series "T:V;T:V;..." */
        int n = 1;
        for (const char *c = tok; *c; c++) n += *c == ';';
        se->t = malloc((size_t)n * sizeof(double));
        se->v = malloc((size_t)n * sizeof(double));
        if (!se->t || !se->v) {
            free(se->t);
            free(se->v);
            se->t = se->v = NULL;
            return sc_no_memory(b);
        }
        int k = 0;
        const char *why = NULL;
        for (char *c = tok; !why;) {
            char *end = c + strcspn(c, ";"), *colon = memchr(c, ':', (size_t)(end - c)), sep = *end;
            *end = '\0';
            if (colon) *colon = '\0';
            if (!colon || !sc_parse_number(c, &se->t[k]) || !sc_parse_number(colon + 1, &se->v[k]))
                why = "expected T:V pairs separated by ';' (time in s)";
            else if (k && !(se->t[k] > se->t[k - 1])) why = "times must increase";
            else if (!(se->v[k] >= lo && se->v[k] <= hi)) why = what;
            if (colon) *colon = ':';
            *end = sep;
            if (why) {
                free(se->t);
                free(se->v);
                se->t = se->v = NULL;
                return sc_entry_error(e, SWGL_ERR_INPUT, "inline series '%.60s%s', pair %d: %s%s", tok,
                                      strlen(tok) > 60 ? "..." : "", k + 1,
                                      why == what ? "expected " : "", why);
            }
            k++;
            if (!sep) break;
            c = end + 1;
        }
        if (k < 2) {
            free(se->t);
            free(se->v);
            se->t = se->v = NULL;
            return sc_entry_error(e, SWGL_ERR_INPUT, "inline series '%.60s': expected at least two T:V pairs", tok);
        }
        se->n = k;
        snprintf(se->file, sizeof se->file, "%s", tok);
    } else if (sc_decimal_syntax(tok) && !sc_parse_number(tok, &v)) {
        return sc_entry_error(e, SWGL_ERR_INPUT, "%.40s: expected %s, a finite number", tok, what);
    } else if (sc_parse_number(tok, &v)) {
        if (!(v >= lo && v <= hi)) return sc_entry_error(e, SWGL_ERR_INPUT, "%s: expected %s", tok, what);
        se->t = malloc(sizeof(double));
        se->v = malloc(sizeof(double));
        if (!se->t || !se->v) {
            free(se->t);
            free(se->v);
            return sc_no_memory(b);
        }
        se->n = 1;
        se->t[0] = 0.0;
        se->v[0] = v;
    } else {
        char path[1100];
        hydrograph h;
        sc_grid_path(sc->dir, tok, path, sizeof path);
        swgl_status st = hydrograph_load(path, lo, hi, what, &h);
        if (st != SWGL_OK) return sc_entry_error(e, st == SWGL_ERR_IO ? SWGL_ERR_IO : st, "%s", swgl_last_error());
        se->n = h.n;
        se->t = h.t;
        se->v = h.v;
        snprintf(se->file, sizeof se->file, "%s", tok);
    }
    return SWGL_OK;
}
