/* keys.c — every scheme's keys registered with the scenario reader (scenario_scheme.h),
 * one line each, in the order [run] scheme lists them (the first is the default). */
#include "keys.h"

#include "hllc_keys.h"
#include "kp_keys.h"
#include "roe_keys.h"
#include "sediment_keys.h"

void scheme_keys_install(void)
{
    scenario_register_scheme(&roe_keys);
    scenario_register_scheme(&kp_keys);
    scenario_register_scheme(&hllc_keys);
    scenario_register_scheme(&sediment_keys);
}
