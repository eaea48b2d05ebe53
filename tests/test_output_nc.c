/* test_output_nc.c — run.nc (solver/io/output_nc.h) read back with libnetcdf itself:
 * dimensions, coordinates, time steps, attributes (units, standard names, _FillValue, CF
 * conventions, the scenario's text), chunking and compression, the values (float images
 * of what was written) and the fill at an inactive cell. */
#include <math.h>
#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "output_nc.h"

static int attr_is(int ncid, int var, const char *name, const char *want)
{
    char buf[256] = "";
    size_t len = 0;
    if (nc_inq_attlen(ncid, var, name, &len) != NC_NOERR || len >= sizeof buf) return 0;
    if (nc_get_att_text(ncid, var, name, buf) != NC_NOERR) return 0;
    buf[len] = '\0';
    return strcmp(buf, want) == 0;
}

int main(void)
{
    char dir[] = "/tmp/swgl-nc-XXXXXX", path[64];
    CHECK(mkdtemp(dir) != NULL, "a temporary folder");
    snprintf(path, sizeof path, "%s/run.nc", dir);
    enum { NX = 3, NY = 2 };
    const unsigned char active[NX * NY] = {1, 1, 1, 1, 0, 1};   /* cell (1, 1) inactive */
    const double bed[NX * NY] = {0, 1, 2, 3, 4, 5};
    nc_out_desc d = {.nx = NX, .ny = NY, .x0 = 100.5, .y0 = 200.5, .dx = 1, .dy = 2, .active = active,
                     .fixed = bed, .fixed_desc = {"bed", "bed elevation", "surface_altitude", "m"}, .n_fields = 2,
                     .fields = {{"h", "water depth", NULL, "m"},
                                {"eta", "water surface elevation", "water_surface_height_above_reference_datum", "m"}},
                     .title = "test", .scenario = "[domain]\nnx = 3\n", .overrides = "run.t_end=2", .n_state = 1,
                     .state = {"h"}};
    nc_out *o;
    CHECK(nc_out_create(path, &d, &o) == SWGL_OK, "create: %s", swgl_last_error());
    double h[NX * NY], eta[NX * NY];
    for (int s = 0; s < 3; s++) {
        for (int k = 0; k < NX * NY; k++) h[k] = 0.1 * s + 0.01 * k, eta[k] = bed[k] + h[k];
        const double *f[2] = {h, eta}, *state[1] = {h};
        if (s == 2) h[0] = 1.0 / 3.0;   /* a double that float cannot hold */
        CHECK(nc_out_append(o, 0.5 * s, f, state) == SWGL_OK, "append step %d: %s", s, swgl_last_error());
    }
    CHECK(nc_out_close(o) == SWGL_OK, "close");

    int ncid, dt, dy, dx, vt, vx, vy, vh, veta, vbed;
    size_t n;
    CHECK(nc_open(path, NC_NOWRITE, &ncid) == NC_NOERR, "the file opens with libnetcdf");
    CHECK(nc_inq_dimid(ncid, "time", &dt) == NC_NOERR && nc_inq_dimlen(ncid, dt, &n) == NC_NOERR && n == 3,
          "time: 3 steps (%zu)", n);
    int unlim = -1;
    CHECK(nc_inq_unlimdim(ncid, &unlim) == NC_NOERR && unlim == dt, "time is the unlimited dimension");
    CHECK(nc_inq_dimid(ncid, "y", &dy) == NC_NOERR && nc_inq_dimlen(ncid, dy, &n) == NC_NOERR && n == NY, "y: %d", NY);
    CHECK(nc_inq_dimid(ncid, "x", &dx) == NC_NOERR && nc_inq_dimlen(ncid, dx, &n) == NC_NOERR && n == NX, "x: %d", NX);
    CHECK(nc_inq_varid(ncid, "time", &vt) == NC_NOERR && nc_inq_varid(ncid, "x", &vx) == NC_NOERR &&
          nc_inq_varid(ncid, "y", &vy) == NC_NOERR && nc_inq_varid(ncid, "h", &vh) == NC_NOERR &&
          nc_inq_varid(ncid, "eta", &veta) == NC_NOERR && nc_inq_varid(ncid, "bed", &vbed) == NC_NOERR,
          "variables time, x, y, bed, h, eta");
    double t[3], x[NX], y[NY];
    CHECK(nc_get_var_double(ncid, vt, t) == NC_NOERR && t[0] == 0 && t[1] == 0.5 && t[2] == 1.0, "time 0, 0.5, 1");
    CHECK(nc_get_var_double(ncid, vx, x) == NC_NOERR && x[0] == 100.5 && x[2] == 102.5, "x: cell centres");
    CHECK(nc_get_var_double(ncid, vy, y) == NC_NOERR && y[0] == 200.5 && y[1] == 202.5, "y: cell centres");
    CHECK(attr_is(ncid, NC_GLOBAL, "Conventions", "CF-1.8"), "Conventions CF-1.8");
    CHECK(attr_is(ncid, NC_GLOBAL, "scenario", "[domain]\nnx = 3\n"), "the scenario's text");
    CHECK(attr_is(ncid, NC_GLOBAL, "scenario_overrides", "run.t_end=2"), "the overrides");
    CHECK(attr_is(ncid, vt, "units", "seconds since 1970-01-01 00:00:00") && attr_is(ncid, vh, "units", "m"), "units (time: CF's since a date)");
    CHECK(attr_is(ncid, veta, "standard_name", "water_surface_height_above_reference_datum"), "eta's standard name");
    float fill = 0;
    CHECK(nc_get_att_float(ncid, vh, "_FillValue", &fill) == NC_NOERR && fill == NC_OUT_FILL, "_FillValue");
    int storage, shuffle, deflate, level;
    size_t chunk[3];
    CHECK(nc_inq_var_chunking(ncid, vh, &storage, chunk) == NC_NOERR && storage == NC_CHUNKED && chunk[0] == 1 &&
          chunk[1] == NY && chunk[2] == NX, "h chunked one time step at a time");
    CHECK(nc_inq_var_deflate(ncid, vh, &shuffle, &deflate, &level) == NC_NOERR && shuffle && deflate && level == 4,
          "h shuffled and deflated (level %d)", level);
    float v[3 * NX * NY], b[NX * NY];
    CHECK(nc_get_var_float(ncid, vh, v) == NC_NOERR, "read h");
    int ok = 1;
    for (int s = 0; s < 3; s++)
        for (int k = 0; k < NX * NY; k++)
            ok &= active[k] ? v[s * NX * NY + k] == (float)(s == 2 && k == 0 ? 1.0 / 3.0 : 0.1 * s + 0.01 * k)
                            : v[s * NX * NY + k] == NC_OUT_FILL;
    /* exact: the file holds the float image of each value written */
    CHECK(ok, "h at every step: the values written (as float), _FillValue at the inactive cell");
    CHECK(nc_get_var_float(ncid, vbed, b) == NC_NOERR && b[5] == 5.0f && b[4] == NC_OUT_FILL, "bed");
    nc_close(ncid);

    /* the restart state: the latest step in double; an earlier stored time in float */
    double r[NX * NY], t_r = -1;
    double *out[1] = {r};
    const char *names[1] = {"h"};
    int exact = 0;
    swgl_status rs = nc_restart_read(path, NX, NY, 1, names, &t_r, out, &exact);
    CHECK(rs == SWGL_OK && exact && t_r == 1.0, "restart: the latest step, t = %g, exact %d", t_r, exact);
    CHECK(r[0] == 1.0 / 3.0, "restart: h in double (1/3 exactly)");
    t_r = 0.5;
    CHECK(nc_restart_read(path, NX, NY, 1, names, &t_r, out, &exact) == SWGL_OK && !exact &&
              r[5] == (double)(float)(0.1 + 0.05),
          "restart at a stored time: the float field");
    t_r = 0.7;
    CHECK(nc_restart_read(path, NX, NY, 1, names, &t_r, out, &exact) != SWGL_OK &&
              strstr(swgl_last_error(), "no time step at t = 0.7"),
          "restart at a time not stored: %s", swgl_last_error());
    t_r = -1;
    CHECK(nc_restart_read(path, NX + 1, NY, 1, names, &t_r, out, &exact) != SWGL_OK &&
              strstr(swgl_last_error(), "the scenario's is 4 x 2"),
          "restart on another grid: %s", swgl_last_error());
    unlink(path);
    rmdir(dir);
    return check_done();
}
