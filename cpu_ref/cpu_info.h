/* cpu_info.h — what the CPU is, for benchmark reports. */
#ifndef SWGL_CPU_INFO_H
#define SWGL_CPU_INFO_H

/* "model name" from /proc/cpuinfo, or "unknown CPU". */
const char *cpu_model_name(void);
/* Threads OpenMP will use (omp_get_max_threads). */
int cpu_threads(void);
/* Seconds from a monotonic clock. */
double cpu_seconds(void);

/* ---- CPU threads that share the machine (issue 28; docs/performance.md) ------------------
 * A fast CPU solver runs its parallel regions on as many threads as the cores that other
 * programs leave free, up to OpenMP's count: two threads on two cores that a compiler also
 * uses lose at every barrier (the one descheduled holds up the other), so a loaded machine
 * ran a run 2-4x slower than one thread.  Every CPU_LOAD_PERIOD s of wall time the solver
 * looks at the CPUs it may run on (its affinity mask) in /proc/stat: their busy time less
 * its own CPU time over the period is the other programs' load, in cores.  With a count
 * fixed (swe_problem threads, --tune cpu.threads=N), or without /proc/stat, it keeps that. */
#define CPU_LOAD_PERIOD 0.25
#define CPU_LOAD_FIRST 0.03   /* the first look, sooner: a short run's first period would be its whole */
typedef struct cpu_load {
    int max;                           /* OpenMP's count: the most threads */
    int n;                             /* the threads to run now */
    int fixed;                         /* 1: a count fixed (or no /proc/stat): always max */
    int looks;                         /* looks taken */
    double wall, own;                  /* at the last look: monotonic s, the process's CPU s */
    unsigned long long busy, total;    /* the mask's CPUs' jiffies then */
} cpu_load;
/* max: the most threads; fixed: 1 to run max always */
void cpu_load_init(cpu_load *l, int max, int fixed);
/* The threads to run now (looks again once CPU_LOAD_PERIOD has passed since the last look) */
int cpu_load_threads(cpu_load *l);
/* The rule: ncpu cores of which others_busy are used by other programs: the free ones,
 * rounded, at least 1 and at most max */
int cpu_threads_for(double others_busy, int ncpu, int max);

#endif
