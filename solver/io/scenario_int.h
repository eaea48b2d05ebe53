/* scenario_int.h — inside the scenario library: the table of raw "[section] key = value"
 * entries a scenario file and its overrides produce, before any value is interpreted.
 *
 *   scenario_ini.c      reads INI text (through libinih) and --set overrides into the table
 *   scenario_field.c    turns one entry into a field on the grid (number, .asc, expression)
 *   scenario.c          interprets the table into a struct scenario (in the order there),
 *                       through the files below, and keeps the text; scenario_free
 *   scenario_value.c    scalar values: numbers, integers, ranges, words; common messages
 *   scenario_grid.c     the grid: from an .asc or mesh bed or from [domain] keys; memory
 *   scenario_fields.c   the active cells, fields with defaults and ranges, the
 *                       shallow-water initial state
 *   scenario_series.c   a value's time series: number, inline T:V series, hydrograph file
 *   scenario_boundary.c [boundary] sides and their segments
 *   scenario_points.c   [gauges] and [sources]
 *   scenario_run.c      [run] and [output]
 *   scenario_schemes.c  the registered schemes (scenario_scheme.h): [run] scheme, the
 *                       keys each allows, its [run] say, [friction], the bed at corners
 *   scenario_cases.c    the built-in cases
 *
 * Every function that can fail returns a swgl_status and leaves its one-line message in
 * swgl_last_error() (swgl_error.h): SWGL_ERR_INPUT for a bad file, key or value.
 */
#ifndef SWGL_SCENARIO_INT_H
#define SWGL_SCENARIO_INT_H

#include <stdio.h>
#include <stddef.h>

#include "mesh.h"
#include "scenario.h"
#include "scenario_scheme.h"
#include "swgl_error.h"

/* Which schemes a key belongs to: every one, the shallow-water ones, those with friction,
 * or one scheme's own (its scenario_scheme). */
enum key_family { FAM_ALL = 0, FAM_SW = 1, FAM_FRICTION = 2, FAM_SCHEME = 3 };

typedef struct sc_entry {
    char section[16];
    char key[16];
    char *value;          /* malloc'ed, trimmed */
    char where[600];      /* "case.ini:12" (file), or "--set run.cfl=1.5" (override) */
    int line;             /* 0 for an override */
    int is_override;
} sc_entry;

typedef struct sc_table {
    sc_entry *e;
    int n, cap;
    char file[512];       /* the name errors give for the file */
} sc_table;

/* The generic keys (scenario_ini.c, {NULL}-terminated). */
struct sc_known_key {
    const char *section, *key;
    enum key_family family;
};

/* Known keys: 1 with *family set (and *owner, FAM_SCHEME's scheme, when owner is not
 * NULL) when [section] key exists; section_known: [section]. */
int sc_key_known(const char *section, const char *key, enum key_family *family);
int sc_key_owner(const char *section, const char *key, enum key_family *family, const scenario_scheme **owner);
int sc_section_known(const char *section);
/* The known sections for a message: the generic ones, then the registered schemes' own
 * (", or a scheme's: [roe], [kp], [hllc] or [sediment]", appended by the second). */
void sc_sections_text(char *out, size_t len);
void sc_scheme_sections_text(char *out, size_t len);
/* scenario_schemes.c: a registered scheme's own [section] or [section] key (its owner). */
const scenario_scheme *sc_scheme_section(const char *section);
const scenario_scheme *sc_scheme_key(const char *section, const char *key);

/* Reading: from an open file or from text; then the overrides. */
swgl_status sc_table_read(sc_table *t, FILE *f, const char *text);
swgl_status sc_table_override(sc_table *t, const char *ov);
sc_entry *sc_table_find(sc_table *t, const char *section, const char *key);
/* The same, but NULL also when the value is empty: "key =" means "not given". */
sc_entry *sc_value(sc_table *t, const char *section, const char *key);
void sc_table_free(sc_table *t);

/* sc_entry_error (scenario_scheme.h): "case.ini:12: [run] cfl = 1.5: " + message, or
 * "--set run.cfl=1.5: " + message, as swgl_fail(code, ...) does (the arguments may include
 * swgl_last_error()); returns code. */

/* The grid on which fields are sampled. */
typedef struct sc_grid {
    int nx, ny;
    double dx, dy, xll, yll;
    double offset;        /* 0.5: cell centres (shallow water); 0: grid points (sediment) */
    int from_file;        /* xll, yll came from an .asc grid: others must match them */
    const char *dir;      /* folder for relative grid paths ("" : current directory) */
} sc_grid;

/* Fills out[nx*ny] from e's value.  nodata (may be NULL: NODATA is then an error) gets 1
 * at a grid's NODATA cells, whose value is NaN. */
swgl_status sc_field(const sc_entry *e, const sc_grid *g, double *out, unsigned char *nodata);
/* 1 if the value names an .asc grid; a triangle mesh, mesh(NODES, TRIANGLES). */
int sc_value_is_grid(const char *value);
int sc_value_is_mesh(const char *value);
/* Reads the mesh a mesh(NODES, TRIANGLES) value names (paths against dir). */
swgl_status sc_mesh_read(const sc_entry *e, const char *dir, struct mesh *m);
/* The path of a grid value, relative to dir (into buf). */
const char *sc_grid_path(const char *dir, const char *value, char *buf, size_t len);

/* ---- interpreting the table (scenario.c and the files it calls) ------------------- */

/* A scenario being built from its table. */
typedef struct sc_build {
    scenario *sc;
    sc_table *t;
    sc_grid grid;
    double *grid_values;          /* the .asc bed / height that gave the grid, or NULL */
    unsigned char *grid_nodata;
    mesh grid_mesh;               /* the mesh(NODES, TRIANGLES) bed that gave the grid */
    int have_mesh;
} sc_build;

/* scenario_value.c: "FILE: [section] key is missing: expected ..."; sc_no_memory
 * (scenario_scheme.h): "FILE: out of memory". */
swgl_status sc_missing(sc_build *b, const char *section, const char *key, const char *expected);
/* Decimal text: [+-] digits [. digits] [e [+-] digits]; span: s[0..end) after white space. */
int sc_decimal_syntax(const char *s);
int sc_decimal_span(const char *s, const char *end);
/* A finite number; an integer (as a double, +-HUGE_VAL beyond a double's range). */
int sc_parse_number(const char *s, double *v);
int sc_parse_integer(const char *s, double *v);
/* " (out of range)" for decimal text beyond a double's range, else "". */
const char *sc_range_note(const char *s);
/* [section] key as an integer >= min (as a double); sc_get_num, sc_get_int and sc_get_word
 * are scenario_scheme.h's. */
swgl_status sc_get_integer(sc_build *b, const char *section, const char *key, int required,
                           int min, double *v);

/* scenario_grid.c: b->grid and the scenario's nx, ny, dx, dy, xll, yll. */
swgl_status sc_setup_grid(sc_build *b);

/* scenario_fields.c */
size_t sc_ncells(const sc_build *b);
double *sc_new_field(sc_build *b);
/* (sc_get_field, sc_check_field, sc_grid_field: scenario_scheme.h) */
swgl_status sc_read_mask(sc_build *b);
swgl_status sc_shallow_water_fields(sc_build *b);

/* scenario_series.c: the series of value[0..len) for entry e; *index in sc->series. */
swgl_status sc_add_series(sc_build *b, const sc_entry *e, const char *value, size_t len,
                          double lo, double hi, const char *what, int *index);

/* scenario_boundary.c: one side's codes and segments; then the segments' cells. */
swgl_status sc_read_boundary(sc_build *b, int side);
swgl_status sc_segment_lengths(sc_build *b);

/* scenario_points.c */
swgl_status sc_read_gauges(sc_build *b);
swgl_status sc_read_sources(sc_build *b);

/* scenario_run.c */
swgl_status sc_read_run(sc_build *b);
swgl_status sc_read_output(sc_build *b);

/* scenario_schemes.c: [run] scheme (a registered one); the keys of another scheme refused. */
swgl_status sc_read_scheme(sc_build *b);
swgl_status sc_check_families(sc_build *b);
/* The scheme's fields at the grid's points (sediment) rather than the shallow-water cells. */
int sc_points(const sc_build *b);
/* The scheme's [run] defaults, the range of cfl, whether t_end is required. */
swgl_status sc_scheme_run(sc_build *b, enum sc_range *cfl, int *t_end_required);
/* The scheme's own keys (after [run]); [friction] (the schemes that say friction). */
swgl_status sc_read_scheme_keys(sc_build *b);
swgl_status sc_read_friction(sc_build *b);
/* The bytes a cell of a run of this scheme needs, at most (scenario_grid.c's check). */
double sc_scheme_bytes_per_cell(const sc_build *b);
/* The bed as the scheme samples it (at the corners where it says so), after the bed field. */
swgl_status sc_scheme_bed(sc_build *b);
/* A points scheme's fields (its scenario_scheme fields). */
swgl_status sc_scheme_fields(sc_build *b);

#endif
