/* sim_lib.c — the library-wide calls of swgl.h: version, features, built-in cases, the
 * devices, the copy ceiling, MPI's start and end, and reading a raster. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "swgl.h"
#include "sim_internal.h"

#include "cpu_info.h"
#include "gpu_array2d.h"
#include "gpu_compute.h"
#include "gpu_context.h"
#include "gpu_pass.h"
#include "gpu_program.h"
#include "output.h"
#include "output_nc.h"
#include "raster.h"
#include "scenario.h"
#include "scheme_mpi.h"

SWGL_API const char *swgl_version(void) { return SWGL_VERSION; }

SWGL_API void swgl_tune_keys(FILE *f) { tuning_print_keys(f ? f : stdout); }

SWGL_API swgl_status swgl_tune_check(const char *tune)
{
    swgl_tuning t;
    tuning_defaults(&t);
    swgl_clear_error();
    return tuning_parse(&t, tune);
}

SWGL_API int swgl_has(const char *feature)
{
    if (!feature) return 0;
    if (strcmp(feature, "netcdf") == 0) return nc_out_available();
    if (strcmp(feature, "mpi") == 0) return swgl_mpi_available();
    if (strcmp(feature, "gl") == 0) return 1;
    if (strcmp(feature, "clean-exit") == 0) return !nc_out_broken();
    return 0;
}

SWGL_API const char *const *swgl_case_names(void) { return scenario_case_names(); }
SWGL_API const char *swgl_case_text(const char *name) { return name ? scenario_case_text(name) : NULL; }
SWGL_API const char *swgl_case_summary(const char *name) { return name ? scenario_case_summary(name) : NULL; }
SWGL_API const char *swgl_data_dir(void) { return sc_data_dir(); }
SWGL_API const char *swgl_cpu_model(void) { return cpu_model_name(); }

SWGL_API int swgl_print_devices(FILE *f, int use_device, int device)
{
    if (sim_gpu_sims() > 0) {
        swgl_fail(SWGL_ERR_ARG, "swgl_print_devices: a GPU sim is alive in this process (one GL context at a time)");
        return 1;
    }
    gpu_context_desc desc = {.device = device, .use_device = use_device};
    fprintf(f, "EGL devices:\n");
    gpu_list_devices(f);
    gpu_context *ctx = NULL;
    if (gpu_context_create(&desc, &ctx) != SWGL_OK) return 1;
    const gpu_info *i = gpu_context_info(ctx);
    if (i->device_index >= 0) fprintf(f, "chosen:     device %d (%s)\n", i->device_index, i->device_name);
    else fprintf(f, "chosen:     %s\n", i->device_name);
    fprintf(f, "EGL:        %s (%s)\n", i->egl_version, i->egl_vendor);
    fprintf(f, "vendor:     %s\n", i->vendor);
    fprintf(f, "renderer:   %s%s\n", i->renderer, i->software ? "  (software)" : "");
    fprintf(f, "GL:         %s  (context %d.%d core)\n", i->version, i->gl_major, i->gl_minor);
    fprintf(f, "GLSL:       %s\n", i->glsl_version);
    fprintf(f, "fp64:       %s\n", i->has_fp64 ? "yes (GL_ARB_gpu_shader_fp64)" : "no");
    fprintf(f, "compute:    %s\n", i->has_compute ? "yes (a GL 4.3 core context can be had)" : "no (GL < 4.3)");
    fprintf(f, "limits:     max texture %d, max draw buffers %d\n", i->max_texture_size, i->max_draw_buffers);
    gpu_context_destroy(ctx);
    return 0;
}

/* The copy ceiling on the current context, the one every bench quotes and swgl bench gpgpu's
 * rows of its size print (bench_layer.c calls this): a SWGL_COPY_CEILING_N^2 (4096^2) float4
 * array copied into a second and back (ping-pong: each copy reads the last one's output, so
 * none can be dropped), with
 * compute passes on (gpu_compute_passes) as the copy_cs kernel (bench gpgpu's copy-cs row:
 * 16 x 16 work groups, texelFetch in, imageStore out), else as the fragment copy pass (its copy
 * row).  Timed like every row of bench gpgpu: one copy as a warm-up that sets the count of a
 * batch (at least 0.2 s, 2 to 2000 copies), then the median of 5 batches, each between
 * glFinish calls.  GB/s of 32 B a texel (one read, one write); 0 where it failed
 * (swgl_last_error says why). */
double swgl_copy_gbs_current(void)
{
    enum { N = SWGL_COPY_CEILING_N, BATCHES = 5 };   /* swgl.h */
    const double batch_s = 0.2;
    const int compute = gpu_compute_passes();
    gpu_program *p = NULL;
    gpu_compute *cs = NULL;
    gpu_array2d *ar[2] = {NULL, NULL};
    gpu_array2d_desc d = {N, N, GPU_RGBA32F, "copy ceiling"};
    double t[BATCHES], gbs = 0;
    /* values as bench gpgpu's (not a constant a driver could compress) */
    float *init = malloc((size_t)N * N * 4 * sizeof(float));
    swgl_status st = init ? SWGL_OK : swgl_fail(SWGL_ERR_NO_MEMORY, "the copy ceiling: no memory for a %d^2 array", N);
    for (size_t i = 0; init && i < (size_t)N * N * 4; i++) init[i] = (float)(i % 1013) * 0.001f;
    if (st == SWGL_OK) st = compute ? gpu_compute_create("copy_cs", NULL, &cs) : gpu_program_create("copy", NULL, &p);
    for (int k = 0; k < 2 && st == SWGL_OK; k++)
        if ((st = gpu_array2d_create(&d, &ar[k])) == SWGL_OK) st = gpu_array2d_upload(ar[k], init);
    free(init);
    int flip = 0, reps = 0;
    /* batch -1: the warm-up copy, which sets reps */
    for (int b = -1; b < BATCHES && st == SWGL_OK; b++) {
        int n = b < 0 ? 1 : reps;
        gpu_finish();
        double t0 = cpu_seconds();
        for (int r = 0; r < n && st == SWGL_OK; r++, flip = 1 - flip) {
            gpu_array2d *in = ar[flip], *out = ar[1 - flip];
            if (compute) {
                gpu_compute_begin(cs);
                gpu_compute_texture(cs, "u_in", 0, in);
                gpu_compute_image(cs, 0, out, GPU_IMAGE_WRITE);
                st = gpu_compute_dispatch(cs, N, N);
            } else {
                gpu_pass ps;
                gpu_pass_begin(&ps, p);
                gpu_pass_array(&ps, "u_in", in);
                st = gpu_pass_draw(&ps, out, NULL);
            }
        }
        gpu_finish();
        double s = (cpu_seconds() - t0) / n;
        if (b < 0) {
            reps = s > 0 ? (int)(batch_s / s) : 100;
            reps = reps < 2 ? 2 : reps > 2000 ? 2000 : reps;
        } else {
            int i = b;   /* kept in order: t[0..b] ascending */
            for (; i > 0 && t[i - 1] > s; i--) t[i] = t[i - 1];
            t[i] = s;
        }
    }
    if (st == SWGL_OK && t[BATCHES / 2] > 0) gbs = 32.0 * N * N / t[BATCHES / 2] / 1e9;
    gpu_program_destroy(p);
    gpu_compute_destroy(cs);
    gpu_array2d_destroy(ar[0]);
    gpu_array2d_destroy(ar[1]);
    return gbs;
}

/* The copy ceiling on a headless context of the device, a GL 4.3 one where it has one (as
 * swgl bench gpgpu's), as the compute kernel or the fragment pass (swgl.h). */
SWGL_API swgl_status swgl_copy_bandwidth(int use_device, int device, int compute, double *gbs)
{
    if (sim_gpu_sims() > 0)
        return swgl_fail(SWGL_ERR_ARG, "swgl_copy_bandwidth: a GPU sim is alive in this process (one GL context at a time)");
    gpu_context_desc gd = {.device = device, .use_device = use_device, .want_compute = 1};
    gpu_context *ctx = NULL;
    *gbs = 0;
    swgl_status st = gpu_context_create(&gd, &ctx);
    if (st != SWGL_OK) return st;
    if (compute && !gpu_context_info(ctx)->compute_context) {
        gpu_context_destroy(ctx);
        return swgl_fail(SWGL_ERR_NO_CONTEXT, "the copy as a compute kernel needs a GL 4.3 core context");
    }
    int was = gpu_compute_passes();
    gpu_set_compute_passes(compute);
    *gbs = swgl_copy_gbs_current();
    gpu_set_compute_passes(was);
    gpu_context_destroy(ctx);
    return *gbs > 0 ? SWGL_OK : swgl_fail(SWGL_ERR_GL, "the copy ceiling failed: %s", swgl_last_error());
}

SWGL_API swgl_status swgl_raster_read(const char *path, swgl_raster *r)
{
    memset(r, 0, sizeof *r);
    if (!path) return swgl_fail(SWGL_ERR_ARG, "swgl_raster_read: no path");
    raster g;
    swgl_status st = raster_read(path, &g);
    if (st != SWGL_OK) return st;
    r->nx = g.nx;
    r->ny = g.ny;
    r->x0 = g.x0;
    r->y0 = g.y0;
    r->dx = g.dx;
    r->dy = g.dy;
    r->v = g.v;   /* NaN at NODATA (raster.h) */
    g.v = NULL;
    raster_free(&g);
    return SWGL_OK;
}

SWGL_API void swgl_raster_free(swgl_raster *r)
{
    if (!r) return;
    free(r->v);
    memset(r, 0, sizeof *r);
}
