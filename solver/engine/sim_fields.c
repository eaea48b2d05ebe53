/* sim_fields.c — a sim's fields in and out (swgl.h): the state read back from the backend
 * (once per state: sim->state_ok), its interior as nx * ny doubles with NaN outside the
 * domain, fields set into the backend, the volume, and where a field lives on the GPU. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"

swgl_status sim_state(swgl_sim *sim)
{
    if (sim->state_ok) return SWGL_OK;
    swgl_status st = sim->in.be->get_state(sim->in.self, sim->f.f);
    sim->state_ok = st == SWGL_OK;
    return st;
}

static int shallow_water(const swgl_sim *sim) { return !sim->sc.scheme->points; }

/* the state field of a name, or -1 (eta and bed are derived) */
static int state_index(const swgl_sim *sim, const char *name)
{
    for (int q = 0; q < sim->d->n_fields; q++)
        if (strcmp(sim->d->fields[q], name) == 0) return q;
    return -1;
}

static swgl_status unknown(const swgl_sim *sim, const char *call, const char *name)
{
    return swgl_fail(SWGL_ERR_ARG, "%s: no field '%s' in scheme %s (%s)", call, name ? name : "(NULL)", sim->d->name,
                     shallow_water(sim) ? "h, eta, qx, qy, bed" : "h, s");
}

static int inside(const swgl_sim *sim, size_t k) { return !sim->s.code || sim->s.code[k] == CELL_ACTIVE; }

SWGL_API swgl_status swgl_sim_field(swgl_sim *sim, const char *name, double *out)
{
    if (!sim || !out) return swgl_fail(SWGL_ERR_ARG, "swgl_sim_field: NULL");
    if (sim->idle) return SWGL_OK;
    if (!sim->open && !sim->state_ok) return swgl_fail(SWGL_ERR_ARG, "swgl_sim_field: the sim has no state");
    const int nx = sim->s.nx, ny = sim->s.ny;
    int q = name ? state_index(sim, name) : -1;
    int eta = name && shallow_water(sim) && strcmp(name, "eta") == 0;
    int bed = name && shallow_water(sim) && strcmp(name, "bed") == 0;
    if (q < 0 && !eta && !bed) return unknown(sim, "swgl_sim_field", name);
    swgl_status st = bed ? SWGL_OK : sim_state(sim);   /* (over MPI ranks: every rank gathers) */
    if (st != SWGL_OK) return st;
    const double *z = sim->sc.bed;   /* nx * ny, j = 0 south: kp's the cell averages */
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            size_t k = grid_in(nx, i, j), o = (size_t)j * nx + i;
            if (!inside(sim, k) || (z && !isfinite(z[o]) && (eta || bed))) {
                out[o] = NAN;
                continue;
            }
            out[o] = bed ? z[o] : eta ? z[o] + sim->f.f[0][k] : sim->f.f[q][k];
        }
    return SWGL_OK;
}

SWGL_API swgl_status swgl_sim_set_field(swgl_sim *sim, const char *name, const double *in)
{
    swgl_status st = sim_fail_if_finished(sim, "swgl_sim_set_field");
    if (st != SWGL_OK || sim->idle) return st;
    if (sim->busy) return swgl_fail(SWGL_ERR_ARG, "swgl_sim_set_field: called from an observer of the same sim");
    if (!in) return swgl_fail(SWGL_ERR_ARG, "swgl_sim_set_field: NULL");
    const int nx = sim->s.nx, ny = sim->s.ny;
    int q = name ? state_index(sim, name) : -1;
    int eta = name && shallow_water(sim) && strcmp(name, "eta") == 0;
    if (q < 0 && !eta) {
        if (name && strcmp(name, "bed") == 0)
            return swgl_fail(SWGL_ERR_ARG, "swgl_sim_set_field: the bed is the scenario's ([domain] bed); set h or eta");
        return unknown(sim, "swgl_sim_set_field", name);
    }
    if (eta) q = 0;
    /* checked whole before anything changes */
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            size_t k = grid_in(nx, i, j), o = (size_t)j * nx + i;
            if (!inside(sim, k)) continue;
            if (!isfinite(in[o]))
                return swgl_fail(SWGL_ERR_ARG, "swgl_sim_set_field(%s): cell (%d, %d) holds %g: expected a finite number",
                                 name, i, j, in[o]);
            /* (a depth within h_dry below 0 is one that kp's float GPU state carries, read back
             * by swgl_sim_field: it sets back as it was) */
            if (shallow_water(sim) && q == 0 && !eta && in[o] < -sim->sc.h_dry)
                return swgl_fail(SWGL_ERR_ARG,
                                 "swgl_sim_set_field(h): cell (%d, %d) holds a depth of %g m: expected >= 0 (or within "
                                 "run.h_dry = %g m below it)", i, j, in[o], sim->sc.h_dry);
            if (!shallow_water(sim) && q == 1 && !(in[o] >= 0 && in[o] <= 1))
                return swgl_fail(SWGL_ERR_ARG, "swgl_sim_set_field(s): cell (%d, %d) holds %g: expected a sand fraction "
                                 "in [0, 1]", i, j, in[o]);
        }
    if ((st = sim_state(sim)) != SWGL_OK) return st;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            size_t k = grid_in(nx, i, j), o = (size_t)j * nx + i;
            if (!inside(sim, k)) continue;
            /* a surface below the bed: a dry cell */
            sim->f.f[q][k] = eta ? fmax(in[o] - sim->sc.bed[o], 0.0) : in[o];
        }
    sim->state_ok = 0;
    st = sim->in.be->set_state(sim->in.self, sim->f.f);
    return st;
}

SWGL_API double swgl_sim_volume(swgl_sim *sim)
{
    if (!sim || (!sim->open && !sim->state_ok) || sim_state(sim) != SWGL_OK) return NAN;
    return grid_volume(sim->f.f[0], sim->s.code, sim->s.nx, sim->s.ny, sim->s.dx * sim->s.dy);
}

SWGL_API swgl_status swgl_sim_device_field(swgl_sim *sim, const char *name, swgl_device_field *f)
{
    if (!sim || !name || !f) return swgl_fail(SWGL_ERR_ARG, "swgl_sim_device_field: NULL");
    memset(f, 0, sizeof *f);
    if (!sim->open || !sim->in.be->device || !sim->in.be->device->device_field)
        return swgl_fail(SWGL_ERR_ARG, "swgl_sim_device_field: %s keeps no field on the GPU (swgl_sim_field gives it)",
                         sim->solver[0] ? sim->solver : "this sim");
    if (sim->in.be->finish) sim->in.be->finish(sim->in.self);
    scheme_device_field d;
    swgl_status st = sim->in.be->device->device_field(sim->in.self, name, &d);
    if (st != SWGL_OK) return st;
    *f = (swgl_device_field){.texture = d.texture, .component = d.component, .texture2 = d.texture2,
                             .component2 = d.component2, .scale2 = d.scale2, .width = d.width, .height = d.height,
                             .x0 = 1, .y0 = 1, .nx = sim->s.nx, .ny = sim->s.ny};
    return SWGL_OK;
}
