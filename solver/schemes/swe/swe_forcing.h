/* swe_forcing.h — the boundary data, rain and point sources of a shallow-water scenario
 * (scenario.h) as the solvers take them (cpu_ref/swe.h swe_forcing), and the run's mass
 * balance: what came in and went out, written to summary.json and printed. */
#ifndef SWGL_SWE_FORCING_H
#define SWGL_SWE_FORCING_H

#include <stdio.h>

#include "scheme.h"
#include "swe.h"

/* The swe_forcing of a scenario and the arrays it points to. */
typedef struct swe_forcing_store {
    swe_forcing f;
    swe_series *series;
    swe_segment *seg;
    int *seg_of;
    double *rain;
    size_t *src_cell;
    int *src_series;
    unsigned char *ring_count;   /* a block's (swe_forcing_window) */
    int *src_global;
} swe_forcing_store;

/* datum: the elevation the scheme's bed is measured from (kp.c), 0 for none. */
swgl_status swe_forcing_build(const scenario *sc, double datum, swe_forcing_store *fs);
void swe_forcing_release(swe_forcing_store *fs);
/* The forcing of a block of a run over MPI ranks (scheme_desc window): the forcing g of the
 * whole grid's problem (gnx x gny cells; whole_h its initial depths) seen from the block win (interior, 0-based, half-open; its grid lnx x lny) whose
 * own cells are own (the block's frame): the segments and series are g's (the same list and
 * indices, so the accounts have g's shape), the ring's segments where the block's ring lies
 * on g's, with ring_count on the faces of the own cells; the rain field on the block; the
 * sources whose cell lies in the block, in g's order, with src_global (-1 where another
 * rank owns the cell); whole and whole_h for what must be the whole grid's (the sources of
 * one cell checked over the whole grid first); forced when g has anything.  fs frees what it made (swe_forcing_release). */
swgl_status swe_forcing_window(const swe_problem *whole, const double *whole_h, const int win[4], const int own[4],
                               swe_forcing_store *fs);

/* The balance of a run: V0, V1 the volumes at the start and end, a the backend's
 * accounts.  error = V1 - V0 - (boundary in - out + rain + sources), relative to the
 * largest volume that took part (V0, V1, each total). */
typedef struct swe_balance {
    double v0, v1, in, out, rain, src_in, src_out, clip, error, scale, rel;
} swe_balance;
void swe_balance_of(const swe_account *a, double v0, double v1, swe_balance *b);
/* The bound on the relative error the tests hold a run to: 64 eps sqrt(steps + cells)
 * with eps the machine epsilon of the precision ("single" / "double"). */
double swe_balance_bound(const char *precision, long steps, long cells);
void swe_balance_json(const scenario *sc, const swe_account *a, const swe_balance *b, const char *precision,
                      long steps, long cells, json_writer *w);
void swe_balance_print(FILE *out, const scenario *sc, const swe_account *a, const swe_balance *b,
                       const char *precision, long steps, long cells);

#endif
