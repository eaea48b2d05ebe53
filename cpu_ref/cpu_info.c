/* cpu_info.c — what the CPU is, for benchmark reports. */
#include "cpu_info.h"

#include <omp.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

const char *cpu_model_name(void)
{
    static char name[160];
    if (name[0]) return name;
    snprintf(name, sizeof name, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return name;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            const char *v = strchr(line, ':');
            if (v) {
                v++;
                while (*v == ' ') v++;
                snprintf(name, sizeof name, "%.*s", (int)strcspn(v, "\n"), v);
            }
            break;
        }
    }
    fclose(f);
    return name;
}

int cpu_threads(void)
{
    return omp_get_max_threads();
}

double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
