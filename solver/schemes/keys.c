/* keys.c — every scheme's keys registered with the scenario reader (scenario_scheme.h),
 * one line each, in the order [run] scheme lists them (the first is the default). */
#include "keys.h"

#include <pthread.h>

#include "hllc_keys.h"
#include "kp_keys.h"
#include "roe_keys.h"
#include "sediment_keys.h"

static void install(void)
{
    scenario_register_scheme(&roe_keys);
    scenario_register_scheme(&kp_keys);
    scenario_register_scheme(&hllc_keys);
    scenario_register_scheme(&sediment_keys);
}

/* once a process, whichever thread makes the first sim (the reader's list is not locked) */
void scheme_keys_install(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, install);
}
