/* hllc_internal.h — inside the HLLC CPU solvers: the table of one solver core (a
 * precision and a threading of hllc_solver_body.h) that hllc_scalar.c dispatches to. */
#ifndef SWGL_HLLC_INTERNAL_H
#define SWGL_HLLC_INTERNAL_H

#include "hllc_cpu.h"

typedef struct hllc_core_ops {
    const char *precision;   /* "single" | "double" */
    int threaded;
    void *(*create)(const hllc_problem *p, swe_clock *clk);   /* NULL: no memory (message set) */
    void (*destroy)(void *c);
    void (*set_state)(void *c, const double *h, const double *qx, const double *qy);
    void (*get_state)(const void *c, double *h, double *qx, double *qy);
    void (*halo)(void *c, int set, int x, int y, int w, int h, double *buf);
    double (*rates)(void *c);
    int (*apply)(void *c, double dt);
    void (*clip)(const void *c, double *vol, double *rel);
} hllc_core_ops;

int hllc_fast_threads(void);   /* OpenMP threads of the fast solver */
extern const hllc_core_ops hllc_core_scalar, hllc_core_fast_float, hllc_core_fast_double;

#endif
