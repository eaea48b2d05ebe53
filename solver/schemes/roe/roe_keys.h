/* roe_keys.h — roe's keys as the scenario reader gives them (roe_keys.c): [roe] kappa. */
#ifndef SWGL_ROE_KEYS_H
#define SWGL_ROE_KEYS_H

#include "scenario_scheme.h"

typedef struct roe_params {
    double kappa;            /* m, roe.kappa (velocity desingularization depth); -1: not given */
} roe_params;

extern const scenario_scheme roe_keys;

#endif
