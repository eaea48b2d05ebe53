/* sim_info.c — what a sim is and how it ran (swgl.h): its time, steps, grid, description,
 * the numbers of the run so far, the pass profile. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"
#include "scheme_mpi.h"

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
    snprintf(info->solver, sizeof info->solver, "%.319s", sim->solver);   /* (swgl.h: 320 bytes) */
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
        if (sim->open && sim->in.be->probe && sim->in.be->probe->tiles) sim->in.be->probe->tiles(sim->in.self, &c, &t);
        if (!(t > 0 && c >= 0)) return swgl_fail(SWGL_ERR_ARG, "swgl_sim_stat: tiles_fraction unknown on %s", sim->solver);
        *value = (double)c / (double)t;
    } else if (strncmp(name, "held_", 5) == 0) {
        /* the held step ([run] step_hold): windows begun, cut short by a step's bound, steps taken again */
        static const char *const names[] = {"held_windows", "held_cut", "held_retaken", NULL};
        int k = 0;
        while (names[k] && strcmp(names[k], name) != 0) k++;
        if (!names[k]) goto unknown;
        const long open_v[3] = {sim->in.held_windows, sim->in.held_cut, sim->in.held_redone};
        *value = (double)(sim->open ? open_v[k] : sim->held[k]);
    } else if (strncmp(name, "exchange", 8) == 0 || strcmp(name, "bound_s") == 0 || strcmp(name, "halo_bytes") == 0 ||
               strcmp(name, "stage_s") == 0 || strcmp(name, "advance_s") == 0 || strcmp(name, "agree_s") == 0) {
        /* over MPI ranks, this rank's (scheme_mpi.h scheme_mpi_times); 0 on one rank */
        scheme_mpi_times t;
        memset(&t, 0, sizeof t);
        if (sim->open) scheme_mpi_stats(&sim->in, &t);
        else if (sim->has_mpi_times) t = sim->mpi_times;
        static const char *const names[] = {"exchange_s", "exchanges", "exchange_read_s", "exchange_wire_s",
                                            "exchange_write_s", "bound_s", "halo_bytes", "stage_s", "advance_s",
                                            "agree_s", NULL};
        const double v[] = {t.exchange_s, (double)t.exchanges, t.read_s, t.wire_s, t.write_s, t.bound_s,
                            (double)t.halo_bytes, t.stage_s, t.advance_s, t.agree_s};
        int k = 0;
        while (names[k] && strcmp(names[k], name) != 0) k++;
        if (!names[k]) goto unknown;
        *value = v[k];
    } else {
    unknown:
        return swgl_fail(SWGL_ERR_ARG, "swgl_sim_stat: no number '%s' (wall_s, steps, dt_min, dt_max, cells_per_s, "
                         "mass_initial, mass_final, tiles_fraction, exchange_s, exchanges, exchange_read_s, "
                         "exchange_wire_s, exchange_write_s, bound_s, halo_bytes, stage_s, advance_s, agree_s, held_windows, "
                         "held_cut, held_retaken, "
                         "interrupted)",
                         name);
    }
    return SWGL_OK;
}

SWGL_API swgl_status swgl_sim_profile(swgl_sim *sim, int k, const char **name, double *seconds, long *count)
{
    if (!sim || !name || !seconds || !count) return swgl_fail(SWGL_ERR_ARG, "swgl_sim_profile: NULL");
    if (!sim->profile || !sim->open || !sim->in.be->probe || !sim->in.be->probe->profile_pass)
        return swgl_fail(SWGL_ERR_ARG, "swgl_sim_profile: no profile (desc.profile on a GPU backend that has one)");
    if (sim->in.be->finish) sim->in.be->finish(sim->in.self);
    return sim->in.be->probe->profile_pass(sim->in.self, k, name, seconds, count);
}

void sim_held_counts(swgl_sim *sim)
{
    sim->held[0] = sim->in.held_windows;
    sim->held[1] = sim->in.held_cut;
    sim->held[2] = sim->in.held_redone;
}
