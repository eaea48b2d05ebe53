/* kp_keys.h — kp's keys as the scenario reader gives them (kp_keys.c): [kp] kappa,
 * desingularize, theta, integrator, early_exit (docs/scenarios.md). */
#ifndef SWGL_KP_KEYS_H
#define SWGL_KP_KEYS_H

#include "scenario_scheme.h"

typedef struct kp_params {
    double kappa;            /* kp.kappa; -1: not given (K0 max(dx, dy), K0 = 1e-2) */
    int printed;             /* kp.desingularize: 0 depth (default: kappa a depth, m), 1 printed
                              * (Brodtkorb et al. (5) as printed: max(h^4, kappa), kappa in m^4) */
    double cap_depth;        /* kp.cap_depth (m); -1: not given (0.1 max(dx, dy)); 0: no cap */
    double theta;            /* kp.theta, [1, 2], default 1.3 */
    int rk2;                 /* kp.integrator: 1 rk2 (default), 0 euler */
    int early_exit;          /* kp.early_exit: 0 auto (default), 1 on, 2 off */
} kp_params;

extern const scenario_scheme kp_keys;

#endif
