/* sim.c — the simulation of the public API (include/swgl.h): a scenario's scheme on one
 * backend, held open from swgl_sim_create to swgl_sim_destroy, stepped by run_to through the
 * one time loop (scheme.h), its outputs written as the run passes its stops
 * (sim_outputs.c).
 *
 * The stops.  The scenario's output times and, with [output] gauge_interval, its multiples,
 * after the start t0 (0, or a restart's time) and up to t_end, merged in order (two times
 * within a relative 1e-9 are one stop: 3 x 0.1 is not exactly 0.3).  run_to(t) hands the
 * time loop the stops in (now, t] and t itself, so that a run_to(t_end) lands on exactly
 * the times the command line always did, and every step is the same (the stepping itself:
 * sim_step.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu_info.h"
#include "sim_internal.h"
#include "gpu_pass.h"
#include "keys.h"
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
    int sw = !sc->scheme->points, n = sw ? 3 : 2, exact = 0;
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
    /* the scheme's own field (kp's surface), where the file has it at that time (exact only) */
    if (st == SWGL_OK && exact && sim->d->native && v[0] &&
        nc_restart_extra(sim->restart, s->nx, s->ny, sim->d->native, v[0]) == 1) {
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


static int g_gpu_sims;
int sim_gpu_sims(void) { return g_gpu_sims; }

SWGL_API swgl_status swgl_sim_create(const swgl_sim_desc *desc, swgl_sim **out)
{
    if (!out) return swgl_fail(SWGL_ERR_ARG, "swgl_sim_create: no place for the sim (NULL)");
    *out = NULL;
    swgl_sim_desc zero = {0};
    if (!desc) desc = &zero;
    swgl_clear_error();
    const double t_create = cpu_seconds();
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
    /* the tuning choices (tuning.h): refused before anything is opened or written; the
     * environment's removed knobs named once */
    tuning_defaults(&sim->tune);
    if (st == SWGL_OK) st = tuning_parse(&sim->tune, desc->tune);
    if (rank0) tuning_warn_removed_env(stderr);
    if (st == SWGL_OK && sim->tune.mpi_verbose) swgl_mpi_verbose();
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
    scheme_keys_install();
    st = desc->scenario ? scenario_load(&sim->sc, desc->scenario, (const char *const *)desc->set, nsets)
                        : scenario_load_case(&sim->sc, casename, (const char *const *)desc->set, nsets);
    if (st != SWGL_OK) goto agree;
    if (!(sim->d = scheme_find(sim->sc.scheme->name))) {
        st = SWGL_ERR_INPUT;
        goto agree;
    }
    if ((st = sim->d->setup(&sim->sc, &sim->s)) != SWGL_OK) goto agree;
    double t_part = cpu_seconds();
    sim->setup_part[0] = t_part - t_create;
    sim->cfg = (scheme_config){.backend = sim->backend, .precision = prec, .tune = &sim->tune};
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
        gpu_set_gl_check(sim->tune.gl_check);   /* (the process's, as the pass mode: one GPU sim at a time) */
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
    sim->setup_part[1] = cpu_seconds() - t_part;
    t_part = cpu_seconds();
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
    sim->setup_part[2] = cpu_seconds() - t_part;
agree:
    /* over MPI ranks the set-up's outcome is agreed before the ranks meet in the backend's
     * collectives: a rank that failed stops them all with its message */
    if ((st = sim_agree(sim, st)) != SWGL_OK) goto fail;

    /* the backend, from the initial state (or the restart's) */
    double t_be = cpu_seconds();
    st = sim->alone ? scheme_open_block(&sim->in, sim->d, sim->backend, &sim->s, &sim->cfg)
                    : scheme_open(&sim->in, sim->d, sim->backend, &sim->s, &sim->cfg);
    if (st != SWGL_OK) goto fail;
    sim->open = 1;
    sim->in.host_clock |= desc->host_clock;
    snprintf(sim->solver, sizeof sim->solver, "%s", sim->in.name);
    sim->precision = sim->in.be->precision(sim->in.self);
    sim->in.t_start = sim->t0;
    sim->in.stop_flag = &sim->stop_req;
    if (sim->native0 && sim->in.be->probe && sim->in.be->probe->set_native) st = sim->in.be->probe->set_native(sim->in.self, sim->native0);
    if (sim->profile && sim->in.be->probe && sim->in.be->probe->profile) sim->in.be->probe->profile(sim->in.self, 1);
    double t_maps = cpu_seconds();
    sim->setup_part[3] = t_maps - t_be;
    if (st == SWGL_OK) st = sim_outputs_maps(sim);
    sim->setup_part[4] = cpu_seconds() - t_maps;
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
    sim->setup_s = cpu_seconds() - t_create;
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

