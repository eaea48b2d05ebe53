/* scenario_schemes.c — the schemes registered with the reader (scenario_scheme.h) and
 * what of a scenario depends on its scheme, said by the scheme's scenario_scheme: [run]
 * scheme among the registered names, which keys it allows (its own, [friction] where it
 * says friction, the shallow-water ones unless its fields are at points), its [run] say,
 * its own keys (its read), the bytes a cell of its run needs, the bed at the cell corners
 * where it samples it there.  No scheme is named here.
 */
#include "scenario_int.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mesh.h"

#define MAX_SCHEMES 16
static const scenario_scheme *g_schemes[MAX_SCHEMES];
static int g_n_schemes;

void scenario_register_scheme(const scenario_scheme *s)
{
    for (int i = 0; i < g_n_schemes; i++)
        if (g_schemes[i] == s || strcmp(g_schemes[i]->name, s->name) == 0) return;
    if (g_n_schemes < MAX_SCHEMES) g_schemes[g_n_schemes++] = s;
}

const scenario_scheme *scenario_scheme_named(const char *name)
{
    for (int i = 0; i < g_n_schemes; i++)
        if (strcmp(g_schemes[i]->name, name) == 0) return g_schemes[i];
    return NULL;
}

const scenario_scheme *sc_scheme_section(const char *section)
{
    for (int i = 0; i < g_n_schemes; i++)
        for (int k = 0; g_schemes[i]->sections && g_schemes[i]->sections[k]; k++)
            if (strcmp(g_schemes[i]->sections[k], section) == 0) return g_schemes[i];
    return NULL;
}

const scenario_scheme *sc_scheme_key(const char *section, const char *key)
{
    for (int i = 0; i < g_n_schemes; i++)
        for (const scenario_key *k = g_schemes[i]->keys; k && k->section; k++)
            if (strcmp(k->section, section) == 0 && strcmp(k->key, key) == 0) return g_schemes[i];
    return NULL;
}

void sc_scheme_sections_text(char *out, size_t len)
{
    int total = 0, n = 0;
    for (int i = 0; i < g_n_schemes; i++)
        for (int k = 0; g_schemes[i]->sections && g_schemes[i]->sections[k]; k++) total++;
    size_t o = 0;
    out[0] = 0;
    for (int i = 0; i < g_n_schemes; i++)
        for (int k = 0; g_schemes[i]->sections && g_schemes[i]->sections[k]; k++, n++) {
            const char *sep = n == 0 ? ", or a scheme's: " : n == total - 1 ? " or " : ", ";
            int w = snprintf(out + o, len - o, "%s[%s]", sep, g_schemes[i]->sections[k]);
            if (w > 0 && (size_t)w < len - o) o += (size_t)w;
        }
}

const struct sc_entry *sc_given(scenario_reader *r, const char *section, const char *key)
{
    return sc_value(r->t, section, key);
}

/* ---- scheme and key families ------------------------------------------------------- */

swgl_status sc_read_scheme(sc_build *b)
{
    /* the registered names, in their order, and "a, b, c or d" for the message */
    const char *names[MAX_SCHEMES + 1];
    char expected[512] = "";
    size_t o = 0;
    for (int i = 0; i < g_n_schemes; i++) {
        names[i] = g_schemes[i]->name;
        const char *sep = i == 0 ? "" : i == g_n_schemes - 1 ? " or " : ", ";
        int w = snprintf(expected + o, sizeof expected - o, "%s%s", sep, names[i]);
        if (w > 0 && (size_t)w < sizeof expected - o) o += (size_t)w;
    }
    names[g_n_schemes] = NULL;
    if (g_n_schemes == 0)
        return swgl_fail(SWGL_ERR_ARG, "%s: no scheme is registered with the scenario reader "
                         "(scheme_keys_install)", b->t->file);
    int k = 0;   /* the first registered: the default */
    swgl_status st = sc_get_word(b, "run", "scheme", names, expected, &k);
    if (st != SWGL_OK) return st;
    b->sc->scheme = g_schemes[k];
    return SWGL_OK;
}

/* "kp or hllc": the schemes that take [friction] */
static void friction_owners(char *out, size_t len)
{
    int n = 0, total = 0;
    for (int i = 0; i < g_n_schemes; i++) total += g_schemes[i]->friction != 0;
    size_t o = 0;
    out[0] = 0;
    for (int i = 0; i < g_n_schemes; i++) {
        if (!g_schemes[i]->friction) continue;
        const char *sep = n == 0 ? "" : n == total - 1 ? " or " : ", ";
        int w = snprintf(out + o, len - o, "%s%s", sep, g_schemes[i]->name);
        if (w > 0 && (size_t)w < len - o) o += (size_t)w;
        n++;
    }
}

/* Shallow-water keys are errors with a points scheme (sediment), a scheme's own keys with
 * the others, and [friction] with a scheme that has none (docs/scenarios.md). */
swgl_status sc_check_families(sc_build *b)
{
    const scenario_scheme *k = b->sc->scheme;
    for (int i = 0; i < b->t->n; i++) {
        sc_entry *e = &b->t->e[i];
        enum key_family f = FAM_ALL;
        const scenario_scheme *owner = NULL;
        sc_key_owner(e->section, e->key, &f, &owner);
        if (!e->value[0] || strcmp(e->section, "domain") == 0) continue;  /* bed: ignored */
        int ok = f == FAM_ALL || (f == FAM_SW && !k->points) || (f == FAM_SCHEME && owner == k) ||
                 (f == FAM_FRICTION && k->friction);
        if (ok) continue;
        char who[160];
        if (f == FAM_FRICTION) friction_owners(who, sizeof who);
        else snprintf(who, sizeof who, "%s", f == FAM_SCHEME && owner ? owner->name : "shallow-water");
        return sc_entry_error(e, SWGL_ERR_INPUT, "a %s key, not allowed with scheme = %s", who, k->name);
    }
    return SWGL_OK;
}

int sc_points(const sc_build *b)
{
    return b->sc->scheme->points;
}

/* The scheme's say on [run]: its defaults (kp: cfl = 0.25), the range of cfl, and
 * whether t_end is required (sediment: not when [sediment] steps counts the steps). */
swgl_status sc_scheme_run(sc_build *b, enum sc_range *cfl, int *t_end_required)
{
    const scenario_scheme *k = b->sc->scheme;
    if (k->cfl_default > 0) b->sc->cfl = k->cfl_default;
    if (k->cfl_range != R_ANY) *cfl = k->cfl_range;
    int optional = 0;
    if (k->t_end_optional) {
        swgl_status st = k->t_end_optional(b, &optional);
        if (st != SWGL_OK) return st;
    }
    *t_end_required = !optional;
    return SWGL_OK;
}

/* The scheme's own keys (those of another scheme were refused by check_families). */
swgl_status sc_read_scheme_keys(sc_build *b)
{
    const scenario_scheme *k = b->sc->scheme;
    return k->read ? k->read(b, b->sc) : SWGL_OK;
}

double sc_scheme_bytes_per_cell(const sc_build *b)
{
    return b->sc->scheme->bytes_per_cell;
}

swgl_status sc_scheme_fields(sc_build *b)
{
    const scenario_scheme *k = b->sc->scheme;
    return k->fields ? k->fields(b, b->sc) : SWGL_OK;
}

/* A scheme that samples the bed at the cell corners (bed_at_corners; kp): the bed at the corners (docs/scenarios.md "The bed of kp"), and the
 * cell values replaced by the bilinear bed's cell averages (the mean of the four
 * corners), so that h = eta - bed, the outputs' eta = bed + h and the scheme's
 * w = B_ij + h all use the bed the scheme uses, and a lake at rest stays one.
 *  - a number or an expression: sampled at the corners x = i dx, y = j dy;
 *  - an .asc grid (values at cell centres): a corner takes the mean of the active cells
 *    among the (up to) four that touch it (all of them when none is active). */
static swgl_status corner_bed(sc_build *b)
{
    scenario *sc = b->sc;
    int nx = b->grid.nx, ny = b->grid.ny;
    size_t nc = (size_t)(nx + 1) * (size_t)(ny + 1);
    if (!(sc->bed_corner = calloc(nc, sizeof(double)))) return sc_no_memory(b);
    sc_entry *e = sc_value(b->t, "domain", "bed");
    if (e && !sc_value_is_grid(e->value) && !b->have_mesh) {
        sc_grid g = b->grid;
        g.nx = nx + 1;
        g.ny = ny + 1;
        g.offset = 0.0;
        swgl_status st = sc_field(e, &g, sc->bed_corner, NULL);
        if (st != SWGL_OK) return st;
    } else if (!e) {
        double b0 = sc->bed[0];
#pragma omp parallel for schedule(static)
        for (long k = 0; k < (long)nc; k++) sc->bed_corner[k] = b0;
    } else {
#pragma omp parallel for schedule(static)
        for (int j = 0; j <= ny; j++)
            for (int i = 0; i <= nx; i++) {
                double sum[2] = {0, 0};
                int cnt[2] = {0, 0};
                for (int dj = -1; dj <= 0; dj++)
                    for (int di = -1; di <= 0; di++) {
                        int ci = i + di, cj = j + dj;
                        if (ci < 0 || cj < 0 || ci >= nx || cj >= ny) continue;
                        size_t c = (size_t)cj * nx + ci;
                        int a = sc->active[c] != 0;
                        sum[a] += sc->bed[c];
                        cnt[a]++;
                    }
                int a = cnt[1] > 0;
                sc->bed_corner[(size_t)j * (nx + 1) + i] = sum[a] / cnt[a];
            }
        /* a mesh: its own value at each corner inside it (the cell means above stay at
         * the corners outside, on the mesh's edge) */
        if (b->have_mesh) {
            double *v = malloc(nc * sizeof(double));
            unsigned char *nd = malloc(nc);
            if (!v || !nd) {
                free(v);
                free(nd);
                return sc_no_memory(b);
            }
            mesh_sample(&b->grid_mesh, b->grid.xll, b->grid.yll, b->grid.dx, b->grid.dy, nx + 1, ny + 1, v, nd);
            for (size_t k = 0; k < nc; k++)
                if (!nd[k]) sc->bed_corner[k] = v[k];
            free(v);
            free(nd);
        }
    }
#pragma omp parallel for schedule(static)
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            const double *c = sc->bed_corner + (size_t)j * (nx + 1) + i;
            sc->bed[(size_t)j * nx + i] = 0.25 * ((c[0] + c[1]) + (c[nx + 1] + c[nx + 2]));
        }
    return SWGL_OK;
}

/* The shallow-water bed as the scheme samples it: at the corners where it says so. */
swgl_status sc_scheme_bed(sc_build *b)
{
    return b->sc->scheme->bed_at_corners ? corner_bed(b) : SWGL_OK;
}

/* [friction] manning (the schemes that say friction): NULL when absent or 0 everywhere. */
swgl_status sc_read_friction(sc_build *b)
{
    scenario *sc = b->sc;
    if (!sc->scheme->friction || !sc_value(b->t, "friction", "manning")) return SWGL_OK;
    swgl_status st = sc_get_field(b, "friction", "manning", 0.0, &sc->manning);
    if (st == SWGL_OK)
        st = sc_check_field(b, "friction", "manning", sc->manning, 0, 1, "Manning's n in [0, 1] (s m^-1/3)");
    if (st != SWGL_OK) return st;
    int any = 0;
    for (size_t k = 0; k < sc_ncells(b); k++) {
        if (!sc->active[k]) sc->manning[k] = 0;
        any |= sc->manning[k] > 0;
    }
    if (!any) {
        free(sc->manning);
        sc->manning = NULL;
    }
    return SWGL_OK;
}
