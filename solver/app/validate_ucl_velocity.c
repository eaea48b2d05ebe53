/* validate_ucl_velocity.c — `swgl validate ucl`: the velocity fields: at each measured
 * point of building_vel_tTT.txt inside the grid whose cell is active and wet (h > WET),
 * the model's (u, v) = (qx, qy) / h of that cell (validate_ucl.h). */
#include "validate_ucl.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* ---- the velocity fields ------------------------------------------------------------ */

static int read_grid(const char *run_dir, const char *name, int T, int *nx, int *ny, double *xll, double *yll,
                     double *dx, double *dy, double **v, unsigned char **nd)
{
    char file[64];
    snprintf(file, sizeof file, "%s_t%d.asc", name, T);
    char *path = ucl_join(run_dir, file);
    if (!path) return ucl_fail("out of memory");
    swgl_status st = cli_read_grid(path, nx, ny, xll, yll, dx, dy, v, nd);
    if (st != SWGL_OK) {
        size_t l = strlen(path);
        if (l > 4) memcpy(path + l - 4, ".flt", 4);   /* ([output] grids = auto writes .flt from 2^20 cells) */
        if (l > 4 && access(path, R_OK) == 0)
            ucl_fail("%s holds ESRI binary float grids (.flt), which this reads not: run the case with --set "
                     "output.grids=asc", run_dir);
        else
            ucl_fail("%s (expected the run's grid at the output time %d s: the case's output_times)", swgl_last_error(), T);
        free(path);
        return 1;
    }
    free(path);
    return 0;
}

int ucl_velocity_field(const char *run_dir, const char *ucl_dir, const char *out_dir, int T, vel_stats *vs,
                          double *grid_xll, double *grid_yll)
{
    memset(vs, 0, sizeof *vs);
    int nx[3], ny[3], rc = 1;
    double xll[3], yll[3], dx[3], dy[3], *v[3] = {NULL, NULL, NULL};
    unsigned char *nd[3] = {NULL, NULL, NULL};
    const char *names[3] = {"h", "qx", "qy"};
    char file[64];
    table m = {0};
    char *path = NULL, *mpath = NULL;
    FILE *f = NULL;
    for (int k = 0; k < 3; k++)
        if (read_grid(run_dir, names[k], T, &nx[k], &ny[k], &xll[k], &yll[k], &dx[k], &dy[k], &v[k], &nd[k]))
            goto out;
    for (int k = 1; k < 3; k++)
        if (nx[k] != nx[0] || ny[k] != ny[0] || dx[k] != dx[0] || dy[k] != dy[0] || xll[k] != xll[0] ||
            yll[k] != yll[0]) {
            ucl_fail("%s/%s_t%d.asc: expected the same grid as h_t%d.asc", run_dir, names[k], T, T);
            goto out;
        }
    *grid_xll = xll[0];
    *grid_yll = yll[0];
    snprintf(file, sizeof file, "building_vel_t%02d.txt", T);
    mpath = ucl_join(ucl_dir, file);
    if (!mpath || ucl_read_table(mpath, 4, 4, 0, &m)) goto out;
    snprintf(file, sizeof file, "ucl_velocity_t%d.csv", T);
    path = ucl_join(out_dir, file);
    if (!path || !(f = fopen(path, "w"))) {
        ucl_fail("%s: cannot write: %s", path ? path : file, strerror(errno));
        goto out;
    }
    fprintf(f, "x_m,y_m,u_meas_ms,v_meas_ms,u_sim_ms,v_sim_ms\n");
    double s_sp = 0, s_vec = 0, s_m = 0, s_s = 0;
    for (int r = 0; r < m.nrow; r++) {
        const double *row = m.v + (size_t)r * 4;
        if (!isfinite(row[1]) || !isfinite(row[2]) || !isfinite(row[3])) continue;   /* no measurement */
        double fi = (row[0] - xll[0]) / dx[0], fj = (row[1] - yll[0]) / dy[0];
        if (fi < 0 || fj < 0 || fi >= nx[0] || fj >= ny[0]) { vs->nout++; continue; }
        size_t k = (size_t)(int)fj * nx[0] + (size_t)(int)fi;
        if (nd[0][k]) { vs->nout++; continue; }            /* inactive: the building, the dam */
        double h = v[0][k];
        if (!(h > WET)) { vs->ndry++; continue; }
        double us = v[1][k] / h, vsim = v[2][k] / h;
        double um = row[2], vm = row[3];
        double sm = hypot(um, vm), ss = hypot(us, vsim);
        s_sp += (ss - sm) * (ss - sm);
        s_vec += (us - um) * (us - um) + (vsim - vm) * (vsim - vm);
        s_m += sm;
        s_s += ss;
        vs->n++;
        fprintf(f, "%.3f,%.3f,%.6g,%.6g,%.6g,%.6g\n", row[0], row[1], um, vm, us, vsim);
    }
    if (vs->n > 0) {
        vs->rms_speed = sqrt(s_sp / vs->n);
        vs->rms_vec = sqrt(s_vec / vs->n);
        vs->mean_meas = s_m / vs->n;
        vs->mean_sim = s_s / vs->n;
    } else {
        vs->rms_speed = vs->rms_vec = vs->mean_meas = vs->mean_sim = NAN;
    }
    if (fclose(f) != 0) {
        f = NULL;
        ucl_fail("%s: cannot write: %s", path, strerror(errno));
        goto out;
    }
    f = NULL;
    rc = 0;
out:
    if (f) fclose(f);
    free(path);
    free(mpath);
    free(m.v);
    for (int k = 0; k < 3; k++) { free(v[k]); free(nd[k]); }
    return rc;
}
