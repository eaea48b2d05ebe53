/* hllc_keys.c — what hllc tells the scenario reader: [hllc] kappa (as roe's), and
 * [friction] (Manning, semi-implicit: docs/hllc.md). */
#include "hllc_keys.h"

#include <stdlib.h>

static const char *const sections[] = {"hllc", NULL};
static const scenario_key keys[] = {{"hllc", "kappa"}, {NULL, NULL}};

static swgl_status read(scenario_reader *r, scenario *sc)
{
    hllc_params *p = calloc(1, sizeof *p);
    if (!p) return sc_no_memory(r);
    sc->params = p;
    p->kappa = -1;   /* not given: the scheme's default */
    return sc_get_num(r, "hllc", "kappa", 0, R_NONNEG, &p->kappa);
}

/* Bytes a run needs per cell, at most: as roe's (roe_keys.c). */
const scenario_scheme hllc_keys = {.name = "hllc", .sections = sections, .keys = keys, .friction = 1,
                                   .cfl_range = R_CFL, .bytes_per_cell = 400.0, .read = read,
                                   .free_params = free};
