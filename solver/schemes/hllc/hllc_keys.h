/* hllc_keys.h — hllc's keys as the scenario reader gives them (hllc_keys.c): [hllc] kappa. */
#ifndef SWGL_HLLC_KEYS_H
#define SWGL_HLLC_KEYS_H

#include "scenario_scheme.h"

typedef struct hllc_params {
    double kappa;            /* m, hllc.kappa (velocity desingularization depth); -1: not given */
} hllc_params;

extern const scenario_scheme hllc_keys;

#endif
