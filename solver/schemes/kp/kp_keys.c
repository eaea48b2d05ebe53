/* kp_keys.c — what kp tells the scenario reader: [kp] kappa, desingularize, cap_depth, theta, integrator,
 * early_exit; [friction]; the bed at the cell corners (docs/scenarios.md "The bed of
 * kp"); a cfl of a quarter cell a step by default, (8) of Brodtkorb et al. */
#include "kp_keys.h"

#include <stdlib.h>

static const char *const sections[] = {"kp", NULL};
static const scenario_key keys[] = {
    {"kp", "theta"}, {"kp", "kappa"}, {"kp", "desingularize"}, {"kp", "cap_depth"}, {"kp", "integrator"}, {"kp", "early_exit"}, {NULL, NULL}};

static swgl_status read(scenario_reader *r, scenario *sc)
{
    kp_params *p = calloc(1, sizeof *p);
    if (!p) return sc_no_memory(r);
    sc->params = p;
    *p = (kp_params){.kappa = -1, .cap_depth = -1, .theta = 1.3, .rk2 = 1, .early_exit = 0};
    static const char *const integrators[] = {"euler", "rk2", NULL};
    static const char *const modes[] = {"auto", "on", "off", NULL};
    static const char *const readings[] = {"depth", "printed", NULL};
    swgl_status st;
    if ((st = sc_get_num(r, "kp", "kappa", 0, R_NONNEG, &p->kappa)) ||
        (st = sc_get_word(r, "kp", "desingularize", readings, "depth or printed", &p->printed)) ||
        (st = sc_get_num(r, "kp", "cap_depth", 0, R_NONNEG, &p->cap_depth)) ||
        (st = sc_get_num(r, "kp", "theta", 0, R_THETA, &p->theta)) ||
        (st = sc_get_word(r, "kp", "integrator", integrators, "rk2 or euler", &p->rk2)) ||
        (st = sc_get_word(r, "kp", "early_exit", modes, "auto, on or off", &p->early_exit)))
        return st;
    return SWGL_OK;
}

/* Bytes a run needs per cell, at most: the scenario fields, the scheme's problem and
 * state, the run's two copies of the state for --compare, the output grids, and the worst
 * pair of backends a --compare can hold, counting the GPU's textures, which llvmpipe keeps
 * in host memory.  Measured peak (slope between 1000^2 and 1400^2 cells): kp gpu
 * --precision double --compare cpu-scalar with friction ~680 (cpu-scalar alone 397: it
 * keeps every cell's four point values, the face fluxes and both RK2 states in double). */
const scenario_scheme kp_keys = {.name = "kp", .sections = sections, .keys = keys, .friction = 1,
                                 .bed_at_corners = 1, .cfl_default = 0.25, .cfl_range = R_CFL_KP,
                                 .bytes_per_cell = 720.0, .read = read, .free_params = free};
