/* sim.c — the simulation of the public API (include/swgl.h): a scenario's scheme on one
 * backend, held open from swgl_sim_create to swgl_sim_destroy, stepped by run_to through the
 * one time loop (scheme.h), its outputs written as the run passes its stops
 * (sim_outputs.c).
 *
 * The stops.  The scenario's output times and, with [output] gauge_interval, its multiples,
 * after the start t0 (0, or a restart's time) and up to t_end, merged in order (two times
 * within a relative 1e-9 are one stop: 3 x 0.1 is not exactly 0.3).  run_to(t) hands the
 * time loop the stops in (now, t] and t itself, so that a run_to(t_end) lands on exactly
 * the times the command line always did, and every step is the same. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim_internal.h"
#include "scheme_mpi.h"

static char *dup_str(const char *s)
{
    if (!s) return NULL;
    char *d = strdup(s);
    return d;
}

swgl_status sim_agree(const swgl_sim *sim, swgl_status st) { return sim->alone ? st : swgl_mpi_agree(st); }

swgl_status sim_fail_if_finished(const swgl_sim *sim, const char *call)
{
    if (!sim) return swgl_fail(SWGL_ERR_ARG, "%s: no sim (NULL)", call);
    if (sim->finished) return swgl_fail(SWGL_ERR_ARG, "%s: the sim is finished (swgl_sim_finish was called)", call);
    return SWGL_OK;
}

long sim_active_cells(const scheme_setup *s)
{
    if (!s->code) return (long)s->nx * s->ny;
    long a = 0;
    for (size_t k = 0; k < grid_size(s->nx, s->ny); k++) a += s->code[k] == CELL_ACTIVE;
    return a;
}

/* A folder and what it holds, removed (a rank's scratch outputs) */
static void remove_tree(const char *path)
{
    DIR *dir = opendir(path);
    struct dirent *e;
    while (dir && (e = readdir(dir)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        char sub[4096];
        struct stat stt;
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        if (lstat(sub, &stt) == 0 && S_ISDIR(stt.st_mode)) remove_tree(sub);
        else unlink(sub);
    }
    if (dir) closedir(dir);
    rmdir(path);
}

/* --restart FILE [--restart-time T]: the state of a run.nc (output_nc.h) as the initial
 * state of the setup, and its time as the run's start. */
static swgl_status load_restart(swgl_sim *sim, int at_time, double restart_time)
{
    scheme_setup *s = &sim->s;
    const scenario *sc = &sim->sc;
    int sw = sc->scheme != SCHEME_SEDIMENT, n = sw ? 3 : 2, exact = 0;
    const char *names[3] = {"h", sw ? "qx" : "s", "qy"};
    size_t cells = (size_t)s->nx * (size_t)s->ny;
    double *v[3] = {NULL, NULL, NULL}, t = at_time ? restart_time : -1;
    swgl_status st = SWGL_OK;
    if (at_time && !(restart_time >= 0))
        return swgl_fail(SWGL_ERR_ARG, "restart_time %g: expected a time >= 0 (s)", restart_time);
    for (int q = 0; q < n && st == SWGL_OK; q++)
        if (!(v[q] = malloc(cells * sizeof(double)))) st = swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    if (st == SWGL_OK) st = nc_restart_read(sim->restart, s->nx, s->ny, n, names, &t, v, &exact);
    if (st == SWGL_OK && !(t < s->t_end))
        st = swgl_fail(SWGL_ERR_INPUT, "%s: its time %.9g s is not before t_end = %.9g s", sim->restart, t, s->t_end);
    for (int q = 0; q < n && st == SWGL_OK; q++)
        for (int j = 0; j < s->ny; j++)
            for (int i = 0; i < s->nx; i++) {
                size_t k = grid_in(s->nx, i, j);
                s->init[q][k] = !s->code || s->code[k] == CELL_ACTIVE ? v[q][(size_t)j * s->nx + i] : 0.0;
            }
    /* kp's surface, where the file has it at that time (exact only) */
    if (st == SWGL_OK && exact && sc->scheme == SCHEME_KP && v[0] &&
        nc_restart_extra(sim->restart, s->nx, s->ny, "surface", v[0]) == 1) {
        if (!(sim->native0 = calloc(grid_size(s->nx, s->ny), sizeof(double))))
            st = swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
        for (int j = 0; st == SWGL_OK && j < s->ny; j++)
            for (int i = 0; i < s->nx; i++) sim->native0[grid_in(s->nx, i, j)] = v[0][(size_t)j * s->nx + i];
    }
    for (int q = 0; q < 3; q++) free(v[q]);
    if (st == SWGL_OK) {
        sim->t0 = t;
        if (sim->progress)
            fprintf(stderr, "swgl: restart from %s at t = %.9g s (%s)\n", sim->restart, t,
                    exact ? "its latest state, in double" : "a stored time, in float");
    }
    return st;
}

/* the scenario's stops after t0 (the head comment) */
static swgl_status make_stops(swgl_sim *sim)
{
    const scenario *sc = &sim->sc;
    const double t0 = sim->t0, t_end = sim->s.t_end;
    /* (the gauge times are stops with or without an output folder: the same steps either way) */
    double gi = sc->n_gauges ? sc->gauge_interval : 0;
    if (gi > 0 && !(t_end / gi <= 1e7))   /* tested in double: the count may not fit a long */
        return swgl_fail(SWGL_ERR_INPUT, "%s: [output] gauge_interval = %g s: more than 10^7 samples to t_end = %g s",
                         sc->source, gi, t_end);
    long ng = gi > 0 ? (long)ceil(t_end / gi) : 0;
    sim->stops = malloc((size_t)(sc->n_output_times + ng + 1) * sizeof(double));
    sim->kinds = malloc((size_t)(sc->n_output_times + ng + 1));
    if (!sim->stops || !sim->kinds) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
#define SAME_TIME(a, b) (isfinite(a) && isfinite(b) && fabs((a) - (b)) <= 1e-9 * fmax(1.0, fmax(fabs(a), fabs(b))))
    int i0 = 0, n = 0;
    long k0 = 1;
    while (gi > 0 && (k0 * gi < t0 || SAME_TIME(k0 * gi, t0))) k0++;
    while (i0 < sc->n_output_times && (sc->output_times[i0] <= t0 || SAME_TIME(sc->output_times[i0], t0))) i0++;
    for (int i = i0, k = (int)k0;;) {
        double to = i < sc->n_output_times ? sc->output_times[i] : INFINITY;
        double tg = k <= ng && k * gi < t_end && !SAME_TIME(k * gi, t_end) ? k * gi : INFINITY;
        if (!(fmin(to, tg) < t_end) || SAME_TIME(fmin(to, tg), t_end)) break;
        int is_out = to <= tg || SAME_TIME(to, tg), is_gauge = tg <= to || SAME_TIME(to, tg);
        sim->stops[n] = is_out ? to : tg;   /* an output time where one coincides */
        sim->kinds[n++] = (unsigned char)((is_out ? STOP_OUTPUT : 0) | (is_gauge ? STOP_GAUGE : 0));
        if (is_out) i++;
        if (is_gauge) k++;
    }
    /* an output time at t_end (or within 1e-9 of it): the state there is the t_end stop's */
    int at_end = 0;
    for (int i = i0; i < sc->n_output_times; i++) at_end |= sc->output_times[i] >= t_end * (1 - 1e-9);
#undef SAME_TIME
    sim->kinds[n] = at_end ? STOP_OUTPUT : 0;
    sim->stops[n++] = t_end;
    sim->n_stops = n;
    return SWGL_OK;
}

static swgl_status parse_backend(const char *s, const char *what, enum backend def, enum backend *b)
{
    if (!s) {
        *b = def;
        return SWGL_OK;
    }
    if (backend_parse(s, b))
        return swgl_fail(SWGL_ERR_ARG, "%s '%s': expected gpu, gpu-compute, cpu or cpu-scalar", what, s);
    return SWGL_OK;
}

static int is_gpu(enum backend b) { return b == BACKEND_GPU || b == BACKEND_GPU_COMPUTE; }

static int g_gpu_sims;
int sim_gpu_sims(void) { return g_gpu_sims; }

SWGL_API swgl_status swgl_sim_create(const swgl_sim_desc *desc, swgl_sim **out)
{
    if (!out) return swgl_fail(SWGL_ERR_ARG, "swgl_sim_create: no place for the sim (NULL)");
    *out = NULL;
    swgl_sim_desc zero = {0};
    if (!desc) desc = &zero;
    swgl_clear_error();
    swgl_sim *sim = calloc(1, sizeof *sim);
    if (!sim) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    const int rank0 = swgl_mpi_rank() == 0;
    sim->alone = desc->mpi_alone && swgl_mpi_size() > 1;
    if (sim->alone && !rank0) {   /* rank 0 runs it by itself: here every call returns at once */
        sim->idle = 1;
        *out = sim;
        return SWGL_OK;
    }
    sim->writer = rank0;
    sim->progress = rank0 ? desc->progress : 0;
    sim->profile = desc->profile;
    swgl_status st = SWGL_OK;
    if (desc->progress < 0 || desc->progress > SWGL_PROGRESS_LINES)
        st = swgl_fail(SWGL_ERR_ARG, "progress %d: expected SWGL_PROGRESS_NONE, _TTY or _LINES", desc->progress);
    if (st == SWGL_OK) st = parse_backend(desc->backend, "backend", BACKEND_GPU, &sim->backend);
    if (st == SWGL_OK) st = parse_backend(desc->compare, "compare", BACKEND_NONE, &sim->compare);
    if (sim->compare == sim->backend) sim->compare = BACKEND_NONE;
    enum precision_choice prec = PRECISION_AUTO;
    if (st == SWGL_OK && desc->precision) {
        if (strcmp(desc->precision, "single") == 0) prec = PRECISION_SINGLE;
        else if (strcmp(desc->precision, "double") == 0) prec = PRECISION_DOUBLE;
        else st = swgl_fail(SWGL_ERR_ARG, "precision '%s': expected single or double", desc->precision);
    }
    if (st == SWGL_OK && desc->scenario && desc->case_name)
        st = swgl_fail(SWGL_ERR_ARG, "give a scenario file or a case name, not both ('%s', '%s')", desc->scenario,
                       desc->case_name);
    if (st == SWGL_OK && desc->restart_at_time && !desc->restart)
        st = swgl_fail(SWGL_ERR_ARG, "restart_at_time needs restart (a run.nc)");
    /* over MPI ranks rank 0 writes the outputs; the others gather alike and keep their gauges
     * in a scratch folder they remove */
    if (st == SWGL_OK && desc->out) {
        if (rank0) sim->out_dir = dup_str(desc->out);
        else {
            snprintf(sim->scratch, sizeof sim->scratch, "/tmp/swgl-rank%d-XXXXXX", swgl_mpi_rank());
            if (!mkdtemp(sim->scratch)) sim->scratch[0] = '\0';
            if (!sim->scratch[0])
                st = swgl_fail(SWGL_ERR_IO, "rank %d: no scratch folder in /tmp for its gauges", swgl_mpi_rank());
            sim->out_dir = dup_str(sim->scratch);
        }
        if (st == SWGL_OK && !sim->out_dir) st = swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    }
    if (st == SWGL_OK && desc->restart && !(sim->restart = dup_str(desc->restart)))
        st = swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    if (st != SWGL_OK) goto agree;

    /* the scenario and the scheme's problem */
    int nsets = 0;
    while (desc->set && desc->set[nsets]) nsets++;
    const char *casename = desc->case_name ? desc->case_name : desc->scenario ? NULL : "dambreak";
    st = desc->scenario ? scenario_load(&sim->sc, desc->scenario, (const char *const *)desc->set, nsets)
                        : scenario_load_case(&sim->sc, casename, (const char *const *)desc->set, nsets);
    if (st != SWGL_OK) goto agree;
    if (!(sim->d = scheme_find(sim->sc.scheme))) {
        st = SWGL_ERR_INPUT;
        goto agree;
    }
    if ((st = sim->d->setup(&sim->sc, &sim->s)) != SWGL_OK) goto agree;
    sim->cfg = (scheme_config){.backend = sim->backend, .precision = prec};
    if (is_gpu(sim->backend) || is_gpu(sim->compare)) {
        if (g_gpu_sims > 0) {
            st = swgl_fail(SWGL_ERR_ARG, "a GPU sim is alive in this process already: one at a time (the GL layer's "
                           "programs are the process's); destroy it first, or use a CPU backend");
            goto agree;
        }
        int want_cs = sim->backend == BACKEND_GPU_COMPUTE || sim->compare == BACKEND_GPU_COMPUTE;
        if (desc->use_current_context) st = gpu_context_adopt(&sim->ctx);
        else {
            /* over MPI ranks each rank of a node takes its own GPU, unless a device is named */
            gpu_context_desc gd = {.device = desc->device, .use_device = desc->use_device, .want_compute = want_cs,
                                   .rotate = swgl_mpi_local_rank()};
            st = gpu_context_create(&gd, &sim->ctx);
        }
        if (st != SWGL_OK) goto agree;
        g_gpu_sims++;
        sim->counted_gpu = 1;
        const gpu_info *gi = gpu_context_info(sim->ctx);
        if (want_cs && !gi->compute_context) {
            st = swgl_fail(SWGL_ERR_NO_CONTEXT, "--backend gpu-compute needs a GL 4.3 core context (compute shaders): "
                           "%s gave GL %d.%d", gi->renderer, gi->gl_major, gi->gl_minor);
            goto agree;
        }
        sim->cfg.renderer = gi->renderer;
        sim->cfg.has_fp64 = gi->has_fp64;
    }
    if ((st = scheme_fields_alloc(&sim->f, sim->d, sim->s.nx, sim->s.ny)) != SWGL_OK) goto agree;
    if (sim->out_dir && !(sim->od = outdir_open(sim->out_dir))) {
        st = SWGL_ERR_IO;
        goto agree;
    }
    if (sim->restart && (st = load_restart(sim, desc->restart_at_time, desc->restart_time)) != SWGL_OK) goto agree;
    sim->t = sim->t0;
    sim->t_planned = sim->s.t_end;
    if ((st = make_stops(sim)) != SWGL_OK) goto agree;
    sim->forcing = sim->d->forcing ? sim->d->forcing(&sim->s) : NULL;
    if (sim->forcing && (st = swe_account_init(&sim->acc, sim->forcing)) != SWGL_OK) goto agree;
    if ((st = sim_outputs_open(sim)) != SWGL_OK) goto agree;
agree:
    /* over MPI ranks the set-up's outcome is agreed before the ranks meet in the backend's
     * collectives: a rank that failed stops them all with its message */
    if ((st = sim_agree(sim, st)) != SWGL_OK) goto fail;

    /* the backend, from the initial state (or the restart's) */
    st = sim->alone ? scheme_open_block(&sim->in, sim->d, sim->backend, &sim->s, &sim->cfg)
                    : scheme_open(&sim->in, sim->d, sim->backend, &sim->s, &sim->cfg);
    if (st != SWGL_OK) goto fail;
    sim->open = 1;
    sim->in.host_clock = desc->host_clock;
    snprintf(sim->solver, sizeof sim->solver, "%s", sim->in.name);
    sim->precision = sim->in.be->precision(sim->in.self);
    sim->in.t_start = sim->t0;
    sim->in.stop_flag = &sim->stop_req;
    if (sim->native0 && sim->in.be->set_native) st = sim->in.be->set_native(sim->in.self, sim->native0);
    if (sim->profile && sim->in.be->profile) sim->in.be->profile(sim->in.self, 1);
    if (st == SWGL_OK) st = sim_outputs_maps(sim);
    if ((st = sim_agree(sim, st)) != SWGL_OK) goto fail;
    sim->m0 = grid_volume(sim->s.init[0], sim->s.code, sim->s.nx, sim->s.ny, sim->s.dx * sim->s.dy);
    /* the run so far: none (a finish before any step writes the start) */
    sim->r.n_samples = 1;
    sim->r.samples[0] = (timeloop_sample){sim->t0, 0, 0};
    sim->r.t = sim->t0;
    sim->r.dt_min = INFINITY;
    sim->r.precision = sim->precision;
    if (sim->progress) {
        char line[256] = "";
        if (sim->d->describe_run) sim->d->describe_run(&sim->s, line, sizeof line);
        fprintf(stderr, "swgl: %s, %dx%d %s, to t = %g s%s%s on %s\n", sim->sc.source, sim->s.nx, sim->s.ny,
                sim->d->cell_word, sim->s.t_end, line[0] ? ", " : "", line, sim->solver);
    }
    *out = sim;
    return SWGL_OK;
fail:
    {
        /* keep the message past the clean-up */
        char msg[2048];
        snprintf(msg, sizeof msg, "%s", swgl_last_error());
        swgl_sim_destroy(sim);
        return swgl_fail(st, "%s", msg[0] ? msg : swgl_strerror(st));
    }
}

SWGL_API void swgl_sim_destroy(swgl_sim *sim)
{
    if (!sim) return;
    if (sim->open) scheme_close(&sim->in);
    sim_outputs_close(sim);
    outdir_abort(sim->od);
    scheme_fields_free(&sim->f);
    swe_account_free(&sim->acc);
    free(sim->native0);
    free(sim->stops);
    free(sim->kinds);
    free(sim->landed);
    if (sim->d && sim->s.problem) sim->d->setup_free(&sim->s);
    gpu_context_destroy(sim->ctx);
    if (sim->counted_gpu) g_gpu_sims--;
    scenario_free(&sim->sc);
    if (sim->scratch[0]) remove_tree(sim->scratch);
    free(sim->out_dir);
    free(sim->restart);
    free(sim);
}

/* ---- stepping ---------------------------------------------------------------------------- */

swgl_status sim_notify(swgl_sim *sim, unsigned mask, double t, int which)
{
    for (int k = 0; k < sim->n_obs; k++) {
        sim_observer *o = &sim->obs[k];
        unsigned hit = o->events & mask;
        if (!hit || (which == NOTIFY_PUBLIC && o->builtin) || (which == NOTIFY_BUILTIN && !o->builtin)) continue;
        swgl_status st = o->fn(sim, (swgl_event)(hit & (~hit + 1)), t, o->builtin ? sim : o->user);
        if (st != SWGL_OK) {
            sim->observer_stopped = !o->builtin;
            if (!swgl_last_error()[0]) swgl_fail(st, "an observer stopped the run at t = %.9g s: %s", t, swgl_strerror(st));
            return st;
        }
    }
    return SWGL_OK;
}

static int step_observers(const swgl_sim *sim)
{
    for (int k = 0; k < sim->n_obs; k++)
        if (sim->obs[k].events & SWGL_EVENT_STEP) return 1;
    return 0;
}

/* after every step (scheme_inst after_step): the gauges sampled every step, the flood maps
 * of a backend that does not keep them, and the observers of each step */
static swgl_status after_step(void *user, double t, scheme_inst *in)
{
    swgl_sim *sim = user;
    (void)in;
    sim->state_ok = 0;
    sim->t = t;
    sim->steps = sim->span_base + sim->in.steps_run;
    swgl_status st = sim_notify(sim, SWGL_EVENT_STEP, t, NOTIFY_ALL);
    return sim_agree(sim, st);   /* (a gauge line that failed on one rank stops them all) */
}

/* at the scenario's stops before a span's last: its kind's outputs; over MPI ranks every
 * rank stops here alike and agrees on the outcome */
static swgl_status at_stop(swgl_sim *sim, double t, int last)
{
    int kind = sim->next_stop < sim->n_stops ? sim->kinds[sim->next_stop] : 0;
    sim->next_stop++;
    sim->state_ok = 0;
    sim->t = t;
    sim->steps = sim->span_base + sim->in.steps_run;
    swgl_status st = SWGL_OK;
    /* an output time at t_end where a span ends: its grids are written by the finish from the
     * final state, in the order the files always had, unless the run goes on past t_end
     * first; within a span (a run_to past t_end) they are written as any stop's */
    int end = last && sim->next_stop == sim->n_stops && (kind & STOP_OUTPUT);
    if (end) sim->end_pending = 1;
    st = sim_notify(sim, (unsigned)kind, t, end ? NOTIFY_PUBLIC : NOTIFY_ALL);
    return sim_agree(sim, st);
}

static swgl_status on_stop(void *user, double t, scheme_inst *in)
{
    (void)in;
    return at_stop(user, t, 0);
}

/* The scenario's stops at the current time not yet taken (a step that landed on one and
 * whose observer ended the run before the stop's outputs): taken now; for_finish, as the
 * last stop of a span (an output time at t_end is the finish's). */
static swgl_status catch_up(swgl_sim *sim, int for_finish)
{
    swgl_status st = SWGL_OK;
    while (st == SWGL_OK && sim->next_stop < sim->n_stops && sim->stops[sim->next_stop] <= sim->t &&
           sim->t > sim->t0)
        st = at_stop(sim, sim->t, for_finish);
    return st;
}

swgl_status sim_catch_up_finish(swgl_sim *sim) { return catch_up(sim, 1); }

/* a flag every rank agrees on (its largest value) */
static int agreed_flag(const swgl_sim *sim, int v) { return sim->alone ? v : swgl_mpi_max((double)v) > 0; }

static swgl_status add_landed(swgl_sim *sim, double t)
{
    if (sim->n_landed == sim->cap_landed) {
        int cap = sim->cap_landed ? 2 * sim->cap_landed : 64;
        double *l = realloc(sim->landed, (size_t)cap * sizeof *l);
        if (!l) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
        sim->landed = l;
        sim->cap_landed = cap;
    }
    sim->landed[sim->n_landed++] = t;
    return SWGL_OK;
}

/* a span's result added to the run's */
static void add_span(swgl_sim *sim, const timeloop_result *rr)
{
    timeloop_result *r = &sim->r;
    if (sim->n_spans++ == 0) {
        *r = *rr;   /* (its first sample is the start) */
    } else {
        double w0 = r->wall;
        long s0 = r->steps;
        for (int k = 1; k < rr->n_samples; k++) {
            timeloop_sample x = {rr->samples[k].t, w0 + rr->samples[k].wall, s0 + rr->samples[k].steps};
            if (r->n_samples < TIMELOOP_SAMPLES + 2) r->samples[r->n_samples++] = x;
            else r->samples[r->n_samples - 1] = x;
        }
        r->steps += rr->steps;
        r->wall += rr->wall;
        r->dt_min = fmin(r->dt_min, rr->dt_min);
        r->dt_max = fmax(r->dt_max, rr->dt_max);
        r->t = rr->t;
    }
    r->precision = sim->precision;
    sim->steps = r->steps;
}

/* The time loop from now to t (max_steps: at most that many steps, 0 no limit). */
static swgl_status advance_to(swgl_sim *sim, double t, long max_steps)
{
    swgl_status st = sim_fail_if_finished(sim, "swgl_sim_run_to");
    if (st != SWGL_OK || sim->idle) return st;
    swgl_clear_error();
    if (sim->busy) return swgl_fail(SWGL_ERR_ARG, "swgl_sim_run_to: called from an observer of the same sim");
    if (sim->failed) return swgl_fail(SWGL_ERR_ARG, "swgl_sim_run_to: the sim stopped on an error at t = %.9g s", sim->t);
    /* (over MPI ranks a request seen by one rank is every rank's) */
    if (sim->interrupted || agreed_flag(sim, sim->stop_req)) {
        if (!sim->interrupted) sim->interrupted = timeloop_stop_requested() ? timeloop_stop_requested() : -1;
        return swgl_fail(SWGL_ERR_INTERRUPTED, "%s: stopped on request at t = %.9g s", sim->solver, sim->t);
    }
    if (!isfinite(t)) return swgl_fail(SWGL_ERR_ARG, "swgl_sim_run_to(%g): expected a finite time (s)", t);
    if (t < sim->t)
        return swgl_fail(SWGL_ERR_ARG, "swgl_sim_run_to(%.9g): the sim is at t = %.9g s already (no stepping back)", t,
                         sim->t);
    if (t == sim->t) return SWGL_OK;
    if ((st = catch_up(sim, 0)) != SWGL_OK) return st;
    if (sim->end_pending) {   /* going past t_end: the output time there written now */
        sim->end_pending = 0;
        if ((st = sim_agree(sim, sim_notify(sim, STOP_OUTPUT, sim->t, NOTIFY_BUILTIN))) != SWGL_OK) return st;
    }
    /* the scenario's stops up to t, then t */
    int first = sim->next_stop, n = 0;
    while (first + n < sim->n_stops && sim->stops[first + n] <= t) n++;
    int extra = !(n > 0 && sim->stops[first + n - 1] == t);
    double *list = malloc((size_t)(n + 1) * sizeof *list);
    if (!list) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    memcpy(list, sim->stops + first, (size_t)n * sizeof *list);
    if (extra) list[n] = t;
    int nl = n + extra;
    sim->in.t_start = sim->t;
    sim->in.after_step = step_observers(sim) ? after_step : NULL;
    sim->in.after_step_user = sim;
    timeloop_result rr;
    memset(&rr, 0, sizeof rr);
    /* (the stops are numbered within the span: the device's clock starts afresh each span) */
    timeloop_opts o = {fmax(sim->s.t_end, t), 0, max_steps};
    sim->state_ok = 0;
    sim->span_base = sim->steps;
    sim->observer_stopped = 0;
    sim->busy = 1;
    st = timeloop_run_opts(&sim->in, list, nl, sim->progress, on_stop, sim, &rr, &o);
    sim->busy = 0;
    add_span(sim, &rr);
    sim->t = rr.t;
    /* the times landed on (at_stop took the stops before the last), and where the span ended
     * (a step, an observer's stop): the comparison lands on them all */
    for (int k = 0; k < nl && list[k] <= rr.t; k++)
        if (add_landed(sim, list[k]) != SWGL_OK) break;
    if (rr.t > (sim->n_landed ? sim->landed[sim->n_landed - 1] : sim->t0)) add_landed(sim, rr.t);
    /* the last stop of the span, when it is one of the scenario's and was reached */
    if (st == SWGL_OK && !extra && rr.t == list[nl - 1]) {
        sim->busy = 1;
        st = at_stop(sim, rr.t, 1);
        sim->busy = 0;
    }
    free(list);
    sim->observer_stopped = agreed_flag(sim, sim->observer_stopped);
    /* a stop request ends the stepping for good; an observer's status ends this run_to (the
     * state is whole: its step was done); anything else (a blow-up, a GL error) ends it all */
    if (st == SWGL_ERR_INTERRUPTED && !sim->observer_stopped)
        sim->interrupted = timeloop_stop_requested() ? timeloop_stop_requested() : -1;
    else if (st != SWGL_OK && !sim->observer_stopped) sim->failed = 1;
    return st;
}

SWGL_API swgl_status swgl_sim_run_to(swgl_sim *sim, double t) { return advance_to(sim, t, 0); }

SWGL_API swgl_status swgl_sim_step(swgl_sim *sim)
{
    swgl_status st = sim_fail_if_finished(sim, "swgl_sim_step");
    if (st != SWGL_OK || sim->idle) return st;
    if (!sim->busy && (st = catch_up(sim, 0)) != SWGL_OK) return st;
    if (!(sim->t < sim->s.t_end))
        return swgl_fail(SWGL_ERR_ARG, "swgl_sim_step: the sim is at t_end = %.9g s (run_to goes further)", sim->s.t_end);
    double target = sim->next_stop < sim->n_stops ? sim->stops[sim->next_stop] : sim->s.t_end;
    return advance_to(sim, target, 1);
}

SWGL_API void swgl_sim_request_stop(swgl_sim *sim)
{
    if (sim) sim->stop_req = 1;
}

SWGL_API swgl_status swgl_sim_observe(swgl_sim *sim, unsigned events, swgl_observer_fn fn, void *user)
{
    swgl_status st = sim_fail_if_finished(sim, "swgl_sim_observe");
    if (st != SWGL_OK) return st;
    if (!fn) return swgl_fail(SWGL_ERR_ARG, "swgl_sim_observe: no function (NULL)");
    if (!events || (events & ~(unsigned)(SWGL_EVENT_STEP | SWGL_EVENT_OUTPUT | SWGL_EVENT_FINISH)))
        return swgl_fail(SWGL_ERR_ARG, "swgl_sim_observe: events 0x%x: expected SWGL_EVENT_STEP, _OUTPUT, _FINISH or'ed",
                         events);
    if (sim->n_obs == SIM_MAX_OBSERVERS)
        return swgl_fail(SWGL_ERR_ARG, "swgl_sim_observe: at most %d observers", SIM_MAX_OBSERVERS);
    sim->obs[sim->n_obs++] = (sim_observer){events, fn, user, 0};
    return SWGL_OK;
}

swgl_status sim_observe_builtin(swgl_sim *sim, unsigned events, swgl_observer_fn fn)
{
    if (sim->n_obs == SIM_MAX_OBSERVERS) return swgl_fail(SWGL_ERR_ARG, "too many observers");
    sim->obs[sim->n_obs++] = (sim_observer){events, fn, NULL, 1};
    return SWGL_OK;
}

/* ---- where it is ------------------------------------------------------------------------- */

SWGL_API double swgl_sim_time(const swgl_sim *sim) { return sim ? sim->t : NAN; }
SWGL_API long swgl_sim_steps(const swgl_sim *sim) { return sim ? sim->steps : 0; }
SWGL_API double swgl_sim_t_end(const swgl_sim *sim) { return sim ? sim->s.t_end : NAN; }

SWGL_API void swgl_sim_size(const swgl_sim *sim, int *nx, int *ny, double *dx, double *dy)
{
    if (nx) *nx = sim ? sim->s.nx : 0;
    if (ny) *ny = sim ? sim->s.ny : 0;
    if (dx) *dx = sim ? sim->s.dx : 0;
    if (dy) *dy = sim ? sim->s.dy : 0;
}

SWGL_API void swgl_sim_origin(const swgl_sim *sim, double *x0, double *y0)
{
    if (x0) *x0 = sim ? sim->sc.xll : 0;
    if (y0) *y0 = sim ? sim->sc.yll : 0;
}

SWGL_API swgl_status swgl_sim_get_info(const swgl_sim *sim, swgl_sim_info *info)
{
    if (!sim || !info) return swgl_fail(SWGL_ERR_ARG, "swgl_sim_get_info: NULL");
    memset(info, 0, sizeof *info);
    if (sim->idle) return SWGL_OK;
    snprintf(info->scheme, sizeof info->scheme, "%s", sim->d->name);
    snprintf(info->backend, sizeof info->backend, "%s", backend_name(sim->backend));
    snprintf(info->solver, sizeof info->solver, "%s", sim->solver);
    snprintf(info->renderer, sizeof info->renderer, "%s",
             is_gpu(sim->backend) && sim->cfg.renderer ? sim->cfg.renderer : "none (CPU)");
    snprintf(info->precision, sizeof info->precision, "%s", sim->precision);
    snprintf(info->source, sizeof info->source, "%s", sim->sc.source);
    info->nx = sim->s.nx;
    info->ny = sim->s.ny;
    info->dx = sim->s.dx;
    info->dy = sim->s.dy;
    info->t_start = sim->t0;
    info->t_end = sim->s.t_end;
    info->cells = sim_active_cells(&sim->s);
    return SWGL_OK;
}

SWGL_API swgl_status swgl_sim_stat(const swgl_sim *sim, const char *name, double *value)
{
    if (!sim || !name || !value) return swgl_fail(SWGL_ERR_ARG, "swgl_sim_stat: NULL");
    const timeloop_result *r = &sim->r;
    if (sim->idle) {
        *value = 0;
        return SWGL_OK;
    }
    if (strcmp(name, "wall_s") == 0) *value = r->wall;
    else if (strcmp(name, "steps") == 0) *value = (double)sim->steps;
    else if (strcmp(name, "dt_min") == 0) *value = sim->steps ? r->dt_min : 0;
    else if (strcmp(name, "dt_max") == 0) *value = r->dt_max;
    else if (strcmp(name, "cells_per_s") == 0)
        *value = r->wall > 0 ? (double)sim_active_cells(&sim->s) * (double)sim->steps / r->wall : 0;
    else if (strcmp(name, "mass_initial") == 0) *value = sim->m0;
    else if (strcmp(name, "mass_final") == 0) *value = sim->m1;
    else if (strcmp(name, "interrupted") == 0) *value = sim->interrupted != 0 || sim->stop_req;
    else if (strcmp(name, "tiles_fraction") == 0) {
        long c = 0, t = 0;
        if (sim->open && sim->in.be->tiles) sim->in.be->tiles(sim->in.self, &c, &t);
        if (!(t > 0 && c >= 0)) return swgl_fail(SWGL_ERR_ARG, "swgl_sim_stat: tiles_fraction unknown on %s", sim->solver);
        *value = (double)c / (double)t;
    } else if (strcmp(name, "exchange_s") == 0) {
        long n = 0;
        if (!sim->open || !scheme_mpi_stats(&sim->in, value, &n)) *value = 0;
    } else {
        return swgl_fail(SWGL_ERR_ARG, "swgl_sim_stat: no number '%s' (wall_s, steps, dt_min, dt_max, cells_per_s, "
                         "mass_initial, mass_final, tiles_fraction, exchange_s, interrupted)", name);
    }
    return SWGL_OK;
}

SWGL_API swgl_status swgl_sim_profile(swgl_sim *sim, int k, const char **name, double *seconds, long *count)
{
    if (!sim || !name || !seconds || !count) return swgl_fail(SWGL_ERR_ARG, "swgl_sim_profile: NULL");
    if (!sim->profile || !sim->open || !sim->in.be->profile_pass)
        return swgl_fail(SWGL_ERR_ARG, "swgl_sim_profile: no profile (desc.profile on a GPU backend that has one)");
    if (sim->in.be->finish) sim->in.be->finish(sim->in.self);
    return sim->in.be->profile_pass(sim->in.self, k, name, seconds, count);
}
