/* test_cpu_load.c — the fast CPU solvers' thread count on a shared machine (cpu_ref/cpu_info.h,
 * issue 28): the rule, OMP_NUM_THREADS kept, and the look at /proc/stat against a real load.
 *   1. cpu_threads_for: the cores the other programs leave, rounded, within [1, max];
 *   2. with a count fixed (--tune cpu.threads=N) it is that count, whatever the load;
 *   3. with as many child processes spinning as the process has CPUs (its affinity mask), a
 *      look after CPU_LOAD_PERIOD finds no core free: 1 thread.  (Other load on the machine
 *      can only lower the count, and 1 is the floor, so the check holds on a busy CI machine;
 *      it fails if the look does not see the children, or counts them as the process's own.)
 *      Skipped (77) on a machine of one CPU or without /proc/stat. */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "cpu_info.h"

static void nap(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

int main(void)
{
    CHECK(cpu_threads_for(0.0, 8, 8) == 8, "an idle 8-core machine: 8 threads");
    CHECK(cpu_threads_for(2.0, 8, 8) == 6, "2 cores busy of 8: 6");
    CHECK(cpu_threads_for(2.4, 8, 8) == 6 && cpu_threads_for(2.6, 8, 8) == 5, "fractions rounded: 2.4 busy 6, 2.6 busy 5");
    CHECK(cpu_threads_for(3.0, 2, 2) == 1 && cpu_threads_for(2.0, 2, 2) == 1, "more load than cores: 1, never 0");
    CHECK(cpu_threads_for(-0.3, 4, 4) == 4, "a negative estimate (rounding of the own time): all");
    CHECK(cpu_threads_for(0.0, 16, 4) == 4, "never more than OpenMP's count (4 of 16 cores)");

    cpu_load l;
    cpu_load_init(&l, 3, 1);
    CHECK(l.fixed && cpu_load_threads(&l) == 3, "a count fixed: kept (3)");

    cpu_set_t set;
    int ncpu = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
    if (ncpu < 2) check_skip("one CPU (or no affinity mask): no load to share");
    cpu_load_init(&l, ncpu, 0);
    if (l.fixed) check_skip("no /proc/stat");
    pid_t kids[CPU_SETSIZE];
    for (int k = 0; k < ncpu; k++)
        if ((kids[k] = fork()) == 0) {
            alarm(10);   /* (gone even if the test is killed before it kills them) */
            for (volatile unsigned long x = 0;; x++) {}
        }
    nap(0.05);
    (void)cpu_load_threads(&l);   /* the first look (CPU_LOAD_FIRST), then a full period */
    nap(CPU_LOAD_PERIOD + 0.1);
    int n = cpu_load_threads(&l);
    for (int k = 0; k < ncpu; k++) kill(kids[k], SIGKILL);
    for (int k = 0; k < ncpu; k++) waitpid(kids[k], NULL, 0);
    CHECK(n == 1, "%d children spinning on the %d CPUs: %d thread(s) (no core free)", ncpu, ncpu, n);
    return check_done();
}
