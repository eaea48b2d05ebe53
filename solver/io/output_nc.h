/* output_nc.h — run.nc: the fields of a run as a netCDF-4 time series, CF-1.8 (issue 11;
 * docs/outputs.md).  Built with libnetcdf where it was found (SWGL_HAVE_NETCDF); without
 * it nc_out_available() is 0 and nc_out_create fails with a message saying so.
 *
 * Layout: dimensions time (unlimited), y (ny), x (nx); coordinates x, y (cell centres
 * or grid points in m, with the grid's corner offset xll, yll) and time (s since the
 * start); a constant field (the bed) over (y, x); each field a float over (time, y, x),
 * chunked one time step at a time, shuffled and deflated, _FillValue where a cell is not
 * active.  Global attributes: Conventions, title, source (swgl's version), the scenario
 * text and its overrides.  Each appended step is synced to the file, so a reader sees
 * every step written so far, also when the run stops early. */
#ifndef SWGL_OUTPUT_NC_H
#define SWGL_OUTPUT_NC_H

#include "swgl_error.h"

#define NC_OUT_MAX_FIELDS 8
#define NC_OUT_FILL -9999.0f

typedef struct nc_out_field {
    const char *name, *long_name, *standard_name, *units;   /* standard_name may be NULL */
} nc_out_field;

typedef struct nc_out_desc {
    int nx, ny;
    double x0, y0, dx, dy;          /* the first column's and row's coordinates (m), spacing */
    const unsigned char *active;    /* nx*ny, row 0 southern; NULL: all */
    const double *fixed;            /* nx*ny constant field (the bed), or NULL */
    nc_out_field fixed_desc;
    int n_fields;
    nc_out_field fields[NC_OUT_MAX_FIELDS];
    const char *title, *scenario, *overrides;   /* global attributes (NULL: left out) */
    int n_state;                    /* the scheme's state fields, kept in double for a restart */
    const char *state[NC_OUT_MAX_FIELDS];   /* their names: restart_NAME(y, x), restart_time */
} nc_out_desc;

typedef struct nc_out nc_out;

int nc_out_available(void);
swgl_status nc_out_create(const char *path, const nc_out_desc *d, nc_out **out);
/* Appends time t with the n_fields fields (nx*ny doubles each, row 0 southern), written
 * as float, overwrites restart_NAME with the n_state state fields (in double: the exact
 * state of the latest step, which swgl run --restart continues; a NULL field is marked
 * missing in restart_valid_NAME) and restart_time, and syncs the file. */
swgl_status nc_out_append(nc_out *o, double t, const double *const *fields, const double *const *state);
/* Reads restart_NAME (double) when the latest append gave it (restart_valid_NAME = 1);
 * 1 when read, 0 when absent, -1 on an error (message set). */
int nc_restart_extra(const char *path, int nx, int ny, const char *name, double *out);

/* A restart read back: the state fields (nx*ny doubles each, row 0 southern) named names
 * at time t: the double restart_NAME fields when t is restart_time (t < 0: that time),
 * else the float fields NAME at the stored time t (not exact: float).  Errors name the
 * file and what did not match (the grid nx, ny; a time not stored). */
swgl_status nc_restart_read(const char *path, int nx, int ny, int n, const char *const *names, double *t,
                            double *const *out, int *exact);
/* Adds a constant field over (y, x) (nx*ny doubles, row 0 southern; the fill at the
 * inactive cells and where mask, if given, is 0), e.g. a flood map at the end. */
swgl_status nc_out_put_fixed(nc_out *o, const nc_out_field *f, const double *v, const unsigned char *mask);
/* Whether a write to a netCDF file failed in this process (a full disk).  HDF5 then
 * crashes in its exit handlers on the broken file (libhdf5 1.10), so the program leaves
 * by _exit after flushing its own output (main.c). */
int nc_out_broken(void);
/* Closes the file (NULL is fine); the status of the close. */
swgl_status nc_out_close(nc_out *o);

#endif
