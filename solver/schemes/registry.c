/* registry.c — the schemes swgl runs: one line each.  A scheme is a folder beside this
 * file (its setup, its keys, its backends) whose scheme_desc is listed here; its keys are
 * registered with the scenario reader by keys.c. */
#include "scheme.h"

#include <string.h>

extern const scheme_desc scheme_roe, scheme_kp, scheme_sediment, scheme_hllc;

static const scheme_desc *const registry[] = {
    &scheme_roe,        /* roe/: Lastra et al. 2009, first-order well-balanced Roe */
    &scheme_kp,         /* kp/: Brodtkorb et al. 2011, Kurganov-Petrova */
    &scheme_hllc,       /* hllc/: HLLC with the hydrostatic reconstruction of Audusse et al. 2004 */
    &scheme_sediment,   /* sediment/: Su et al. 2013, dual lithology */
};

const scheme_desc *scheme_find(const char *name)
{
    for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++)
        if (strcmp(registry[i]->name, name) == 0) return registry[i];
    swgl_fail(SWGL_ERR_INPUT, "scheme '%s' is not implemented yet", name);
    return NULL;
}
