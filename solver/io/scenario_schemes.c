/* scenario_schemes.c — what the scenario reader knows of each scheme (roe, kp, hllc,
 * sediment), kept apart from the generic reading: [run] scheme, which keys each scheme
 * allows, its [run] defaults and ranges, its own keys ([roe], [kp], [hllc], [friction],
 * [sediment]), the bytes a cell of its run needs, kp's bed at the cell corners and the
 * sediment scheme's fields.
 */
#include "scenario_int.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mesh.h"

/* The schemes' own sections and keys (the generic ones are scenario_ini.c's), with the
 * family that says which schemes take them (check_families). */
const char *const sc_scheme_sections[] = {"roe", "kp", "hllc", "friction", "sediment", NULL};

const struct sc_known_key sc_scheme_keys[] = {
    {"roe", "kappa", FAM_ROE}, {"hllc", "kappa", FAM_HLLC},
    {"kp", "theta", FAM_KP}, {"kp", "kappa", FAM_KP}, {"kp", "integrator", FAM_KP},
    {"kp", "early_exit", FAM_KP}, {"friction", "manning", FAM_FRICTION},
    {"sediment", "alpha", FAM_SED}, {"sediment", "beta", FAM_SED}, {"sediment", "cs", FAM_SED},
    {"sediment", "cm", FAM_SED}, {"sediment", "layer", FAM_SED}, {"sediment", "dt", FAM_SED},
    {"sediment", "steps", FAM_SED}, {"sediment", "form", FAM_SED},
    {"sediment", "inflow_side", FAM_SED}, {"sediment", "inflow_from", FAM_SED},
    {"sediment", "inflow_to", FAM_SED}, {"sediment", "inflow_sand", FAM_SED},
    {"sediment", "inflow_mud", FAM_SED},
    {NULL, NULL, FAM_ALL}
};

const char *scheme_name(enum scheme_kind k)
{
    switch (k) {
    case SCHEME_ROE: return "roe";
    case SCHEME_KP: return "kp";
    case SCHEME_SEDIMENT: return "sediment";
    case SCHEME_HLLC: return "hllc";
    }
    return "?";
}

/* ---- scheme and key families ------------------------------------------------------- */

swgl_status sc_read_scheme(sc_build *b)
{
    static const char *const names[] = {"roe", "kp", "sediment", "hllc", NULL};   /* enum scheme_kind's order */
    int k = SCHEME_ROE;
    swgl_status st = sc_get_word(b, "run", "scheme", names, "roe, kp, hllc or sediment", &k);
    if (st != SWGL_OK) return st;
    b->sc->scheme = (enum scheme_kind)k;
    return SWGL_OK;
}

/* Shallow-water keys are errors with scheme = sediment, sediment keys with the others,
 * and a key of one shallow-water scheme ([roe] kappa; [kp]; [hllc] kappa; [friction],
 * which kp and hllc take: docs/scenarios.md) with the others. */
swgl_status sc_check_families(sc_build *b)
{
    enum scheme_kind k = b->sc->scheme;
    for (int i = 0; i < b->t->n; i++) {
        sc_entry *e = &b->t->e[i];
        enum key_family f = FAM_ALL;
        sc_key_known(e->section, e->key, &f);
        if (!e->value[0] || strcmp(e->section, "domain") == 0) continue;  /* bed: ignored */
        int ok = f == FAM_ALL || (f == FAM_SW && k != SCHEME_SEDIMENT) || (f == FAM_SED && k == SCHEME_SEDIMENT) ||
                 (f == FAM_ROE && k == SCHEME_ROE) || (f == FAM_KP && k == SCHEME_KP) ||
                 (f == FAM_HLLC && k == SCHEME_HLLC) || (f == FAM_FRICTION && (k == SCHEME_KP || k == SCHEME_HLLC));
        if (!ok)
            return sc_entry_error(e, SWGL_ERR_INPUT, "a %s key, not allowed with scheme = %s",
                                  f == FAM_SED ? "sediment" : f == FAM_ROE ? "roe" : f == FAM_KP ? "kp"
                                  : f == FAM_HLLC ? "hllc" : f == FAM_FRICTION ? "kp or hllc" : "shallow-water",
                                  scheme_name(k));
    }
    return SWGL_OK;
}

int sc_is_sediment(const sc_build *b)
{
    return b->sc->scheme == SCHEME_SEDIMENT;
}

/* The scheme's say on [run]: its defaults (kp: cfl = 0.25), the range of cfl, and
 * whether t_end is required (sediment: not when [sediment] steps counts the steps). */
swgl_status sc_scheme_run(sc_build *b, enum sc_range *cfl, int *t_end_required)
{
    scenario *sc = b->sc;
    sc->roe_kappa = -1;   /* not given: the scheme's default */
    sc->kp_kappa = -1;
    sc->hllc_kappa = -1;
    sc->kp_theta = 1.3;
    sc->kp_rk2 = 1;
    sc->kp_early_exit = 0;
    if (sc->scheme == SCHEME_KP) {
        sc->cfl = 0.25;   /* (8): a quarter cell per step */
        *cfl = R_CFL_KP;
    }
    int steps = 0;
    swgl_status st;
    if (sc_is_sediment(b) && (st = sc_get_int(b, "sediment", "steps", 0, 0, INT_MAX, &steps))) return st;
    *t_end_required = !(sc_is_sediment(b) && steps > 0);
    return SWGL_OK;
}

/* [roe] kappa, [kp] kappa, theta, integrator, early_exit and [hllc] kappa (those of
 * another scheme were refused by check_families). */
swgl_status sc_read_scheme_keys(sc_build *b)
{
    scenario *sc = b->sc;
    swgl_status st;
    if ((st = sc_get_num(b, "roe", "kappa", 0, R_NONNEG, &sc->roe_kappa)) ||
        (st = sc_get_num(b, "kp", "kappa", 0, R_NONNEG, &sc->kp_kappa)) ||
        (st = sc_get_num(b, "hllc", "kappa", 0, R_NONNEG, &sc->hllc_kappa)) ||
        (st = sc_get_num(b, "kp", "theta", 0, R_THETA, &sc->kp_theta)))
        return st;
    static const char *const integrators[] = {"euler", "rk2", NULL};
    static const char *const modes[] = {"auto", "on", "off", NULL};
    if ((st = sc_get_word(b, "kp", "integrator", integrators, "rk2 or euler", &sc->kp_rk2)) ||
        (st = sc_get_word(b, "kp", "early_exit", modes, "auto, on or off", &sc->kp_early_exit)))
        return st;
    return SWGL_OK;
}

/* Bytes a run needs per cell, at most: the scenario fields, the scheme's problem and state,
 * the run's two copies of the state for --compare, the output grids, and the worst pair of
 * backends a --compare can hold, counting the GPU's textures, which llvmpipe (the renderer
 * of a machine without a GPU) keeps in host memory.  Measured peaks (slope between 1000^2
 * and 1400^2 cells): kp gpu --precision double --compare cpu-scalar with friction ~680
 * (cpu-scalar alone 397: it keeps every cell's four point values, the face fluxes and both
 * RK2 states in double); roe gpu --precision double --compare cpu-scalar ~375; sediment
 * ~160. */
#define BYTES_PER_CELL_SW 400.0
#define BYTES_PER_CELL_KP 720.0
#define BYTES_PER_CELL_SED 160.0

double sc_scheme_bytes_per_cell(const sc_build *b)
{
    return sc_is_sediment(b) ? BYTES_PER_CELL_SED : b->sc->scheme == SCHEME_KP ? BYTES_PER_CELL_KP : BYTES_PER_CELL_SW;
}

/* scheme = kp: the bed at the cell corners (docs/scenarios.md "The bed of kp"), and the
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
        for (size_t k = 0; k < nc; k++) sc->bed_corner[k] = sc->bed[0];
    } else {
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
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            const double *c = sc->bed_corner + (size_t)j * (nx + 1) + i;
            sc->bed[(size_t)j * nx + i] = 0.25 * ((c[0] + c[1]) + (c[nx + 1] + c[nx + 2]));
        }
    return SWGL_OK;
}

/* The shallow-water bed as the scheme samples it: kp's at the corners (corner_bed). */
swgl_status sc_scheme_bed(sc_build *b)
{
    return b->sc->scheme == SCHEME_KP ? corner_bed(b) : SWGL_OK;
}

swgl_status sc_sediment_fields(sc_build *b)
{
    scenario *sc = b->sc;
    swgl_status st;
    if ((st = sc_grid_field(b, "initial", "height", &sc->height)) ||
        (st = sc_get_field(b, "initial", "sand", 1.0, &sc->sand)) ||
        (st = sc_get_field(b, "sediment", "alpha", 1.0, &sc->alpha)) ||
        (st = sc_get_field(b, "sediment", "beta", 0.5, &sc->beta)))
        return st;
    if ((st = sc_check_field(b, "initial", "sand", sc->sand, 0, 1, "a sand fraction s in [0, 1]")) ||
        (st = sc_check_field(b, "sediment", "alpha", sc->alpha, 0, INFINITY, "alpha >= 0")) ||
        (st = sc_check_field(b, "sediment", "beta", sc->beta, 0, INFINITY, "beta >= 0")))
        return st;
    return SWGL_OK;
}

/* [friction] manning (kp): NULL when absent or 0 everywhere. */
static swgl_status read_friction(sc_build *b)
{
    scenario *sc = b->sc;
    if (!sc_value(b->t, "friction", "manning")) return SWGL_OK;
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

static swgl_status read_sediment(sc_build *b)
{
    static const char *const forms[] = {"paper", "conservative", NULL};
    static const char *const sides[] = {"west", "east", "south", "north", "none", NULL};
    scenario *sc = b->sc;
    int side = 4;
    sc->cs = sc->cm = sc->layer = 1.0;
    sc->inflow_side = -1;
    sc->sed_form = 1;    /* conservative; paper, (4) as printed, lets s leave [0, 1] */
    swgl_status st;
    if ((st = sc_get_num(b, "sediment", "cs", 0, R_POS, &sc->cs)) ||
        (st = sc_get_num(b, "sediment", "cm", 0, R_POS, &sc->cm)) ||
        (st = sc_get_num(b, "sediment", "layer", 0, R_POS, &sc->layer)) ||
        (st = sc_get_num(b, "sediment", "dt", 0, R_POS, &sc->sed_dt)) ||
        (st = sc_get_int(b, "sediment", "steps", 0, 0, INT_MAX, &sc->sed_steps)) ||
        (st = sc_get_word(b, "sediment", "form", forms, "paper or conservative", &sc->sed_form)) ||
        (st = sc_get_word(b, "sediment", "inflow_side", sides, "none, west, east, south or north",
                       &side)))
        return st;
    sc->inflow_side = side == 4 ? -1 : side;
    double len = side < 2 ? (sc->ny - 1) * sc->dy : (sc->nx - 1) * sc->dx;
    sc->inflow_from = 0;
    sc->inflow_to = len;
    if ((st = sc_get_num(b, "sediment", "inflow_from", 0, R_NONNEG, &sc->inflow_from)) ||
        (st = sc_get_num(b, "sediment", "inflow_to", 0, R_NONNEG, &sc->inflow_to)) ||
        (st = sc_get_num(b, "sediment", "inflow_sand", 0, R_NONNEG, &sc->inflow_sand)) ||
        (st = sc_get_num(b, "sediment", "inflow_mud", 0, R_NONNEG, &sc->inflow_mud)))
        return st;
    if (sc->inflow_to < sc->inflow_from) {
        sc_entry *e = sc_value(b->t, "sediment", "inflow_to");
        if (!e) e = sc_value(b->t, "sediment", "inflow_from");
        return sc_entry_error(e, SWGL_ERR_INPUT, "expected inflow_from <= inflow_to (%g m along "
                              "the side)", sc->inflow_to);
    }
    return SWGL_OK;
}

/* The scheme's own sections after [run]: [sediment] (sediment), [friction] (kp, hllc). */
swgl_status sc_read_scheme_sections(sc_build *b)
{
    if (sc_is_sediment(b)) return read_sediment(b);
    if (b->sc->scheme == SCHEME_KP || b->sc->scheme == SCHEME_HLLC) return read_friction(b);
    return SWGL_OK;
}
