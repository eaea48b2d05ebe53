/* run.c — `swgl run`: the one run driver of every scheme and backend (scheme.h).
 *
 * Builds the scheme's problem from the scenario, runs it through the time loop on the
 * chosen backend (writing the state's grids at every output time), and with --compare
 * runs the same problem on a second backend; then writes summary.json, the final grids,
 * the scheme's pictures, and prints the summary.  Every file goes through the output
 * folder's staging, so a failed run leaves the folder as it was.
 *
 * Comparison, for every state field f over the active interior cells, b the --compare
 * backend's result:   l1_rel_f = sum |a - b| / sum |b|,   linf_rel_f = max |a - b| / max |b|
 * (the plain difference where b is 0 everywhere). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_context.h"
#include "output.h"
#include "output_nc.h"
#include "run.h"
#include "swe_forcing.h"
#include "swe_maps.h"

#include <signal.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scheme_mpi.h"

/* SIGINT, SIGTERM: the time loop stops after its step, the run writes the state reached
 * to every output as its last (summary.json: "interrupted"), and the program exits with
 * 128 + the signal's number. */
static void on_signal(int sig) { timeloop_request_stop(sig); }

typedef struct norms { double l1[SCHEME_MAX_FIELDS], linf[SCHEME_MAX_FIELDS]; } norms;

static norms difference(const scheme_setup *s, const scheme_fields *a, const scheme_fields *b)
{
    norms r;
    for (int f = 0; f < a->n; f++) {
        double d1 = 0, n1 = 0, dm = 0, nm = 0;
        for (int j = 0; j < s->ny; j++)
            for (int i = 0; i < s->nx; i++) {
                size_t k = grid_in(s->nx, i, j);
                if (s->code && s->code[k] != CELL_ACTIVE) continue;
                double e = fabs(a->f[f][k] - b->f[f][k]);
                d1 += e;
                n1 += fabs(b->f[f][k]);
                dm = fmax(dm, e);
                nm = fmax(nm, fabs(b->f[f][k]));
            }
        r.l1[f] = n1 > 0 ? d1 / n1 : d1;
        r.linf[f] = nm > 0 ? dm / nm : dm;
    }
    return r;
}

/* run.nc (output_nc.h): the state at t = 0, at every output time and at the end; the
 * shallow-water schemes' h, eta, qx, qy over their bed, the sediment scheme's h and s. */
typedef struct nc_ctx {
    nc_out *nc;
    const scheme_setup *s;
    int sw;                          /* a shallow-water scheme: eta = bed + h is added */
    int n;
    double *v[NC_OUT_MAX_FIELDS];    /* the fields' interiors */
    int native;                      /* the scheme has a native field (kp's surface) */
    double *nat;                     /* grid_size: its value from the backend, or NULL */
    double *nat_in;                  /* its interior */
    double last;                     /* the time of the last step appended */
    long steps;                      /* steps appended */
} nc_ctx;

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
    /* a time already appended (a run stopped by a signal at a stop) is not appended twice:
     * the time coordinate stays increasing */
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

/* writer 0 (a rank other than 0): the buffers only, no file (nc_step then writes
 * nothing), so that the ranks gather the native field alike */
static swgl_status nc_open(nc_ctx *c, const scheme_setup *s, outdir *od, int writer)
{
    const scenario *sc = s->sc;
    memset(c, 0, sizeof *c);
    c->s = s;
    c->sw = sc->scheme != SCHEME_SEDIMENT;
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
    d.n_state = s->sc->scheme == SCHEME_SEDIMENT ? 2 : 3;   /* the scheme's state fields, for --restart */
    for (int q = 0; q < d.n_state; q++) d.state[q] = q == 0 ? "h" : c->sw ? (q == 1 ? "qx" : "qy") : "s";
    c->native = sc->scheme == SCHEME_KP;   /* kp's surface w, exact (cpu_ref/kp_cpu.h kp_cpu_get_surface) */
    if (c->native) {
        d.state[d.n_state++] = "surface";
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

/* gauges.csv ([gauges], [output] gauge_interval): per gauge h, eta, u, v at t = 0, then
 * after every step, or at every multiple of the interval and at the end. */
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

static void gauge_free(gauge_ctx *g)
{
    if (g->f) fclose(g->f);
    free(g->cells);
    for (int q = 0; q < SCHEME_MAX_FIELDS; q++) free(g->v[q]);
    scheme_fields_free(&g->scratch);
    memset(g, 0, sizeof *g);
}

/* one line from the sampled fields v[0..2] = h, qx, qy */
static swgl_status gauge_line(gauge_ctx *g, double t)
{
    const scenario *sc = g->s->sc;
    fprintf(g->f, "%.9g", t);
    for (int m = 0; m < g->n; m++) {
        double h = g->v[0][m], bed = sc->bed[(size_t)sc->gauges[m].j * (size_t)sc->nx + (size_t)sc->gauges[m].i];
        int wet = h > sc->h_dry;
        fprintf(g->f, ",%.9g,%.9g,%.9g,%.9g", h, bed + h, wet ? g->v[1][m] / h : 0.0, wet ? g->v[2][m] / h : 0.0);
    }
    fputc('\n', g->f);
    g->last = t;
    if (ferror(g->f)) return swgl_fail(SWGL_ERR_IO, "%s: write failed", g->path);
    return SWGL_OK;
}

/* a line from ghost-ring fields (the initial state, the final one) */
static swgl_status gauge_fields(gauge_ctx *g, double t, double *const *f)
{
    if (!g->f) return SWGL_OK;
    for (int q = 0; q < 3; q++)
        for (int m = 0; m < g->n; m++) g->v[q][m] = f[q][g->cells[m]];
    return gauge_line(g, t);
}

/* a line from the running instance */
static swgl_status gauge_sample(gauge_ctx *g, double t, scheme_inst *in)
{
    if (!g->f || t == g->last) return SWGL_OK;
    swgl_status st = scheme_sample(in, g->cells, g->n, g->scratch.f, g->v);
    return st == SWGL_OK ? gauge_line(g, t) : st;
}

static swgl_status gauge_open(gauge_ctx *g, const scheme_desc *d, const scheme_setup *s, outdir *od, double t0)
{
    const scenario *sc = s->sc;
    memset(g, 0, sizeof *g);
    g->s = s;
    g->n = sc->n_gauges;
    g->last = -1;
    if (!g->n) return SWGL_OK;
    snprintf(g->path, sizeof g->path, "%s", outdir_path(od, "gauges.csv"));
    if (!(g->cells = malloc((size_t)g->n * sizeof *g->cells))) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    for (int q = 0; q < SCHEME_MAX_FIELDS; q++)
        if (!(g->v[q] = calloc((size_t)g->n, sizeof(double)))) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    swgl_status st = scheme_fields_alloc(&g->scratch, d, s->nx, s->ny);
    if (st != SWGL_OK) return st;
    for (int m = 0; m < g->n; m++) g->cells[m] = grid_in(s->nx, sc->gauges[m].i, sc->gauges[m].j);
    if (!(g->f = fopen(g->path, "w"))) return swgl_fail(SWGL_ERR_IO, "%s: cannot write", g->path);
    fprintf(g->f, "time_s");
    for (int m = 0; m < g->n; m++)
        fprintf(g->f, ",%s_h_m,%s_eta_m,%s_u_ms,%s_v_ms", sc->gauges[m].name, sc->gauges[m].name, sc->gauges[m].name,
                sc->gauges[m].name);
    fputc('\n', g->f);
    return gauge_fields(g, t0, s->init);
}

/* The flood maps as .asc files and, with run.nc, as its constant fields. */
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

typedef struct snap_ctx {
    const scheme_setup *s;
    scheme_fields *f;
    outdir *od;
    nc_ctx *nc;
    gauge_ctx *gauges;
    const unsigned char *kind;   /* per stop: 1 an output time, 2 a gauge time (bits) */
    int next;                    /* the stop the next call is at */
    swe_maps *maps;              /* the flood maps, or NULL */
    int gauges_every_step, maps_on_host;
    int have_native;             /* nc->nat holds the final native field */
    int writer;                  /* this process writes the outputs (rank 0 over MPI ranks) */
} snap_ctx;

/* After every step (scheme_inst.after_step): the gauges sampled every step, and the flood
 * maps of a backend that does not keep them (the CPU backends: from the state). */
static swgl_status after_step(void *user, double t, scheme_inst *in)
{
    snap_ctx *c = user;
    swgl_status st = c->gauges_every_step ? gauge_sample(c->gauges, t, in) : SWGL_OK;
    if (st == SWGL_OK && c->maps_on_host && (st = in->be->get_state(in->self, c->f->f)) == SWGL_OK)
        swe_maps_update(c->maps, c->s->code, c->f->f, t);
    return swgl_mpi_agree(st);   /* (a gauge line that failed on one rank stops them all) */
}

/* "_tT" with T the shortest decimal that reads back as t, so that two output times
 * never share a file name */
static void time_suffix(double t, char *suffix, size_t len)
{
    for (int prec = 6; prec <= 17; prec++) {
        snprintf(suffix, len, "_t%.*g", prec, t);
        if (strtod(suffix + 2, NULL) == t) return;
    }
}

/* the state at an output time: its grids, named NAME_tT.asc */
static swgl_status on_stop_rank(void *user, double t, scheme_inst *in);
/* (over MPI ranks every rank stops here alike: the outcome is agreed, so that a rank whose
 * writing failed stops them all) */
static swgl_status on_stop(void *user, double t, scheme_inst *in) { return swgl_mpi_agree(on_stop_rank(user, t, in)); }

static swgl_status on_stop_rank(void *user, double t, scheme_inst *in)
{
    snap_ctx *c = user;
    int kind = c->kind[c->next++];
    swgl_status sg = kind & 2 ? gauge_sample(c->gauges, t, in) : SWGL_OK;
    if (sg != SWGL_OK || !(kind & 1)) return sg;
    char suffix[64];
    time_suffix(t, suffix, sizeof suffix);
    swgl_status st = in->be->get_state(in->self, c->f->f);   /* (every rank: it gathers) */
    if (st == SWGL_OK && c->writer) st = in->desc->write_grids(c->s, c->f->f, c->od, suffix);
    if (st == SWGL_OK && c->writer && c->s->sc->frames && in->desc->write_frame)
        st = in->desc->write_frame(c->s, c->f->f, c->od, suffix, t);
    const double *nat = NULL;
    if (st == SWGL_OK && c->nc && c->nc->native && in->be->get_native &&
        (st = in->be->get_native(in->self, c->nc->nat)) == SWGL_OK)
        nat = c->nc->nat;
    return st == SWGL_OK ? nc_step(c->nc, t, c->f->f, nat) : st;
}

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

static long active_cells(const scheme_setup *s)
{
    if (!s->code) return (long)s->nx * s->ny;
    long a = 0;
    for (size_t k = 0; k < grid_size(s->nx, s->ny); k++) a += s->code[k] == CELL_ACTIVE;
    return a;
}

/* performance.csv: the speed over simulated time (Brodtkorb et al. 2011, Figure 11), from
 * the time loop's samples: between two samples, the cell updates of the whole grid (dry
 * and inactive cells included, as the paper counts them) per second of stepping. */
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

/* One backend from t = 0 to t_end; the final state in out. */
static swgl_status run_backend(const scheme_desc *d, const scheme_setup *s, const scheme_config *cfg, enum backend b,
                               double t0, const double *native0, const double *stops, int nstops, int progress,
                               snap_ctx *snap, scheme_fields *out, timeloop_result *r, char *name, size_t namelen,
                               swe_account *acc, int *has_acc)
{
    scheme_inst in;
    swgl_status st = scheme_open(&in, d, b, s, cfg);
    if (st != SWGL_OK) return st;
    in.t_start = t0;
    if (native0 && in.be->set_native && (st = in.be->set_native(in.self, native0)) != SWGL_OK) {   /* a restart */
        scheme_close(&in);
        return st;
    }
    snprintf(name, namelen, "%s", in.name);
    if (snap) {
        snap->gauges_every_step = snap->gauges && snap->gauges->f && !(s->sc->gauge_interval > 0);
        snap->maps_on_host = 0;
        if (snap->maps && in.be->maps_start) st = in.be->maps_start(in.self, snap->maps);   /* kept by the GPU */
        else if (snap->maps) snap->maps_on_host = 1;
        if (st != SWGL_OK) {
            scheme_close(&in);
            return st;
        }
        if (snap->gauges_every_step || snap->maps_on_host) {
            in.after_step = after_step;
            in.after_step_user = snap;
        }
    }
    if (snap && progress >= 0) {
        char line[256] = "";
        if (d->describe_run) d->describe_run(s, line, sizeof line);
        fprintf(stderr, "swgl: %s, %dx%d %s, to t = %g s%s%s on %s\n", s->sc->source, s->nx, s->ny, d->cell_word,
                    s->t_end, line[0] ? ", " : "", line, in.name);
    }
    st = timeloop_run(&in, stops, nstops, progress > 0 ? progress : 0, snap ? on_stop : NULL, snap, r);
    r->precision = in.be->precision(in.self);
    /* stopped by a signal: the state reached is still the run's, to be written */
    int kept = st == SWGL_OK || st == SWGL_ERR_INTERRUPTED;
    swgl_status st2 = kept ? in.be->get_state(in.self, out->f) : SWGL_OK;
    *has_acc = 0;
    if (kept && st2 == SWGL_OK && snap && snap->maps && in.be->maps_read) st2 = in.be->maps_read(in.self, snap->maps);
    if (kept && st2 == SWGL_OK && snap && snap->nc && snap->nc->nat && in.be->get_native &&
        (st2 = in.be->get_native(in.self, snap->nc->nat)) == SWGL_OK)
        snap->have_native = 1;
    if (kept && st2 == SWGL_OK && acc && in.be->account) {
        st2 = in.be->account(in.self, acc);
        *has_acc = st2 == SWGL_OK;
    }
    if (st2 != SWGL_OK) st = st2;
    scheme_close(&in);
    return st;
}

/* --restart FILE [--restart-time T]: the state of a run.nc (output_nc.h) as the initial
 * state of the setup, and its time as the run's start. */
static swgl_status load_restart(scheme_setup *s, const run_options *opt, double *t0, double **native)
{
    const scenario *sc = s->sc;
    int sw = sc->scheme != SCHEME_SEDIMENT, n = sw ? 3 : 2, exact = 0;
    const char *names[3] = {"h", sw ? "qx" : "s", "qy"};
    size_t cells = (size_t)s->nx * (size_t)s->ny;
    double *v[3] = {NULL, NULL, NULL}, t = opt->restart_time;
    swgl_status st = SWGL_OK;
    for (int q = 0; q < n && st == SWGL_OK; q++)
        if (!(v[q] = malloc(cells * sizeof(double)))) st = swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    if (st == SWGL_OK) st = nc_restart_read(opt->restart, s->nx, s->ny, n, names, &t, v, &exact);
    if (st == SWGL_OK && !(t < s->t_end))
        st = swgl_fail(SWGL_ERR_INPUT, "%s: its time %.9g s is not before t_end = %.9g s", opt->restart, t, s->t_end);
    for (int q = 0; q < n && st == SWGL_OK; q++)
        for (int j = 0; j < s->ny; j++)
            for (int i = 0; i < s->nx; i++) {
                size_t k = grid_in(s->nx, i, j);
                s->init[q][k] = !s->code || s->code[k] == CELL_ACTIVE ? v[q][(size_t)j * s->nx + i] : 0.0;
            }
    /* kp's surface, where the file has it at that time (exact only) */
    if (st == SWGL_OK && exact && sc->scheme == SCHEME_KP && v[0] &&
        nc_restart_extra(opt->restart, s->nx, s->ny, "surface", v[0]) == 1) {
        if (!(*native = calloc(grid_size(s->nx, s->ny), sizeof(double)))) st = swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
        for (int j = 0; st == SWGL_OK && j < s->ny; j++)
            for (int i = 0; i < s->nx; i++) (*native)[grid_in(s->nx, i, j)] = v[0][(size_t)j * s->nx + i];
    }
    for (int q = 0; q < 3; q++) free(v[q]);
    if (st == SWGL_OK) {
        *t0 = t;
        if (!opt->quiet)
            fprintf(stderr, "swgl: restart from %s at t = %.9g s (%s)\n", opt->restart, t,
                    exact ? "its latest state, in double" : "a stored time, in float");
    }
    return st;
}

/* A folder and what it holds, removed (a rank's scratch outputs) */
static void remove_tree(const char *path)
{
    DIR *dir = opendir(path);
    struct dirent *e;
    while (dir && (e = readdir(dir)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        char sub[4096];
        struct stat stt;
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        if (lstat(sub, &stt) == 0 && S_ISDIR(stt.st_mode)) remove_tree(sub);
        else unlink(sub);
    }
    if (dir) closedir(dir);
    rmdir(path);
}

int run_scenario(const scenario *sc, const run_options *opt_in)
{
    /* Over MPI ranks every rank runs this driver alike, so that each takes part in every
     * gathering (the instance gathers the state on each); rank 0 writes the outputs and
     * prints, the others write only their gauges into a scratch folder they remove (the
     * ranks agree on each outcome, so rank 0 reports every error). */
    run_options mine = *opt_in;
    const run_options *opt = &mine;
    char scratch[64] = "";
    const int mpi = swgl_mpi_size() > 1, rank0 = swgl_mpi_rank() == 0;
    if (!rank0) {
        snprintf(scratch, sizeof scratch, "/tmp/swgl-rank%d-XXXXXX", swgl_mpi_rank());
        if (!mkdtemp(scratch)) scratch[0] = '\0';   /* (agreed below: the run stops, naming it) */
        mine.out_dir = scratch;
        mine.quiet = 1;
        mine.progress = 0;
    }
    const scheme_desc *d = scheme_find(sc->scheme);
    scheme_setup s;
    scheme_fields f = {0}, g = {0};
    gpu_context *ctx = NULL;
    outdir *od = NULL;
    double *stops = NULL;
    /* (set before the first goto: over MPI ranks a failed set-up jumps past them to agree) */
    int nstops = 0, snap_at_end = 0, progress = 0;
    const swe_forcing *forcing = NULL;
    double t_planned = 0;
    snap_ctx snap;
    memset(&snap, 0, sizeof snap);
    unsigned char *kinds = NULL;
    int rc = 1, have_other = 0;
    timeloop_result r = {0}, ro = {0};
    swe_account acc = {0};
    int has_acc = 0;
    nc_ctx ncc = {0};
    gauge_ctx gauges = {0};
    swe_maps maps = {0};
    double t0 = 0;         /* the start: 0, or the restart's time */
    double *native0 = NULL;   /* a restart's native field (kp's surface), grid_size, or NULL */
    int have_native = 0;
    int interrupted = 0;   /* the signal that stopped the run (its outputs are still written) */
    norms nd;
    char name[320] = "", other[320] = "";
    swgl_status st = SWGL_OK;
    memset(&s, 0, sizeof s);
    swgl_clear_error();
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* over MPI ranks a signal is mpirun's to pass on: a rank that stopped on its own would
     * leave the others waiting in the halo exchange */
    if (!mpi) {
        sigaction(SIGINT, &sa, &old_int);
        sigaction(SIGTERM, &sa, &old_term);
    }

    if (!rank0 && !scratch[0]) {
        st = swgl_fail(SWGL_ERR_IO, "rank %d: no scratch folder in /tmp for its gauges", swgl_mpi_rank());
        goto pre_fail;
    }
    if (!d || (st = d->setup(sc, &s)) != SWGL_OK) goto pre_fail;
    scheme_config cfg = {.backend = opt->backend, .precision = opt->precision};
    int want_cs = opt->backend == BACKEND_GPU_COMPUTE || opt->compare == BACKEND_GPU_COMPUTE;
    if (opt->backend == BACKEND_GPU || opt->compare == BACKEND_GPU || want_cs) {
        /* over MPI ranks each rank of a node takes its own GPU, unless --device or SWGL_DEVICE
         * names one (several ranks may share a GPU or llvmpipe) */
        gpu_context_desc gd = {.device = opt->device, .use_device = opt->device >= 0, .want_compute = want_cs,
                               .rotate = swgl_mpi_local_rank()};
        if ((st = gpu_context_create(&gd, &ctx)) != SWGL_OK) goto pre_fail;
        if (want_cs && !gpu_context_info(ctx)->compute_context) {
            const gpu_info *gi = gpu_context_info(ctx);
            st = swgl_fail(SWGL_ERR_NO_CONTEXT, "--backend gpu-compute needs a GL 4.3 core context (compute shaders): "
                           "%s gave GL %d.%d", gi->renderer, gi->gl_major, gi->gl_minor);
            goto pre_fail;
        }
        cfg.renderer = gpu_context_info(ctx)->renderer;
        cfg.has_fp64 = gpu_context_info(ctx)->has_fp64;
    }
    if ((st = scheme_fields_alloc(&f, d, s.nx, s.ny)) != SWGL_OK || (st = scheme_fields_alloc(&g, d, s.nx, s.ny)))
        goto pre_fail;
    if (!(od = outdir_open(opt->out_dir))) {
        st = SWGL_ERR_IO;
        goto pre_fail;
    }

    if (opt->restart && (st = load_restart(&s, opt, &t0, &native0)) != SWGL_OK) goto pre_fail;

    /* the stops: the output times after t0 (0, or the restart's time) and before t_end
     * and, with a gauge interval, its multiples there, merged in order (kind: 1 output,
     * 2 gauge), then t_end */
    double gi = sc->n_gauges ? sc->gauge_interval : 0;
    if (gi > 0 && !(s.t_end / gi <= 1e7)) {   /* tested in double: the count may not fit a long */
        st = swgl_fail(SWGL_ERR_INPUT, "%s: [output] gauge_interval = %g s: more than 10^7 samples to t_end = %g s",
                       sc->source, gi, s.t_end);
        goto pre_fail;
    }
    long ng = gi > 0 ? (long)ceil(s.t_end / gi) : 0;
    stops = malloc((size_t)(sc->n_output_times + ng + 1) * sizeof(double));
    kinds = malloc((size_t)(sc->n_output_times + ng + 1));
    if (!stops || !kinds) {
        st = swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
        goto pre_fail;
    }
    /* two times within a relative 1e-9 are one stop (k gi is not exactly an output time
     * or the restart's time that it means: 3 x 0.1 = 0.30000000000000004) */
#define SAME_TIME(a, b) (isfinite(a) && isfinite(b) && fabs((a) - (b)) <= 1e-9 * fmax(1.0, fmax(fabs(a), fabs(b))))
    snap_at_end = 0;   /* an output time at t_end: its grids too, from the final state */
    int i0 = 0;
    long k0 = 1;
    while (gi > 0 && (k0 * gi < t0 || SAME_TIME(k0 * gi, t0))) k0++;
    while (i0 < sc->n_output_times && (sc->output_times[i0] <= t0 || SAME_TIME(sc->output_times[i0], t0))) i0++;
    for (int i = i0, k = (int)k0;;) {
        double to = i < sc->n_output_times ? sc->output_times[i] : INFINITY;
        double tg = k <= ng && k * gi < s.t_end && !SAME_TIME(k * gi, s.t_end) ? k * gi : INFINITY;
        if (!(fmin(to, tg) < s.t_end) || SAME_TIME(fmin(to, tg), s.t_end)) break;
        int is_out = to <= tg || SAME_TIME(to, tg), is_gauge = tg <= to || SAME_TIME(to, tg);
        stops[nstops] = is_out ? to : tg;   /* an output time where one coincides */
        kinds[nstops++] = (unsigned char)(is_out | (is_gauge ? 2 : 0));
        if (is_out) i++;
        if (is_gauge) k++;
    }
#undef SAME_TIME
    for (int i = i0; i < sc->n_output_times; i++)   /* at t_end (or within 1e-9 of it) */
        snap_at_end |= sc->output_times[i] >= s.t_end * (1 - 1e-9);
    kinds[nstops] = 0;
    stops[nstops++] = s.t_end;

    int want_nc = sc->netcdf == 1 || (sc->netcdf < 0 && nc_out_available());
    if (sc->netcdf == 1 && !nc_out_available()) {
        st = swgl_fail(SWGL_ERR_INPUT, "%s: [output] netcdf = true, but this swgl was built without netCDF "
                       "(install libnetcdf-dev and rebuild, or set netcdf = false)", sc->source);
        goto pre_fail;
    }
    if (want_nc && ((st = nc_open(&ncc, &s, od, rank0)) != SWGL_OK || (st = nc_step(&ncc, t0, s.init, native0)) != SWGL_OK))
        goto pre_fail;
    if ((st = gauge_open(&gauges, d, &s, od, t0)) != SWGL_OK) goto pre_fail;
    if (sc->maps && (st = swe_maps_init(&maps, &s, s.init, sc->arrival_depth, t0)) != SWGL_OK) goto pre_fail;
    snap = (snap_ctx){&s, &f, od, &ncc, &gauges, kinds, 0, sc->maps ? &maps : NULL, 0, 0, 0, rank0};
    progress = opt->quiet ? -1 : opt->progress;
    forcing = d->forcing ? d->forcing(&s) : NULL;
    if (forcing && (st = swe_account_init(&acc, forcing)) != SWGL_OK) goto pre_fail;
    t_planned = s.t_end;
pre_fail:
    /* over MPI ranks the set-up's outcome is agreed before the ranks meet in the run's
     * collectives: a rank that failed (its folder, its GPU, its memory) stops them all with
     * its message, rather than leaving them waiting */
    if ((st = swgl_mpi_agree(st)) != SWGL_OK) goto fail;
    st = run_backend(d, &s, &cfg, opt->backend, t0, native0, stops, nstops, progress, &snap, &f, &r, name, sizeof name,
                     forcing ? &acc : NULL, &has_acc);
    have_native = snap.have_native;
    if (st == SWGL_ERR_INTERRUPTED) {
        /* SIGINT / SIGTERM: the state reached is written as the run's last (its time
         * the end), summary.json says so, and the exit status is 128 + the signal */
        interrupted = timeloop_stop_requested();
        fprintf(stderr, "%sswgl: %s; writing the state reached\n", opt->quiet ? "" : "\n", swgl_last_error());
        s.t_end = r.t;
        snap_at_end = 0;
        st = SWGL_OK;
    }
    if (st != SWGL_OK) goto fail;
    if (opt->compare != BACKEND_NONE && !interrupted) {
        if (!opt->quiet) fprintf(stderr, "swgl: comparing with %s\n", backend_name(opt->compare));
        int unused;
        st = run_backend(d, &s, &cfg, opt->compare, t0, native0, stops, nstops, opt->quiet ? 0 : opt->progress, NULL, &g,
                         &ro, other, sizeof other, NULL, &unused);
        if (st == SWGL_ERR_INTERRUPTED) {   /* the main run is whole: written without the comparison */
            interrupted = timeloop_stop_requested();
            fprintf(stderr, "%sswgl: the comparison was interrupted; writing the run without it\n",
                    opt->quiet ? "" : "\n");
            st = SWGL_OK;
        } else if (st != SWGL_OK) {
            goto fail;
        } else {
            nd = difference(&s, &f, &g);
            have_other = 1;
        }
    }

    long bad = nonfinite_cells(&s, &f);
    if (bad) {
        char line[256] = "";
        if (d->describe_run) d->describe_run(&s, line, sizeof line);
        st = swgl_fail(SWGL_ERR_BLOWUP, "%ld %s hold NaN or infinity at t = %g s: the solution blew up%s%s%s", bad,
                       d->cell_word, s.t_end, line[0] ? " (" : "", line, line[0] ? ")" : "");
        goto fail;
    }
    double cell = s.dx * s.dy;
    double m0 = grid_volume(s.init[0], s.code, s.nx, s.ny, cell), m1 = grid_volume(f.f[0], s.code, s.nx, s.ny, cell);
    double cps = r.wall > 0 ? (double)active_cells(&s) * r.steps / r.wall : 0;
    swe_balance bal;
    if (has_acc) swe_balance_of(&acc, m0, m1, &bal);

    /* outputs */
    char written[256] = "", end_suffix[64];
    time_suffix(s.t_end, end_suffix, sizeof end_suffix);
    if (gauges.f && gauges.last < s.t_end && (st = gauge_fields(&gauges, s.t_end, f.f)) != SWGL_OK) goto fail;
    if (gauges.f) {
        int bad_close = fclose(gauges.f) != 0;
        gauges.f = NULL;
        if (bad_close) {
            st = swgl_fail(SWGL_ERR_IO, "%s: write failed", gauges.path);
            goto fail;
        }
    }
    if (!rank0) {   /* over MPI ranks: the others have gathered what rank 0 writes */
        rc = interrupted ? 128 + interrupted : 0;
        goto fail;
    }
    if (sc->maps && (st = write_maps(&maps, &s, od, ncc.nc)) != SWGL_OK) goto fail;
    st = nc_step(&ncc, s.t_end, f.f, ncc.nat && have_native ? ncc.nat : NULL);
    swgl_status close_st = nc_out_close(ncc.nc);   /* always closed, once */
    ncc.nc = NULL;
    if (st == SWGL_OK) st = close_st;
    if (st != SWGL_OK) goto fail;
    if (sc->frames && d->write_frame && (st = d->write_frame(&s, f.f, od, end_suffix, s.t_end)) != SWGL_OK) goto fail;
    if ((snap_at_end && (st = d->write_grids(&s, f.f, od, end_suffix)) != SWGL_OK) ||
        (st = d->write_grids(&s, f.f, od, "")) != SWGL_OK ||
        (st = d->write_final(&s, f.f, od, backend_name(opt->backend), written, sizeof written)) != SWGL_OK)
        goto fail;
    if ((st = write_performance(outdir_path(od, "performance.csv"), &r, (double)s.nx * s.ny)) != SWGL_OK) goto fail;
    json_writer *w = json_open(outdir_path(od, "summary.json"));
    if (!w) goto fail;
    json_str(w, "scheme", d->name);
    json_str(w, "source", sc->source);
    json_str(w, "backend", backend_name(opt->backend));
    json_str(w, "solver", name);
    json_str(w, "renderer", opt->backend == BACKEND_GPU || opt->backend == BACKEND_GPU_COMPUTE ? cfg.renderer : "none (CPU)");
    json_str(w, "precision", r.precision);
    json_int(w, "nx", s.nx);
    json_int(w, "ny", s.ny);
    json_num(w, "dx", s.dx);
    json_num(w, "dy", s.dy);
    json_int(w, "steps", r.steps);
    json_num(w, "t_end", s.t_end);
    json_bool(w, "interrupted", interrupted != 0);
    if (opt->restart) {
        json_str(w, "restart_from", opt->restart);
        json_num(w, "t_start", t0);
    }
    if (interrupted) json_num(w, "t_planned", t_planned);
    json_num(w, "dt_min", r.steps ? r.dt_min : 0);
    json_num(w, "dt_max", r.dt_max);
    json_num(w, "wall_s", r.wall);
    json_num(w, "cells_per_s", cps);
    json_num(w, "mass_initial", m0);
    json_num(w, "mass_final", m1);
    json_num(w, "mass_rel_change", m0 != 0 ? (m1 - m0) / fabs(m0) : 0);
    d->summary(&s, f.f, w);
    if (has_acc) swe_balance_json(sc, &acc, &bal, r.precision, r.steps, active_cells(&s), w);
    if (have_other) {
        json_begin_object(w, "compare");
        json_str(w, "backend", backend_name(opt->compare));
        json_str(w, "solver", other);
        json_str(w, "precision", ro.precision);
        json_int(w, "steps", ro.steps);
        json_num(w, "wall_s", ro.wall);
        for (int q = 0; q < d->n_fields; q++) {
            char key[64];
            snprintf(key, sizeof key, "l1_rel_%s", d->fields[q]);
            json_num(w, key, nd.l1[q]);
            snprintf(key, sizeof key, "linf_rel_%s", d->fields[q]);
            json_num(w, key, nd.linf[q]);
        }
        json_num(w, "speedup", r.wall > 0 ? ro.wall / r.wall : 0);
        json_end_object(w);
    }
    if ((st = json_close(w)) != SWGL_OK) goto fail;
    st = outdir_commit(od);
    od = NULL;
    if (st != SWGL_OK) goto fail;
    if (!opt->quiet) {
        printf("%s: %dx%d %s, t = %g s in %ld steps on %s\n", sc->source, s.nx, s.ny, d->cell_word, s.t_end, r.steps,
               name);
        printf("  wall %.3f s, %.2f M%s-updates/s\n", r.wall, cps / 1e6, d->cell_word[0] == 'c' ? "cell" : "point");
        printf("  %s volume %.12g -> %.12g m^3 (relative change %.2e)\n", sc->scheme == SCHEME_SEDIMENT ? "basin" : "water",
               m0, m1, m0 != 0 ? (m1 - m0) / fabs(m0) : 0);
        if (has_acc) swe_balance_print(sc, &acc, &bal, r.precision, r.steps, active_cells(&s));
        d->print(&s, f.f);
        if (have_other) {
            printf("  vs %s: %.3f s (%.1fx), relative L1 difference", other, ro.wall, r.wall > 0 ? ro.wall / r.wall : 0);
            for (int q = 0; q < d->n_fields; q++) printf(" %s %.2e", d->fields[q], nd.l1[q]);
            printf("\n");
        }
        printf("  wrote %s/summary.json, %s\n", opt->out_dir, written);
    }
    rc = interrupted ? 128 + interrupted : 0;
    if (interrupted) fprintf(stderr, "swgl: interrupted: the outputs hold the state at t = %.9g s\n", r.t);
fail:
    if (rc && !interrupted && rank0)
        fprintf(stderr, "\nswgl: %s: %s\n", sc->source, swgl_last_error()[0] ? swgl_last_error() : "failed");
    outdir_abort(od);
    scheme_fields_free(&f);
    scheme_fields_free(&g);
    swe_account_free(&acc);
    nc_out_close(ncc.nc);
    nc_ctx_free(&ncc);
    gauge_free(&gauges);
    swe_maps_free(&maps);
    free(native0);
    free(stops);
    free(kinds);
    if (d && s.problem) d->setup_free(&s);
    gpu_context_destroy(ctx);
    if (!mpi) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
    }
    if (!rank0 && scratch[0]) remove_tree(scratch);
    if (rc && timeloop_stop_requested()) rc = 128 + timeloop_stop_requested();
    return rc;
}
