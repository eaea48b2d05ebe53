/* sim_lib.c — the library-wide calls of swgl.h: version, features, built-in cases, the
 * devices, the copy ceiling, MPI's start and end, and reading a raster. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "swgl.h"

#include "cpu_info.h"
#include "gpu_array2d.h"
#include "gpu_context.h"
#include "gpu_pass.h"
#include "gpu_program.h"
#include "output.h"
#include "output_nc.h"
#include "scenario.h"
#include "scheme_mpi.h"

SWGL_API const char *swgl_version(void) { return SWGL_VERSION; }

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

SWGL_API int swgl_print_devices(FILE *f, int use_device, int device)
{
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

/* The copy on the current context: 2048^2 float4 arrays, ping-pong (each copy reads the last,
 * so none can be dropped), batches of at least 0.2 s, the best of 3. */
double swgl_copy_gbs_current(void)
{
    gpu_program *p = NULL;
    gpu_array2d *a = NULL, *b = NULL;
    gpu_array2d_desc d = {2048, 2048, GPU_RGBA32F, "copy a"};
    double best = 0;
    if (gpu_program_create("copy", NULL, &p) || gpu_array2d_create(&d, &a) || gpu_array2d_create(&d, &b)) goto done;
    float z[4] = {1, 2, 3, 4};
    gpu_array2d_fill(a, z);
    for (int rep = 0; rep < 3; rep++) {
        gpu_finish();
        double t0 = cpu_seconds();
        int n = 0;
        while (cpu_seconds() - t0 < 0.2 || n < 3) {
            gpu_pass ps;
            gpu_pass_begin(&ps, p);
            gpu_pass_array(&ps, "u_in", n % 2 ? b : a);
            gpu_pass_draw(&ps, n % 2 ? a : b, NULL);
            if (++n % 4 == 0) gpu_finish();
        }
        gpu_finish();
        double gbs = 32.0 * 2048 * 2048 * n / (cpu_seconds() - t0) / 1e9;
        best = gbs > best ? gbs : best;
    }
done:
    gpu_program_destroy(p);
    gpu_array2d_destroy(a);
    gpu_array2d_destroy(b);
    return best;
}

SWGL_API swgl_status swgl_copy_bandwidth(int use_device, int device, int compute, double *gbs)
{
    gpu_context_desc gd = {.device = device, .use_device = use_device, .want_compute = compute};
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
    return *gbs > 0 ? SWGL_OK : swgl_fail(SWGL_ERR_GL, "the copy pass failed: %s", swgl_last_error());
}

SWGL_API swgl_status swgl_raster_read(const char *path, swgl_raster *r)
{
    memset(r, 0, sizeof *r);
    if (!path) return swgl_fail(SWGL_ERR_ARG, "swgl_raster_read: no path");
    unsigned char *nd = NULL;
    swgl_status st = asc_read(path, &r->nx, &r->ny, &r->x0, &r->y0, &r->dx, &r->dy, &r->v, &nd);
    if (st != SWGL_OK) return st;
    size_t n = (size_t)r->nx * (size_t)r->ny;
    for (size_t k = 0; nd && k < n; k++)
        if (nd[k]) r->v[k] = NAN;
    free(nd);
    return SWGL_OK;
}

SWGL_API void swgl_raster_free(swgl_raster *r)
{
    if (!r) return;
    free(r->v);
    memset(r, 0, sizeof *r);
}
