/* roe_engine.c — a scenario on the ghost-ring grid, and the GPU and CPU solvers of the
 * Roe scheme behind one interface, so that `swgl run`, `--compare` and `swgl bench roe`
 * drive every backend the same way. */
#include "roe.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_info.h"
#include "gpu_context.h"

void roe_setup_free(roe_setup *s)
{
    free(s->H);
    free(s->code);
    free(s->h);
    free(s->qx);
    free(s->qy);
    memset(s, 0, sizeof *s);
}

/* Ghost codes: a ring cell takes its side's boundary type; an inactive interior cell
 * next to an active one is a wall; anything touching no active cell is OFF. */
int roe_setup_build(roe_setup *s, const scenario *sc, char *err, size_t errlen)
{
    int nx = sc->nx, ny = sc->ny, W = nx + 2, Hh = ny + 2;
    size_t n = (size_t)W * Hh;
    memset(s, 0, sizeof *s);
    s->H = calloc(n, sizeof(double));
    s->code = malloc(n);
    s->h = calloc(n, sizeof(double));
    s->qx = calloc(n, sizeof(double));
    s->qy = calloc(n, sizeof(double));
    if (!s->H || !s->code || !s->h || !s->qx || !s->qy) {
        roe_setup_free(s);
        snprintf(err, errlen, "out of memory for a %dx%d grid", nx, ny);
        return -1;
    }
    memset(s->code, SWE_OFF, n);
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            size_t k = (size_t)(j + 1) * W + (i + 1), q = (size_t)j * nx + i;
            s->H[k] = -sc->bed[q];
            if (sc->active && !sc->active[q]) continue;
            s->code[k] = SWE_ACTIVE;
            s->h[k] = sc->h[q];
            s->qx[k] = sc->qx[q];
            s->qy[k] = sc->qy[q];
        }
    for (int j = 0; j < Hh; j++)
        for (int i = 0; i < W; i++) {
            size_t k = (size_t)j * W + i;
            if (s->code[k] == SWE_ACTIVE) continue;
            static const int di[4] = {-1, 1, 0, 0}, dj[4] = {0, 0, -1, 1};
            int touches = 0;
            for (int d = 0; d < 4; d++) {
                int ii = i + di[d], jj = j + dj[d];
                if (ii >= 0 && jj >= 0 && ii < W && jj < Hh && s->code[(size_t)jj * W + ii] == SWE_ACTIVE) touches = 1;
            }
            if (!touches) continue;
            unsigned char c = SWE_WALL;
            if (i == 0 && j >= 1 && j <= ny) c = sc->bc[SIDE_WEST][j - 1];
            else if (i == W - 1 && j >= 1 && j <= ny) c = sc->bc[SIDE_EAST][j - 1];
            else if (j == 0 && i >= 1 && i <= nx) c = sc->bc[SIDE_SOUTH][i - 1];
            else if (j == Hh - 1 && i >= 1 && i <= nx) c = sc->bc[SIDE_NORTH][i - 1];
            s->code[k] = c;
        }
    s->p.nx = nx;
    s->p.ny = ny;
    s->p.dx = sc->dx;
    s->p.dy = sc->dy;
    s->p.g = sc->g;
    s->p.cfl = sc->cfl;
    s->p.h_dry = sc->h_dry;
    s->p.H = s->H;
    s->p.code = s->code;
    return 0;
}

int roe_engine_open(roe_engine *e, enum backend b, const roe_setup *s, const char *renderer, char *err,
                    size_t errlen)
{
    memset(e, 0, sizeof *e);
    e->backend = b;
    if (b == BACKEND_GPU) {
        if (roe_gpu_create(&s->p, &e->gpu) != SWGL_OK ||
            roe_gpu_set_state(e->gpu, s->h, s->qx, s->qy) != SWGL_OK) {
            snprintf(err, errlen, "GPU solver: %s", swgl_last_error());
            roe_engine_close(e);
            return -1;
        }
        snprintf(e->name, sizeof e->name, "gpu (float, %s)", renderer ? renderer : "?");
        return 0;
    }
    e->cpu = swe_cpu_create(&s->p, b == BACKEND_CPU ? SWE_CPU_FAST : SWE_CPU_SCALAR, err, (int)errlen);
    if (!e->cpu) return -1;
    swe_cpu_set_state(e->cpu, s->h, s->qx, s->qy);
    snprintf(e->name, sizeof e->name, "%s", swe_cpu_name(e->cpu));
    return 0;
}

void roe_engine_close(roe_engine *e)
{
    roe_gpu_destroy(e->gpu);
    swe_cpu_destroy(e->cpu);
    e->gpu = NULL;
    e->cpu = NULL;
}

int roe_engine_step(roe_engine *e, double dt_max, double *dt, char *err, size_t errlen)
{
    if (e->gpu) {
        if (roe_gpu_step(e->gpu, dt_max, dt) != SWGL_OK) {
            snprintf(err, errlen, "GPU step: %s", swgl_last_error());
            return -1;
        }
        return 0;
    }
    *dt = swe_cpu_step(e->cpu, dt_max);
    if (!(*dt > 0)) {
        snprintf(err, errlen, "%s: the solution has blown up (NaN)", e->name);
        return -1;
    }
    return 0;
}

int roe_engine_get(roe_engine *e, double *h, double *qx, double *qy, char *err, size_t errlen)
{
    if (e->gpu) {
        if (roe_gpu_get_state(e->gpu, h, qx, qy) != SWGL_OK) {
            snprintf(err, errlen, "GPU download: %s", swgl_last_error());
            return -1;
        }
        return 0;
    }
    swe_cpu_get_state(e->cpu, h, qx, qy);
    return 0;
}

int roe_engine_run(roe_engine *e, const double *stops, int n_stops, int progress, long *steps, double *wall,
                   roe_stop_fn fn, void *user, char *err, size_t errlen)
{
    double t = 0, t0 = cpu_seconds(), shown = t0, paused = 0;
    long n = 0;
    for (int s = 0; s < n_stops; s++) {
        double target = stops[s];
        while (t < target) {
            double dt;
            /* land exactly on the stop: the last step is what is left */
            if (roe_engine_step(e, target - t, &dt, err, errlen)) return -1;
            t = (target - t <= dt) ? target : t + dt;
            n++;
            if (progress && cpu_seconds() - shown > 0.5) {
                shown = cpu_seconds();
                fprintf(stderr, "\r  %s: t = %.4g / %.4g s, step %ld, dt = %.3g s   ", e->name, t,
                        stops[n_stops - 1], n, dt);
            }
        }
        if (fn) {
            if (e->gpu) gpu_finish();
            double p0 = cpu_seconds();
            if (fn(user, t, e)) return -1;
            paused += cpu_seconds() - p0;
        }
    }
    if (e->gpu) gpu_finish();
    if (progress) fprintf(stderr, "\r%*s\r", 100, "");
    *steps = n;
    *wall = cpu_seconds() - t0 - paused;
    return 0;
}
