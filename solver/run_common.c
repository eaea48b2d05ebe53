/* run_common.c — what every scheme's driver shares. */
#include "run.h"

const char *backend_name(enum backend b)
{
    switch (b) {
    case BACKEND_GPU: return "gpu";
    case BACKEND_CPU: return "cpu";
    case BACKEND_CPU_SCALAR: return "cpu-scalar";
    default: return "none";
    }
}
