/* output_nc.c — run.nc through libnetcdf (output_nc.h). */
#include "output_nc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef SWGL_HAVE_NETCDF
#include <netcdf.h>

struct nc_out {
    int ncid, dim_t, var_t, nx, ny, n_fields, n_state, var_rt;
    int var[NC_OUT_MAX_FIELDS], var_state[NC_OUT_MAX_FIELDS], var_valid[NC_OUT_MAX_FIELDS];
    double *dbuf;
    int failed;                      /* a write failed: the file is aborted, not closed */
    size_t steps;
    unsigned char *active;
    float *buf;
    char path[1024];
};

int nc_out_available(void) { return 1; }

static int g_broken;
int nc_out_broken(void) { return g_broken; }

static swgl_status nc_fail(const char *path, int rc, const char *what)
{
    return swgl_fail(SWGL_ERR_IO, "%s: netCDF: %s: %s", path, what, nc_strerror(rc));
}

static int put_text(int ncid, int var, const char *name, const char *text)
{
    return text ? nc_put_att_text(ncid, var, name, strlen(text), text) : NC_NOERR;
}

static int describe(int ncid, int var, const nc_out_field *f)
{
    int rc = put_text(ncid, var, "long_name", f->long_name);
    if (rc == NC_NOERR) rc = put_text(ncid, var, "units", f->units);
    if (rc == NC_NOERR && f->standard_name) rc = put_text(ncid, var, "standard_name", f->standard_name);
    return rc;
}

/* A float variable over dims with a _FillValue, chunked one step (one grid) at a time,
 * shuffled and deflated. */
static int def_field(nc_out *o, const nc_out_field *f, int ndims, const int *dims, int *var)
{
    size_t chunk[3] = {1, (size_t)o->ny, (size_t)o->nx};
    float fill = NC_OUT_FILL;
    int rc = nc_def_var(o->ncid, f->name, NC_FLOAT, ndims, dims, var);
    if (rc == NC_NOERR) rc = nc_def_var_chunking(o->ncid, *var, NC_CHUNKED, ndims == 3 ? chunk : chunk + 1);
    if (rc == NC_NOERR) rc = nc_def_var_deflate(o->ncid, *var, 1, 1, 4);
    if (rc == NC_NOERR) rc = nc_def_var_fill(o->ncid, *var, 0, &fill);
    if (rc == NC_NOERR) rc = describe(o->ncid, *var, f);
    return rc;
}

/* v (nx*ny doubles) as floats, NC_OUT_FILL where not active */
static void to_float(const nc_out *o, const double *v, float *out)
{
    size_t n = (size_t)o->nx * (size_t)o->ny;
    for (size_t k = 0; k < n; k++) out[k] = o->active && !o->active[k] ? NC_OUT_FILL : (float)v[k];
}

swgl_status nc_out_create(const char *path, const nc_out_desc *d, nc_out **out)
{
    *out = NULL;
    if (d->n_fields < 1 || d->n_fields > NC_OUT_MAX_FIELDS || d->nx < 1 || d->ny < 1)
        return swgl_fail(SWGL_ERR_ARG, "%s: netCDF: bad description", path);
    nc_out *o = calloc(1, sizeof *o);
    size_t n = (size_t)d->nx * (size_t)d->ny;
    if (!o || !(o->buf = malloc(n * sizeof(float))) || !(o->dbuf = malloc(n * sizeof(double))) ||
        (d->active && !(o->active = malloc(n)))) {
        if (o) free(o->buf), free(o->dbuf);
        free(o);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "%s: out of memory", path);
    }
    if (d->active) memcpy(o->active, d->active, n);
    snprintf(o->path, sizeof o->path, "%s", path);
    o->nx = d->nx;
    o->ny = d->ny;
    o->n_fields = d->n_fields;
    int rc = nc_create(path, NC_CLOBBER | NC_NETCDF4, &o->ncid), dim_x, dim_y, var_x, var_y, var_fixed = -1;
    if (rc != NC_NOERR) {
        swgl_status st = nc_fail(path, rc, "cannot create");
        free(o->buf);
        free(o->dbuf);
        free(o->active);
        free(o);
        return st;
    }
    const char *what = "defining the variables";
    rc = nc_def_dim(o->ncid, "time", NC_UNLIMITED, &o->dim_t);
    if (rc == NC_NOERR) rc = nc_def_dim(o->ncid, "y", (size_t)d->ny, &dim_y);
    if (rc == NC_NOERR) rc = nc_def_dim(o->ncid, "x", (size_t)d->nx, &dim_x);
    if (rc == NC_NOERR) rc = nc_def_var(o->ncid, "time", NC_DOUBLE, 1, &o->dim_t, &o->var_t);
    if (rc == NC_NOERR) rc = nc_def_var(o->ncid, "y", NC_DOUBLE, 1, &dim_y, &var_y);
    if (rc == NC_NOERR) rc = nc_def_var(o->ncid, "x", NC_DOUBLE, 1, &dim_x, &var_x);
    /* CF wants "<unit> since <date>"; a run has no date: its start stands at the epoch */
    static const nc_out_field tf = {"time", "time since the start of the run (the start stands at the epoch)", "time",
                                    "seconds since 1970-01-01 00:00:00"};
    static const nc_out_field xf = {"x", "x of the cell centre", "projection_x_coordinate", "m"};
    static const nc_out_field yf = {"y", "y of the cell centre", "projection_y_coordinate", "m"};
    if (rc == NC_NOERR) rc = describe(o->ncid, o->var_t, &tf);
    if (rc == NC_NOERR) rc = put_text(o->ncid, o->var_t, "axis", "T");
    if (rc == NC_NOERR) rc = describe(o->ncid, var_x, &xf);
    if (rc == NC_NOERR) rc = put_text(o->ncid, var_x, "axis", "X");
    if (rc == NC_NOERR) rc = describe(o->ncid, var_y, &yf);
    if (rc == NC_NOERR) rc = put_text(o->ncid, var_y, "axis", "Y");
    int dims3[3] = {o->dim_t, dim_y, dim_x};
    if (rc == NC_NOERR && d->fixed) rc = def_field(o, &d->fixed_desc, 2, dims3 + 1, &var_fixed);
    for (int f = 0; rc == NC_NOERR && f < d->n_fields; f++) rc = def_field(o, &d->fields[f], 3, dims3, &o->var[f]);
    /* the latest step's exact state, for swgl run --restart */
    o->n_state = d->n_state;
    for (int f = 0; rc == NC_NOERR && f < d->n_state; f++) {
        char name[80], ln[160];
        snprintf(name, sizeof name, "restart_%s", d->state[f]);
        snprintf(ln, sizeof ln, "the state's %s at restart_time, in double (swgl run --restart)", d->state[f]);
        rc = nc_def_var(o->ncid, name, NC_DOUBLE, 2, dims3 + 1, &o->var_state[f]);
        if (rc == NC_NOERR) rc = put_text(o->ncid, o->var_state[f], "long_name", ln);
        snprintf(name, sizeof name, "restart_valid_%s", d->state[f]);
        if (rc == NC_NOERR) rc = nc_def_var(o->ncid, name, NC_INT, 0, NULL, &o->var_valid[f]);
    }
    if (rc == NC_NOERR && d->n_state) rc = nc_def_var(o->ncid, "restart_time", NC_DOUBLE, 0, NULL, &o->var_rt);
    if (rc == NC_NOERR && d->n_state) rc = put_text(o->ncid, o->var_rt, "units", "s");
    if (rc == NC_NOERR) rc = put_text(o->ncid, NC_GLOBAL, "Conventions", "CF-1.8");
    if (rc == NC_NOERR) rc = put_text(o->ncid, NC_GLOBAL, "title", d->title);
    if (rc == NC_NOERR) rc = put_text(o->ncid, NC_GLOBAL, "source", "swgl " SWGL_VERSION);
    if (rc == NC_NOERR) rc = put_text(o->ncid, NC_GLOBAL, "scenario", d->scenario);
    if (rc == NC_NOERR) rc = put_text(o->ncid, NC_GLOBAL, "scenario_overrides", d->overrides);
    if (rc == NC_NOERR) what = "writing the coordinates", rc = nc_enddef(o->ncid);
    double *c = rc == NC_NOERR ? malloc((size_t)(d->nx > d->ny ? d->nx : d->ny) * sizeof(double)) : NULL;
    if (rc == NC_NOERR && !c) rc = NC_ENOMEM;
    if (rc == NC_NOERR) {
        for (int i = 0; i < d->nx; i++) c[i] = d->x0 + i * d->dx;
        rc = nc_put_var_double(o->ncid, var_x, c);
    }
    if (rc == NC_NOERR) {
        for (int j = 0; j < d->ny; j++) c[j] = d->y0 + j * d->dy;
        rc = nc_put_var_double(o->ncid, var_y, c);
    }
    free(c);
    if (rc == NC_NOERR && d->fixed) {
        to_float(o, d->fixed, o->buf);
        rc = nc_put_var_float(o->ncid, var_fixed, o->buf);
    }
    if (rc == NC_NOERR) rc = nc_sync(o->ncid);
    if (rc != NC_NOERR) {
        swgl_status st = nc_fail(path, rc, what);
        nc_close(o->ncid);
        free(o->buf);
        free(o->dbuf);
        free(o->active);
        free(o);
        return st;
    }
    *out = o;
    return SWGL_OK;
}

swgl_status nc_out_append(nc_out *o, double t, const double *const *fields, const double *const *state)
{
    size_t start[3] = {o->steps, 0, 0}, count[3] = {1, (size_t)o->ny, (size_t)o->nx};
    int rc = nc_put_var1_double(o->ncid, o->var_t, start, &t);
    for (int f = 0; rc == NC_NOERR && f < o->n_fields; f++) {
        to_float(o, fields[f], o->buf);
        rc = nc_put_vara_float(o->ncid, o->var[f], start, count, o->buf);
    }
    for (int f = 0; rc == NC_NOERR && state && f < o->n_state; f++) {
        int valid = state[f] != NULL;
        if (valid) rc = nc_put_var_double(o->ncid, o->var_state[f], state[f]);
        if (rc == NC_NOERR) rc = nc_put_var_int(o->ncid, o->var_valid[f], &valid);
    }
    if (rc == NC_NOERR && state && o->n_state) rc = nc_put_var_double(o->ncid, o->var_rt, &t);
    if (rc == NC_NOERR) rc = nc_sync(o->ncid);   /* a reader sees this step now */
    if (rc != NC_NOERR) {
        o->failed = g_broken = 1;
        return nc_fail(o->path, rc, "writing a time step");
    }
    o->steps++;
    return SWGL_OK;
}

swgl_status nc_out_put_fixed(nc_out *o, const nc_out_field *f, const double *v, const unsigned char *mask)
{
    int dims[2], var, rc = nc_inq_dimid(o->ncid, "y", &dims[0]);
    if (rc == NC_NOERR) rc = nc_inq_dimid(o->ncid, "x", &dims[1]);
    if (rc == NC_NOERR) rc = nc_redef(o->ncid);
    if (rc == NC_NOERR) rc = def_field(o, f, 2, dims, &var);
    if (rc == NC_NOERR) rc = nc_enddef(o->ncid);
    if (rc == NC_NOERR) {
        to_float(o, v, o->buf);
        for (size_t k = 0; mask && k < (size_t)o->nx * (size_t)o->ny; k++)
            if (!mask[k]) o->buf[k] = NC_OUT_FILL;
        rc = nc_put_var_float(o->ncid, var, o->buf);
    }
    if (rc == NC_NOERR) rc = nc_sync(o->ncid);
    if (rc != NC_NOERR) o->failed = g_broken = 1;
    return rc == NC_NOERR ? SWGL_OK : nc_fail(o->path, rc, "adding a map");
}

swgl_status nc_out_close(nc_out *o)
{
    if (!o) return SWGL_OK;
    /* after a failed write (a full disk) HDF5's close of the broken file can crash at
     * exit: the file is aborted instead (the run fails and its folder is discarded) */
    int rc = o->failed ? nc_abort(o->ncid) : nc_close(o->ncid);
    if (o->failed) rc = NC_NOERR;
    swgl_status st = rc == NC_NOERR ? SWGL_OK : nc_fail(o->path, rc, "closing");
    free(o->buf);
    free(o->dbuf);
    free(o->active);
    free(o);
    return st;
}

swgl_status nc_restart_read(const char *path, int nx, int ny, int n, const char *const *names, double *t,
                            double *const *out, int *exact)
{
    int ncid, rc = nc_open(path, NC_NOWRITE, &ncid), dim, var;
    if (rc != NC_NOERR) return nc_fail(path, rc, "cannot open");
    size_t fx = 0, fy = 0, nt = 0;
    swgl_status st = SWGL_OK;
    if (nc_inq_dimid(ncid, "x", &dim) != NC_NOERR || nc_inq_dimlen(ncid, dim, &fx) != NC_NOERR ||
        nc_inq_dimid(ncid, "y", &dim) != NC_NOERR || nc_inq_dimlen(ncid, dim, &fy) != NC_NOERR ||
        nc_inq_dimid(ncid, "time", &dim) != NC_NOERR || nc_inq_dimlen(ncid, dim, &nt) != NC_NOERR || nt == 0)
        st = swgl_fail(SWGL_ERR_INPUT, "%s: not a run.nc of swgl (no x, y, time, or no time step)", path);
    else if ((int)fx != nx || (int)fy != ny)
        st = swgl_fail(SWGL_ERR_INPUT, "%s: a %zu x %zu grid, the scenario's is %d x %d", path, fx, fy, nx, ny);
    double rt = -1;
    int vrt;
    if (st == SWGL_OK && nc_inq_varid(ncid, "restart_time", &vrt) == NC_NOERR) nc_get_var_double(ncid, vrt, &rt);
    if (st == SWGL_OK && *t < 0) {
        if (rt < 0) st = swgl_fail(SWGL_ERR_INPUT, "%s: no restart state (restart_time)", path);
        *t = rt;
    }
    *exact = st == SWGL_OK && *t == rt;
    size_t index = 0;
    if (st == SWGL_OK && !*exact) {   /* a stored time: the float fields */
        double *times = malloc(nt * sizeof(double));
        int vt;
        if (!times) st = swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
        else if (nc_inq_varid(ncid, "time", &vt) != NC_NOERR || nc_get_var_double(ncid, vt, times) != NC_NOERR)
            st = swgl_fail(SWGL_ERR_INPUT, "%s: cannot read time", path);
        size_t k = 0;
        while (st == SWGL_OK && k < nt && times[k] != *t) k++;
        if (st == SWGL_OK && k == nt)
            st = swgl_fail(SWGL_ERR_INPUT, "%s: no time step at t = %.9g s (stored: %.9g .. %.9g s)", path, *t,
                           times[0], times[nt - 1]);
        index = k;
        free(times);
    }
    size_t start[3] = {index, 0, 0}, count[3] = {1, fy, fx};
    float *buf = st == SWGL_OK && !*exact ? malloc(fx * fy * sizeof(float)) : NULL;
    if (st == SWGL_OK && !*exact && !buf) st = swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    for (int f = 0; st == SWGL_OK && f < n; f++) {
        char name[80];
        snprintf(name, sizeof name, *exact ? "restart_%s" : "%s", names[f]);
        if ((rc = nc_inq_varid(ncid, name, &var)) != NC_NOERR) {
            st = swgl_fail(SWGL_ERR_INPUT, "%s: no variable %s", path, name);
            break;
        }
        if (*exact) rc = nc_get_var_double(ncid, var, out[f]);
        else {
            rc = nc_get_vara_float(ncid, var, start, count, buf);
            for (size_t k = 0; rc == NC_NOERR && k < fx * fy; k++) out[f][k] = buf[k] == NC_OUT_FILL ? 0.0 : buf[k];
        }
        if (rc != NC_NOERR) st = nc_fail(path, rc, name);
    }
    free(buf);
    nc_close(ncid);
    return st;
}

int nc_restart_extra(const char *path, int nx, int ny, const char *name, double *out)
{
    int ncid, var, valid = 0;
    char vname[96];
    if (nc_open(path, NC_NOWRITE, &ncid) != NC_NOERR) return 0;
    snprintf(vname, sizeof vname, "restart_valid_%s", name);
    if (nc_inq_varid(ncid, vname, &var) == NC_NOERR) nc_get_var_int(ncid, var, &valid);
    snprintf(vname, sizeof vname, "restart_%s", name);
    int got = valid == 1 && nc_inq_varid(ncid, vname, &var) == NC_NOERR && nx > 0 && ny > 0 &&
              nc_get_var_double(ncid, var, out) == NC_NOERR;
    nc_close(ncid);
    return got;
}

#else   /* built without libnetcdf */

int nc_restart_extra(const char *path, int nx, int ny, const char *name, double *out)
{
    (void)path, (void)nx, (void)ny, (void)name, (void)out;
    return 0;
}

swgl_status nc_restart_read(const char *path, int nx, int ny, int n, const char *const *names, double *t,
                            double *const *out, int *exact)
{
    (void)nx, (void)ny, (void)n, (void)names, (void)t, (void)out, (void)exact;
    return swgl_fail(SWGL_ERR_ARG, "%s: this swgl was built without netCDF: no restart", path);
}


int nc_out_available(void) { return 0; }
int nc_out_broken(void) { return 0; }

swgl_status nc_out_create(const char *path, const nc_out_desc *d, nc_out **out)
{
    (void)d;
    *out = NULL;
    return swgl_fail(SWGL_ERR_ARG, "%s: this swgl was built without netCDF (libnetcdf-dev; SWGL_WITH_NETCDF)", path);
}

swgl_status nc_out_append(nc_out *o, double t, const double *const *fields, const double *const *state)
{
    (void)o, (void)t, (void)fields, (void)state;
    return swgl_fail(SWGL_ERR_ARG, "netCDF: not built");
}

swgl_status nc_out_put_fixed(nc_out *o, const nc_out_field *f, const double *v, const unsigned char *mask)
{
    (void)o, (void)f, (void)v, (void)mask;
    return swgl_fail(SWGL_ERR_ARG, "netCDF: not built");
}

swgl_status nc_out_close(nc_out *o)
{
    (void)o;
    return SWGL_OK;
}
#endif
