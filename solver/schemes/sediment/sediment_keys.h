/* sediment_keys.h — the sediment scheme's keys as the scenario reader gives them
 * (sediment_keys.c): [initial] height, sand; [sediment] (docs/scenarios.md). */
#ifndef SWGL_SEDIMENT_KEYS_H
#define SWGL_SEDIMENT_KEYS_H

#include "scenario_scheme.h"

typedef struct sediment_params {
    double *alpha, *beta;    /* nx*ny */
    double *height, *sand;   /* nx*ny, [initial] */
    double cs, cm, layer;
    double dt;               /* 0: from the stability limit */
    int steps;               /* sediment.steps: number of steps (0: from t_end / dt) */
    int inflow_side;         /* -1 none, else enum side */
    double inflow_from, inflow_to;    /* m along the side */
    double inflow_sand, inflow_mud;   /* m^2/s */
    int form;                /* 0 paper, 1 conservative (sediment.form; default conservative) */
} sediment_params;

extern const scenario_scheme sediment_keys;

#endif
