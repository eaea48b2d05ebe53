/* scenario_run.c — [run] (t_end, cfl, g, h_dry, step_hold, step_margin, output_times; then the scheme's own keys,
 * its scenario_scheme's read) and [output].
 */
#include "output.h"
#include "scenario_int.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static swgl_status read_output_times(sc_build *b)
{
    scenario *sc = b->sc;
    sc_entry *e = sc_value(b->t, "run", "output_times");
    if (!e) return SWGL_OK;
    if (sc->t_end == 0) return sc_entry_error(e, SWGL_ERR_INPUT, "output times need [run] t_end");
    const char *p = e->value;
    double last = 0;
    int cap = 0;
    for (;;) {
        while (*p == ',' || isspace((unsigned char)*p)) p++;
        if (!*p) break;
        char tok[64];
        size_t n = strcspn(p, ", \t\r\n\v\f");
        snprintf(tok, sizeof tok, "%.*s", (int)(n < 63 ? n : 63), p);
        double t;
        const char *why = n > 63 ? "is too long to be a number"
                        : !sc_parse_number(tok, &t) ? "is not a number"
                        : !(t > 0 && t <= sc->t_end) ? "is outside (0, t_end]"
                        : (sc->n_output_times && t <= last) ? "is not after the time before it"
                        : NULL;
        if (why)
            return sc_entry_error(e, SWGL_ERR_INPUT, "expected increasing times in (0, t_end = %g]: "
                                  "'%s%s' %s", sc->t_end, tok, n > 63 ? "..." : "", why);
        if (sc->n_output_times == cap) {
            if (cap > INT_MAX / 2) return sc_no_memory(b);
            cap = cap ? 2 * cap : 16;
            double *ts = realloc(sc->output_times, (size_t)cap * sizeof *ts);
            if (!ts) return sc_no_memory(b);
            sc->output_times = ts;
        }
        sc->output_times[sc->n_output_times++] = last = t;
        p += n;
    }
    return SWGL_OK;
}

swgl_status sc_read_run(sc_build *b)
{
    scenario *sc = b->sc;
    sc->cfl = 0.9;
    sc->g = 9.81;
    sc->h_dry = 1e-5;
    sc->step_hold = 1;
    sc->step_margin = 0.9;
    enum sc_range cfl = R_CFL;
    int t_end_required = 1;
    swgl_status st = sc_scheme_run(b, &cfl, &t_end_required);
    if (st != SWGL_OK) return st;
    if ((st = sc_get_num(b, "run", "t_end", t_end_required, R_POS, &sc->t_end)) ||
        (st = sc_get_num(b, "run", "cfl", 0, cfl, &sc->cfl)) ||
        (st = sc_get_num(b, "run", "g", 0, R_POS, &sc->g)) ||
        (st = sc_get_num(b, "run", "h_dry", 0, R_POS, &sc->h_dry)) ||
        (st = sc_get_int(b, "run", "step_hold", 0, 1, SCENARIO_STEP_HOLD_MAX, &sc->step_hold)) ||
        (st = sc_get_num(b, "run", "step_margin", 0, R_CFL, &sc->step_margin)) ||
        (st = sc_read_scheme_keys(b)))
        return st;
    return read_output_times(b);
}

/* [output] netcdf, frames, maps, arrival_depth, grids. */
swgl_status sc_read_output(sc_build *b)
{
    static const char *const yes_no[] = {"false", "true", "0", "1", "no", "yes", NULL};
    int v = -1;
    swgl_status st = sc_get_word(b, "output", "netcdf", yes_no, "true or false", &v);
    b->sc->netcdf = v < 0 ? -1 : v % 2;
    v = 0;
    if (st == SWGL_OK) st = sc_get_word(b, "output", "frames", yes_no, "true or false", &v);
    b->sc->frames = v % 2;
    v = 1;
    if (st == SWGL_OK) st = sc_get_word(b, "output", "maps", yes_no, "true or false", &v);
    b->sc->maps = v % 2 && !sc_points(b);
    b->sc->arrival_depth = 0.01;
    if (st == SWGL_OK) st = sc_get_num(b, "output", "arrival_depth", 0, R_NONNEG, &b->sc->arrival_depth);
    /* (the order of output.h's GRID_FORMAT_*) */
    static const char *const formats[] = {"auto", "asc", "flt", NULL};
    v = GRID_FORMAT_AUTO;
    if (st == SWGL_OK) st = sc_get_word(b, "output", "grids", formats, "auto, asc or flt", &v);
    b->sc->grids = v;
    return st;
}
