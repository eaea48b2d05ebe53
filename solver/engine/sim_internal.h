/* sim_internal.h — the simulation behind include/swgl.h, shared by the engine's files:
 *   sim.c          create (the stops, the restart, the context), destroy
 *   sim_step.c     run_to, step, observers, stop requests
 *   sim_info.c     time, grid, description, the run's numbers, the pass profile
 *   sim_outputs.c  the outputs as observers (grids, frames, run.nc, gauges, flood maps),
 *                  finish (summary.json, the comparison, the commit), the printed summary
 *   sim_fields.c   fields in and out, the volume, device fields
 *   sim_trace.c    the passes of one step as pictures (swgl trace)
 *   sim_lib.c      the library-wide calls
 * A sim holds one scheme instance (scheme.h) open from create to destroy; run_to hands the
 * time loop the stops between the current time and its target. */
#ifndef SWGL_SIM_INTERNAL_H
#define SWGL_SIM_INTERNAL_H

#include <signal.h>

#include "swgl.h"

#include "gpu_context.h"
#include "output.h"
#include "output_nc.h"
#include "scenario_scheme.h"
#include "scheme.h"
#include "scheme_mpi.h"
#include "swe_forcing.h"
#include "swe_maps.h"

#define SIM_MAX_OBSERVERS 32
#define SIM_BUILTIN_OBSERVERS 4

/* The events of the run's own observers: swgl.h's, and a gauge time of [output]
 * gauge_interval (not public).  A stop of the scenario is an output time, a gauge time or
 * both: its event bits. */
#define SIM_EVENT_GAUGE 8u
enum { STOP_OUTPUT = SWGL_EVENT_OUTPUT, STOP_GAUGE = SIM_EVENT_GAUGE };
/* which observers sim_notify calls */
enum { NOTIFY_ALL = 0, NOTIFY_PUBLIC = 1, NOTIFY_BUILTIN = 2 };

/* run.nc (output_nc.h): the state at the start, at every output time and at the end */
typedef struct nc_ctx {
    nc_out *nc;
    const scheme_setup *s;
    int sw;                          /* a shallow-water scheme: eta = bed + h is added */
    double *v[NC_OUT_MAX_FIELDS];    /* the fields' interiors */
    int native;                      /* the scheme has a native field (kp's surface) */
    double *nat;                     /* grid_size: its value from the backend, or NULL */
    double *nat_in;                  /* its interior */
    double last;                     /* the time of the last step appended */
    long steps;                      /* steps appended */
} nc_ctx;

/* gauges.csv */
typedef struct gauge_ctx {
    FILE *f;
    const scheme_setup *s;
    int n;
    size_t *cells;                   /* grid_at index of each gauge's cell */
    double *v[SCHEME_MAX_FIELDS];    /* sampled fields, n each */
    scheme_fields scratch;           /* get_state's, for backends without sample */
    double last;                     /* time of the last line written */
    char path[1100];
} gauge_ctx;
/* sim_gauges.c: gauges.csv opened (its header and the line at t0), a line from ghost-ring
 * fields f, a line sampled from the running instance, closed and freed */
swgl_status gauge_open(gauge_ctx *g, const scheme_desc *d, const scheme_setup *s, outdir *od, double t0);
swgl_status gauge_fields(gauge_ctx *g, double t, double *const *f);
swgl_status gauge_sample(gauge_ctx *g, double t, scheme_inst *in);
void gauge_free(gauge_ctx *g);

typedef struct sim_observer {
    unsigned events;
    swgl_observer_fn fn;
    void *user;
    int builtin;                     /* the run's own outputs (called with the sim as user) */
} sim_observer;

struct swgl_sim {
    /* what was asked */
    char *out_dir;                   /* NULL: no files */
    char *restart;
    enum backend backend, compare;
    int quiet, progress, profile;
    /* the problem */
    scenario sc;
    const scheme_desc *d;
    scheme_setup s;
    scheme_config cfg;
    swgl_tuning tune;                /* desc.tune over the defaults; cfg.tune points here */
    gpu_context *ctx;                /* owned, or NULL (CPU, or the caller's context) */
    int own_context;
    scheme_inst in;
    int open;                        /* in is open (until the finish) */
    char solver[480];                /* in's name, kept past its close */
    const char *precision;           /* in's precision ("single" | "double"), kept too */
    int alone;                       /* desc.mpi_alone: this rank's sim runs by itself */
    int idle;                        /* desc.mpi_alone on a rank other than 0: every call returns */
    volatile sig_atomic_t stop_req;
    /* where it is */
    double t0, t;                    /* the start (0, a restart's time), now */
    long steps;
    long span_base;                  /* the steps before the time loop's current call */
    int observer_stopped;            /* an observer's status ended the last run_to */
    timeloop_result r;               /* the spans so far, summed */
    double *landed;                  /* every time a span landed on, for the comparison */
    int n_landed, cap_landed, n_spans;
    int interrupted;                 /* a stop request (or signal) ended a run_to */
    int failed;                      /* a blow-up or error: no more stepping */
    int busy;                        /* stepping or finishing: an observer may not step, set
                                      * fields or finish the sim it observes */
    int counted_gpu;                 /* this sim holds the process's GPU (sim_gpu_sims) */
    int finished;
    /* the stops of the scenario: output times and gauge times in (t0, t_end], kinds */
    double *stops;
    unsigned char *kinds;
    int n_stops, next_stop;
    int end_pending;                 /* the output time at t_end reached: its files are the
                                      * finish's (as ever), or written when the run goes on */
    /* the state on the host, read back when asked (state_ok: it is the current one) */
    scheme_fields f;
    int state_ok;
    double *native0;                 /* a restart's native field (kp's surface), or NULL */
    /* outputs */
    outdir *od;
    char scratch[64];                /* over MPI ranks, a rank other than 0 writes here */
    int writer;                      /* this process writes the outputs (rank 0) */
    nc_ctx nc;
    gauge_ctx gauges;
    swe_maps maps;
    int has_maps;
    const swe_forcing *forcing;
    swe_account acc;
    int has_acc;
    scheme_mpi_times mpi_times;      /* over MPI ranks, this rank's, kept past the close */
    int has_mpi_times;
    long held[3];                    /* the held step's windows, those cut short, steps taken again (kept past the close) */
    double m0;                       /* the initial volume */
    /* where the process's time went (summary.json "process"): swgl_sim_create's wall, the
     * state and maps read back at the end, the files before summary.json (cpu_seconds) */
    double setup_s, read_back_s, write_s;
    /* the set-up's parts: the scenario and the scheme's problem, the GL context, the output
     * folder and the maps' start on the host, the backend (create and the first upload), the
     * maps on the device */
    double setup_part[5];
    sim_observer obs[SIM_MAX_OBSERVERS];
    int n_obs;
    /* the result of finish */
    double m1;
    int have_other;
    char other[480];
    timeloop_result ro;
    double l1[SCHEME_MAX_FIELDS], linf[SCHEME_MAX_FIELDS];
    swe_balance bal;
    char written[256];
    double t_planned;
};

static inline int is_gpu(enum backend b) { return b == BACKEND_GPU || b == BACKEND_GPU_COMPUTE; }

/* sim.c */
/* The outcome every rank agrees on (swgl_mpi_agree), or st itself for a sim alone. */
swgl_status sim_agree(const swgl_sim *sim, swgl_status st);
swgl_status sim_fail_if_finished(const swgl_sim *sim, const char *call);
/* The state on the host (sim->f), read back unless it is already the current one. */
swgl_status sim_state(swgl_sim *sim);
/* The observers of the events in mask, in order (the run's own outputs registered first),
 * each called with the lowest of its events in mask; which: NOTIFY_*. */
swgl_status sim_notify(swgl_sim *sim, unsigned mask, double t, int which);
/* The stops at the current time not yet taken, before the finish. */
swgl_status sim_catch_up_finish(swgl_sim *sim);
/* Registers one of the run's own outputs as an observer. */
swgl_status sim_observe_builtin(swgl_sim *sim, unsigned events, swgl_observer_fn fn);
long sim_active_cells(const scheme_setup *s);

/* sim_outputs.c */
swgl_status sim_outputs_open(swgl_sim *sim);
void sim_outputs_close(swgl_sim *sim);
/* once the backend is open: the flood maps kept by it, or on the host by an observer */
swgl_status sim_outputs_maps(swgl_sim *sim);

/* The GPU sims alive in this process (gpgpu's programs and vertex array are the process's:
 * one GPU sim at a time). */
int sim_gpu_sims(void);

/* sim_lib.c: the copy pass on the current context, GB/s */
double swgl_copy_gbs_current(void);

/* the held step's counts from the open instance into sim->held (sim_info.c) */
void sim_held_counts(swgl_sim *sim);

#endif
