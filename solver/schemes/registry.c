/* registry.c — the schemes swgl knows: one line each.  A scheme is a folder beside this
 * file (its setup and keys, its backends) whose scheme_desc is listed here; its [run]
 * scheme name is the scenario reader's (solver/io/scenario_schemes.c). */
#include "scheme.h"

#include <string.h>

extern const scheme_desc scheme_roe, scheme_kp, scheme_sediment, scheme_hllc;

static const struct {
    enum scheme_kind kind;
    const scheme_desc *desc;
} registry[] = {
    {SCHEME_ROE, &scheme_roe},             /* roe/: Lastra et al. 2009, first-order Roe */
    {SCHEME_KP, &scheme_kp},               /* kp/: Brodtkorb et al. 2011, Kurganov-Petrova */
    {SCHEME_SEDIMENT, &scheme_sediment},   /* sediment/: Su et al. 2013, dual lithology */
    {SCHEME_HLLC, &scheme_hllc},           /* hllc/: HLLC with hydrostatic reconstruction */
};

const scheme_desc *scheme_find(enum scheme_kind k)
{
    for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++)
        if (registry[i].kind == k) return registry[i].desc;
    swgl_fail(SWGL_ERR_INPUT, "scheme '%s' is not implemented yet", scheme_name(k));
    return NULL;
}

const scheme_desc *scheme_find_name(const char *name)
{
    for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++)
        if (strcmp(registry[i].desc->name, name) == 0) return registry[i].desc;
    swgl_fail(SWGL_ERR_INPUT, "no scheme '%s'", name);
    return NULL;
}
