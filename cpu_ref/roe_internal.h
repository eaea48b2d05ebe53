/* roe_internal.h — cpu_ref's private face of the fast Roe solver (roe_fast.c), which
 * roe_scalar.c's public roe_cpu_* calls dispatch to.  Not part of the contract (roe_cpu.h). */
#ifndef SWGL_ROE_INTERNAL_H
#define SWGL_ROE_INTERNAL_H

#include "roe_cpu.h"

struct roe_fast;
/* use_double: the double (SSE2 x2) kernels, else the float (SSE x4) ones */
struct roe_fast *roe_fast_create(const swe_problem *p, int use_double);   /* NULL with the message set */
void roe_fast_destroy(struct roe_fast *f);
void roe_fast_set_state(struct roe_fast *f, const double *h, const double *qx, const double *qy);
void roe_fast_get_state(const struct roe_fast *f, double *h, double *qx, double *qy);
double roe_fast_rates(struct roe_fast *f);
int roe_fast_apply(struct roe_fast *f, double dt);
void roe_fast_clip_stats(const struct roe_fast *f, double *volume, double *rel);
int roe_fast_threads(const struct roe_fast *f);
int roe_fast_is_double(const struct roe_fast *f);

#endif
