/* cli.h — the commands of the swgl program (main.c dispatches): each takes the words after
 * its name and returns the process's exit status.  They are clients of include/swgl.h. */
#ifndef SWGL_CLI_H
#define SWGL_CLI_H

int cmd_run(int argc, char **argv);            /* swgl run (cli_run.c) */
int cmd_trace(int argc, char **argv);          /* swgl trace (cli_trace.c) */
int cmd_validate(int argc, char **argv);       /* swgl validate (validate.c) */
int cmd_grid_from_mesh(int argc, char **argv); /* swgl grid-from-mesh (grid_from_mesh.c) */

/* swgl bench gpgpu | roe | kp | sediment | scaling: argv[0] is the bench's name. */
int bench_gpgpu(int argc, char **argv);
int bench_roe(int argc, char **argv);
int bench_kp(int argc, char **argv);
int bench_real(int argc, char **argv);   /* bench_real.c: the real run's shape against the bench's */
int bench_rest(int argc, char **argv);   /* bench_rest.c: early exit's rule for tiles at rest, on and off */
int bench_scaling(int argc, char **argv);
int bench_sediment(int argc, char **argv);
/* bench_gpgpu.c: the machine for the benches' headers: the renderer, vendor and GL version
 * of the device a sim would get (0, or -1 where none), the fast CPU solver's OpenMP threads */
int bench_gpu_about(int use_device, int device, char *renderer, char *vendor, char *version, size_t len, int *fp64);
int bench_cpu_threads(void);
const char *bench_cpu_solver(void);
/* The device the GPU runs of a bench get: its renderer, vendor, GL version and fp64, the
 * passes (compute: the gpu-compute backend's) and the copy ceiling of those passes; 0, or 1
 * after saying why on stderr.  bench_gpu_print: its "GPU:" and "copy ceiling:" lines. */
typedef struct bench_gpu {
    char renderer[256], vendor[256], version[256];
    int fp64, compute;
    double ceiling;
} bench_gpu;
int bench_gpu_setup(int device, int compute, bench_gpu *g);
void bench_gpu_print(const bench_gpu *g, int with_fp64);

/* cli_util.c: an ESRI ASCII grid read through swgl_raster_read (rows from the south), its
 * NODATA cells flagged in *nd (malloc'ed); mkdir -p (0, or -1 with errno). */
#include "swgl.h"
swgl_status cli_read_grid(const char *path, int *nx, int *ny, double *xll, double *yll, double *dx, double *dy,
                          double **v, unsigned char **nd);
int cli_mkdirs(const char *path);
/* --tune VALUE of command cmd: "help" lists the keys on stdout (1: exit 0); a value that
 * swgl_tune_check refuses is said on stderr (-1: exit 2); else it is appended to tune (a
 * newline between items, len bytes at most) for swgl_sim_desc.tune (0). */
#define CLI_TUNE_MAX 4096
int cli_tune(const char *cmd, const char *value, char *tune, size_t len);

#endif
