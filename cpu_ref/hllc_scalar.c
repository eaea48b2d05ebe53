/* hllc_scalar.c — the HLLC CPU solvers' public face (hllc_cpu.h) and the scalar double
 * solver, the reference: hllc_solver_body.h in double on one thread.  The fast solver
 * (hllc_fast.c) is the same body in float or double with OpenMP over rows; the solvers
 * share the clock (boundary data, rain, sources and their accounts: swe.h). */
#include "cpu_info.h"
#include "hllc_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define T double
#define FN(x) x##_scalar
#define T_SQRT sqrt
#define HLLC_OMP 0
#define CORE_OPS hllc_core_scalar
#define CORE_PREC "double"
#include "hllc_solver_body.h"

struct hllc_cpu {
    enum hllc_cpu_kind kind;
    const hllc_core_ops *ops;
    void *core;
    swe_clock clk;
    int threads;                /* fixed (--tune cpu.threads=N), or 0: the cores the others leave */
    char name[64];
};

void hllc_cpu_destroy(hllc_cpu *s)
{
    if (!s) return;
    if (s->core) s->ops->destroy(s->core);
    swe_clock_free(&s->clk);
    free(s);
}

hllc_cpu *hllc_cpu_create(const hllc_problem *p, enum hllc_cpu_kind kind)
{
    if (!p || swe_problem_check(&p->sw) != SWGL_OK) return NULL;
    const hllc_core_ops *ops = kind == HLLC_CPU_SCALAR ? &hllc_core_scalar
                             : kind == HLLC_CPU_FAST ? &hllc_core_fast_float
                             : kind == HLLC_CPU_FAST_DOUBLE ? &hllc_core_fast_double : NULL;
    if (!ops) {
        swgl_fail(SWGL_ERR_ARG, "hllc: unknown solver kind");
        return NULL;
    }
    const size_t n = grid_size(p->sw.nx, p->sw.ny);
    for (size_t k = 0; p->manning && k < n; k++)
        if (p->sw.code[k] == CELL_ACTIVE && !(p->manning[k] >= 0.0 && isfinite(p->manning[k]))) {
            swgl_fail(SWGL_ERR_ARG, "hllc: Manning's n must be finite and >= 0");
            return NULL;
        }
    hllc_cpu *s = calloc(1, sizeof *s);
    if (!s) {
        swgl_fail(SWGL_ERR_NO_MEMORY, "hllc: out of memory");
        return NULL;
    }
    s->kind = kind;
    s->ops = ops;
    if (swe_clock_init(&s->clk, &p->sw) != SWGL_OK) goto fail;
    const swe_forcing *fo = p->sw.forcing;
    for (int q = 0; fo && q < fo->n_src; q++)
        if (fo->src_cell[q] >= n || p->sw.code[fo->src_cell[q]] != CELL_ACTIVE) {
            swgl_fail(SWGL_ERR_ARG, "hllc: point source %d is not in an active cell", q + 1);
            goto fail;
        }
    if (!(s->core = ops->create(p, &s->clk))) goto fail;
    s->threads = p->sw.threads;
    if (kind == HLLC_CPU_SCALAR) snprintf(s->name, sizeof s->name, "cpu-scalar (double)");
    else snprintf(s->name, sizeof s->name, "cpu (%s, up to %d threads)", kind == HLLC_CPU_FAST ? "float" : "double",
                  hllc_cpu_threads(s));
    return s;
fail:
    hllc_cpu_destroy(s);
    return NULL;
}

void hllc_cpu_set_state(hllc_cpu *s, const double *h, const double *qx, const double *qy)
{
    s->ops->set_state(s->core, h, qx, qy);
}

void hllc_cpu_get_state(const hllc_cpu *s, double *h, double *qx, double *qy) { s->ops->get_state(s->core, h, qx, qy); }

void hllc_cpu_halo(hllc_cpu *s, int set, int x, int y, int w, int h, double *buf)
{
    s->ops->halo(s->core, set, x, y, w, h, buf);
}

double hllc_cpu_rates(hllc_cpu *s)
{
    swe_clock_stage(&s->clk, 0);   /* the segment values, rain and sources at the step's t */
    double b = s->ops->rates(s->core);
    return isnan(b) ? b : fmin(b, s->clk.dt_cap);   /* swe.h dt_cap; a NaN stays */
}

int hllc_cpu_apply(hllc_cpu *s, double dt) { return s->ops->apply(s->core, dt); }

double hllc_cpu_step(hllc_cpu *s, double dt_max)
{
    double d = hllc_cpu_rates(s);
    if (isnan(d)) return -1.0;
    double dt = d < dt_max ? d : dt_max;
    return hllc_cpu_apply(s, dt) == 0 ? dt : -1.0;
}

void hllc_cpu_set_time(hllc_cpu *s, double t, double stop) { swe_clock_set_time(&s->clk, t, stop); }

void hllc_cpu_account(const hllc_cpu *s, swe_account *out) { swe_account_copy(&s->clk.acc, out); }

void hllc_cpu_clip_stats(const hllc_cpu *s, double *volume, double *rel)
{
    double v, r;
    s->ops->clip(s->core, &v, &r);
    if (volume) *volume = v;
    if (rel) *rel = r;
}

int hllc_cpu_threads(const hllc_cpu *s)
{
    return !s->ops->threaded ? 1 : s->threads > 0 ? s->threads : hllc_fast_threads();
}

const char *hllc_cpu_precision(const hllc_cpu *s) { return s->ops->precision; }

const char *hllc_cpu_name(const hllc_cpu *s) { return s->name; }
