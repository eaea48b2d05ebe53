/* gl_roe_util.h — shared by the GL tests of the Roe scheme (test_gl_roe_*.c): a built-in
 * case run on a backend through the scheme interface (run_case), two backends stepped
 * together with the same dt (lockstep), the result of a run and its comparisons. */
#ifndef SWGL_GL_ROE_UTIL_H
#define SWGL_GL_ROE_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "gl_util.h"
#include "gpu_compute.h"
#include "gpu_program.h"
#include "gpu_pass.h"
#include "scheme_shaders.h"
#include "roe.h"
#include "roe_gpu.h"

/* ---------- whole runs ---------- */
typedef struct result {
    int nx, ny;
    double *h, *qx, *qy;
    unsigned char *code;
    double *H;
    long steps;
    double mass0, mass1;
} result;

static inline void result_free(result *r)
{
    free(r->h);
    free(r->qx);
    free(r->qy);
    free(r->code);
    free(r->H);
}

static inline double mass_of(const double *h, const unsigned char *code, size_t n)
{
    double s = 0;
    for (size_t k = 0; k < n; k++)
        if (code[k] == CELL_ACTIVE) s += h[k];
    return s;
}

/* Runs a built-in case with overrides on a backend through the scheme interface (steps_max
 * > 0: that many steps of the bound (8), else the time loop to t_end); fills r
 * (ghost-ring layout). */
static inline int run_case(const char *name, const char *const *sets, int nsets, enum backend b, int steps_max,
                    const char *renderer, result *r)
{
    scenario sc;
    scheme_setup s;
    scheme_inst e;
    const scheme_desc *d = scheme_find("roe");
    memset(&sc, 0, sizeof sc);
    memset(r, 0, sizeof *r);
    scheme_config cfg = {.renderer = renderer};
    if (scenario_load_case(&sc, name, sets, nsets) || d->setup(&sc, &s)) {
        printf("FAIL  %s: %s\n", name, swgl_last_error());
        scenario_free(&sc);
        return -1;
    }
    if (scheme_open(&e, d, b, &s, &cfg)) {
        printf("FAIL  %s: %s\n", name, swgl_last_error());
        d->setup_free(&s);
        scenario_free(&sc);
        return -1;
    }
    size_t n = grid_size(sc.nx, sc.ny);
    const roe_problem *rp = s.problem;
    r->nx = sc.nx;
    r->ny = sc.ny;
    r->h = malloc(n * sizeof(double));
    r->qx = malloc(n * sizeof(double));
    r->qy = malloc(n * sizeof(double));
    r->H = malloc(n * sizeof(double));
    r->code = malloc(n);
    memcpy(r->H, rp->H, n * sizeof(double));
    memcpy(r->code, s.code, n);
    r->mass0 = mass_of(s.init[0], s.code, n);
    swgl_status rc = SWGL_OK;
    if (steps_max > 0) {
        for (int k = 0; k < steps_max && rc == SWGL_OK; k++) {
            double dt;
            rc = e.be->stage(e.self, 0, &dt);
            if (rc == SWGL_OK) rc = e.be->advance(e.self, 0, isinf(dt) ? 1.0 : dt);
        }
        r->steps = steps_max;
    } else {
        timeloop_result tr;
        rc = timeloop_run(&e, &s.t_end, 1, 0, NULL, NULL, &tr);
        r->steps = tr.steps;
    }
    double *f[3] = {r->h, r->qx, r->qy};
    if (rc == SWGL_OK) rc = e.be->get_state(e.self, f);
    if (rc) printf("FAIL  %s on %s: %s\n", name, backend_name(b), swgl_last_error());
    r->mass1 = mass_of(r->h, r->code, n);
    scheme_close(&e);
    d->setup_free(&s);
    scenario_free(&sc);
    return rc ? -1 : 0;
}

/* Two backends from one setup, stepped together with the same dt: the second's bound
 * (the reference: cpu-scalar) each step.  Fills a and b (ghost-ring layout) and the
 * largest relative difference of the two bounds. */
static inline int lockstep(const char *name, const char *const *sets, int nsets, int steps, enum backend ba,
                    const scheme_config *ca, enum backend bb, const scheme_config *cb, result *a, result *b,
                    double *bound_diff)
{
    scenario sc;
    scheme_setup s;
    scheme_inst ea, eb;
    const scheme_desc *d = scheme_find("roe");
    memset(&sc, 0, sizeof sc);
    memset(a, 0, sizeof *a);
    memset(b, 0, sizeof *b);
    *bound_diff = 0;
    if (scenario_load_case(&sc, name, sets, nsets) || d->setup(&sc, &s)) {
        printf("FAIL  %s: %s\n", name, swgl_last_error());
        scenario_free(&sc);
        return -1;
    }
    swgl_status rc = scheme_open(&ea, d, ba, &s, ca);
    if (rc == SWGL_OK && (rc = scheme_open(&eb, d, bb, &s, cb)) != SWGL_OK) scheme_close(&ea);
    if (rc != SWGL_OK) {
        printf("FAIL  %s: %s\n", name, swgl_last_error());
        d->setup_free(&s);
        scenario_free(&sc);
        return -1;
    }
    size_t n = grid_size(sc.nx, sc.ny);
    result *r[2] = {a, b};
    for (int m = 0; m < 2; m++) {
        r[m]->nx = sc.nx;
        r[m]->ny = sc.ny;
        r[m]->h = malloc(n * sizeof(double));
        r[m]->qx = malloc(n * sizeof(double));
        r[m]->qy = malloc(n * sizeof(double));
        r[m]->H = malloc(n * sizeof(double));
        r[m]->code = malloc(n);
        memcpy(r[m]->H, ((const roe_problem *)s.problem)->H, n * sizeof(double));
        memcpy(r[m]->code, s.code, n);
        r[m]->mass0 = mass_of(s.init[0], s.code, n);
        r[m]->steps = steps;
    }
    for (int k = 0; k < steps && rc == SWGL_OK; k++) {
        double dta, dtb;
        if ((rc = ea.be->stage(ea.self, 0, &dta)) != SWGL_OK || (rc = eb.be->stage(eb.self, 0, &dtb)) != SWGL_OK) break;
        if (isfinite(dtb)) *bound_diff = fmax(*bound_diff, fabs(dta - dtb) / dtb);
        double dt = isinf(dtb) ? 1.0 : dtb;
        if ((rc = ea.be->advance(ea.self, 0, dt)) != SWGL_OK) break;
        rc = eb.be->advance(eb.self, 0, dt);
    }
    double *fa[3] = {a->h, a->qx, a->qy}, *fb[3] = {b->h, b->qx, b->qy};
    if (rc == SWGL_OK) rc = ea.be->get_state(ea.self, fa);
    if (rc == SWGL_OK) rc = eb.be->get_state(eb.self, fb);
    if (rc) printf("FAIL  %s in lockstep: %s\n", name, swgl_last_error());
    a->mass1 = mass_of(a->h, a->code, n);
    b->mass1 = mass_of(b->h, b->code, n);
    scheme_close(&ea);
    scheme_close(&eb);
    d->setup_free(&s);
    scenario_free(&sc);
    return rc ? -1 : 0;
}

/* relative L1 difference of h, qx, qy (into d[3]) of a vs the reference c */
static inline void rel_l1(const result *a, const result *c, double d[3])
{
    double num[3] = {0, 0, 0}, den[3] = {0, 0, 0};
    for (size_t k = 0; k < grid_size(c->nx, c->ny); k++) {
        if (c->code[k] != CELL_ACTIVE) continue;
        const double *fa[3] = {a->h, a->qx, a->qy}, *fc[3] = {c->h, c->qx, c->qy};
        for (int m = 0; m < 3; m++) {
            num[m] += fabs(fa[m][k] - fc[m][k]);
            den[m] += fabs(fc[m][k]);
        }
    }
    for (int m = 0; m < 3; m++) d[m] = den[m] > 0 ? num[m] / den[m] : num[m];
}

#endif
