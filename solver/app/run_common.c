/* run_common.c — what every scheme's driver shares. */
#include "run.h"

#include <stdlib.h>

const char *backend_name(enum backend b)
{
    switch (b) {
    case BACKEND_GPU: return "gpu";
    case BACKEND_CPU: return "cpu";
    case BACKEND_CPU_SCALAR: return "cpu-scalar";
    default: return "none";
    }
}

double *ring_interior(const double *v, int nx, int ny)
{
    double *o = malloc((size_t)nx * ny * sizeof(double));
    if (!o) return NULL;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) o[(size_t)j * nx + i] = v[(size_t)(j + 1) * (nx + 2) + i + 1];
    return o;
}

double ring_volume(const double *v, const unsigned char *code, int nx, int ny, double cell)
{
    double s = 0, c = 0;   /* Kahan: a mass check must not drown in its own rounding */
    for (int j = 1; j <= ny; j++)
        for (int i = 1; i <= nx; i++) {
            size_t k = (size_t)j * (nx + 2) + i;
            if (code && code[k] != 0) continue;
            double y = v[k] * cell - c, t = s + y;
            c = (t - s) - y;
            s = t;
        }
    return s;
}
