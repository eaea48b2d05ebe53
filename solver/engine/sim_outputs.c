/* sim_outputs.c — what a sim with an output folder leaves behind (docs/outputs.md): the
 * state's grids and pictures at the scenario's output times, run.nc, gauges.csv (written by
 * sim_gauges.c), the flood maps, performance.csv and summary.json, all staged in the
 * folder's staging copy and committed by swgl_sim_finish in one step (output.h), so that a
 * failed or abandoned run leaves the folder as it was.
 *
 * These are the run's own observers: at a stop of the scenario (an output time: grids,
 * frame, run.nc; a gauge time: a gauge line), after every step (gauges with no interval,
 * the flood maps of a backend that does not keep them), and at the finish.
 *
 * Comparison (desc.compare), for every state field f over the active interior cells, b the
 * compared backend's result:   l1_rel_f = sum |a - b| / sum |b|,
 * linf_rel_f = max |a - b| / max |b|   (the plain difference where b is 0 everywhere). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_info.h"
#include "sim_internal.h"
#include "scheme_mpi.h"

/* ---- run.nc -------------------------------------------------------------------------------- */

static void nc_ctx_free(nc_ctx *c)
{
    for (int k = 0; k < NC_OUT_MAX_FIELDS; k++) free(c->v[k]);
    free(c->nat);
    free(c->nat_in);
    memset(c, 0, sizeof *c);
}

/* a step of run.nc from the state fields f; native (grid_size, or NULL) the backend's
 * native field for the restart */
static swgl_status nc_step(nc_ctx *c, double t, double *const *f, const double *native)
{
    /* a time already appended (a run stopped at a stop) is not appended twice: the time
     * coordinate stays increasing */
    if (!c || !c->nc || (c->steps && t == c->last)) return SWGL_OK;
    const scheme_setup *s = c->s;
    size_t n = (size_t)s->nx * (size_t)s->ny;
    int m = 0;
    for (int q = 0; q < (c->sw ? 3 : 2); q++) {
        double *in = grid_interior(f[q], s->nx, s->ny);
        if (!in) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
        free(c->v[m]);
        c->v[m++] = in;
        if (c->sw && q == 0) {   /* eta = z_b + h */
            free(c->v[m]);
            if (!(c->v[m] = malloc(n * sizeof(double)))) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
            for (size_t k = 0; k < n; k++) c->v[m][k] = s->sc->bed[k] + in[k];
            m++;
        }
    }
    const double *state[4] = {c->v[0], c->v[c->sw ? 2 : 1], c->sw ? c->v[3] : NULL, NULL};   /* without eta */
    if (c->native && native) {
        for (int j = 0; j < s->ny; j++)
            for (int i = 0; i < s->nx; i++) c->nat_in[(size_t)j * s->nx + i] = native[grid_in(s->nx, i, j)];
        state[3] = c->nat_in;
    }
    swgl_status st = nc_out_append(c->nc, t, (const double *const *)c->v, state);
    if (st == SWGL_OK) c->last = t, c->steps++;
    return st;
}

/* writer 0 (a rank other than 0): the buffers only, no file (nc_step then writes nothing),
 * so that the ranks gather the native field alike */
static swgl_status nc_open(nc_ctx *c, const scheme_setup *s, const char *native, outdir *od, int writer)
{
    const scenario *sc = s->sc;
    memset(c, 0, sizeof *c);
    c->s = s;
    c->sw = !sc->scheme->points;
    double off = c->sw ? 0.5 : 0.0;   /* cell centres; the sediment scheme's grid points */
    nc_out_desc d = {.nx = s->nx, .ny = s->ny, .x0 = sc->xll + off * s->dx, .y0 = sc->yll + off * s->dy,
                     .dx = s->dx, .dy = s->dy, .active = sc->active, .title = sc->source, .scenario = sc->text,
                     .overrides = sc->overrides};
    static const nc_out_field sw[4] = {
        {"h", "water depth", NULL, "m"},
        {"eta", "water surface elevation", "water_surface_height_above_reference_datum", "m"},
        {"qx", "discharge per unit width along x (h u)", NULL, "m2 s-1"},
        {"qy", "discharge per unit width along y (h v)", NULL, "m2 s-1"}};
    static const nc_out_field sed[2] = {{"h", "basin height", NULL, "m"}, {"s", "sand fraction", NULL, "1"}};
    d.n_fields = c->sw ? 4 : 2;
    d.n_state = c->sw ? 3 : 2;   /* the scheme's state fields, for restarts */
    for (int q = 0; q < d.n_state; q++) d.state[q] = q == 0 ? "h" : c->sw ? (q == 1 ? "qx" : "qy") : "s";
    c->native = native != NULL;   /* kp's surface w, exact (cpu_ref/kp_cpu.h kp_cpu_get_surface) */
    if (c->native) {
        d.state[d.n_state++] = native;
        c->nat = malloc(grid_size(s->nx, s->ny) * sizeof(double));
        c->nat_in = malloc((size_t)s->nx * s->ny * sizeof(double));
        if (!c->nat || !c->nat_in) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    }
    memcpy(d.fields, c->sw ? sw : sed, (size_t)d.n_fields * sizeof(nc_out_field));
    if (c->sw) {
        d.fixed = sc->bed;
        d.fixed_desc = (nc_out_field){"bed", "bed elevation", "surface_altitude", "m"};
    }
    return writer ? nc_out_create(outdir_path(od, "run.nc"), &d, &c->nc) : SWGL_OK;
}

/* ---- the flood maps as grids (.asc or .flt: output.h grid_write) and, with run.nc, as its constant fields ----------------- */

static swgl_status write_maps(const swe_maps *m, const scheme_setup *s, outdir *od, nc_out *nc)
{
    swgl_status st = swe_maps_write(m, s, od);
    static const nc_out_field desc[SWE_MAP_COUNT] = {
        {"max_depth", "largest water depth", NULL, "m"},
        {"max_speed", "largest speed", NULL, "m s-1"},
        {"time_of_max_depth", "time of the largest depth", NULL, "s"},
        {"arrival_time", "first time the depth exceeded [output] arrival_depth", NULL, "s"},
        {"max_hazard", "largest hazard rating h (|v| + 0.5)", NULL, "m2 s-1"}};
    size_t n = (size_t)s->nx * (size_t)s->ny;
    double *v = nc && st == SWGL_OK ? malloc(n * sizeof(double)) : NULL;
    unsigned char *mask = v ? malloc(n) : NULL;
    if (nc && st == SWGL_OK && !mask) st = swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    for (int k = 0; mask && st == SWGL_OK && k < SWE_MAP_COUNT; k++) {
        for (int j = 0; j < s->ny; j++)
            for (int i = 0; i < s->nx; i++) {
                size_t q = (size_t)j * s->nx + i;
                v[q] = m->m[k][grid_in(s->nx, i, j)];
                mask[q] = !(k == SWE_MAP_ARRIVAL && v[q] < 0);   /* never reached: the fill */
            }
        st = nc_out_put_fixed(nc, &desc[k], v, mask);
    }
    free(v);
    free(mask);
    return st;
}

/* "_tT" with T the shortest decimal that reads back as t, so that two output times never
 * share a file name */
static void time_suffix(double t, char *suffix, size_t len)
{
    for (int prec = 6; prec <= 17; prec++) {
        snprintf(suffix, len, "_t%.*g", prec, t);
        if (strtod(suffix + 2, NULL) == t) return;
    }
}

/* performance.csv: the speed over simulated time (Brodtkorb et al. 2011, Figure 11), from the
 * time loop's samples: between two samples, the cell updates of the whole grid (dry and
 * inactive cells included, as the paper counts them) per second of stepping. */
static swgl_status write_performance(const char *path, const timeloop_result *r, double cells)
{
    FILE *fp = fopen(path, "w");
    if (!fp) return swgl_fail(SWGL_ERR_IO, "%s: cannot write", path);
    fprintf(fp, "t_s,wall_s,steps,mcells_per_s\n");
    for (int k = 0; k < r->n_samples; k++) {
        const timeloop_sample *a = &r->samples[k], *p = k ? &r->samples[k - 1] : a;
        double dw = a->wall - p->wall, rate = k && dw > 0 ? cells * (double)(a->steps - p->steps) / dw / 1e6 : 0;
        fprintf(fp, "%.9g,%.6f,%ld,%.6g\n", a->t, a->wall, a->steps, rate);
    }
    if (fclose(fp) != 0) return swgl_fail(SWGL_ERR_IO, "%s: write failed", path);
    return SWGL_OK;
}

/* ---- the run's own observers ------------------------------------------------------------- */

static swgl_status gauges_observer(swgl_sim *sim, swgl_event ev, double t, void *user);
static swgl_status maps_observer(swgl_sim *sim, swgl_event ev, double t, void *user);
static swgl_status grids_observer(swgl_sim *sim, swgl_event ev, double t, void *user);

swgl_status sim_outputs_open(swgl_sim *sim)
{
    const scenario *sc = &sim->sc;
    scheme_setup *s = &sim->s;
    swgl_status st;
    if (!sim->od) return SWGL_OK;   /* no folder: no files */
    int want_nc = sc->netcdf == 1 || (sc->netcdf < 0 && nc_out_available());
    if (sc->netcdf == 1 && !nc_out_available())
        return swgl_fail(SWGL_ERR_INPUT, "%s: [output] netcdf = true, but this swgl was built without netCDF "
                         "(install libnetcdf-dev and rebuild, or set netcdf = false)", sc->source);
    if (want_nc && ((st = nc_open(&sim->nc, s, sim->d->native, sim->od, sim->writer)) != SWGL_OK ||
                    (st = nc_step(&sim->nc, sim->t0, s->init, sim->native0)) != SWGL_OK))
        return st;
    if ((st = gauge_open(&sim->gauges, sim->d, s, sim->od, sim->t0)) != SWGL_OK) return st;
    /* the observers, in the order the files were always written: gauges, then grids */
    if (sim->gauges.f &&
        (st = sim_observe_builtin(sim, sc->gauge_interval > 0 ? SIM_EVENT_GAUGE : SWGL_EVENT_STEP, gauges_observer)))
        return st;
    if ((st = sim_observe_builtin(sim, SWGL_EVENT_OUTPUT, grids_observer)) != SWGL_OK) return st;
    if (sc->maps) {
        swe_maps_prepare(&sim->maps, s, s->init, sc->arrival_depth, sim->t0);   /* (arrays: sim_outputs_maps) */
        sim->has_maps = 1;
    }
    return SWGL_OK;
}

swgl_status sim_outputs_maps(swgl_sim *sim)
{
    if (!sim->has_maps) return SWGL_OK;
    /* kept by the GPU, from their start (no host arrays until they are read back) */
    if (sim->in.be->device && sim->in.be->device->maps_start)
        return sim->in.be->device->maps_start(sim->in.self, &sim->maps);
    swgl_status st = swe_maps_make(&sim->maps);   /* from the state after each step */
    return st == SWGL_OK ? sim_observe_builtin(sim, SWGL_EVENT_STEP, maps_observer) : st;
}

void sim_outputs_close(swgl_sim *sim)
{
    nc_out_close(sim->nc.nc);
    nc_ctx_free(&sim->nc);
    gauge_free(&sim->gauges);
    swe_maps_free(&sim->maps);
}

/* gauges.csv: a line after every step, or at every gauge time */
static swgl_status gauges_observer(swgl_sim *sim, swgl_event ev, double t, void *user)
{
    (void)ev, (void)user;
    return gauge_sample(&sim->gauges, t, &sim->in);
}

/* the flood maps of a backend that does not keep them: from the state after every step */
static swgl_status maps_observer(swgl_sim *sim, swgl_event ev, double t, void *user)
{
    (void)ev, (void)user;
    swgl_status st = sim_state(sim);
    if (st == SWGL_OK) swe_maps_update(&sim->maps, sim->s.code, sim->f.f, t);
    return st;
}

/* at an output time: the state's grids NAME_tT.asc (or .flt), its picture ([output] frames), run.nc */
static swgl_status grids_observer(swgl_sim *sim, swgl_event ev, double t, void *user)
{
    (void)ev, (void)user;
    swgl_status st;
    char suffix[64];
    time_suffix(t, suffix, sizeof suffix);
    /* what gathers over MPI ranks first, on every rank alike; then what rank 0 writes */
    st = sim_state(sim);
    const double *nat = NULL;
    if (st == SWGL_OK && sim->nc.native && sim->in.be->probe && sim->in.be->probe->get_native &&
        (st = sim->in.be->probe->get_native(sim->in.self, sim->nc.nat)) == SWGL_OK)
        nat = sim->nc.nat;
    if (st == SWGL_OK && sim->writer) st = sim->d->write_grids(&sim->s, sim->f.f, sim->od, suffix);
    if (st == SWGL_OK && sim->writer && sim->sc.frames && sim->d->write_frame)
        st = sim->d->write_frame(&sim->s, sim->f.f, sim->od, suffix, t);
    return st == SWGL_OK ? nc_step(&sim->nc, t, sim->f.f, nat) : st;
}

/* ---- the finish ---------------------------------------------------------------------------- */

static long nonfinite_cells(const scheme_setup *s, const scheme_fields *f)
{
    long bad = 0;
    for (int j = 0; j < s->ny; j++)
        for (int i = 0; i < s->nx; i++) {
            size_t k = grid_in(s->nx, i, j);
            if (s->code && s->code[k] != CELL_ACTIVE) continue;
            for (int q = 0; q < f->n; q++)
                if (!isfinite(f->f[q][k])) {
                    bad++;
                    break;
                }
        }
    return bad;
}

/* desc.compare: the same problem on the other backend from the same start, through every
 * time the run landed on; the differences of the final states */
static swgl_status compare(swgl_sim *sim)
{
    scheme_inst in;
    scheme_fields g = {0};
    swgl_status st = scheme_fields_alloc(&g, sim->d, sim->s.nx, sim->s.ny);
    if (st != SWGL_OK) return st;
    if (sim->progress) fprintf(stderr, "swgl: comparing with %s\n", backend_name(sim->compare));
    scheme_config cfg = sim->cfg;
    cfg.backend = sim->compare;
    if ((st = scheme_open(&in, sim->d, sim->compare, &sim->s, &cfg)) != SWGL_OK) {
        scheme_fields_free(&g);
        return st;
    }
    in.t_start = sim->t0;
    in.stop_flag = &sim->stop_req;
    if (sim->native0 && in.be->probe && in.be->probe->set_native) st = in.be->probe->set_native(in.self, sim->native0);
    snprintf(sim->other, sizeof sim->other, "%s", in.name);
    memset(&sim->ro, 0, sizeof sim->ro);
    if (st == SWGL_OK && sim->n_landed > 0) {
        timeloop_opts o = {sim->landed[sim->n_landed - 1] > sim->s.t_end ? sim->landed[sim->n_landed - 1] : sim->s.t_end,
                           0, 0, NULL, NULL, 0};
        st = timeloop_run_opts(&in, sim->landed, sim->n_landed, sim->progress, NULL, NULL, &sim->ro, &o);
    }
    sim->ro.precision = in.be->precision(in.self);
    if (st == SWGL_OK) st = in.be->get_state(in.self, g.f);
    scheme_close(&in);
    if (st == SWGL_OK) {
        const scheme_setup *s = &sim->s;
        for (int f = 0; f < sim->f.n; f++) {
            double d1 = 0, n1 = 0, dm = 0, nm = 0;
            for (int j = 0; j < s->ny; j++)
                for (int i = 0; i < s->nx; i++) {
                    size_t k = grid_in(s->nx, i, j);
                    if (s->code && s->code[k] != CELL_ACTIVE) continue;
                    double e = fabs(sim->f.f[f][k] - g.f[f][k]);
                    d1 += e;
                    n1 += fabs(g.f[f][k]);
                    dm = fmax(dm, e);
                    nm = fmax(nm, fabs(g.f[f][k]));
                }
            sim->l1[f] = n1 > 0 ? d1 / n1 : d1;
            sim->linf[f] = nm > 0 ? dm / nm : dm;
        }
        sim->have_other = 1;
    }
    scheme_fields_free(&g);
    return st;
}

static swgl_status write_summary(swgl_sim *sim, const char *path)
{
    const scenario *sc = &sim->sc;
    const scheme_setup *s = &sim->s;
    const timeloop_result *r = &sim->r;
    json_writer *w = json_open(path);
    if (!w) return SWGL_ERR_IO;
    double cps = r->wall > 0 ? (double)sim_active_cells(s) * (double)r->steps / r->wall : 0;
    int gpu = sim->backend == BACKEND_GPU || sim->backend == BACKEND_GPU_COMPUTE;
    json_str(w, "scheme", sim->d->name);
    json_str(w, "source", sc->source);
    json_str(w, "backend", backend_name(sim->backend));
    json_str(w, "solver", sim->solver);
    json_str(w, "renderer", gpu ? sim->cfg.renderer : "none (CPU)");
    json_str(w, "precision", r->precision);
    json_int(w, "nx", s->nx);
    json_int(w, "ny", s->ny);
    json_num(w, "dx", s->dx);
    json_num(w, "dy", s->dy);
    json_int(w, "steps", r->steps);
    json_num(w, "t_end", sim->t);
    json_bool(w, "interrupted", sim->interrupted != 0);
    if (sim->restart) {
        json_str(w, "restart_from", sim->restart);
        json_num(w, "t_start", sim->t0);
    }
    if (sim->interrupted) json_num(w, "t_planned", sim->t_planned);
    json_num(w, "dt_min", r->steps ? r->dt_min : 0);
    json_num(w, "dt_max", r->dt_max);
    if (sc->step_hold > 1) {   /* the held step ([run] step_hold; timeloop.c) */
        json_begin_object(w, "time_step");
        json_int(w, "hold", sc->step_hold);
        json_num(w, "margin", sc->step_margin);
        json_int(w, "windows", sim->held[0]);
        json_int(w, "windows_cut", sim->held[1]);
        json_int(w, "steps_retaken", sim->held[2]);
        json_end_object(w);
    }
    json_num(w, "wall_s", r->wall);
    json_num(w, "cells_per_s", cps);
    /* where the process's time went: the set-up (scenario, backend, first upload), the
     * stepping (wall_s), the state and maps read back, the files before this one */
    json_begin_object(w, "process");
    json_num(w, "setup_s", sim->setup_s);
    json_begin_object(w, "setup");
    static const char *const parts[5] = {"scenario_s", "gl_context_s", "outputs_s", "backend_s", "maps_s"};
    for (int k = 0; k < 5; k++) json_num(w, parts[k], sim->setup_part[k]);
    json_end_object(w);
    json_num(w, "stepping_s", r->wall);
    json_num(w, "read_back_s", sim->read_back_s);
    json_num(w, "write_s", sim->write_s);
    json_end_object(w);
    json_num(w, "mass_initial", sim->m0);
    json_num(w, "mass_final", sim->m1);
    json_num(w, "mass_rel_change", sim->m0 != 0 ? (sim->m1 - sim->m0) / fabs(sim->m0) : 0);
    sim->d->summary(s, sim->f.f, w);
    if (sim->has_acc) swe_balance_json(sc, &sim->acc, &sim->bal, r->precision, r->steps, sim_active_cells(s), w);
    if (sim->have_other) {
        json_begin_object(w, "compare");
        json_str(w, "backend", backend_name(sim->compare));
        json_str(w, "solver", sim->other);
        json_str(w, "precision", sim->ro.precision);
        json_int(w, "steps", sim->ro.steps);
        json_num(w, "wall_s", sim->ro.wall);
        for (int q = 0; q < sim->d->n_fields; q++) {
            char key[64];
            snprintf(key, sizeof key, "l1_rel_%s", sim->d->fields[q]);
            json_num(w, key, sim->l1[q]);
            snprintf(key, sizeof key, "linf_rel_%s", sim->d->fields[q]);
            json_num(w, key, sim->linf[q]);
        }
        json_num(w, "speedup", r->wall > 0 ? sim->ro.wall / r->wall : 0);
        json_end_object(w);
    }
    return json_close(w);
}

static swgl_status finish(swgl_sim *sim)
{
    const scenario *sc = &sim->sc;
    scheme_setup *s = &sim->s;
    swgl_status st;
    const double t_finish = cpu_seconds();
    /* the state reached, and what the backend kept: the flood maps, the native field, the
     * volumes that came and went */
    sim->state_ok = 0;
    if ((st = sim_state(sim)) != SWGL_OK) return st;
    int have_native = 0;
    if (sim->has_maps && sim->in.be->device && sim->in.be->device->maps_read && (st = sim->in.be->device->maps_read(sim->in.self, &sim->maps)) != SWGL_OK)
        return st;
    if (sim->nc.nat && sim->in.be->probe && sim->in.be->probe->get_native) {
        if ((st = sim->in.be->probe->get_native(sim->in.self, sim->nc.nat)) != SWGL_OK) return st;
        have_native = 1;
    }
    if (sim->forcing && sim->in.be->forcing) {
        if ((st = sim->in.be->forcing->account(sim->in.self, &sim->acc)) != SWGL_OK) return st;
        sim->has_acc = 1;
    }
    sim->read_back_s = cpu_seconds() - t_finish;
    /* the state is on the host now: the backend is closed (a GPU instance of the other pass
     * mode cannot be opened beside it, and its memory is the comparison's) */
    sim->has_mpi_times = scheme_mpi_stats(&sim->in, &sim->mpi_times);
    sim_held_counts(sim);
    scheme_close(&sim->in);
    sim->open = 0;
    if (sim->compare != BACKEND_NONE && !sim->interrupted) {
        st = compare(sim);
        if (st == SWGL_ERR_INTERRUPTED) {   /* the main run is whole: written without the comparison */
            sim->interrupted = timeloop_stop_requested() ? timeloop_stop_requested() : -1;
            if (sim->progress) fprintf(stderr, "\nswgl: the comparison was interrupted; writing the run without it\n");
            st = SWGL_OK;
        }
        if ((st = sim_agree(sim, st)) != SWGL_OK) return st;
    }
    long bad = nonfinite_cells(s, &sim->f);
    if (bad) {
        char line[256] = "";
        if (sim->d->describe_run) sim->d->describe_run(s, line, sizeof line);
        return swgl_fail(SWGL_ERR_BLOWUP, "%ld %s hold NaN or infinity at t = %g s: the solution blew up%s%s%s", bad,
                         sim->d->cell_word, sim->t, line[0] ? " (" : "", line, line[0] ? ")" : "");
    }
    double cell = s->dx * s->dy;
    sim->m1 = grid_volume(sim->f.f[0], s->code, s->nx, s->ny, cell);
    if (sim->has_acc) swe_balance_of(&sim->acc, sim->m0, sim->m1, &sim->bal);
    if ((st = sim_notify(sim, SWGL_EVENT_FINISH, sim->t, NOTIFY_ALL)) != SWGL_OK) return st;
    if (!sim->od) return SWGL_OK;

    /* the files */
    const double t_files = cpu_seconds();
    char end_suffix[64];
    time_suffix(sim->t, end_suffix, sizeof end_suffix);
    gauge_ctx *g = &sim->gauges;
    if (g->f && g->last < sim->t && (st = gauge_fields(g, sim->t, sim->f.f)) != SWGL_OK) return st;
    if (g->f) {
        int bad_close = fclose(g->f) != 0;
        g->f = NULL;
        if (bad_close) return swgl_fail(SWGL_ERR_IO, "%s: write failed", g->path);
    }
    if (!sim->writer) return SWGL_OK;   /* over MPI ranks: the others have gathered what rank 0 writes */
    if (sim->has_maps && (st = write_maps(&sim->maps, s, sim->od, sim->nc.nc)) != SWGL_OK) return st;
    st = nc_step(&sim->nc, sim->t, sim->f.f, have_native ? sim->nc.nat : NULL);
    swgl_status close_st = nc_out_close(sim->nc.nc);   /* always closed, once */
    sim->nc.nc = NULL;
    if (st == SWGL_OK) st = close_st;
    if (st != SWGL_OK) return st;
    if (sc->frames && sim->d->write_frame && (st = sim->d->write_frame(s, sim->f.f, sim->od, end_suffix, sim->t)) != SWGL_OK)
        return st;
    /* the final state, and the one of an output time at the end (the t_end stop's kind) */
    double t_end_saved = s->t_end;
    s->t_end = sim->t;   /* what the scheme's pictures and summary call the end */
    int at_end = sim->end_pending && sim->t == t_end_saved;
    if ((at_end && (st = sim->d->write_grids(s, sim->f.f, sim->od, end_suffix)) != SWGL_OK) ||
        (st = sim->d->write_grids(s, sim->f.f, sim->od, "")) != SWGL_OK ||
        (st = sim->d->write_final(s, sim->f.f, sim->od, backend_name(sim->backend), sim->written, sizeof sim->written)) !=
            SWGL_OK ||
        (st = write_performance(outdir_path(sim->od, "performance.csv"), &sim->r, (double)s->nx * s->ny)) != SWGL_OK ||
        (st = outdir_flush(sim->od)) != SWGL_OK ||   /* (the grids written in the background: in, or failed) */
        ((sim->write_s = cpu_seconds() - t_files), 0) ||
        (st = write_summary(sim, outdir_path(sim->od, "summary.json"))) != SWGL_OK) {
        s->t_end = t_end_saved;
        return st;
    }
    s->t_end = t_end_saved;
    st = outdir_commit(sim->od);
    sim->od = NULL;
    return st;
}

SWGL_API swgl_status swgl_sim_finish(swgl_sim *sim)
{
    swgl_status st = sim_fail_if_finished(sim, "swgl_sim_finish");
    if (st != SWGL_OK) return st;
    if (sim->busy) return swgl_fail(SWGL_ERR_ARG, "swgl_sim_finish: called from an observer of the same sim");
    swgl_clear_error();
    if (!sim->idle && (st = sim_catch_up_finish(sim)) != SWGL_OK) return st;
    sim->finished = 1;
    if (sim->idle) return SWGL_OK;
    sim->busy = 1;
    st = sim_agree(sim, finish(sim));
    sim->busy = 0;
    if (st != SWGL_OK) {
        outdir_abort(sim->od);
        sim->od = NULL;
    }
    return st;
}

SWGL_API void swgl_sim_print_summary(const swgl_sim *sim, FILE *out)
{
    if (!sim || !sim->finished || !out || sim->idle) return;
    const scenario *sc = &sim->sc;
    const scheme_setup *s = &sim->s;
    const timeloop_result *r = &sim->r;
    double cps = r->wall > 0 ? (double)sim_active_cells(s) * (double)r->steps / r->wall : 0;
    const char *word = sim->d->cell_word;
    fprintf(out, "%s: %dx%d %s, t = %g s in %ld steps on %s\n", sc->source, s->nx, s->ny, word, sim->t, r->steps,
            sim->solver);
    fprintf(out, "  wall %.3f s, %.2f M%s-updates/s\n", r->wall, cps / 1e6, word[0] == 'c' ? "cell" : "point");
    if (sc->step_hold > 1)
        fprintf(out, "  time step held for up to %d steps at %g of the bound: %ld windows, %ld cut short by a step's bound "
                "(%ld steps taken again on the device)\n",
                sc->step_hold, sc->step_margin, sim->held[0], sim->held[1], sim->held[2]);
    const scheme_mpi_times mt = sim->mpi_times;
    if (sim->has_mpi_times && r->steps > 0 && r->wall > 0) {
        /* over MPI ranks, where rank 0's wall went (docs/mpi.md, "Speed") */
        double n = mt.exchanges > 0 ? (double)mt.exchanges : 1, us = 1e6 / n;
        fprintf(out,
                "  rank 0 of %d: %ld halo exchanges (every %d step%s, %.0f KiB sent each), %.1f%% of the wall: read %.0f + "
                "wire %.0f + write %.0f us an exchange; a step's stages %.0f us, advances %.0f us, agreement over the "
                "ranks %.0f us\n",
                swgl_mpi_size(), mt.exchanges, mt.every, mt.every == 1 ? "" : "s", (double)mt.halo_bytes / 1024, 100 * mt.exchange_s / r->wall,
                mt.read_s * us, mt.wire_s * us, mt.write_s * us, 1e6 * mt.stage_s / (double)r->steps,
                1e6 * mt.advance_s / (double)r->steps, 1e6 * (mt.bound_s + mt.agree_s) / (double)r->steps);
    }
    fprintf(out, "  %s volume %.12g -> %.12g m^3 (relative change %.2e)\n",
            sc->scheme->points ? "basin" : "water", sim->m0, sim->m1,
            sim->m0 != 0 ? (sim->m1 - sim->m0) / fabs(sim->m0) : 0);
    if (sim->has_acc) swe_balance_print(out, sc, &sim->acc, &sim->bal, r->precision, r->steps, sim_active_cells(s));
    sim->d->print(s, sim->f.f, out);
    if (sim->have_other) {
        fprintf(out, "  vs %s: %.3f s (%.1fx), relative L1 difference", sim->other, sim->ro.wall,
                r->wall > 0 ? sim->ro.wall / r->wall : 0);
        for (int q = 0; q < sim->d->n_fields; q++) fprintf(out, " %s %.2e", sim->d->fields[q], sim->l1[q]);
        fprintf(out, "\n");
    }
    if (sim->out_dir && sim->writer) fprintf(out, "  wrote %s/summary.json, %s\n", sim->out_dir, sim->written);
}
