/* scenario_int.h — inside the scenario library: the table of raw "[section] key = value"
 * entries a scenario file and its overrides produce, before any value is interpreted.
 *
 *   scenario_ini.c    reads INI text (through libinih) and --set overrides into the table
 *   scenario_field.c  turns one entry into a field on the grid (number, .asc, expression)
 *   scenario.c        interprets the table into a struct scenario
 *   scenario_cases.c  the built-in cases
 *
 * Every function that can fail returns a swgl_status and leaves its one-line message in
 * swgl_last_error() (swgl_error.h): SWGL_ERR_INPUT for a bad file, key or value.
 */
#ifndef SWGL_SCENARIO_INT_H
#define SWGL_SCENARIO_INT_H

#include <stdio.h>
#include <stddef.h>

#include "scenario.h"
#include "swgl_error.h"

/* Which schemes a key belongs to. */
/* FAM_FRICTION: the schemes with Manning friction (kp, hllc) */
enum key_family { FAM_ALL = 0, FAM_SW = 1, FAM_SED = 2, FAM_ROE = 3, FAM_KP = 4, FAM_HLLC = 5, FAM_FRICTION = 6 };

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

/* Known keys: 1 with *family set when [section] key exists; section_known: [section]. */
int sc_key_known(const char *section, const char *key, enum key_family *family);
int sc_section_known(const char *section);

/* Reading: from an open file or from text; then the overrides. */
swgl_status sc_table_read(sc_table *t, FILE *f, const char *text);
swgl_status sc_table_override(sc_table *t, const char *ov);
sc_entry *sc_table_find(sc_table *t, const char *section, const char *key);
/* The same, but NULL also when the value is empty: "key =" means "not given". */
sc_entry *sc_value(sc_table *t, const char *section, const char *key);
void sc_table_free(sc_table *t);

/* "case.ini:12: [run] cfl = 1.5: " + message, or "--set run.cfl=1.5: " + message, as
 * swgl_fail(code, ...) does (the arguments may include swgl_last_error()); returns code. */
swgl_status sc_entry_error(const sc_entry *e, swgl_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

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
struct mesh;
swgl_status sc_mesh_read(const sc_entry *e, const char *dir, struct mesh *m);
/* The path of a grid value, relative to dir (into buf). */
const char *sc_grid_path(const char *dir, const char *value, char *buf, size_t len);

#endif
