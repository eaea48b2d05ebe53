/* scheme.h — the one interface every scheme x backend implements, and the one time loop
 * that drives them (timeloop.c).
 *
 * A scheme (roe, sediment, ...) is a scheme_desc: how to build its problem from a
 * scenario (scheme_setup: the grid, the cell codes, the initial state), which state
 * fields it has, what a run of it writes, and one scheme_backend per backend it runs on.
 * A backend (gpu fragment passes, cpu SSE + OpenMP, cpu-scalar double, ...) is a table of
 * functions over an opaque instance: a core of ten that every backend has, and optional
 * capability tables (forcing, device, probe, halo: NULL where it has none).  The core:
 *
 *   create      from the setup (the problem is checked by the scheme's one validation)
 *   set_state   / get_state: the state fields on the ghost-ring grid (swgl_grid.h)
 *   stage(k)    stage k of the time integrator, k = 0..stages-1: the right-hand side of
 *               the current stage state; returns through *dt_stable the largest step the
 *               stability (CFL) condition of that state allows (+inf: nothing moves)
 *   advance(k)  the stage's update with the dt the loop chose (never above stage 0's
 *               dt_stable); after the last stage the state is at t + dt
 *   destroy
 *
 * An Euler scheme has one stage; the TVD RK2 of Brodtkorb et al. (7) has two:
 *   stage 0:  Q* = Q^n + dt L(Q^n)          stage 1:  Q^{n+1} = (Q^n + Q* + dt L(Q*)) / 2
 * with dt fixed by stage 0's bound.  A scheme whose time step is fixed (sediment) returns
 * that step as its bound.
 *
 * The time loop (timeloop_run) asks stage 0 for the bound, takes dt = min(bound, what is
 * left to the next stop), runs the stages, and lands exactly on every stop (output times
 * and t_end).  A NaN bound, a non-positive one, or a bound that collapses (below
 * TIMELOOP_COLLAPSE x t_end: more than a billion steps to go) is a blow-up, reported as
 * SWGL_ERR_BLOWUP with the last good time.
 */
#ifndef SWGL_SCHEME_H
#define SWGL_SCHEME_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include "output.h"
#include "scenario.h"
#include "swgl_error.h"
#include "swgl_grid.h"
#include "swe.h"
#include "tuning.h"

/* BACKEND_GPU_COMPUTE: the GPU backend of each scheme with its passes built and run as
 * GL 4.3 compute passes from the same GLSL (gpu_set_compute_passes; issue 13); it has no
 * entry of its own in scheme_desc.backends. */
enum backend { BACKEND_GPU = 0, BACKEND_CPU = 1, BACKEND_CPU_SCALAR = 2, BACKEND_GPU_COMPUTE = 3, BACKEND_COUNT = 4,
               BACKEND_NONE = -1 };
enum precision_choice { PRECISION_AUTO = 0, PRECISION_SINGLE = 1, PRECISION_DOUBLE = 2 };

const char *backend_name(enum backend b);
/* "gpu", "cpu", "cpu-scalar", "gpu-compute" -> the backend; -1 if unknown. */
int backend_parse(const char *s, enum backend *b);

#define SCHEME_MAX_FIELDS 4

/* What run_to did between two stops. */
typedef struct timeloop_span {
    long steps;
    double t;                /* reached: the stop, or the last good time after a blow-up */
    double dt_min, dt_max;
    double bound;            /* after a blow-up: the bound that caused it */
    /* called (when not NULL) as the steps come back, for a progress line */
    void (*tick)(void *user, double t, long steps, double dt);
    void *user;
    /* the instance's own stop request (scheme_inst stop_flag), or NULL */
    const volatile sig_atomic_t *stop_flag;
    int clock_every;         /* a GPU backend's clock read back every N steps (0: the default) */
    int landed;              /* run_stops: the stops landed on, from the first (their values kept) */
} timeloop_span;

/* A stop asked for: by a signal (timeloop_request_stop) or the span's own flag. */
int timeloop_span_stopped(const timeloop_span *sp);

/* A scheme's problem built from a scenario. */
typedef struct scheme_setup {
    const scenario *sc;
    int nx, ny;
    double dx, dy;
    unsigned char *code;                  /* grid_size: enum cell_code (all ACTIVE inside for sediment) */
    double *init[SCHEME_MAX_FIELDS];      /* the initial state fields, ghost-ring layout */
    double t_end;                         /* s: where the run ends */
    void *problem;                        /* the scheme's own problem (swe_problem, sed_problem...) */
} scheme_setup;

/* What a backend needs beyond the setup. */
typedef struct scheme_config {
    enum backend backend;                 /* which backend (set by scheme_open) */
    const char *renderer;                 /* GL renderer, or NULL for the CPU backends */
    int has_fp64;                         /* the GL context has GL_ARB_gpu_shader_fp64 */
    enum precision_choice precision;      /* --precision */
    const swgl_tuning *tune;              /* the tuning choices (tuning.h); NULL: the defaults */
} scheme_config;

struct swe_maps;
struct scheme_device_field;

/* The optional capabilities of a backend, each a table of its own (NULL: the backend has
 * none of it); the core below is what every backend has. */

/* Boundary data, rain and sources (the shallow-water schemes): the time of the next
 * step's stage 0 and the next stop, set by the time loop before each step (boundary
 * data, rain and sources are evaluated at t, RK2's stage 1 at t + dt; rain waiting to
 * fall falls on the step that reaches the stop); the volumes that came in and went out
 * since the start (cpu_ref/swe.h swe_account, shaped by the problem's forcing). */
typedef struct scheme_forcing_ops {
    void (*set_time)(void *self, double t, double stop);
    swgl_status (*account)(void *self, swe_account *a);
} scheme_forcing_ops;

/* A backend whose state lives on a device (the GPU backends). */
typedef struct scheme_device_ops {
    /* The steps from t to stop (every stage of each) with the step chosen on the device
     * by the same rule as the time loop's (stage 0's bound, landing exactly on stop, a
     * bound below dt_floor or NaN is a blow-up), read back a few steps late so that the
     * pipeline never stalls; steps queued after the landing take dt = 0 and change
     * nothing.  stop_index numbers the stops of the run.  Fills the span's steps, dt_min,
     * dt_max; on a blow-up returns SWGL_ERR_BLOWUP with span->t the last good time (the
     * time loop words the message).  The time loop uses it unless the host clock is asked
     * for (the tuning's host_clock, an after_step callback) or host_clock says so. */
    swgl_status (*run_to)(void *self, double t, double stop, int stop_index, double dt_floor,
                          struct timeloop_span *span);
    /* The same from t through the stops stops[0..n-1] (numbered from stop_index), each landed
     * on in turn on the device's clock without the host, the state's values at the n_cells
     * cells (the gauges) kept on the device at each landing: sample_stop then gives stop
     * k's values (0 <= k < n, once the span has landed on it) as the probe's sample gives
     * the state's.  span->t is the last stop landed on.  The time loop uses it for a run of
     * stops at which only the gauges are sampled (timeloop_opts sample_only), where
     * can_run_stops says yes (NULL: never). */
    swgl_status (*run_stops)(void *self, double t, const double *stops, int n, int stop_index, double dt_floor,
                             const size_t *cells, int n_cells, struct timeloop_span *span);
    swgl_status (*sample_stop)(void *self, int k, const size_t *cells, int n, double *const *out);
    int (*can_run_stops)(const void *self);
    /* Whether the instance needs the time loop's host clock (stage and advance) rather
     * than run_to, as a GPU backend does where the problem has boundary data to account
     * (NULL: never). */
    int (*host_clock)(const void *self);
    /* The flood maps (swe_maps.h) kept by the backend, from their state at the start
     * (maps_start: m's start, its arrays made only where the backend needs them,
     * swe_maps_make), updated after every step, read back at the end (maps_read, which
     * makes m's arrays); without them the run driver updates the maps from the state after
     * each step. */
    swgl_status (*maps_start)(void *self, struct swe_maps *m);
    swgl_status (*maps_read)(void *self, struct swe_maps *m);
    /* (the public API, swgl.h) where a state field lives on the device (its decoding as
     * swgl_device_field: value = tex[comp] + scale2 tex2[comp2] at the cell's texel, x0 =
     * y0 = 1 past the ghost ring), valid until the next step; SWGL_ERR_ARG where the
     * backend cannot say (double precision, an unknown name). */
    swgl_status (*device_field)(void *self, const char *name, struct scheme_device_field *f);
} scheme_device_ops;

/* Reads and measurements beyond get_state. */
typedef struct scheme_probe_ops {
    /* The state fields at n cells (grid_at indices) into out[field][m], without the whole
     * state (gauges); scheme_sample falls back to get_state where NULL. */
    swgl_status (*sample)(void *self, const size_t *cells, int n, double *const *out);
    /* A field of the backend's own state that get_state's fields do not give back exactly
     * (kp: its surface w, of which h = w - B loses bits), grid_size; set after set_state,
     * so that a restart continues bit for bit.  Both or neither. */
    swgl_status (*get_native)(void *self, double *f);
    swgl_status (*set_native)(void *self, const double *f);
    /* (benches) GL timer queries around every pass from now on (profile), pass k's name,
     * GPU seconds and count so far (profile_pass: SWGL_ERR_ARG past the last), the share
     * of tiles the last step computed (tiles: total 0 where unknown).  Each may be NULL. */
    void (*profile)(void *self, int on);
    swgl_status (*profile_pass)(void *self, int k, const char **name, double *seconds, long *count);
    void (*tiles)(void *self, long *computed, long *total);
} scheme_probe_ops;

/* A run over MPI ranks (scheme_mpi.h). */
typedef struct scheme_halo_ops {
    /* The state the next stage 0 reads, cell_bytes(self) bytes a cell, of the w x h ghost-ring
     * cells from (x, y) (grid_at coordinates) into buf (get; rows from the south) or from
     * buf into the state (set): bytes got from one instance and set into another of the
     * same kind are the same bits.  The bytes are the backend's to lay out: a CPU backend's
     * doubles, a GPU backend's texels as stored (one or two 16-byte texels a cell: roe's and
     * kp's double states keep a cell in two uint4 members, sent member after member), so a
     * strip goes to the other rank without widening.  A
     * backend with these honours the problem's owned cells (swe_problem own) in its bound. */
    int (*cell_bytes)(const void *self);
    swgl_status (*get)(void *self, int x, int y, int w, int h, void *buf);
    swgl_status (*set)(void *self, int x, int y, int w, int h, const void *buf);
    /* Optional (a backend whose work runs on a device): stage 0 with the halo exchange
     * going on while the device computes the cells that read no halo.  overlap: how far
     * from a cell stage 0 reads (its stencil's reach, cells), 0 where this instance cannot
     * (with `strips` read-backs in flight at once of up to max_cells cells each: the
     * backend makes room for them, or says 0 where it has too few; unless `forced`, also 0
     * where its stage over rectangles is slower than its whole stage by more than the
     * overlap gains, as measured: docs/mpi.md); request queues a read-back of a rectangle as get gives it, and fetch takes
     * the oldest one queued (waiting for that copy alone); stage_rects evaluates stage k
     * on n rectangles (grid_at coordinates x, y, w, h) only: with bound NULL it queues
     * them and returns at once, else it then returns the bound of the whole block, as
     * stage does, once every cell of the block has been evaluated. */
    int (*overlap)(void *self, int strips, long max_cells, int forced);
    swgl_status (*request)(void *self, int x, int y, int w, int h);
    swgl_status (*fetch)(void *self, void *buf);
    /* Optional, with request and fetch: room for `strips` read-backs in flight of up to
     * max_cells cells each (SWGL_ERR_ARG where there are too few); the MPI wrapper then asks
     * for the next exchange's strips right after the step before it (scheme_mpi_prefetch) */
    swgl_status (*room)(void *self, int strips, long max_cells);
    swgl_status (*stage_rects)(void *self, int k, const int (*rects)[4], int n, double *bound);
    /* Optional, with stage_rects: the tiling (tile[0] x tile[1] cells from the array's corner,
     * grid_at coordinates) on which stage_rects keeps the whole stage's form: rectangles whose
     * corners lie on it are evaluated as the whole stage is (a GPU kernel's work groups and
     * their minima of the bound), others at more cost (each cell's bound reduced apart).
     * Without it, 1 x 1. */
    void (*tiling)(const void *self, int tile[2]);
    /* Optional, with request and fetch: the strips without copies where the device's buffers
     * are mapped in the host's memory.  view: fetch's bytes in place (*p, valid until that
     * read-back's buffer is requested again: no request while a send from it is in flight),
     * else copied into fallback and *p = fallback; area: *p = room for `bytes` to receive a strip into and pass to set (which
     * then takes it without a copy; the room is the caller's until then), or NULL where there
     * is none (use a buffer of your own). */
    swgl_status (*view)(void *self, void *fallback, const void **p);
    swgl_status (*area)(void *self, long bytes, void **p);
} scheme_halo_ops;

/* The held time step ([run] step_hold, timeloop.c) without a read-back a step: a backend
 * whose state lives on a device keeps each stage's bound there and goes back to a copy of
 * its state where a held step proves too long.  able: whether this instance can (0: the
 * time loop reads each step's bound, as without these); stage_quiet: stage k as stage
 * does, its bound kept on the device as slot `slot` (0..SCHEME_HOLD_SLOTS-1) instead of
 * read back (RK2's later stages: what stage returns for them, kp's +inf: it reduces none);
 * bounds: slots 0..n-1 read back at once, as stage would have returned them (n = 0: none,
 * over MPI ranks the errors kept since agreed); save: the state (with
 * what a step changes: maps, the clock) kept on the device, queued; restore: back to the
 * state saved. */
#define SCHEME_HOLD_SLOTS 128   /* SCENARIO_STEP_HOLD_MAX steps of up to 2 stages */
typedef struct scheme_hold_ops {
    int (*able)(const void *self);
    swgl_status (*stage_quiet)(void *self, int k, int slot);
    swgl_status (*bounds)(void *self, int n, double *bound);
    swgl_status (*save)(void *self);
    swgl_status (*restore)(void *self);
} scheme_hold_ops;

/* A backend: the core every one has (the first ten), then its capability tables. */
typedef struct scheme_backend {
    enum backend backend;
    swgl_status (*create)(const scheme_setup *s, const scheme_config *cfg, void **self);
    void (*destroy)(void *self);                                     /* NULL is fine */
    swgl_status (*set_state)(void *self, double *const *fields);
    swgl_status (*get_state)(void *self, double *const *fields);
    swgl_status (*stage)(void *self, int k, double *dt_stable);
    swgl_status (*advance)(void *self, int k, double dt);
    int (*stages)(const void *self);                                 /* 1: Euler, 2: RK2 */
    void (*describe)(const void *self, char *name, size_t len);      /* "gpu (float, llvmpipe)" */
    const char *(*precision)(const void *self);                      /* "single" | "double" */
    void (*finish)(void *self);             /* wait for queued work (GPU), may be NULL */
    const scheme_forcing_ops *forcing;
    const scheme_device_ops *device;
    const scheme_probe_ops *probe;
    const scheme_halo_ops *halo;
    const scheme_hold_ops *hold;
} scheme_backend;

typedef struct scheme_device_field {
    unsigned texture, texture2;
    int component, component2;
    double scale2;
    int width, height;
} scheme_device_field;

typedef struct scheme_desc {
    const char *name;                                 /* "roe" */
    int n_fields;
    const char *fields[SCHEME_MAX_FIELDS];            /* state fields: "h", "qx", "qy" */
    const char *cell_word;                            /* "cells" | "points" (for messages) */
    swgl_status (*setup)(const scenario *sc, scheme_setup *s);
    void (*setup_free)(scheme_setup *s);
    /* The state's grids at time t (suffix "" for the final state, "_t12.5" for a
     * snapshot) into the output folder. */
    swgl_status (*write_grids)(const scheme_setup *s, double *const *f, outdir *od, const char *suffix);
    /* The final state's pictures and extra files; *written gets their names. */
    swgl_status (*write_final)(const scheme_setup *s, double *const *f, outdir *od, const char *backend,
                               char *written, size_t len);
    /* A picture of the state at time t ([output] frames), named with the suffix
     * ("_t900" -> depth_t900.png); its colour scale is the initial state's, so that the
     * frames of a run can be paged through.  May be NULL. */
    swgl_status (*write_frame)(const scheme_setup *s, double *const *f, outdir *od, const char *suffix, double t);
    /* The scheme's own summary members (ranges, parameters) and its own summary lines. */
    void (*summary)(const scheme_setup *s, double *const *f, json_writer *w);
    void (*print)(const scheme_setup *s, double *const *f, FILE *out);
    /* The speed a time-step bound stands for: a bound dt means a wave speed of at least
     * speed_scale / dt (m/s), for the blow-up message; NULL when the step is fixed. */
    double (*speed_scale)(const scheme_setup *s);
    /* A line about the run for stderr ("4000 steps of 1.2 s, conservative form"), may be NULL. */
    void (*describe_run)(const scheme_setup *s, char *line, size_t len);
    /* The boundary data, rain and sources of the setup (NULL: none to account), whose
     * shape the backends' accounts have; may be NULL. */
    const swe_forcing *(*forcing)(const scheme_setup *s);
    /* Optional (a run over MPI ranks, scheme_mpi.h): the setup of the block of interior
     * cells win = (x0, y0, x1, y1) (0-based, half-open) of the setup g, with its ghost ring
     * from g's cells around it (their codes where not active, else a wall: what lies
     * beyond a rank's halo), whose time-step bound counts only the cells own (the same
     * frame as win), into l (setup_free frees it); SWGL_ERR_ARG where the setup has what a
     * block cannot take yet (boundary data, rain, sources).  halo: the rows of cells
     * around a block that a step (all its stages) reads, so that one exchange a step
     * keeps the owned cells exact. */
    swgl_status (*window)(const scheme_setup *g, const int win[4], const int own[4], scheme_setup *l);
    int (*halo)(const scheme_setup *s);
    /* Optional: the name of the backends' native field (scheme_probe_ops get_native: kp's
     * "surface"), kept in run.nc so that a restart continues bit for bit; NULL: none. */
    const char *native;
    const scheme_backend *backends[BACKEND_COUNT];
} scheme_desc;

/* For the schemes' own files: starts a setup from the scenario's grid (zeroed, with
 * sc, nx, ny, dx, dy), a zeroed problem of problem_size bytes, n_fields zeroed initial
 * fields and, when with_code, the cell codes (grid_codes of the mask and boundary).
 * SWGL_ERR_NO_MEMORY after releasing what it made. */
swgl_status scheme_setup_begin(scheme_setup *s, const scenario *sc, size_t problem_size, int n_fields,
                               int with_code);
/* For the schemes' own window (scheme_desc): starts l as the block win of g (scheme_desc
 * window): sc, dx, dy, t_end, a zeroed problem of problem_size bytes, the codes (g's around
 * the block where not active, else CELL_WALL) and g's initial fields on the block and its
 * ring.  SWGL_ERR_NO_MEMORY after releasing what it made. */
swgl_status scheme_window_begin(const scheme_setup *g, const int win[4], size_t problem_size, int n_fields,
                                scheme_setup *l);
/* The block win of a ghost-ring field of g's grid (gnx wide) with its ring, into dst (a
 * ghost-ring field of the block's grid). */
void scheme_window_field(const double *src, int gnx, const int win[4], double *dst);

/* For the schemes' own files: frees what every setup holds (code, init fields) and
 * zeroes it; a scheme's setup_free frees its problem, then calls this. */
void scheme_setup_release(scheme_setup *s);
/* stages() of an Euler (one-stage) backend. */
int scheme_one_stage(const void *self);
/* cell_bytes() of a halo (scheme_halo_ops) of 2 or 3 doubles, or one 16-byte texel, a cell */
int scheme_2_doubles(const void *self);
int scheme_3_doubles(const void *self);
int scheme_16_bytes(const void *self);

/* The scheme of that name (a scenario's [run] scheme: sc->scheme->name); NULL (with a
 * message) if there is none (registry.c). */
const scheme_desc *scheme_find(const char *name);

/* An instance: a scheme on one backend. */
typedef struct scheme_inst {
    const scheme_desc *desc;
    const scheme_backend *be;
    void *self;
    char name[480];
    double speed_scale;      /* desc->speed_scale of the setup (0: none) */
    long cells;              /* the setup's computed cells (active ones; all for sediment) */
    /* Called (when not NULL) after every step with the time reached (gauges sampled every
     * step); the time loop then runs the steps on the host clock. */
    swgl_status (*after_step)(void *user, double t, struct scheme_inst *in);
    void *after_step_user;
    double t_start;          /* the time the run starts from (0; a restart's time) */
    /* (when not NULL) nonzero asks the time loop to stop after its step, as a signal does
     * (swgl_sim_request_stop: this instance alone) */
    const volatile sig_atomic_t *stop_flag;
    int host_clock;          /* nonzero: the time step read back every step (no run_to); scheme_open
                              * sets it from the config's tune host_clock */
    int clock_every;         /* the config's tune clock_every (run_to's read-backs) */
    int clock_gauges;        /* the config's tune clock_gauges: run_stops where the backend offers it */
    int replay;              /* k + 1: scheme_sample gives stop k of the last run_stops (the time loop); 0 none */
    long steps_run;          /* the steps of the time loop's call so far (set before after_step
                              * and the stop callback) */
    int compute_prev;        /* a GPU instance: 1 + its pass mode (0 fragment, 1 compute); 0 otherwise */
    /* the scenario's time-step rule ([run] step_hold, step_margin; timeloop.c): a step
     * held for up to `hold` steps (1: each step's own bound), margin x the bound */
    int hold;
    double margin;
    long held_windows;       /* the held windows begun */
    long held_cut;           /* the windows cut short by a step's own bound */
    long held_redone;        /* the steps taken again after a window on the device went back */
    double held_dt;          /* the window's step */
    int held_n;              /* the steps left in it */
} scheme_inst;

/* The state fields of an instance at n cells (grid_at indices) into out[field][m]: the
 * backend's sample, else get_state into scratch (grid_size fields of the scheme, which
 * the caller provides). */
swgl_status scheme_sample(scheme_inst *in, const size_t *cells, int n, double *const *scratch, double *const *out);

/* Creates the backend's instance and sets the setup's initial state; over several MPI
 * ranks, the instance of the whole grid whose blocks the ranks hold (scheme_mpi.h). */
swgl_status scheme_open(scheme_inst *in, const scheme_desc *d, enum backend b, const scheme_setup *s,
                        const scheme_config *cfg);
/* The same on this process alone, whatever the ranks (scheme_mpi.c opens a rank's block so). */
swgl_status scheme_open_block(scheme_inst *in, const scheme_desc *d, enum backend b, const scheme_setup *s,
                              const scheme_config *cfg);
void scheme_close(scheme_inst *in);                   /* a zeroed or closed instance is fine */

/* Fields of a scheme on the ghost-ring grid. */
typedef struct scheme_fields {
    int n;
    double *f[SCHEME_MAX_FIELDS];
} scheme_fields;
swgl_status scheme_fields_alloc(scheme_fields *f, const scheme_desc *d, int nx, int ny);
void scheme_fields_free(scheme_fields *f);

/* ---- the time loop ------------------------------------------------------------------ */

#define TIMELOOP_COLLAPSE 1e-9

/* The run's progress sampled as it goes (each 1/TIMELOOP_SAMPLES of the span, and the
 * start): simulated time, seconds of stepping and steps, for the speed over simulated time
 * (performance.csv; Brodtkorb et al. 2011, Figure 11). */
#define TIMELOOP_SAMPLES 200
typedef struct timeloop_sample {
    double t, wall;
    long steps;
} timeloop_sample;

typedef struct timeloop_result {
    int n_samples;
    timeloop_sample samples[TIMELOOP_SAMPLES + 2];
    long steps;
    double t;            /* reached (the last good time after a blow-up) */
    double wall;         /* s of stepping (work finished), without the stop callbacks */
    double dt_min, dt_max;
    const char *precision;   /* the backend's, filled by the caller that closes it */
} timeloop_result;

/* A request to stop (SIGINT, SIGTERM: the program's handler calls it; safe in a signal
 * handler).  The loop then stops after the step it is in with SWGL_ERR_INTERRUPTED
 * naming the time reached. */
void timeloop_request_stop(int signal_number);
int timeloop_stop_requested(void);   /* the signal number, or 0 */

/* Called at every stop before the last with the time; the instance holds the state. */
typedef swgl_status (*timeloop_stop_fn)(void *user, double t, scheme_inst *in);

/* Runs from t = in->t_start (0, or a restart's time) through the n_stops increasing times
 * (each after t_start; the last is t_end), landing
 * exactly on each.  progress: TIMELOOP_PROGRESS_TTY a line on stderr refreshed in place
 * at most 4 times a second, TIMELOOP_PROGRESS_LINES a line every ~10 % of t_end (stderr
 * is not a terminal), 0 none; each with the simulated time, the percent, steps/s,
 * Mcells/s and the time left.  Returns SWGL_OK, or the error (SWGL_ERR_BLOWUP naming the
 * time and the step). */
enum { TIMELOOP_PROGRESS_TTY = 1, TIMELOOP_PROGRESS_LINES = 2 };
swgl_status timeloop_run(scheme_inst *in, const double *stops, int n_stops, int progress, timeloop_stop_fn fn,
                         void *user, timeloop_result *r);
/* The same for a part of a run (swgl_sim_run_to): t_end the run's end (the blow-up floor
 * TIMELOOP_COLLAPSE x t_end, the progress line's 100 %), stop_base the first stop's number
 * among the run's stops; fn is called at the stops before the last, as timeloop_run does. */
typedef struct timeloop_opts {
    double t_end;
    int stop_base;
    long max_steps;          /* > 0: at most that many steps (on the host's clock), then return */
    /* (NULL: none) sample_only[s]: at stop s the stop callback only samples the n_cells
     * cells (scheme_sample: the gauges), so a run of such stops may go to the device at
     * once (scheme_device_ops run_stops), the callback called for each after it */
    const unsigned char *sample_only;
    const size_t *cells;
    int n_cells;
} timeloop_opts;
swgl_status timeloop_run_opts(scheme_inst *in, const double *stops, int n_stops, int progress, timeloop_stop_fn fn,
                              void *user, timeloop_result *r, const timeloop_opts *o);

#endif
