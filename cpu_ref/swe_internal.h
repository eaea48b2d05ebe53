/* swe_internal.h — cpu_ref's private face of the fast Roe solver (swe_fast.c), which
 * swe_scalar.c's public swe_cpu_* calls dispatch to.  Not part of the contract (swe.h). */
#ifndef SWGL_SWE_INTERNAL_H
#define SWGL_SWE_INTERNAL_H

#include "swe.h"

struct swe_fast;
struct swe_fast *swe_fast_create(const swe_problem *p);   /* NULL with the message set */
void swe_fast_destroy(struct swe_fast *f);
void swe_fast_set_state(struct swe_fast *f, const double *h, const double *qx, const double *qy);
void swe_fast_get_state(const struct swe_fast *f, double *h, double *qx, double *qy);
double swe_fast_rates(struct swe_fast *f);
int swe_fast_apply(struct swe_fast *f, double dt);
void swe_fast_clip_stats(const struct swe_fast *f, double *volume, double *rel);
int swe_fast_threads(const struct swe_fast *f);

#endif
