/* scheme_mpi_open.c — the instance of the whole grid over the ranks (scheme_mpi.h has
 * the design): open (the blocks, the block's setup and backend, the peers, the buffers),
 * its table, and the calls it passes to the block. */
#include "scheme_mpi_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef SWGL_HAVE_MPI

int scheme_mpi_stats(const scheme_inst *in, scheme_mpi_times *t)
{
    (void)in, (void)t;
    return 0;
}

swgl_status scheme_mpi_open(scheme_inst *in, const scheme_desc *d, enum backend b, const scheme_setup *s,
                            const scheme_config *cfg)
{
    (void)in, (void)d, (void)b, (void)s, (void)cfg;
    return swgl_fail(SWGL_ERR_ARG, "this swgl was built without MPI (configure with Open MPI installed: build.sh "
                     "installs libopenmpi-dev)");
}

#else

static void w_destroy(void *self)
{
    mpi_inst *m = self;
    if (!m) return;
    scheme_close(&m->inner);
    if (m->d && m->local.problem) m->d->setup_free(&m->local);
    for (int p = 0; m->peers && p < m->npeer; p++) {
        free(m->peers[p].sbuf);
        free(m->peers[p].rbuf);
    }
    free(m->peers);
    free(m->req);
    free(m->blk);
    scheme_fields_free(&m->lf);
    free(m->pack);
    free(m->all);
    swe_maps_free(&m->lm);
    free(m->mpack);
    free(m->mall);
    free(m);
}

static swgl_status w_advance(void *self, int k, double dt)
{
    mpi_inst *m = self;
    double t0 = MPI_Wtime();
    int last = k == m->inner.be->stages(m->inner.self) - 1;
    if (m->in_window) {   /* (a held window's: agreed at its end) */
        if (m->qerr == SWGL_OK) m->qerr = m->inner.be->advance(m->inner.self, k, dt);
        if (m->qerr == SWGL_OK && last) m->qerr = scheme_mpi_prefetch(m);
        m->tm.advance_s += MPI_Wtime() - t0;
        return SWGL_OK;
    }
    swgl_status st = m->inner.be->advance(m->inner.self, k, dt);
    if (st == SWGL_OK && last) st = scheme_mpi_prefetch(m);
    if (st == SWGL_OK && m->lm.m[0] && !(m->inner.be->device && m->inner.be->device->maps_start) && k == m->inner.be->stages(m->inner.self) - 1) {
        /* the time the loop reaches with this step (timeloop.c: the stop on the step that
         * lands there, whose dt is the time left or within 1e-9 of it), and the block's
         * maps from its state then */
        double left = m->stop - m->t, t = left <= dt * (1 + 1e-9) ? m->stop : m->t + dt;
        st = m->inner.be->get_state(m->inner.self, m->lf.f);
        if (st == SWGL_OK) swe_maps_update(&m->lm, m->local.code, m->lf.f, t);
    }
    double t1 = MPI_Wtime();
    m->tm.advance_s += t1 - t0;
    st = scheme_mpi_agree(st);
    m->tm.agree_s += MPI_Wtime() - t1;
    return st;
}

static int w_stages(const void *self)
{
    const mpi_inst *m = self;
    return m->inner.be->stages(m->inner.self);
}

static void w_describe(const void *self, char *name, size_t len)
{
    const mpi_inst *m = self;
    snprintf(name, len, "%s", m->name);
}

static const char *w_precision(const void *self)
{
    const mpi_inst *m = self;
    return m->inner.be->precision ? m->inner.be->precision(m->inner.self) : "double";
}

static void w_finish(void *self)
{
    mpi_inst *m = self;
    if (m->inner.be->finish) m->inner.be->finish(m->inner.self);
}

static void w_set_time(void *self, double t, double stop)
{
    mpi_inst *m = self;
    m->t = t;
    m->stop = stop;
    if (m->inner.be->forcing) m->inner.be->forcing->set_time(m->inner.self, t, stop);
}

static const scheme_forcing_ops mpi_forcing = {.set_time = w_set_time, .account = scheme_mpi_account};
static const scheme_device_ops mpi_device = {.maps_start = scheme_mpi_maps_start, .maps_read = scheme_mpi_maps_read};
static const scheme_probe_ops mpi_probe = {.sample = scheme_mpi_sample};
static const scheme_backend mpi_backend = {.backend = BACKEND_NONE,
                                           .destroy = w_destroy,
                                           .set_state = scheme_mpi_set_state,
                                           .get_state = scheme_mpi_get_state,
                                           .stage = scheme_mpi_stage,
                                           .advance = w_advance,
                                           .stages = w_stages,
                                           .describe = w_describe,
                                           .precision = w_precision,
                                           .finish = w_finish,
                                           .forcing = &mpi_forcing,
                                           .device = &mpi_device,
                                           .probe = &mpi_probe};

int scheme_mpi_stats(const scheme_inst *in, scheme_mpi_times *t)
{
    if (!in->be || in->be->destroy != w_destroy) return 0;
    const mpi_inst *m = in->self;
    *t = m->tm;
    t->exchange_s = m->exch_s;
    t->exchanges = m->exchanges;
    t->every = m->period;
    t->halo_bytes = 0;   /* (an exchange's, on average: with mpi.choose some send part of the halo) */
    for (int p = 0; p < m->npeer; p++) t->halo_bytes += m->peers[p].sn;
    if (m->exchanges > 0) t->halo_bytes = m->sent / m->exchanges;
    return 1;
}

swgl_status scheme_mpi_open(scheme_inst *in, const scheme_desc *d, enum backend b, const scheme_setup *s,
                            const scheme_config *cfg)
{
    memset(in, 0, sizeof *in);
    enum backend impl = b == BACKEND_GPU_COMPUTE ? BACKEND_GPU : b;
    const scheme_backend *be = b >= 0 && b < BACKEND_COUNT ? d->backends[impl] : NULL;
    if (!d->window || !d->halo)
        return swgl_fail(SWGL_ERR_ARG, "scheme %s does not run over MPI ranks yet: run it on one rank", d->name);
    if (!be || !be->halo)
        return swgl_fail(SWGL_ERR_ARG, "%s on the %s backend does not run over MPI ranks yet: run it on one rank", d->name, backend_name(b));
    int px = 1, py = 1;
    const swgl_tuning *tn = tuning_or_default(cfg->tune);
    if (scheme_mpi_blocks(s->nx, s->ny, swgl_mpi_size(), tn->mpi_blocks, &px, &py)) return SWGL_ERR_ARG;
    mpi_inst *m = calloc(1, sizeof *m);
    if (!m) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    m->d = d;
    m->gnx = s->nx;
    m->gny = s->ny;
    m->px = px;
    m->py = py;
    /* the halo: a step's reach (or tune mpi.halo's width: tests, where a narrower one must
     * show) times the steps between exchanges (tune mpi.every; auto: 1 on the CPU, whose
     * exchange is a copy in memory, 4 on a GPU, whose exchange is a GL round trip: on two
     * H200s every 4 took 10-22% less time than every 2, docs/mpi.md) */
    m->every = tn->mpi_every > 0 ? tn->mpi_every : impl == BACKEND_GPU ? 4 : 1;
    /* a held step ([run] step_hold) on a GPU: the halo every window's steps (up to 16), so
     * that a window exchanges once (its first bound and its end are its agreements) */
    int held = s->sc && s->sc->step_hold > 1;
    if (tn->mpi_every <= 0 && impl == BACKEND_GPU && held) m->every = s->sc->step_hold < 16 ? s->sc->step_hold : 16;
    /* or the steps between exchanges chosen at run time (tune mpi.choose; auto: on a GPU
     * where mpi.every is left to it, and not held): a halo 8 steps wide (or mpi.every's),
     * exchanged every 4 or every 8 steps, whichever the first rounds time faster (on two
     * H200s: roe over two 8192 x 4096 blocks 1.076 s every 4, 1.232 s every 8; 4096^2
     * blocks level; Malpasset's 0.35 M-cell blocks a few % faster every 8: docs/mpi.md);
     * each exchange sends what went stale since the last (scheme_mpi_band).  Not with the
     * held step, whose windows set the period (mpi.choose=on too) */
    int choose = tn->mpi_choose == TUNE_ON || (tn->mpi_choose == TUNE_AUTO && impl == BACKEND_GPU && tn->mpi_every <= 0);
    if (choose && !held) {
        if (tn->mpi_every <= 0) m->every = 8;
        m->choose.on = m->every >= 2;
        m->choose.rounds = 3;
    }
    m->period = m->choose.on ? m->every / 2 : m->every;
    m->halo = (tn->mpi_halo > 0 ? tn->mpi_halo : d->halo(s)) * m->every;
    m->overlap = tn->mpi_overlap != TUNE_OFF && be->halo->overlap && be->halo->request && be->halo->fetch && be->halo->stage_rects;
    swgl_status st = scheme_mpi_layout(s->nx, s->ny, px, py, m->halo, swgl_mpi_size(), &m->blk);
    const int *own = st == SWGL_OK ? m->blk[swgl_mpi_rank()] : NULL, *win = own ? own + 4 : NULL;
    if (st == SWGL_OK) {
        int own_local[4] = {own[0] - win[0], own[1] - win[1], own[2] - win[0], own[3] - win[1]};
        st = d->window(s, win, own_local, &m->local);
    }
    if ((st = scheme_mpi_agree(st)) != SWGL_OK) goto fail;
    st = scheme_open_block(&m->inner, d, b, &m->local, cfg);
    if ((st = scheme_mpi_agree(st)) != SWGL_OK) goto fail;
    m->cell_bytes = m->inner.be->halo->cell_bytes(m->inner.self);
    st = scheme_mpi_peers(m);
    if (st == SWGL_OK) st = scheme_fields_alloc(&m->lf, d, m->local.nx, m->local.ny);
    if (st == SWGL_OK) st = scheme_mpi_gather_buffers(m, d->n_fields, &m->pack, &m->all);
    if ((st = scheme_mpi_agree(st)) != SWGL_OK) goto fail;
    /* the reach of stage 0, where the block's backend can overlap it with the exchange (and,
     * tune mpi.overlap auto, gains by it: docs/mpi.md) */
    if (m->overlap) m->overlap = m->inner.be->halo->overlap(m->inner.self, m->nsend, m->strip_max, tn->mpi_overlap == TUNE_ON);
    int ovl = m->overlap > 0;
    /* the strips read back early when asked (tune mpi.prefetch=on: on two H200s it gained
     * nothing for roe and lost for kp held, docs/mpi.md) where the backend reads them back
     * without waiting and has room for them all (not with overlap, whose exchange asks for
     * them itself) */
    const scheme_halo_ops *ho = m->inner.be->halo;
    /* (overlap made room for the strips itself) */
    m->pipelined = ovl || (m->nsend > 0 && ho->request && ho->fetch && ho->room &&
                           ho->room(m->inner.self, m->nsend, m->strip_max) == SWGL_OK);
    if (!m->pipelined) swgl_clear_error();   /* (no room: the exchange gets its strips one at a time) */
    m->prefetch = !ovl && m->pipelined && tn->mpi_prefetch == 1;
    char every[48] = "";
    if (m->choose.on) snprintf(every, sizeof every, " exchanged every %d or %d steps, timed", m->every / 2, m->every);
    else if (m->every > 1) snprintf(every, sizeof every, " exchanged every %d steps", m->every);
    snprintf(m->name, sizeof m->name, "%.360s over %d MPI ranks (%d x %d blocks, halo %d%s%s)", m->inner.name,
             swgl_mpi_size(), px, py, m->halo, every, ovl ? ", overlapped" : m->prefetch ? ", read back early" : "");
    m->be = mpi_backend;
    m->probe = mpi_probe;
    if (m->inner.be->probe && m->inner.be->probe->get_native && m->inner.be->probe->set_native) {
        m->probe.get_native = scheme_mpi_get_native;
        m->probe.set_native = scheme_mpi_set_native;
    }
    m->be.probe = &m->probe;
    if (m->inner.be->hold) m->be.hold = &scheme_mpi_hold;
    in->desc = d;
    in->be = &m->be;
    in->self = m;
    memcpy(in->name, m->name, sizeof in->name);
    in->speed_scale = d->speed_scale ? d->speed_scale(s) : 0;
    for (size_t k = 0; k < grid_size(s->nx, s->ny); k++) in->cells += !s->code || s->code[k] == CELL_ACTIVE;
    if (!s->code) in->cells = (long)s->nx * s->ny;
    return SWGL_OK;
fail:
    w_destroy(m);
    return st;
}

#endif
