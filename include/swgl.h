/* swgl.h — the public C API of swgl: shallow-water and sediment-transport simulation on
 * GPUs through OpenGL (and on the CPU), as a library.
 *
 * A simulation is set up and run in a few lines (Brodtkorb et al. 2011, §3.1):
 *
 *     #include <swgl.h>
 *     swgl_sim *sim;
 *     swgl_sim_desc d = {.case_name = "dambreak", .backend = "cpu-scalar"};
 *     if (swgl_sim_create(&d, &sim) != SWGL_OK) { puts(swgl_last_error()); return 1; }
 *     swgl_sim_run_to(sim, 2.0);
 *     printf("%ld steps, volume %.12g m^3\n", swgl_sim_steps(sim), swgl_sim_volume(sim));
 *     swgl_sim_destroy(sim);
 *
 * Build: cc prog.c $(pkg-config --cflags --libs swgl), or find_package(swgl) and
 * target_link_libraries(prog swgl::swgl) in CMake.  docs/api.md is the guide.
 *
 * Conventions.  Every call that can fail returns a swgl_status (SWGL_OK == 0) and leaves
 * one line in swgl_last_error() (thread-local).  Fields are nx * ny doubles, out[j*nx + i],
 * i eastward, j = 0 the southernmost row, NaN outside the domain.  Times are seconds, lengths
 * metres.  A sim is used from one thread at a time, and a GPU sim from the thread that created
 * it (its GL context is current there); one GPU sim at a time in a process (a second is
 * refused: the GL layer's programs are the process's), any number on the CPU backends.  Over
 * MPI ranks (mpirun -n P, after swgl_mpi_init) every call on a sim is collective: every rank
 * makes it alike.
 */
#ifndef SWGL_H
#define SWGL_H

#include <stdio.h>

#include "swgl_status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SWGL_API_VERSION 1

typedef struct swgl_sim swgl_sim;   /* opaque */

/* Progress on stderr (swgl_sim_desc.progress). */
enum { SWGL_PROGRESS_NONE = 0, SWGL_PROGRESS_TTY = 1, SWGL_PROGRESS_LINES = 2 };

/* The description of a sim: zero = every default.  Fields are only ever appended (the ABI of
 * SWGL_API_VERSION 1 keeps the order below): source written against this header builds
 * against a later one unchanged, but the struct carries no size, so a program compiled
 * against an older header must be recompiled when a field is appended (the library reads
 * every field it knows).  0.y.z releases append: tune came with 0.2. */
typedef struct swgl_sim_desc {
    const char *scenario;            /* a scenario file; NULL with case_name NULL: the default demo
                                      * (case "dambreak") */
    const char *case_name;           /* a built-in case instead of a file (swgl_case_names) */
    const char *const *set;          /* NULL-terminated "section.key=value" overrides, as --set */
    const char *backend;             /* "gpu" | "gpu-compute" | "cpu" | "cpu-scalar"; NULL: "gpu" */
    const char *precision;           /* "single" | "double"; NULL: the scheme's default */
    const char *out;                 /* an output folder as --out; NULL: no files written */
    /* --- beyond the defaults --- */
    int use_device;                  /* nonzero: device is an EGL device index (swgl info) */
    int device;                      /* else SWGL_DEVICE, else the first GPU, else llvmpipe */
    int use_current_context;         /* nonzero: use the GL context current on the calling thread
                                      * (3.3 core; 4.3 for gpu-compute) instead of a headless EGL
                                      * one; it must stay current on that thread for every call */
    const char *restart;             /* continue from a run.nc (--restart): its latest state, exact */
    int restart_at_time;             /* nonzero: the state stored at restart_time (float) instead */
    double restart_time;
    const char *compare;             /* a second backend run at swgl_sim_finish over the same stops
                                      * (--compare): differences and speedup in summary.json */
    int progress;                    /* SWGL_PROGRESS_*: a progress line on stderr while stepping,
                                      * and the run's messages there (restart, comparison); NONE:
                                      * the library prints nothing */
    int profile;                     /* GPU: time every pass (GL timer queries; swgl_sim_profile) */
    int host_clock;                  /* step on the host's clock: the time step read back every
                                      * step (a GPU backend keeps it on the device otherwise) */
    int mpi_alone;                   /* over MPI ranks: rank 0 runs the whole grid by itself and
                                      * the other ranks' calls return at once (benches: one rank
                                      * against several in one job) */
    const char *tune;                /* tuning choices as "key=value" items separated by commas
                                      * or newlines (--tune), e.g. "clock_every=8,kp.fused=flux";
                                      * NULL: every default.  swgl_tune_keys lists the keys; an
                                      * unknown key, a bad value or one out of range fails the
                                      * create with a message naming the key (docs/api.md) */
} swgl_sim_desc;

/* Creates a simulation: loads the scenario, opens the backend, sets the initial state (or the
 * restart's), opens the output folder's staging.  A failed create returns non-zero, leaves
 * *sim NULL and a message naming what was wrong. */
SWGL_API swgl_status swgl_sim_create(const swgl_sim_desc *desc, swgl_sim **sim);

/* Steps from the current time to t, landing on t exactly; the outputs of the scenario's output
 * times (and gauge times) on the way are written as the run passes them.  t equal to the
 * current time returns at once; t earlier is an error; t beyond the scenario's t_end is
 * allowed (t_end is where the command line stops).  SWGL_ERR_BLOWUP when the solution blew
 * up (the time is then the last good one), SWGL_ERR_INTERRUPTED after swgl_sim_request_stop
 * (the state is the one reached, still whole: finish writes it). */
SWGL_API swgl_status swgl_sim_run_to(swgl_sim *sim, double t);
/* One step of the largest size the stability condition allows, cut to land on the next of the
 * scenario's output (and gauge) times and never past t_end (none at t_end); the after-step
 * observers are called. */
SWGL_API swgl_status swgl_sim_step(swgl_sim *sim);

SWGL_API double swgl_sim_time(const swgl_sim *sim);
SWGL_API long swgl_sim_steps(const swgl_sim *sim);
SWGL_API double swgl_sim_t_end(const swgl_sim *sim);   /* the scenario's [run] t_end */
/* The grid of the fields (cells, or the sediment scheme's grid points), any pointer NULL. */
SWGL_API void swgl_sim_size(const swgl_sim *sim, int *nx, int *ny, double *dx, double *dy);
/* The map coordinates of the south-west corner of the grid (0, 0 unless the bed is a grid). */
SWGL_API void swgl_sim_origin(const swgl_sim *sim, double *x0, double *y0);

/* A field of the current state into out (nx * ny doubles): "h" "eta" "qx" "qy" "bed" for the
 * shallow-water schemes (kp's bed: the cell average of its bilinear bed), "h" (basin height)
 * and "s" (sand fraction) for the sediment scheme.  NaN outside the domain. */
SWGL_API swgl_status swgl_sim_field(swgl_sim *sim, const char *name, double *out);
/* Sets a state field ("h" "qx" "qy", or "eta" as bed + h; sediment "h" "s") from in (nx * ny
 * doubles; cells outside the domain are ignored; depths below 0 are refused). */
SWGL_API swgl_status swgl_sim_set_field(swgl_sim *sim, const char *name, const double *in);
/* The water volume sum h dx dy over the domain (m^3), as summary.json's mass_final; the
 * sediment scheme's basin volume. */
SWGL_API double swgl_sim_volume(swgl_sim *sim);

/* Observers: fn is called with the event at the time reached, on the calling thread, with the
 * state readable through swgl_sim_field.  SWGL_EVENT_STEP after every step (a GPU backend then
 * steps on the host's clock: slower), SWGL_EVENT_OUTPUT at each of the scenario's output
 * times, SWGL_EVENT_FINISH from swgl_sim_finish with the final state; swgl_sim_time and
 * swgl_sim_steps are the step's.  A status other than SWGL_OK ends the run_to (or finish) with
 * it; the step it saw is whole, and a later run_to goes on from there.  Inside fn the sim may be
 * read (fields, time, stats) and asked to stop, not stepped, set or finished (SWGL_ERR_ARG).
 * At most 32 observers. */
typedef enum swgl_event { SWGL_EVENT_STEP = 1, SWGL_EVENT_OUTPUT = 2, SWGL_EVENT_FINISH = 4 } swgl_event;
typedef swgl_status (*swgl_observer_fn)(swgl_sim *sim, swgl_event event, double t, void *user);
SWGL_API swgl_status swgl_sim_observe(swgl_sim *sim, unsigned events, swgl_observer_fn fn, void *user);

/* Asks a running run_to to stop after its step (with SWGL_ERR_INTERRUPTED); safe in a signal
 * handler and from another thread.  Later run_to calls return SWGL_ERR_INTERRUPTED at once.
 * Over MPI ranks, call it on every rank alike (from an observer, say): a rank that stops alone
 * leaves the others waiting in the halo exchange. */
SWGL_API void swgl_sim_request_stop(swgl_sim *sim);

/* With out set: writes the final state, the flood maps, gauges, run.nc, summary.json and the
 * pictures, runs the comparison (desc.compare), and commits the folder atomically (it holds
 * the old run's files or this one's, never a mix).  After an interrupted run_to, summary.json
 * says "interrupted" and the state reached is the run's last.  Once per sim; no stepping
 * after it. */
SWGL_API swgl_status swgl_sim_finish(swgl_sim *sim);
/* Prints the summary of a finished sim as swgl run does (stdout's lines). */
SWGL_API void swgl_sim_print_summary(const swgl_sim *sim, FILE *f);
/* Releases everything; NULL is fine.  Without finish the output folder is left as it was. */
SWGL_API void swgl_sim_destroy(swgl_sim *sim);

/* ---- what ran, and how fast ---------------------------------------------------------------- */

typedef struct swgl_sim_info {
    char scheme[32];                 /* "roe" | "kp" | "sediment" */
    char backend[32];                /* as asked */
    char solver[320];                /* the backend's own description ("gpu (float, llvmpipe)") */
    char renderer[256];              /* the GL renderer, or "none (CPU)" */
    char precision[16];              /* "single" | "double" */
    char source[512];                /* the scenario file, or "case NAME" */
    int nx, ny;
    double dx, dy;
    double t_start, t_end;           /* 0 or the restart's time; the scenario's end */
    long cells;                      /* the computed cells (active ones) */
} swgl_sim_info;
SWGL_API swgl_status swgl_sim_get_info(const swgl_sim *sim, swgl_sim_info *info);

/* A number about the run so far, by name: "wall_s" (seconds of stepping), "steps", "dt_min",
 * "dt_max", "cells_per_s", "mass_initial", "mass_final" (after finish: swgl_sim_volume is the
 * current one), "tiles_fraction" (kp: the share of
 * tiles its last step computed; SWGL_ERR_ARG where unknown), "exchange_s" (over MPI ranks: this
 * rank's halo exchanges, seconds), "exchanges" (their number), and in them "exchange_read_s"
 * (the strips read from the backend: a GPU's read-back), "exchange_wire_s" (the sends and
 * receives), "exchange_write_s" (the strips written into the backend), and apart from them
 * "bound_s" (the step bound agreed over the ranks, every stage), "halo_bytes" (what this rank sends an exchange, on average),
 * "stage_s" and "advance_s" (the block's own stages, with a GPU's wait for the bound, and
 * advances), "agree_s" (the advances' status agreed); all 0 on one rank; "interrupted" (1 after a stop request).  SWGL_ERR_ARG for another. */
SWGL_API swgl_status swgl_sim_stat(const swgl_sim *sim, const char *name, double *value);
/* With desc.profile on a GPU backend: pass k's name (a static string), GPU seconds and count so
 * far; SWGL_ERR_ARG past the last pass (or without a profile).  Software renderers' timer
 * queries may be meaningless (llvmpipe: a compute dispatch reads 0). */
SWGL_API swgl_status swgl_sim_profile(swgl_sim *sim, int k, const char **name, double *seconds, long *count);

/* ---- drawing from the device ----------------------------------------------------------------- */

/* Where a field lives on the GPU, valid in the sim's GL context until the next step:
 *     value(i, j) = texel(texture, x0 + i, y0 + j)[component]
 *                 + scale2 * texel(texture2, x0 + i, y0 + j)[component2]    (texture2 != 0)
 * for i < nx, j < ny (j = 0 the south), texels RGBA32F (GL_TEXTURE_2D, nearest).  Cells
 * outside the domain hold no meaningful value: mask them with the "bed" field's NaN or the
 * scheme's own codes.  SWGL_ERR_ARG for a CPU backend or a double-precision state (use
 * swgl_sim_field). */
typedef struct swgl_device_field {
    unsigned texture;
    int component;
    unsigned texture2;
    int component2;
    double scale2;
    int width, height;               /* the textures' size (the grid and its ghost ring) */
    int x0, y0, nx, ny;              /* the grid's cells within them */
} swgl_device_field;
SWGL_API swgl_status swgl_sim_device_field(swgl_sim *sim, const char *name, swgl_device_field *f);

/* ---- the passes of one step made visible ------------------------------------------------------ */

/* swgl trace: on a GPU backend, the next step with every pass's input and output arrays
 * written as pictures into dir with dir/index.html; *passes gets their number. */
SWGL_API swgl_status swgl_sim_trace_step(swgl_sim *sim, const char *dir, int *passes);

/* ---- the library ------------------------------------------------------------------------------ */

SWGL_API const char *swgl_version(void);
/* The tuning keys of swgl_sim_desc.tune, a line each (name, type, default, help), written on f. */
SWGL_API void swgl_tune_keys(FILE *f);
/* Checks a tune text as swgl_sim_create would: SWGL_OK, or SWGL_ERR_ARG with a message naming
 * the key and what was expected (a command line can refuse it before any work). */
SWGL_API swgl_status swgl_tune_check(const char *tune);
/* Whether this build has a feature: "netcdf" (run.nc, restart), "mpi", "gl"; and
 * "clean-exit": 0 once a netCDF write failed in this process (HDF5's exit handlers then crash:
 * leave with _exit after fflush). */
SWGL_API int swgl_has(const char *feature);
/* Built-in cases: a NULL-terminated list of names; a case's scenario text and first comment
 * line (NULL if unknown). */
SWGL_API const char *const *swgl_case_names(void);
SWGL_API const char *swgl_case_text(const char *name);
SWGL_API const char *swgl_case_summary(const char *name);
/* The shared data folder (@data/ paths): SWGL_DATA, else the folder beside the source tree the
 * library was configured from (set SWGL_DATA for an installed library). */
SWGL_API const char *swgl_data_dir(void);

/* The CPU's model name ("Intel(R) Xeon(R) ...", from /proc/cpuinfo; "unknown CPU"), for reports. */
SWGL_API const char *swgl_cpu_model(void);
/* The GL devices and the renderer a sim would get (swgl info), written on f; 0, or 1 with
 * swgl_last_error() when no context can be had. */
SWGL_API int swgl_print_devices(FILE *f, int use_device, int device);
/* The copy ceiling the benches quote a pass's speed against, in GB/s: a float4 array of
 * SWGL_COPY_CEILING_N^2 (4096^2) copied into a second and back (ping-pong, 32 B a texel: one
 * read, one write), on a headless context of the device (a GL 4.3 one where it has one), as the
 * fragment copy pass, or with compute nonzero as the copy_cs compute kernel (16 x 16 work
 * groups; SWGL_ERR_NO_CONTEXT without GL 4.3); one copy as a warm-up, then the median of 5
 * batches of at least 0.2 s.  The same call gives swgl bench gpgpu's copy and copy-cs rows of
 * that size, so the two agree by construction. */
SWGL_API swgl_status swgl_copy_bandwidth(int use_device, int device, int compute, double *gbs);

/* Over MPI ranks (a build with Open MPI, started by mpirun): MPI_Init where the process was
 * started as one of several ranks (0), else nothing (0); -1 where it was but cannot take part
 * (a build without MPI, or MPI_Init failed).  Call once before any sim, and finalize after. */
SWGL_API int swgl_mpi_init(int *argc, char ***argv);
SWGL_API void swgl_mpi_finalize(void);
SWGL_API int swgl_mpi_rank(void);    /* 0 without MPI */
SWGL_API int swgl_mpi_size(void);    /* 1 without MPI */

/* A raster file read whole (ESRI ASCII .asc): values row j = 0 the southern one, NaN where
 * NODATA.  swgl_raster_free releases it. */
typedef struct swgl_raster {
    int nx, ny;
    double x0, y0, dx, dy;           /* south-west corner, cell sizes */
    double *v;
} swgl_raster;
SWGL_API swgl_status swgl_raster_read(const char *path, swgl_raster *r);
SWGL_API void swgl_raster_free(swgl_raster *r);

/* ---- benches ---------------------------------------------------------------------------------- */

/* The size of the copy ceiling (swgl_copy_bandwidth): N x N float4 texels. */
#define SWGL_COPY_CEILING_N 4096

/* swgl bench gpgpu: the ceilings of the texture layer itself on a headless context of the device
 * (a GL 4.3 one where it has one), written on out as a table: for N = nmin, 2 nmin, ... up to
 * nmax (and the largest texture), the time of a float4 copy pass, a 5-point stencil pass, a
 * 3-output MRT pass, a full sum reduction and, with GL 4.3, the copy as a compute kernel, in
 * ms, GB/s (the fewest bytes each must move), Mcells/s and as a share of the copy; then with
 * GL 4.3 what one dispatch costs however little it does.  Each time is the median of 5 batches
 * of at least batch seconds, each pass reading the last one's output; the copy rows of
 * SWGL_COPY_CEILING_N are swgl_copy_bandwidth's measurement itself (batches of 0.2 s), and a
 * line after the table gives that ceiling whatever the sizes.  SWGL_ERR_GL where a pass
 * failed (its row says why; the rest of the table is printed), another error where no context
 * or program could be had (nothing printed). */
SWGL_API swgl_status swgl_bench_layer(FILE *out, int use_device, int device, int nmin, int nmax, double batch);

/* Over MPI ranks: the largest v over the ranks, on every rank (collective: every rank calls
 * it alike); v itself on one rank.  (The benches: the slowest rank's time.) */
SWGL_API double swgl_mpi_reduce_max(double v);

#ifdef __cplusplus
}
#endif

#endif
