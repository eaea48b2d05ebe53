/* cli_util.c — small helpers of the commands over swgl.h (cli.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

swgl_status cli_read_grid(const char *path, int *nx, int *ny, double *xll, double *yll, double *dx, double *dy,
                          double **v, unsigned char **nd)
{
    swgl_raster r;
    swgl_status st = swgl_raster_read(path, &r);
    if (st != SWGL_OK) return st;
    size_t n = (size_t)r.nx * (size_t)r.ny;
    if (nd) {
        if (!(*nd = malloc(n ? n : 1))) {
            swgl_raster_free(&r);
            return SWGL_ERR_NO_MEMORY;
        }
        for (size_t k = 0; k < n; k++) (*nd)[k] = isnan(r.v[k]) != 0;
    }
    *nx = r.nx, *ny = r.ny, *xll = r.x0, *yll = r.y0, *dx = r.dx, *dy = r.dy;
    *v = r.v;   /* handed over */
    return SWGL_OK;
}

int cli_mkdirs(const char *path)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(buf, path, n + 1);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
    return 0;
}

int cli_tune(const char *cmd, const char *value, char *tune, size_t len)
{
    if (strcmp(value, "help") == 0) {
        printf("tuning keys (--tune KEY=VALUE, repeatable; swgl_sim_desc.tune):\n");
        swgl_tune_keys(stdout);
        return 1;
    }
    if (swgl_tune_check(value) != SWGL_OK) {
        fprintf(stderr, "swgl %s: --tune %s: %s\n", cmd, value, swgl_last_error());
        return -1;
    }
    size_t l = strlen(tune);
    if (l + strlen(value) + 2 > len) {
        fprintf(stderr, "swgl %s: --tune: more than %zu characters of tuning\n", cmd, len - 1);
        return -1;
    }
    snprintf(tune + l, len - l, "%s%s", l ? "\n" : "", value);
    return 0;
}
