/* cpu_info.h — what the CPU is, for benchmark reports. */
#ifndef SWGL_CPU_INFO_H
#define SWGL_CPU_INFO_H

/* "model name" from /proc/cpuinfo, or "unknown CPU". */
const char *cpu_model_name(void);
/* Threads OpenMP will use (omp_get_max_threads). */
int cpu_threads(void);
/* Seconds from a monotonic clock. */
double cpu_seconds(void);

#endif
