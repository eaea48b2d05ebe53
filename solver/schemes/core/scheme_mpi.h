/* scheme_mpi.h — a run over MPI ranks (Open MPI; issue 14): `mpirun -n P swgl run ...`
 * splits the grid into P blocks, one rank a block (docs/mpi.md).
 *
 * Each rank builds the whole setup from the scenario (the same on every rank), takes its
 * block with a halo of the scheme's width around it (scheme_desc window and halo) and
 * opens the backend on that; scheme_open then hands the run driver an instance of the
 * whole grid (scheme_mpi_open) whose stages and updates are the block's:
 *   stage 0:  the halo's cells from the ranks that own them (backend halo_get / halo_set:
 *             the state as stored, so the same bits), then the block's stage; the bound
 *             is the minimum over the ranks (MPI_Allreduce) of each block's bound over
 *             the cells it owns (swe_problem own), which is the one-rank bound exactly;
 *   stage k:  the block's (the halo is wide enough for a whole step: kp RK2 reads Q* two
 *             cells out, made from Q^n four cells out);
 *   advance:  the block's;
 *   get_state: the blocks' own cells gathered on every rank (MPI_Allgatherv), so that
 *             the driver's outputs, gauges and summaries run unchanged; rank 0 writes them,
 *             the other ranks write into a scratch folder they remove.
 * Every call that can fail agrees on the outcome across the ranks (the lowest failing
 * rank's message goes to all), so a blow-up or an error stops every rank alike.
 * Built without MPI (SWGL_WITH_MPI off, or Open MPI absent), or started without mpirun,
 * there is one rank and none of this runs. */
#ifndef SWGL_SCHEME_MPI_H
#define SWGL_SCHEME_MPI_H

#include "scheme.h"

/* MPI_Init where the process was started by mpirun (Open MPI's OMPI_COMM_WORLD_SIZE, or
 * PMI / PMIx variables) and swgl was built with MPI; otherwise nothing (one rank).  -1
 * where MPI_Init failed, or where swgl was built without MPI but started as one of several
 * copies (each would run the whole job into the same outputs). */
int swgl_mpi_init(int *argc, char ***argv);
void swgl_mpi_finalize(void);
int swgl_mpi_rank(void);        /* 0 without MPI */
int swgl_mpi_local_rank(void);  /* the rank among this node's ranks: the GPU it takes */
int swgl_mpi_size(void);        /* 1 without MPI */
int swgl_mpi_available(void);   /* built with MPI */

/* The instance of the whole grid over the ranks (see above); scheme_open calls it when
 * there is more than one rank.  SWGL_ERR_ARG where the scheme or the backend cannot be
 * split yet, or the grid is too small for the blocks. */
swgl_status scheme_mpi_open(scheme_inst *in, const scheme_desc *d, enum backend b, const scheme_setup *s,
                            const scheme_config *cfg);

/* Where a rank's time over the ranks goes (issue 26's breakdown; this rank's seconds, summed
 * over the run): the exchanges and their number; in them the strips read from the backend (a
 * device's pack passes and read-backs, with the wait for its queued work, and the inner
 * cells' stage queued where it overlaps), the sends and receives on the wire (MPI_Waitall),
 * the strips written into the backend (a device's upload and unpack passes); apart from them
 * the step bound's agreement over the ranks (the status and the allreduce of the least
 * bound, every stage); the bytes this rank sends an exchange. */
typedef struct scheme_mpi_times {
    double exchange_s;
    long exchanges;
    double read_s, wire_s, write_s, bound_s;
    long halo_bytes;
    /* apart from the exchange: the block's stages (with their bound's read-back: on a GPU the
     * wait for the step's work) and advances (queued, on a GPU), the advances' agreement */
    double stage_s, advance_s, agree_s;
    int every;   /* the halo exchanged every `every` steps */
} scheme_mpi_times;
/* An instance of scheme_mpi_open: its times on this rank (returns 1), or 0 for any other
 * instance. */
int scheme_mpi_stats(const scheme_inst *in, scheme_mpi_times *t);
/* Collectives for the program (no-ops on one rank): a barrier, the maximum of v over the
 * ranks, and a status every rank agrees on (the lowest failing rank's, message included). */
void swgl_mpi_barrier(void);
double swgl_mpi_max(double v);
/* The same, waiting asleep (polled every millisecond): for a rank that may wait long, so that its
 * spinning takes no core from a rank still at work (a bench's rank 0 running alone) */
double swgl_mpi_max_asleep(double v);
swgl_status swgl_mpi_agree(swgl_status st);

/* The blocks of an nx x ny grid over P ranks: px x py (px py = P) with the least cut
 * length, (px - 1) ny + (py - 1) nx, wider blocks first on a tie; want (tune mpi.blocks,
 * 0x0: none) chooses them.  Returns 0, or -1 (with a message) where no split fits. */
int scheme_mpi_blocks(int nx, int ny, int P, const int want[2], int *px, int *py);
/* The ranks past 0 print again (tune mpi.verbose): swgl_mpi_init silenced them. */
void swgl_mpi_verbose(void);

#endif
