/* scenario.c — interpreting a scenario's entries (scenario_ini.c) into a struct scenario:
 * the scheme, the grid, the active cells, the initial fields, the boundary codes, the run
 * and sediment parameters; every value is checked and every failure becomes one line
 * naming the file, the line, the key and what was expected (docs/scenarios.md).  This
 * file puts it together (the order below) and keeps the text; the pieces are in the
 * files scenario_int.h lists.
 *
 * Order of interpretation: run.scheme first (it decides which keys are allowed and where
 * the fields are sampled), then the grid (from an .asc bed or height grid, else from
 * nx, ny, dx, dy refined by level), the mask, the fields, the boundaries, the rest.
 */
#include "scenario_int.h"

#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include "mesh.h"

/* ---- putting it together ----------------------------------------------------------- */

static swgl_status build_scenario(sc_build *b)
{
    swgl_status st;
    if ((st = sc_read_scheme(b)) || (st = sc_check_families(b)) || (st = sc_setup_grid(b)) ||
        (st = sc_read_mask(b)))
        return st;
    st = sc_points(b) ? sc_scheme_fields(b) : sc_shallow_water_fields(b);
    for (int s = 0; st == SWGL_OK && s < 4; s++) st = sc_read_boundary(b, s);
    if (st == SWGL_OK && !sc_points(b)) st = sc_segment_lengths(b);
    if (st == SWGL_OK && !sc_points(b)) st = sc_read_sources(b);
    if (st == SWGL_OK && !sc_points(b)) st = sc_read_gauges(b);
    if (st == SWGL_OK) st = sc_read_run(b);
    if (st == SWGL_OK) st = sc_read_friction(b);
    if (st == SWGL_OK) st = sc_read_output(b);
    return st;
}

/* Bytes of the valid UTF-8 character at s that is not a control character; 0 if none. */
static size_t text_char(const unsigned char *s)
{
    if (s[0] < 0x80) return s[0] >= 0x20 && s[0] != 0x7f;
    size_t n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
    if (!n || s[0] > 0xf4) return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80) return 0;
    if (s[0] == 0xe0 && s[1] < 0xa0) return 0;      /* overlong */
    if (s[0] == 0xed && s[1] >= 0xa0) return 0;     /* surrogates */
    if (s[0] == 0xf0 && s[1] < 0x90) return 0;      /* overlong */
    if (s[0] == 0xf4 && s[1] >= 0x90) return 0;     /* beyond U+10FFFF */
    return n;
}

/* The message, whatever bytes a file or override put into it, made one line of valid
 * UTF-8: control bytes and bytes of invalid UTF-8 become \xNN. */
static swgl_status clean_message(swgl_status st)
{
    const unsigned char *m = (const unsigned char *)swgl_last_error();
    char out[8192];
    size_t o = 0;
    for (size_t i = 0; m[i];) {
        size_t n = text_char(m + i);
        if (o + (n ? n : 4) >= sizeof out) break;
        if (n) {
            memcpy(out + o, m + i, n);
            o += n;
            i += n;
        } else {
            o += (size_t)snprintf(out + o, sizeof out - o, "\\x%02x", m[i++]);
        }
    }
    out[o] = '\0';
    return swgl_fail(st, "%s", out);
}

/* The scenario's text (f rewound and read again, at most SCENARIO_MAX_TEXT bytes, or the
 * case's text) and its overrides, one per line, for the outputs' records. */
static swgl_status keep_text(scenario *sc, FILE *f, const char *text, const char *const *overrides, int n_overrides)
{
    size_t len = 1;
    long size = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        size_t n = (size_t)size < SCENARIO_MAX_TEXT ? (size_t)size : SCENARIO_MAX_TEXT;
        if (!(sc->text = malloc(n + 1))) goto no_memory;
        n = fread(sc->text, 1, n, f);
        sc->text[n] = '\0';
    } else if (!(sc->text = strdup(f ? "" : text ? text : ""))) {   /* a pipe: no text kept */
        goto no_memory;
    }
    for (int i = 0; i < n_overrides; i++) len += strlen(overrides[i]) + 1;
    if (!(sc->overrides = malloc(len))) goto no_memory;
    sc->overrides[0] = '\0';
    for (int i = 0, o = 0; i < n_overrides; i++) o += sprintf(sc->overrides + o, "%s%s", i ? "\n" : "", overrides[i]);
    return SWGL_OK;
no_memory:
    return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory for the scenario's text");
}

/* Reads the table (from f or text), applies the overrides, builds sc. */
static swgl_status load(scenario *sc, const char *file, FILE *f, const char *text,
                        const char *const *overrides, int n_overrides)
{
    sc_table t = {0};
    snprintf(t.file, sizeof t.file, "%s", file);
    swgl_status st = sc_table_read(&t, f, text);
    for (int i = 0; st == SWGL_OK && i < n_overrides; i++) st = sc_table_override(&t, overrides[i]);
    if (st == SWGL_OK) {
        sc_build b = {.sc = sc, .t = &t};
        b.grid.dir = sc->dir;
        st = build_scenario(&b);
        free(b.grid_values);
        free(b.grid_nodata);
        if (b.have_mesh) mesh_free(&b.grid_mesh);
    }
    if (st == SWGL_OK) st = keep_text(sc, f, text, overrides, n_overrides);
    sc_table_free(&t);
    if (st != SWGL_OK) {
        scenario_free(sc);
        clean_message(st);
    }
    return st;
}

swgl_status scenario_load(scenario *sc, const char *path, const char *const *overrides,
                          int n_overrides)
{
    memset(sc, 0, sizeof *sc);
    snprintf(sc->source, sizeof sc->source, "%s", path);
    const char *slash = strrchr(path, '/');
    if (slash) snprintf(sc->dir, sizeof sc->dir, "%.*s", (int)(slash == path ? 1 : slash - path), path);
    else snprintf(sc->dir, sizeof sc->dir, ".");
    FILE *f = fopen(path, "r");
    if (!f) return swgl_fail(SWGL_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    swgl_status st = load(sc, path, f, NULL, overrides, n_overrides);
    fclose(f);
    return st;
}

swgl_status scenario_load_case(scenario *sc, const char *name, const char *const *overrides,
                               int n_overrides)
{
    memset(sc, 0, sizeof *sc);
    const char *text = scenario_case_text(name);
    if (!text)
        return swgl_fail(SWGL_ERR_INPUT, "%s: no such built-in case (swgl list-cases lists them)",
                         name);
    char file[300];
    snprintf(sc->source, sizeof sc->source, "case %s", name);
    sc->dir[0] = '\0';    /* relative grid paths: the current directory */
    snprintf(file, sizeof file, "%.250s.ini", name);
    return load(sc, file, NULL, text, overrides, n_overrides);
}

void scenario_free(scenario *sc)
{
    if (!sc) return;
    free(sc->bed);
    free(sc->bed_corner);
    free(sc->manning);
    free(sc->active);
    free(sc->h);
    free(sc->qx);
    free(sc->qy);
    for (int s = 0; s < 4; s++) {
        free(sc->bc[s]);
        free(sc->bc_seg[s]);
    }
    free(sc->seg);
    for (int s = 0; s < sc->n_series; s++) {
        free(sc->series[s].t);
        free(sc->series[s].v);
    }
    free(sc->series);
    free(sc->rain);
    free(sc->src);
    free(sc->text);
    free(sc->overrides);
    free(sc->gauges);
    free(sc->output_times);
    if (sc->params && sc->scheme && sc->scheme->free_params) sc->scheme->free_params(sc->params);
    memset(sc, 0, sizeof *sc);
}
