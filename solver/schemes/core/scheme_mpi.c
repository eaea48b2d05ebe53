/* scheme_mpi.c — MPI itself for a run over ranks (scheme_mpi.h has the design): MPI_Init
 * under a launcher, the ranks, and the collectives every rank agrees through.  The rest
 * of the run over ranks is in the files scheme_mpi_int.h lists. */
#include "scheme_mpi_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

static int g_rank = 0, g_size = 1, g_local = 0;
static int g_saved_out = -1, g_saved_err = -1;   /* a silenced rank's stdout and stderr */
#ifdef SWGL_HAVE_MPI
static int g_inited = 0;
#endif

SWGL_API int swgl_mpi_rank(void) { return g_rank; }
int swgl_mpi_local_rank(void) { return g_local; }
SWGL_API int swgl_mpi_size(void) { return g_size; }

int swgl_mpi_available(void)
{
#ifdef SWGL_HAVE_MPI
    return 1;
#else
    return 0;
#endif
}

SWGL_API int swgl_mpi_init(int *argc, char ***argv)
{
#ifdef SWGL_HAVE_MPI
    /* only under a launcher: a plain `swgl run` never touches MPI */
    if (!getenv("OMPI_COMM_WORLD_SIZE") && !getenv("PMI_SIZE") && !getenv("PMIX_RANK")) return 0;
    int flag = 0;
    MPI_Initialized(&flag);
    if (!flag && MPI_Init(argc, argv) != MPI_SUCCESS) return -1;
    g_inited = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    MPI_Comm node;   /* the ranks of this node: a GPU each (gpu_context_desc rotate) */
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) == MPI_SUCCESS) {
        MPI_Comm_rank(node, &g_local);
        MPI_Comm_free(&node);
    }
    /* every rank runs the same command and reaches the same messages (the ranks agree on
     * each outcome): rank 0 prints them; tune mpi.verbose lets the others print too from
     * their sim's creation on (swgl_mpi_verbose) */
    if (g_rank != 0) {
        fflush(stdout);
        fflush(stderr);
        g_saved_out = dup(STDOUT_FILENO);
        g_saved_err = dup(STDERR_FILENO);
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, STDOUT_FILENO);
            dup2(null, STDERR_FILENO);
            close(null);
        }
    }
    return 0;
#else
    (void)argc;
    (void)argv;
    /* started by a launcher as one of several copies: each would run the whole job */
    const char *n = getenv("OMPI_COMM_WORLD_SIZE");
    if (!n) n = getenv("PMI_SIZE");
    return n && atoi(n) > 1 ? -1 : 0;
#endif
}

void swgl_mpi_verbose(void)
{
    if (g_saved_out < 0 || g_saved_err < 0) return;
    fflush(stdout);
    fflush(stderr);
    dup2(g_saved_out, STDOUT_FILENO);
    dup2(g_saved_err, STDERR_FILENO);
    close(g_saved_out);
    close(g_saved_err);
    g_saved_out = g_saved_err = -1;
}

SWGL_API void swgl_mpi_finalize(void)
{
#ifdef SWGL_HAVE_MPI
    if (g_inited) MPI_Finalize();
    g_inited = 0;
#endif
    g_rank = 0;
    g_size = 1;
}

#ifndef SWGL_HAVE_MPI

void swgl_mpi_barrier(void) {}
double swgl_mpi_max(double v) { return v; }
double swgl_mpi_max_asleep(double v) { return v; }
swgl_status swgl_mpi_agree(swgl_status st) { return st; }

#else

/* Every rank leaves a call with the same outcome: the lowest failing rank's status and
 * message, or SWGL_OK. */
swgl_status scheme_mpi_agree(swgl_status st)
{
    int mine = st != SWGL_OK ? g_rank : g_size, low = g_size;
    MPI_Allreduce(&mine, &low, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (low == g_size) return SWGL_OK;
    struct {
        int code;
        char msg[1000];
    } m = {(int)st, ""};
    if (g_rank == low) snprintf(m.msg, sizeof m.msg, "%s", swgl_last_error());
    MPI_Bcast(&m, (int)sizeof m, MPI_BYTE, low, MPI_COMM_WORLD);
    if (g_rank != low) swgl_fail((swgl_status)m.code, "%s (rank %d of %d)", m.msg, low, g_size);
    return (swgl_status)m.code;
}

void swgl_mpi_barrier(void)
{
    if (g_size > 1) MPI_Barrier(MPI_COMM_WORLD);
}

double swgl_mpi_max(double v)
{
    double r = v;
    if (g_size > 1) MPI_Allreduce(&v, &r, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return r;
}

double swgl_mpi_max_asleep(double v)
{
    double r = v;
    if (g_size == 1) return r;
    MPI_Request q;
    int done = 0;
    MPI_Iallreduce(&v, &r, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, &q);
    for (MPI_Test(&q, &done, MPI_STATUS_IGNORE); !done; MPI_Test(&q, &done, MPI_STATUS_IGNORE)) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    return r;
}

swgl_status swgl_mpi_agree(swgl_status st) { return g_size > 1 ? scheme_mpi_agree(st) : st; }

#endif
