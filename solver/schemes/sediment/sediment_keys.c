/* sediment_keys.c — what the sediment scheme (Su et al. 2013) tells the scenario reader:
 * its fields at the grid's points, the grid from [initial] height; [initial] sand,
 * [sediment] alpha, beta (fields), cs, cm, layer, dt, steps, form and the inflow; walls
 * or free sides only; t_end not needed when steps counts the steps. */
#include "sediment_keys.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>

static const char *const sections[] = {"sediment", NULL};
static const scenario_key keys[] = {
    {"initial", "height"}, {"initial", "sand"},
    {"sediment", "alpha"}, {"sediment", "beta"}, {"sediment", "cs"}, {"sediment", "cm"},
    {"sediment", "layer"}, {"sediment", "dt"}, {"sediment", "steps"}, {"sediment", "form"},
    {"sediment", "inflow_side"}, {"sediment", "inflow_from"}, {"sediment", "inflow_to"},
    {"sediment", "inflow_sand"}, {"sediment", "inflow_mud"}, {NULL, NULL}};

static void free_params(void *v)
{
    sediment_params *p = v;
    if (!p) return;
    free(p->alpha);
    free(p->beta);
    free(p->height);
    free(p->sand);
    free(p);
}

static sediment_params *params(scenario_reader *r, scenario *sc)
{
    if (!sc->params && !(sc->params = calloc(1, sizeof(sediment_params)))) sc_no_memory(r);
    return sc->params;
}

static swgl_status t_end_optional(scenario_reader *r, int *optional)
{
    int steps = 0;
    swgl_status st = sc_get_int(r, "sediment", "steps", 0, 0, INT_MAX, &steps);
    *optional = steps > 0;
    return st;
}

/* [initial] height (the grid's field), sand, [sediment] alpha, beta */
static swgl_status fields(scenario_reader *r, scenario *sc)
{
    sediment_params *p = params(r, sc);
    if (!p) return SWGL_ERR_NO_MEMORY;
    swgl_status st;
    if ((st = sc_grid_field(r, "initial", "height", &p->height)) ||
        (st = sc_get_field(r, "initial", "sand", 1.0, &p->sand)) ||
        (st = sc_get_field(r, "sediment", "alpha", 1.0, &p->alpha)) ||
        (st = sc_get_field(r, "sediment", "beta", 0.5, &p->beta)))
        return st;
    if ((st = sc_check_field(r, "initial", "sand", p->sand, 0, 1, "a sand fraction s in [0, 1]")) ||
        (st = sc_check_field(r, "sediment", "alpha", p->alpha, 0, INFINITY, "alpha >= 0")) ||
        (st = sc_check_field(r, "sediment", "beta", p->beta, 0, INFINITY, "beta >= 0")))
        return st;
    return SWGL_OK;
}

static swgl_status read(scenario_reader *r, scenario *sc)
{
    static const char *const forms[] = {"paper", "conservative", NULL};
    static const char *const sides[] = {"west", "east", "south", "north", "none", NULL};
    sediment_params *p = params(r, sc);
    if (!p) return SWGL_ERR_NO_MEMORY;
    int side = 4;
    p->cs = p->cm = p->layer = 1.0;
    p->inflow_side = -1;
    p->form = 1;    /* conservative; paper, (4) as printed, lets s leave [0, 1] */
    swgl_status st;
    if ((st = sc_get_num(r, "sediment", "cs", 0, R_POS, &p->cs)) ||
        (st = sc_get_num(r, "sediment", "cm", 0, R_POS, &p->cm)) ||
        (st = sc_get_num(r, "sediment", "layer", 0, R_POS, &p->layer)) ||
        (st = sc_get_num(r, "sediment", "dt", 0, R_POS, &p->dt)) ||
        (st = sc_get_int(r, "sediment", "steps", 0, 0, INT_MAX, &p->steps)) ||
        (st = sc_get_word(r, "sediment", "form", forms, "paper or conservative", &p->form)) ||
        (st = sc_get_word(r, "sediment", "inflow_side", sides, "none, west, east, south or north", &side)))
        return st;
    p->inflow_side = side == 4 ? -1 : side;
    double len = side < 2 ? (sc->ny - 1) * sc->dy : (sc->nx - 1) * sc->dx;
    p->inflow_from = 0;
    p->inflow_to = len;
    if ((st = sc_get_num(r, "sediment", "inflow_from", 0, R_NONNEG, &p->inflow_from)) ||
        (st = sc_get_num(r, "sediment", "inflow_to", 0, R_NONNEG, &p->inflow_to)) ||
        (st = sc_get_num(r, "sediment", "inflow_sand", 0, R_NONNEG, &p->inflow_sand)) ||
        (st = sc_get_num(r, "sediment", "inflow_mud", 0, R_NONNEG, &p->inflow_mud)))
        return st;
    if (p->inflow_to < p->inflow_from) {
        const struct sc_entry *e = sc_given(r, "sediment", "inflow_to");
        if (!e) e = sc_given(r, "sediment", "inflow_from");
        return sc_entry_error(e, SWGL_ERR_INPUT, "expected inflow_from <= inflow_to (%g m along the side)",
                              p->inflow_to);
    }
    return SWGL_OK;
}

/* Bytes a run needs per cell, at most (kp_keys.c says what is counted): ~160 measured. */
const scenario_scheme sediment_keys = {.name = "sediment", .points = 1, .grid_section = "initial",
                                       .grid_key = "height",
                                       .boundary_note = " (its inflow is [sediment] inflow_*)",
                                       .sections = sections, .keys = keys, .cfl_range = R_CFL,
                                       .bytes_per_cell = 160.0, .t_end_optional = t_end_optional,
                                       .fields = fields, .read = read, .free_params = free_params};
