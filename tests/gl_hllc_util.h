/* gl_hllc_util.h — shared by the GL tests of the HLLC scheme (test_gl_hllc_*.c): a built-in
 * case as scheme = hllc on one or more backends from one setup, stepped together with the
 * same dt (the last backend's bound: the reference), and the results (gl_roe_util.h's
 * result, mass_of, rel_l1). */
#ifndef SWGL_GL_HLLC_UTIL_H
#define SWGL_GL_HLLC_UTIL_H

#include "gl_roe_util.h"
#include "hllc.h"
#include "keys.h"

/* Case `name` with the overrides sets (and run.scheme = hllc) on nb backends bs[] with
 * configurations cfg[], `steps` steps of dt = the last backend's bound (1 s where nothing
 * moves); fills out[0..nb-1] (ghost-ring layout), *bound_diff the largest relative
 * difference of the first backend's bound from the last's, dts[k] (NULL: not kept) the
 * steps taken.  0, or -1 with a FAIL line. */
static inline int hllc_steps(const char *name, const char *const *sets, int nsets, int steps, int nb,
                             const enum backend *bs, const scheme_config *cfg, result *out, double *bound_diff,
                             double *dts)
{
    enum { MAXB = 3, MAXS = 16 };
    scenario sc;
    scheme_setup s;
    scheme_inst e[MAXB];
    const scheme_desc *d = scheme_find("hllc");
    scheme_keys_install();   /* the schemes' keys, before a scenario is read */
    const char *all[MAXS + 1] = {"run.scheme=hllc"};
    for (int q = 0; q < nsets && q < MAXS; q++) all[q + 1] = sets[q];
    memset(&sc, 0, sizeof sc);
    if (bound_diff) *bound_diff = 0;
    if (nb > MAXB || scenario_load_case(&sc, name, all, nsets + 1) || d->setup(&sc, &s)) {
        printf("FAIL  %s: %s\n", name, swgl_last_error());
        scenario_free(&sc);
        return -1;
    }
    swgl_status rc = SWGL_OK;
    int opened = 0;
    for (; opened < nb && rc == SWGL_OK; opened++)
        if ((rc = scheme_open(&e[opened], d, bs[opened], &s, &cfg[opened])) != SWGL_OK) break;
    size_t n = grid_size(sc.nx, sc.ny);
    const hllc_setup_problem *hp = s.problem;
    for (int m = 0; m < nb; m++) {
        result *r = &out[m];
        memset(r, 0, sizeof *r);
        r->nx = sc.nx;
        r->ny = sc.ny;
        r->h = malloc(n * sizeof(double));
        r->qx = malloc(n * sizeof(double));
        r->qy = malloc(n * sizeof(double));
        r->H = malloc(n * sizeof(double));
        r->code = malloc(n);
        memcpy(r->H, hp->H, n * sizeof(double));
        memcpy(r->code, s.code, n);
        r->mass0 = mass_of(s.init[0], s.code, n);
        r->steps = steps;
    }
    for (int k = 0; k < steps && rc == SWGL_OK; k++) {
        double dt[MAXB];
        for (int m = 0; m < nb && rc == SWGL_OK; m++) rc = e[m].be->stage(e[m].self, 0, &dt[m]);
        if (rc != SWGL_OK) break;
        double ref = dt[nb - 1];
        if (bound_diff && isfinite(ref)) *bound_diff = fmax(*bound_diff, fabs(dt[0] - ref) / ref);
        if (dts) dts[k] = isinf(ref) ? 1.0 : ref;
        for (int m = 0; m < nb && rc == SWGL_OK; m++) rc = e[m].be->advance(e[m].self, 0, isinf(ref) ? 1.0 : ref);
    }
    for (int m = 0; m < nb && rc == SWGL_OK; m++) {
        double *f[3] = {out[m].h, out[m].qx, out[m].qy};
        rc = e[m].be->get_state(e[m].self, f);
        out[m].mass1 = mass_of(out[m].h, out[m].code, n);
    }
    if (rc) printf("FAIL  %s (hllc): %s\n", name, swgl_last_error());
    for (int m = 0; m < opened; m++) scheme_close(&e[m]);
    d->setup_free(&s);
    scenario_free(&sc);
    return rc ? -1 : 0;
}

/* The GPU backend's configuration for this context: float, or double with dbl */
static inline scheme_config hllc_gpu_cfg(const gpu_info *info, int dbl)
{
    scheme_config c = {.renderer = info->renderer, .has_fp64 = info->has_fp64,
                       .precision = dbl ? PRECISION_DOUBLE : PRECISION_SINGLE};
    return c;
}

#endif
