/* gpu_timer.c — a ring of GL_TIME_ELAPSED queries (gpu_timer.h). */
#include "gpu_timer.h"

#include <stdlib.h>

#include "gl.h"

struct gpu_timer {
    int slots, head, count, open;
    GLuint *q;
    int *tag;
};

swgl_status gpu_timer_create(int slots, gpu_timer **out)
{
    *out = NULL;
    if (slots < 1 || slots > GPU_TIMER_MAX) return swgl_fail(SWGL_ERR_ARG, "timer: %d slots", slots);
    gpu_timer *t = calloc(1, sizeof *t);
    if (!t || !(t->q = calloc((size_t)slots, sizeof *t->q)) || !(t->tag = calloc((size_t)slots, sizeof *t->tag))) {
        gpu_timer_destroy(t);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    }
    t->slots = slots;
    glGetError();
    glGenQueries(slots, t->q);
    swgl_status st = gpu_check_gl("timer queries");
    if (st != SWGL_OK) {
        gpu_timer_destroy(t);
        return st;
    }
    *out = t;
    return SWGL_OK;
}

/* GL has one elapsed-time query active at a time, whichever timer opened it */
static int g_any_open;

void gpu_timer_destroy(gpu_timer *t)
{
    if (!t) return;
    if (t->open) {
        glEndQuery(GL_TIME_ELAPSED);
        g_any_open = 0;
    }
    if (t->q && t->slots) glDeleteQueries(t->slots, t->q);
    free(t->q);
    free(t->tag);
    free(t);
}

int gpu_timer_begin(gpu_timer *t, int tag)
{
    if (t->open || g_any_open || t->count == t->slots) return 0;
    int k = (t->head + t->count) % t->slots;
    t->tag[k] = tag;
    glBeginQuery(GL_TIME_ELAPSED, t->q[k]);
    t->open = g_any_open = 1;
    return 1;
}

void gpu_timer_end(gpu_timer *t)
{
    if (!t->open) return;
    glEndQuery(GL_TIME_ELAPSED);
    t->open = g_any_open = 0;
    t->count++;
}

int gpu_timer_pending(const gpu_timer *t) { return t->count; }

int gpu_timer_fetch(gpu_timer *t, int wait, int *tag, double *seconds)
{
    if (t->count == 0) return 0;
    GLuint q = t->q[t->head];
    if (!wait) {
        GLint ready = 0;
        glGetQueryObjectiv(q, GL_QUERY_RESULT_AVAILABLE, &ready);
        if (!ready) return 0;
    }
    GLuint64 ns = 0;
    glGetQueryObjectui64v(q, GL_QUERY_RESULT, &ns);
    *tag = t->tag[t->head];
    *seconds = (double)ns * 1e-9;
    t->head = (t->head + 1) % t->slots;
    t->count--;
    return 1;
}

unsigned gpu_samples_begin(void)
{
    GLuint q = 0;
    glGenQueries(1, &q);
    if (q) glBeginQuery(GL_SAMPLES_PASSED, q);
    return q;
}

long gpu_samples_end(unsigned query)
{
    GLuint q = query;
    GLuint64 n = 0;
    if (!q) return -1;
    glEndQuery(GL_SAMPLES_PASSED);
    glGetQueryObjectui64v(q, GL_QUERY_RESULT, &n);
    glDeleteQueries(1, &q);
    return (long)n;
}
