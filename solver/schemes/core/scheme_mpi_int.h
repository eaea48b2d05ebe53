/* scheme_mpi_int.h — inside the run over MPI ranks (scheme_mpi.h has the design): the
 * instance of the whole grid and what its files share.
 *
 *   scheme_mpi.c         MPI_Init under a launcher, the ranks, the collectives
 *   scheme_mpi_blocks.c  the blocks: the split into px x py, each rank's own cells and window
 *   scheme_mpi_open.c    the instance: open, its table, the calls passed to the block
 *   scheme_mpi_halo.c    the halo: the peers, the exchange, the stages with it
 *   scheme_mpi_gather.c  the whole grid from the blocks: state, native field, samples, maps,
 *                        accounts
 */
#ifndef SWGL_SCHEME_MPI_INT_H
#define SWGL_SCHEME_MPI_INT_H

#include "scheme_mpi.h"

/* Each rank's own cells (x0, y0, x1, y1) and window (the same, its halo added, within the
 * grid): (*blk)[r][0..3] and [4..7], for P ranks in px x py blocks; *blk malloc'ed. */
swgl_status scheme_mpi_layout(int nx, int ny, int px, int py, int halo, int P, int (**blk)[8]);

#ifdef SWGL_HAVE_MPI
#include <mpi.h>

#include "swe_maps.h"

/* What a rank exchanges with one other: the cells of its own block that lie in the
 * other's window (sent) and the other's own cells in this window (received); rectangles
 * (x, y, w, h) in this block's grid_at coordinates; and those of this exchange, all of them
 * or, exchanged sooner than the halo's width needs, the part gone stale (scheme_mpi_halo.c
 * band). */
typedef struct peer {
    int rank;
    int snd[4], rcv[4];
    void *sbuf, *rbuf;
    int sn, rn;   /* bytes (the backend's cell_bytes a cell) */
    int gsnd[4], grcv[4];   /* snd and rcv in the grid's interior coordinates (x0, y0, x1, y1) */
    int xs[4], xr[4], xsn, xrn;   /* this exchange's rectangles and bytes */
    const void *sp;               /* this exchange's bytes sent: sbuf, or the backend's in place (halo view) */
    void *rp;                     /* and received: rbuf, or room the backend gave (halo area) */
} peer;

typedef struct mpi_inst {
    scheme_inst inner;          /* the block's instance */
    const scheme_desc *d;
    scheme_setup local;         /* the block's setup (window), its halo and ring */
    int gnx, gny, px, py, halo, cell_bytes;
    int (*blk)[8];              /* per rank: own (x0, y0, x1, y1), window (x0, y0, x1, y1), global interior */
    int npeer;
    peer *peers;
    MPI_Request *req;
    scheme_fields lf;           /* the block's fields (get_state, set_state) */
    double *pack, *all;         /* this rank's own cells, every rank's (field by field) */
    /* the flood maps of the block (maps_start): its windows of the run's maps, updated
     * after each step from the block's state at the time the loop reaches */
    swe_maps lm;
    double *mpack, *mall;
    double t, stop, bound;      /* the step: set_time's t and stop, stage 0's bound */
    double exch_s;              /* s spent in the halo exchanges */
    long exchanges;
    long sent;                  /* bytes sent in the exchanges */
    int every;                  /* the halo's width: every x the step's reach */
    int period;                 /* the steps between exchanges (every, or chosen: choose) */
    long since;                 /* stage 0s since the state was set (the first exchanges all of the halo) */
    long last;                  /* the stage 0 that last exchanged (since's value) */
    long span;                  /* the steps between the last two exchanges */
    /* the period chosen at run time (tune mpi.choose): every / 2 and every in turn, each for
     * every's steps a round, timed from exchange to exchange, then the faster for the rest
     * of the run (the ranks' slowest times) */
    struct {
        int on, rounds, turn;   /* choosing; the rounds still to time; the exchange in its round */
        double t_prev, t[2];    /* the last exchange's time; each period's time so far */
        long n[2];              /* and its steps */
    } choose;
    scheme_mpi_times tm;        /* the exchange's parts (scheme_mpi_stats) */
    int overlap;                /* stage 0's reach where its inner cells go while the halo does, else 0 */
    long strip_max;             /* the cells of the largest strip this rank sends */
    int nsend;                  /* the strips this rank sends an exchange */
    /* the strips of the next exchange read back early: asked for after the step before it
     * (w_advance), so that their read-back goes on while the loop waits for what it
     * waits for then (a held window's bounds); dropped where the state changes otherwise */
    int prefetch;
    int asked_early, prefetched;   /* the strips asked for early, and for how many sending peers */
    /* an exchange asks for all its strips before it waits for the first (the backend's
     * request and fetch, with room for them all: a GPU's, not overlapped) */
    int pipelined;
    /* the held step (scheme_hold_ops, timeloop.c): within a window the stages and advances
     * agree on nothing (bounds does, once): the first error kept, since's value saved */
    int in_window;
    swgl_status qerr;
    long held_since, held_last;
    scheme_backend be;          /* the table of this instance */
    scheme_probe_ops probe;     /* its probe: the native fields where the block's backend has them */
    char name[480];
} mpi_inst;

/* Every rank leaves a call with the same outcome: the lowest failing rank's status and
 * message, or SWGL_OK (a collective, whatever the number of ranks). */
swgl_status scheme_mpi_agree(swgl_status st);

/* scheme_mpi_halo.c: the peers of this rank (m->blk, m->cell_bytes set) and m->strip_max; the
 * instance's stage (stage 0 exchanges the halo). */
swgl_status scheme_mpi_peers(mpi_inst *m);
swgl_status scheme_mpi_stage(void *self, int k, double *bound);
/* this exchange's rectangles (each peer's xs, xr and their bytes) after `steps` steps since
 * the last: the whole halo, or where fewer than its width's steps, the part gone stale */
void scheme_mpi_band(mpi_inst *m, long steps);
/* after the last stage's advance of a step: the next exchange's strips asked for now, where
 * the next stage 0 exchanges (m->prefetch); and the strips asked for, let go unused (the
 * state set or restored) */
swgl_status scheme_mpi_prefetch(mpi_inst *m);
void scheme_mpi_drop_prefetch(mpi_inst *m);
extern const scheme_hold_ops scheme_mpi_hold;

/* scheme_mpi_gather.c: the buffers of a gathering of nf fields; the instance's calls that
 * gather or scatter the whole grid. */
swgl_status scheme_mpi_gather_buffers(const mpi_inst *m, int nf, double **pack, double **all);
swgl_status scheme_mpi_set_state(void *self, double *const *f);
swgl_status scheme_mpi_get_state(void *self, double *const *f);
swgl_status scheme_mpi_sample(void *self, const size_t *cells, int n, double *const *out);
swgl_status scheme_mpi_get_native(void *self, double *f);
swgl_status scheme_mpi_set_native(void *self, const double *f);
swgl_status scheme_mpi_maps_start(void *self, struct swe_maps *g);
swgl_status scheme_mpi_maps_read(void *self, struct swe_maps *g);
swgl_status scheme_mpi_account(void *self, swe_account *a);

#endif
#endif
