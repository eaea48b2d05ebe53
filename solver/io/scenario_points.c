/* scenario_points.c — what is at points of the map: [gauges] (a point, or a CSV of points,
 * points.h) with [output] gauge_interval, and [sources]: the rain and the point sources.
 */
#include "scenario_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "points.h"

/* The active interior cell (i, j) that holds the point (x, y) (map coordinates, m), or an
 * error naming entry e. */
static swgl_status locate(sc_build *b, const sc_entry *e, double x, double y, int *i, int *j)
{
    const scenario *sc = b->sc;
    double fi = (x - sc->xll) / sc->dx, fj = (y - sc->yll) / sc->dy;
    if (!(fi >= 0 && fi < sc->nx && fj >= 0 && fj < sc->ny))
        return sc_entry_error(e, SWGL_ERR_INPUT, "(%g, %g) is outside the grid [%g, %g] x [%g, %g] (m)", x, y, sc->xll,
                              sc->xll + sc->nx * sc->dx, sc->yll, sc->yll + sc->ny * sc->dy);
    *i = (int)fi, *j = (int)fj;
    if (!sc->active[(size_t)*j * (size_t)sc->nx + (size_t)*i])
        return sc_entry_error(e, SWGL_ERR_INPUT, "(%g, %g) is in cell (%d, %d), which is not active", x, y, *i, *j);
    return SWGL_OK;
}

/* One gauge more: name at (x, y) (map coordinates), for entry e. */
static swgl_status add_gauge(sc_build *b, const sc_entry *e, const char *name, double x, double y)
{
    scenario *sc = b->sc;
    int i = 0, j = 0;
    swgl_status st = locate(b, e, x, y, &i, &j);
    if (st != SWGL_OK) return st;
    sc_gauge *ng = realloc(sc->gauges, (size_t)(sc->n_gauges + 1) * sizeof *ng);
    if (!ng) return sc_no_memory(b);
    sc->gauges = ng;
    sc_gauge *g = &sc->gauges[sc->n_gauges++];
    memset(g, 0, sizeof *g);
    snprintf(g->name, sizeof g->name, "%s", name);
    g->x = x, g->y = y, g->i = i, g->j = j;
    return SWGL_OK;
}

/* [gauges] KEY = FILE.csv: a gauge at every point of the file (points.h), named KEY + its
 * id, or its id when that already begins with KEY (P = police.csv with ids P1, P2, ...). */
static swgl_status gauges_from_file(sc_build *b, const sc_entry *e)
{
    char path[1024];
    sc_grid_path(b->grid.dir, e->value, path, sizeof path);
    FILE *f = fopen(path, "r");
    if (!f) return sc_entry_error(e, SWGL_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    point_table t;
    swgl_status st = points_read(f, path, &t);
    fclose(f);
    if (st != SWGL_OK) return sc_entry_error(e, st, "%s", swgl_last_error());
    size_t kl = strlen(e->key);
    for (int k = 0; st == SWGL_OK && k < t.n; k++) {
        char name[64];
        snprintf(name, sizeof name, "%s%s", strncmp(t.id[k], e->key, kl) == 0 ? "" : e->key, t.id[k]);
        if (strlen(name) >= sizeof b->sc->gauges->name)
            st = sc_entry_error(e, SWGL_ERR_INPUT, "the gauge name '%s' (point %s of %s) is longer than %zu characters",
                                name, t.id[k], path, sizeof b->sc->gauges->name - 1);
        else
            st = add_gauge(b, e, name, t.x[k], t.y[k]);
    }
    points_free(&t);
    return st;
}

/* [gauges] NAME = X Y or KEY = FILE.csv, and [output] gauge_interval. */
swgl_status sc_read_gauges(sc_build *b)
{
    scenario *sc = b->sc;
    swgl_status st = sc_get_num(b, "output", "gauge_interval", 0, R_NONNEG, &sc->gauge_interval);
    for (int k = 0; st == SWGL_OK && k < b->t->n; k++) {
        sc_entry *e = &b->t->e[k];
        if (strcmp(e->section, "gauges") != 0 || !e->value[0] || sc_value(b->t, "gauges", e->key) != e) continue;
        size_t vl = strlen(e->value);
        if (vl > 4 && strcasecmp(e->value + vl - 4, ".csv") == 0) {
            if ((st = gauges_from_file(b, e)) != SWGL_OK) return st;
            continue;
        }
        char xs[64] = "", ys[64] = "", extra[8] = "";
        double x, y;
        int n = sscanf(e->value, "%63s %63s %7s", xs, ys, extra);
        if (n != 2 || !sc_parse_number(xs, &x) || !sc_parse_number(ys, &y))
            return sc_entry_error(e, SWGL_ERR_INPUT, "expected X Y: the gauge's point (m, map coordinates)");
        if ((st = add_gauge(b, e, e->key, x, y)) != SWGL_OK) return st;
    }
    return st;
}

/* [sources] rain and the point sources NAME = X Y Q. */
swgl_status sc_read_sources(sc_build *b)
{
    scenario *sc = b->sc;
    sc->rain_series = -1;
    sc_entry *e = sc_value(b->t, "sources", "rain");
    if (e) {
        size_t n = strlen(e->value);
        swgl_status st;
        if ((n > 4 && strcasecmp(e->value + n - 4, ".csv") == 0) || strchr(e->value, ';')) {
            /* a hydrograph in mm/h, uniform in space */
            if ((st = sc_add_series(b, e, e->value, n, 0, INFINITY, "a rain rate >= 0 (mm/h)", &sc->rain_series)))
                return st;
            if (!(sc->rain = sc_new_field(b))) return SWGL_ERR_NO_MEMORY;
            for (size_t k = 0; k < sc_ncells(b); k++) sc->rain[k] = sc->active[k] ? 1.0 / 3.6e6 : 0.0;
        } else {
            if ((st = sc_get_field(b, "sources", "rain", 0.0, &sc->rain)) ||
                (st = sc_check_field(b, "sources", "rain", sc->rain, 0, INFINITY, "a rain rate >= 0 (mm/h)")))
                return st;
            int any = 0;
            for (size_t k = 0; k < sc_ncells(b); k++) {
                sc->rain[k] = sc->active[k] ? sc->rain[k] / 3.6e6 : 0.0;   /* mm/h -> m/s */
                any |= sc->rain[k] > 0.0;
            }
            if (!any) {
                free(sc->rain);
                sc->rain = NULL;
            }
        }
    }
    for (int k = 0; k < b->t->n; k++) {
        sc_entry *s = &b->t->e[k];
        if (strcmp(s->section, "sources") != 0 || strcmp(s->key, "rain") == 0 || !s->value[0]) continue;
        /* the last entry of a name wins (an override after the file) */
        if (sc_value(b->t, "sources", s->key) != s) continue;
        char xs[64], ys[64];
        const char *p = s->value;
        size_t a = strcspn(p, " \t"), bq;
        double x, y;
        snprintf(xs, sizeof xs, "%.*s", (int)(a < 63 ? a : 63), p);
        p += a + strspn(p + a, " \t");
        bq = strcspn(p, " \t");
        snprintf(ys, sizeof ys, "%.*s", (int)(bq < 63 ? bq : 63), p);
        p += bq + strspn(p + bq, " \t");
        size_t ql = strcspn(p, " \t");
        if (!sc_parse_number(xs, &x) || !sc_parse_number(ys, &y) || !ql || p[ql + strspn(p + ql, " \t")])
            return sc_entry_error(s, SWGL_ERR_INPUT, "expected X Y Q: the point (m, map coordinates) and the "
                                  "discharge in m^3/s (a number or a hydrograph CSV; < 0 takes water out)");
        int i = 0, j = 0;
        swgl_status pst = locate(b, s, x, y, &i, &j);
        if (pst != SWGL_OK) return pst;
        sc_source *ns = realloc(sc->src, (size_t)(sc->n_src + 1) * sizeof *ns);
        if (!ns) return sc_no_memory(b);
        sc->src = ns;
        sc_source *src = &sc->src[sc->n_src];
        memset(src, 0, sizeof *src);
        snprintf(src->name, sizeof src->name, "%s", s->key);
        src->x = x, src->y = y, src->i = i, src->j = j;
        swgl_status st = sc_add_series(b, s, p, ql, -INFINITY, INFINITY, "a discharge in m^3/s", &src->series);
        if (st != SWGL_OK) return st;
        sc->n_src++;
    }
    return SWGL_OK;
}
