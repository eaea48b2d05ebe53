/* scenario_scheme.h — what a scheme tells the scenario reader, and the reader's calls a
 * scheme uses to read its own keys.  The reader knows no scheme: each scheme's folder
 * defines one scenario_scheme (solver/schemes/<name>/<name>_keys.c), and
 * scheme_keys_install() (solver/schemes/keys.c) registers them all before a scenario is
 * read.  A key belongs to the generic reader (the grid, the shallow-water state, boundaries,
 * [run], [output]: docs/scenarios.md), to [friction] (every scheme that says friction), or
 * to one scheme (its own sections and keys): a key of another scheme than [run] scheme's
 * is an error naming its owner. */
#ifndef SWGL_SCENARIO_SCHEME_H
#define SWGL_SCENARIO_SCHEME_H

#include "scenario.h"
#include "swgl_error.h"

/* The reader of one scenario, as a scheme sees it. */
struct sc_build;
typedef struct sc_build scenario_reader;
struct sc_entry;

/* The range a number must lie in (the reader words each for its message). */
enum sc_range { R_ANY, R_POS, R_NONNEG, R_CFL, R_CFL_KP, R_THETA };

typedef struct scenario_key {
    const char *section, *key;
} scenario_key;

typedef struct scenario_scheme {
    const char *name;                 /* [run] scheme = name */
    /* 1: its fields at the grid's points, the grid from its own field (grid_key), none of
     * the shallow-water keys (sediment); 0: a shallow-water scheme on cells */
    int points;
    const char *grid_section, *grid_key;   /* points: the field that gives the grid */
    const char *boundary_note;        /* points: added to "takes wall or free only" */
    const char *const *sections;      /* its own sections (NULL-terminated; may be NULL) */
    const scenario_key *keys;         /* its own keys ({NULL}-terminated) */
    int friction;                     /* takes [friction] manning */
    int bed_at_corners;               /* samples the bed at the cell corners (kp) */
    double cfl_default;               /* 0: the reader's (0.9) */
    enum sc_range cfl_range;          /* R_CFL unless its own */
    double bytes_per_cell;            /* what a run needs a cell at most (the memory check) */
    /* Optional: whether [run] t_end may be absent (sediment: steps counts the steps). */
    swgl_status (*t_end_optional)(scenario_reader *r, int *optional);
    /* Optional (points): its fields, where the shallow-water schemes read their state. */
    swgl_status (*fields)(scenario_reader *r, scenario *sc);
    /* Its own keys, after [run], into sc->params (which free_params frees). */
    swgl_status (*read)(scenario_reader *r, scenario *sc);
    void (*free_params)(void *params);
} scenario_scheme;

/* Registers a scheme with the reader (once; the same pointer again is ignored). */
void scenario_register_scheme(const scenario_scheme *s);
/* The registered scheme of that name, or NULL. */
const scenario_scheme *scenario_scheme_named(const char *name);

/* ---- the reader's calls for a scheme's keys (every failure names the file, the line and
 * the key, and what was expected) ---- */

/* The entry of [section] key, NULL when absent or empty ("key =" means "not given"). */
const struct sc_entry *sc_given(scenario_reader *r, const char *section, const char *key);
/* "case.ini:12: [run] cfl = 1.5: " + message; returns code. */
swgl_status sc_entry_error(const struct sc_entry *e, swgl_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* [section] key as a number in range r, an integer in [min, max], one of words (its
 * index); *v keeps its value when the key is absent and not required (get_word: absent is
 * never an error). */
swgl_status sc_get_num(scenario_reader *r, const char *section, const char *key, int required, enum sc_range rg,
                       double *v);
swgl_status sc_get_int(scenario_reader *r, const char *section, const char *key, int required, int min, int max,
                       int *v);
swgl_status sc_get_word(scenario_reader *r, const char *section, const char *key, const char *const *words,
                        const char *expected, int *v);
/* [section] key on the grid, or def when absent (def NaN: required); every active cell's
 * value in [lo, hi]; the field that gave the grid, else [section] key (required). */
swgl_status sc_get_field(scenario_reader *r, const char *section, const char *key, double def, double **out);
swgl_status sc_check_field(scenario_reader *r, const char *section, const char *key, const double *v, double lo,
                           double hi, const char *expected);
swgl_status sc_grid_field(scenario_reader *r, const char *section, const char *key, double **out);
/* "FILE: out of memory". */
swgl_status sc_no_memory(scenario_reader *r);

#endif
