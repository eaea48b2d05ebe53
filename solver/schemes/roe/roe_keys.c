/* roe_keys.c — what roe tells the scenario reader: [roe] kappa (the thin-film depth of the
 * velocity desingularization, cpu_ref/roe_cpu.h (M5)); a shallow-water scheme on cells. */
#include "roe_keys.h"

#include <stdlib.h>

static const char *const sections[] = {"roe", NULL};
static const scenario_key keys[] = {{"roe", "kappa"}, {NULL, NULL}};

static swgl_status read(scenario_reader *r, scenario *sc)
{
    roe_params *p = calloc(1, sizeof *p);
    if (!p) return sc_no_memory(r);
    sc->params = p;
    p->kappa = -1;   /* not given: the scheme's default */
    return sc_get_num(r, "roe", "kappa", 0, R_NONNEG, &p->kappa);
}

/* Bytes a run needs per cell, at most (kp_keys.c says what is counted): roe gpu
 * --precision double --compare cpu-scalar ~375 measured. */
const scenario_scheme roe_keys = {.name = "roe", .sections = sections, .keys = keys, .cfl_range = R_CFL,
                                  .bytes_per_cell = 400.0, .read = read, .free_params = free};
