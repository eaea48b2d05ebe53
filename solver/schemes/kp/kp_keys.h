/* kp_keys.h — kp's keys as the scenario reader gives them (kp_keys.c): [kp] kappa, theta,
 * integrator, early_exit (docs/scenarios.md). */
#ifndef SWGL_KP_KEYS_H
#define SWGL_KP_KEYS_H

#include "scenario_scheme.h"

typedef struct kp_params {
    double kappa;            /* m, kp.kappa; -1: not given (K0 max(dx, dy), K0 = 1e-2) */
    double theta;            /* kp.theta, [1, 2], default 1.3 */
    int rk2;                 /* kp.integrator: 1 rk2 (default), 0 euler */
    int early_exit;          /* kp.early_exit: 0 auto (default), 1 on, 2 off */
} kp_params;

extern const scenario_scheme kp_keys;

#endif
