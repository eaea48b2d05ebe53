/* scenario_boundary.c — [boundary] west, east, south, north: each side's cell codes and
 * its segments "TYPE[=VALUE] [FROM:TO]" (docs/boundaries.md), their series, and the
 * segments' cells and lengths.
 */
#include "scenario_int.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const side_names[4] = {"west", "east", "south", "north"};

static int bc_type(const char *s, size_t n)
{
    static const struct { const char *name; int code; } types[] = {
        {"wall", BC_WALL}, {"free", BC_FREE}, {"level", BC_LEVEL}, {"depth", BC_DEPTH}, {"discharge", BC_DISCHARGE}};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (n == strlen(types[i].name) && strncmp(s, types[i].name, n) == 0) return types[i].code;
    return 0;
}

/* One item "TYPE[=VALUE] [FROM:TO]" applied to the side's codes[0..n) and segs. */
static swgl_status bc_item(sc_build *b, const sc_entry *e, int side, const char *item, size_t len, unsigned char *codes,
                           int *segs, int n, double d)
{
    static const char *expected = "wall, free, level=V, depth=V or discharge=V (V a number or a hydrograph "
                                  "CSV), or a comma-separated list of such items each optionally followed by FROM:TO "
                                  "(m along the side)";
    scenario *sc = b->sc;
    while (len && isspace((unsigned char)*item)) item++, len--;
    while (len && isspace((unsigned char)item[len - 1])) len--;
    size_t w = 0;
    while (w < len && isalpha((unsigned char)item[w])) w++;
    int type = bc_type(item, w);
    const char *val = NULL;
    size_t vlen = 0, p0 = w;
    if (type && p0 < len && item[p0] == '=') {
        val = item + p0 + 1;
        while (vlen < len - p0 - 1 && !isspace((unsigned char)val[vlen])) vlen++;
        p0 += 1 + vlen;
    }
    char rest[128];
    snprintf(rest, sizeof rest, "%.*s", (int)(len - p0 < 127 ? len - p0 : 127), item + p0);
    if (len - p0 > 127) type = 0;    /* no FROM:TO is that long */
    if (type && p0 < len && !isspace((unsigned char)item[p0])) type = 0;
    double from = -INFINITY, to = INFINITY;
    char *p = rest, *end;
    while (isspace((unsigned char)*p)) p++;
    if (type && *p) {
        from = strtod(p, &end);
        if (end == p || *end != ':' || !sc_decimal_span(p, end)) type = 0;
        else {
            p = end + 1;
            to = strtod(p, &end);
            if (end == p || *end || !sc_decimal_span(p, end) || !isfinite(from) || !isfinite(to) ||
                to < from)
                type = 0;
        }
    }
    if (!type)
        return sc_entry_error(e, SWGL_ERR_INPUT, "expected %s; cannot read '%.*s%s'", expected,
                              (int)(len < 80 ? len : 80), item, len > 80 ? "..." : "");
    int valued = type == BC_LEVEL || type == BC_DEPTH || type == BC_DISCHARGE;
    if (valued && (!val || !vlen))
        return sc_entry_error(e, SWGL_ERR_INPUT, "'%.*s' needs a value: %.*s=V, V a number or a hydrograph CSV",
                              (int)(len < 80 ? len : 80), item, (int)w, item);
    if (!valued && val)
        return sc_entry_error(e, SWGL_ERR_INPUT, "'%.*s': %.*s takes no value", (int)(len < 80 ? len : 80), item,
                              (int)w, item);
    if (valued && sc->scheme->points)
        return sc_entry_error(e, SWGL_ERR_INPUT, "'%.*s': the %s scheme takes wall or free only%s",
                              (int)(len < 80 ? len : 80), item, sc->scheme->name,
                              sc->scheme->boundary_note ? sc->scheme->boundary_note : "");
    int series = -1;
    if (valued) {
        swgl_status st;
        if (type == BC_LEVEL) st = sc_add_series(b, e, val, vlen, -INFINITY, INFINITY, "a level in m", &series);
        else if (type == BC_DEPTH) st = sc_add_series(b, e, val, vlen, 0, INFINITY, "a depth >= 0 (m)", &series);
        else
            st = sc_add_series(b, e, val, vlen, 0, INFINITY,
                            "a discharge >= 0 (m^3/s into the domain; a negative one is a point source's)", &series);
        if (st != SWGL_OK) return st;
    }
    int seg = -1;
    if (type != BC_WALL) {
        sc_segment *ns = realloc(sc->seg, (size_t)(sc->n_seg + 1) * sizeof *ns);
        if (!ns) return sc_no_memory(b);
        sc->seg = ns;
        seg = sc->n_seg++;
        sc_segment *g = &sc->seg[seg];
        memset(g, 0, sizeof *g);
        g->side = side;
        g->code = (unsigned char)type;
        g->series = series;
        snprintf(g->text, sizeof g->text, "%s: %.*s", side_names[side], (int)(len < 80 ? len : 80), item);
    }
    int hit = 0;
    for (int i = 0; i < n; i++) {
        double c = (i + b->grid.offset) * d;
        if (c >= from && c <= to) codes[i] = (unsigned char)type, segs[i] = seg, hit = 1;
    }
    if (!hit)
        return sc_entry_error(e, SWGL_ERR_INPUT, "'%.*s' covers no boundary cell (cell positions "
                              "are %g, %g, ... m along the side)", (int)len, item,
                              b->grid.offset * d, (1 + b->grid.offset) * d);
    return SWGL_OK;
}

swgl_status sc_read_boundary(sc_build *b, int side)
{
    int n = side < 2 ? b->grid.ny : b->grid.nx;
    double d = side < 2 ? b->grid.dy : b->grid.dx;
    unsigned char *codes = malloc((size_t)n);
    int *segs = malloc((size_t)n * sizeof *segs);
    b->sc->bc[side] = codes;
    b->sc->bc_seg[side] = segs;
    if (!codes || !segs) return sc_no_memory(b);
    memset(codes, BC_WALL, (size_t)n);
    for (int i = 0; i < n; i++) segs[i] = -1;
    sc_entry *e = sc_value(b->t, "boundary", side_names[side]);
    if (!e) return SWGL_OK;
    for (const char *p = e->value;;) {
        size_t len = strcspn(p, ",");
        swgl_status st = bc_item(b, e, side, p, len, codes, segs, n, d);
        if (st != SWGL_OK) return st;
        if (!p[len]) break;
        p += len + 1;
    }
    return SWGL_OK;
}

/* The segments' cells and lengths: the ghosts beside an active cell (a ring ghost beside
 * an inactive cell is no boundary).  A discharge must reach the domain somewhere. */
swgl_status sc_segment_lengths(sc_build *b)
{
    scenario *sc = b->sc;
    for (int side = 0; side < 4; side++) {
        int n = side < 2 ? sc->ny : sc->nx;
        double d = side < 2 ? sc->dy : sc->dx;
        for (int m = 0; m < n; m++) {
            int i = side == SIDE_WEST ? 0 : side == SIDE_EAST ? sc->nx - 1 : m;
            int j = side == SIDE_SOUTH ? 0 : side == SIDE_NORTH ? sc->ny - 1 : m;
            int s = sc->bc_seg[side][m];
            if (s < 0) continue;
            if (!sc->active[(size_t)j * (size_t)sc->nx + (size_t)i]) {
                sc->bc_seg[side][m] = -1;
                continue;
            }
            sc->seg[s].cells++;
            sc->seg[s].length += d;
        }
    }
    for (int s = 0; s < sc->n_seg; s++)
        if (sc->seg[s].code == BC_DISCHARGE && sc->seg[s].cells == 0) {
            sc_entry *e = sc_value(b->t, "boundary", side_names[sc->seg[s].side]);
            return sc_entry_error(e, SWGL_ERR_INPUT, "'%s': the discharge reaches no active cell (the cells beside "
                                  "it are masked out or covered by a later item)", sc->seg[s].text);
        }
    return SWGL_OK;
}
