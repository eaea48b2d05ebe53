/* cpu_info.c — what the CPU is, for benchmark reports. */
#define _GNU_SOURCE   /* sched_getaffinity */
#include "cpu_info.h"

#include <math.h>
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

/* ---- CPU threads that share the machine (cpu_info.h) ---------------------------------- */

int cpu_threads_for(double others_busy, int ncpu, int max)
{
    double free_cores = (double)ncpu - (others_busy > 0.0 ? others_busy : 0.0);
    int n = (int)floor(free_cores + 0.5);
    return n < 1 ? 1 : n > max ? max : n;
}

/* The busy and total jiffies of the CPUs in the process's affinity mask; their count, or 0 */
static int mask_jiffies(unsigned long long *busy, unsigned long long *total)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
    FILE *f = fopen("/proc/stat", "r");
    if (!f) return 0;
    char line[512];
    int n = 0;
    *busy = *total = 0;
    while (fgets(line, sizeof line, f)) {
        int cpu;
        unsigned long long v[8] = {0};
        if (strncmp(line, "cpu", 3) != 0) break;   /* (the cpu lines come first) */
        if (sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1], &v[2], &v[3], &v[4],
                   &v[5], &v[6], &v[7]) < 5 ||
            cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &set))
            continue;
        /* user nice system idle iowait irq softirq steal: idle and iowait are free */
        unsigned long long b = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
        *busy += b;
        *total += b + v[3] + v[4];
        n++;
    }
    fclose(f);
    return n;
}

static double own_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void cpu_load_init(cpu_load *l, int max, int fixed)
{
    memset(l, 0, sizeof *l);
    l->max = l->n = max < 1 ? 1 : max;
    l->fixed = fixed || !mask_jiffies(&l->busy, &l->total);
    l->wall = cpu_seconds();
    l->own = own_cpu_seconds();
}

int cpu_load_threads(cpu_load *l)
{
    if (l->fixed || l->max == 1) return l->max;
    double now = cpu_seconds();
    if (now - l->wall < (l->looks ? CPU_LOAD_PERIOD : CPU_LOAD_FIRST)) return l->n;
    l->looks++;
    unsigned long long busy, total;
    int ncpu = mask_jiffies(&busy, &total);
    double own = own_cpu_seconds();
    const double db = (double)busy - (double)l->busy, dt = (double)total - (double)l->total;
    if (ncpu > 0 && dt > 0.0 && db >= 0.0 && db <= dt) {   /* (counters that went back: a CPU gone) */
        /* the mask's busy share over the period, in cores, less this process's own */
        double cores = db / dt * ncpu;
        double mine = (own - l->own) / (now - l->wall);
        l->n = cpu_threads_for(cores - mine, ncpu, l->max);
    }
    l->wall = now;
    l->own = own;
    l->busy = busy;
    l->total = total;
    return l->n;
}
