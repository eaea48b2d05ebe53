/* gpu_timer.h — the GPU time of sections of the command stream, read back without
 * stalling: GL_TIME_ELAPSED queries (core in GL 3.3) in a ring.  A section is what the
 * GPU does between gpu_timer_begin and gpu_timer_end (sections do not nest: GL has one
 * elapsed-time query active at a time); each carries a tag of the caller's.  Results
 * come back in the order the sections were made, once the GPU has got there (polled
 * with GL_QUERY_RESULT_AVAILABLE), or by waiting for them. */
#ifndef SWGL_GPU_TIMER_H
#define SWGL_GPU_TIMER_H

#include "gpu_error.h"

#define GPU_TIMER_MAX 1024

typedef struct gpu_timer gpu_timer;

/* slots: how many sections may be in flight (1..GPU_TIMER_MAX). */
swgl_status gpu_timer_create(int slots, gpu_timer **out);
void gpu_timer_destroy(gpu_timer *t);          /* NULL is fine */
/* Starts a section; returns 0 (and times nothing until the matching end) when every
 * slot is in flight (fetch first) or a section is already open, of this timer or of
 * another (GL has one elapsed-time query active at a time). */
int gpu_timer_begin(gpu_timer *t, int tag);
void gpu_timer_end(gpu_timer *t);              /* ends the open section, if any */
int gpu_timer_pending(const gpu_timer *t);     /* sections ended and not fetched */
/* The oldest ended section: 1 with its tag and its GPU time in seconds, and the slot is
 * freed; 0 when none is pending, or (wait = 0) when the GPU has not finished it yet;
 * wait = 1 blocks until it has. */
int gpu_timer_fetch(gpu_timer *t, int wait, int *tag, double *seconds);

/* The fragments that pass the depth test (all fragments drawn without one) between
 * gpu_samples_begin and gpu_samples_end: a GL_SAMPLES_PASSED query (single-sampled
 * targets), waited for (a stall: for tests and benches); one count open at a time, it may
 * overlap a timer section.  begin returns 0 where no query could be made; end of 0: -1. */
unsigned gpu_samples_begin(void);
long gpu_samples_end(unsigned query);

#endif
