/* roe.h — the Roe scheme's driver pieces shared by `swgl run` and `swgl bench roe`. */
#ifndef SWGL_ROE_H
#define SWGL_ROE_H

#include <stddef.h>

#include "roe_gpu.h"
#include "run.h"
#include "scenario.h"
#include "swe.h"

/* A scenario laid out on the ghost-ring grid of swe.h. */
typedef struct roe_setup {
    swe_problem p;
    double *H;               /* (nx+2)*(ny+2) */
    unsigned char *code;
    double *h, *qx, *qy;     /* initial state */
} roe_setup;

int roe_setup_build(roe_setup *s, const scenario *sc, char *err, size_t errlen);
void roe_setup_free(roe_setup *s);

/* One backend behind one interface. */
typedef struct roe_engine {
    enum backend backend;
    swe_cpu *cpu;
    roe_gpu *gpu;
    char name[160];          /* "gpu (llvmpipe ...)", "cpu (float, SSE, 2 threads)", ... */
} roe_engine;

int roe_engine_open(roe_engine *e, enum backend b, const roe_setup *s, const char *renderer,
                    char *err, size_t errlen);
void roe_engine_close(roe_engine *e);
/* dt = min(dt from (8), dt_max); returns 0, or -1 with a message */
int roe_engine_step(roe_engine *e, double dt_max, double *dt, char *err, size_t errlen);
int roe_engine_get(roe_engine *e, double *h, double *qx, double *qy, char *err, size_t errlen);

/* Runs from t = 0 to t_end (stopping exactly at each of the n_stops times, increasing,
 * the last being t_end; the callback, if any, sees the state there).  Returns 0 or -1;
 * *steps and *wall (seconds of stepping, GPU work finished) are filled. */
typedef int (*roe_stop_fn)(void *user, double t, roe_engine *e);
int roe_engine_run(roe_engine *e, const double *stops, int n_stops, int progress, long *steps,
                   double *wall, roe_stop_fn fn, void *user, char *err, size_t errlen);

#endif
