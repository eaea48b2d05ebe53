/* bench_layer.c — swgl_bench_layer (include/swgl.h; `swgl bench gpgpu`): the ceilings of
 * the texture layer on a renderer.  For square arrays from nmin^2 up, the time of a float4
 * copy pass, a 5-point stencil pass, a 3-output MRT pass and a full sum reduction (with its
 * 1x1 read-back), in GB/s and Mcells/s.  Bytes are the fewest a pass must move: every input
 * element read once and every output element written once (16 bytes per float4).  The
 * copy rows at SWGL_COPY_CEILING_N^2 are the ceiling the scheme benches state their speed
 * against: they come from swgl_copy_gbs_current (sim_lib.c), the very call behind
 * swgl_copy_bandwidth, so the two agree by construction; a line after the table gives that
 * ceiling whatever the sizes.  Where GL 4.3 is there, also the compute copy, and what a dispatch
 * costs however little it does: one work group copying 16 x 16 texels after the last
 * dispatch's barrier, with its group count given or read from a buffer
 * (glDispatchComputeIndirect), the floor of a time step made of dependent dispatches. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swgl.h"

#include "cpu_info.h"
#include "gpu_buffer.h"
#include "gpu_compute.h"
#include "gpu_context.h"
#include "gpu_pass.h"
#include "gpu_program.h"
#include "gpu_reductor.h"
#include "sim_internal.h"

/* Each timed pass reads what the previous one wrote (ping-pong), so a renderer cannot
 * drop a draw whose output the next draw overwrites unread (llvmpipe does exactly that
 * with repeated full-screen draws into one target). */
typedef struct bench_arrays {
    gpu_array2d *a, *b;
    gpu_mrt *m[2];
    int flip;
} bench_arrays;

typedef swgl_status (*bench_fn)(void *ctx);

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Seconds per call of fn, median of 5 batches after a warm-up, each batch long enough
 * to dwarf glFinish's latency; -1 where fn failed. */
static double time_it(bench_fn fn, void *ctx, double min_batch_s)
{
    gpu_finish();
    double t0 = cpu_seconds();
    if (fn(ctx) != SWGL_OK) return -1;
    gpu_finish();
    double one = cpu_seconds() - t0;
    int reps = one > 0 ? (int)(min_batch_s / one) : 100;
    if (reps < 2) reps = 2;
    if (reps > 2000) reps = 2000;
    double t[5];
    for (int b = 0; b < 5; b++) {
        gpu_finish();
        t0 = cpu_seconds();
        for (int r = 0; r < reps; r++)
            if (fn(ctx) != SWGL_OK) return -1;
        gpu_finish();
        t[b] = (cpu_seconds() - t0) / reps;
    }
    qsort(t, 5, sizeof t[0], cmp_double);
    return t[2];
}

typedef struct job {
    gpu_program *prog;
    bench_arrays *ar;
    gpu_reductor *red;
    int mrt;
    gpu_compute *cs;
    gpu_buffer *groups;   /* the dispatch latency: the group count of an indirect dispatch */
} job;

/* one work group of the copy kernel (its count given, or from j->groups), ping-pong */
static swgl_status run_dispatch(void *v)
{
    job *j = v;
    bench_arrays *ar = j->ar;
    int f = ar->flip;
    ar->flip = 1 - f;
    gpu_pass p;
    gpu_pass_begin(&p, j->prog);
    gpu_pass_array(&p, "u_in", f ? ar->b : ar->a);
    gpu_pass_image(&p, 0, f ? ar->a : ar->b);
    return j->groups ? gpu_pass_dispatch_indirect(&p, j->groups, 0, 16, 16) : gpu_pass_dispatch_groups(&p, 1, 1, 16, 16);
}

/* What a dispatch costs however little it does (GL 4.3); 0, or 1 where it failed (said
 * in the table) */
static int dispatch_latency(FILE *out, double batch)
{
    static const unsigned one[3] = {1, 1, 1};
    bench_arrays ar = {0};
    gpu_array2d_desc d = {16, 16, GPU_RGBA32F, "dispatch"};
    gpu_program *k = NULL;
    gpu_buffer *b = NULL;
    float zero[4] = {0, 0, 0, 0};
    swgl_status st = gpu_program_create_kernel("copy_cs", NULL, &k);
    if (st == SWGL_OK) st = gpu_array2d_create(&d, &ar.a);
    if (st == SWGL_OK) st = gpu_array2d_create(&d, &ar.b);
    if (st == SWGL_OK) st = gpu_array2d_fill(ar.a, zero);
    if (st == SWGL_OK) st = gpu_buffer_create(sizeof one, "group count", &b);
    if (st == SWGL_OK) st = gpu_buffer_upload(b, 0, sizeof one, one);
    fprintf(out, "\ndispatch latency: one 16 x 16 work group copying 16 x 16 texels, after the last dispatch's barrier "
                 "(the floor of a step of dependent dispatches)\n");
    int rc = 0;
    for (int m = 0; m < 2 && st == SWGL_OK; m++) {
        job j = {k, &ar, NULL, 0, NULL, m ? b : NULL};
        double t = time_it(run_dispatch, &j, batch);
        if (t < 0) {
            fprintf(out, "  %-9s failed: %s\n", m ? "indirect" : "direct", swgl_last_error());
            rc = 1;
            continue;
        }
        fprintf(out, "  %-9s %8.2f us a dispatch%s\n", m ? "indirect" : "direct", t * 1e6,
                m ? " (the group count read from a buffer: glDispatchComputeIndirect)" : "");
    }
    if (st != SWGL_OK) {
        fprintf(out, "  failed: %s\n", swgl_last_error());
        rc = 1;
    }
    gpu_buffer_destroy(b);
    gpu_program_destroy(k);
    gpu_array2d_destroy(ar.a);
    gpu_array2d_destroy(ar.b);
    return rc;
}

static swgl_status run_pass(void *v)
{
    job *j = v;
    bench_arrays *ar = j->ar;
    gpu_pass p;
    int f = ar->flip;
    ar->flip = 1 - f;
    gpu_pass_begin(&p, j->prog);
    if (j->mrt) {
        gpu_pass_array(&p, "u_in", gpu_mrt_member(ar->m[1 - f], 0));
        return gpu_pass_draw_mrt(&p, ar->m[f], NULL);
    }
    gpu_pass_array(&p, "u_in", f ? ar->b : ar->a);
    return gpu_pass_draw(&p, f ? ar->a : ar->b, NULL);
}

/* the compute copy (GL 4.3), ping-pong like the fragment passes */
static swgl_status run_compute(void *v)
{
    job *j = v;
    bench_arrays *ar = j->ar;
    int f = ar->flip;
    ar->flip = 1 - f;
    gpu_compute_begin(j->cs);
    gpu_compute_texture(j->cs, "u_in", 0, f ? ar->b : ar->a);
    gpu_compute_image(j->cs, 0, f ? ar->a : ar->b, GPU_IMAGE_WRITE);
    return gpu_compute_dispatch(j->cs, gpu_array2d_width(ar->a), gpu_array2d_height(ar->a));
}

/* The copy ceiling (fragment copy, or with compute the copy_cs kernel) on this context:
 * swgl_copy_gbs_current, the function behind swgl_copy_bandwidth; seconds a copy of cells
 * texels (-1 where it failed), its GB/s in *gbs. */
static double ceiling_seconds(int compute, size_t cells, double *gbs)
{
    int was = gpu_compute_passes();
    gpu_set_compute_passes(compute);
    *gbs = swgl_copy_gbs_current();
    gpu_set_compute_passes(was);
    return *gbs > 0 ? 32.0 * (double)cells / (*gbs * 1e9) : -1;
}

static swgl_status run_reduce(void *v)
{
    job *j = v;
    float r[4];
    return gpu_reductor_run(j->red, j->ar->a, GPU_REDUCE_SUM, r);
}

static void arrays_free(bench_arrays *ar)
{
    gpu_array2d_destroy(ar->a);
    gpu_array2d_destroy(ar->b);
    gpu_mrt_destroy(ar->m[0]);
    gpu_mrt_destroy(ar->m[1]);
}

/* The table for every size; 0, or 1 where a pass failed (said in the table). */
static int layer_table(FILE *out, const gpu_info *info, gpu_compute *copy_cs, gpu_program *copy, gpu_program *sten,
                       gpu_program *mrt3, gpu_reductor *red, int nmin, int nmax, double batch, double ceil_gbs[2])
{
    int rc = 0;
    for (int n = nmin; n <= nmax && n <= info->max_texture_size; n *= 2) {
        bench_arrays ar = {0};
        gpu_array2d_desc d = {n, n, GPU_RGBA32F, "bench a"};
        gpu_mrt_desc md = {n, n, 3, {0}, "bench mrt"};
        size_t cells = (size_t)n * n;
        float *init = malloc(cells * 4 * sizeof(float));
        if (!init) break;
        for (size_t i = 0; i < 4 * cells; i++) init[i] = (float)(i % 1013) * 0.001f;
        if (gpu_array2d_create(&d, &ar.a) || gpu_array2d_create(&d, &ar.b) || gpu_mrt_create(&md, &ar.m[0]) ||
            gpu_mrt_create(&md, &ar.m[1]) || gpu_array2d_upload(ar.a, init) ||
            gpu_array2d_upload(ar.b, init) || gpu_array2d_upload(gpu_mrt_member(ar.m[1], 0), init)) {
            fprintf(out, "%7d  (stops here: %s)\n", n, swgl_last_error());
            free(init);
            arrays_free(&ar);
            break;
        }
        free(init);
        struct { const char *name; gpu_program *prog; int mrt; double bytes; int reduce; gpu_compute *cs; } rows[] = {
            {"copy", copy, 0, 32, 0, NULL},
            {"stencil5", sten, 0, 32, 0, NULL},
            {"mrt3", mrt3, 1, 64, 0, NULL},
            {"reduce-sum", NULL, 0, 16, 1, NULL},
            {"copy-cs", NULL, 0, 32, 0, copy_cs},
        };
        double copy_gbs = 0;
        for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
            if (strcmp(rows[r].name, "copy-cs") == 0 && !copy_cs) continue;
            job j = {rows[r].prog, &ar, red, rows[r].mrt, rows[r].cs, NULL};
            /* the copies at the ceiling's size: the ceiling itself, the call every bench's
             * swgl_copy_bandwidth makes (the same kernel, size and timing as the rows) */
            int ceiling = n == SWGL_COPY_CEILING_N && (r == 0 || rows[r].cs);
            double t = ceiling ? ceiling_seconds(rows[r].cs != NULL, cells, &ceil_gbs[rows[r].cs != NULL])
                               : time_it(rows[r].cs ? run_compute : rows[r].reduce ? run_reduce : run_pass, &j, batch);
            if (t < 0) {
                fprintf(out, "%7d  %-12s failed: %s\n", n, rows[r].name, swgl_last_error());
                rc = 1;
                continue;
            }
            double gbs = rows[r].bytes * (double)cells / t / 1e9;
            if (r == 0) copy_gbs = gbs;
            fprintf(out, "%7d  %-12s %10.3f %10.1f %11.1f %8.2f%s\n", n, rows[r].name, t * 1e3, gbs,
                    (double)cells / t / 1e6, gbs / copy_gbs, ceiling ? "  (the ceiling)" : "");
        }
        fflush(out);
        arrays_free(&ar);
    }
    return rc;
}

SWGL_API swgl_status swgl_bench_layer(FILE *out, int use_device, int device, int nmin, int nmax, double batch)
{
    if (!out) return swgl_fail(SWGL_ERR_ARG, "swgl_bench_layer: no stream (NULL)");
    if (nmin < 1 || nmax < nmin || !(batch > 0))
        return swgl_fail(SWGL_ERR_ARG, "swgl_bench_layer: sizes %d .. %d, batch %g s: expected 1 <= nmin <= nmax and a "
                         "batch > 0", nmin, nmax, batch);
    /* a GL 4.3 context where the device has one: the compute copy beside the fragment one */
    gpu_context *ctx = NULL;
    gpu_context_desc cdesc = {.device = device, .use_device = use_device, .want_compute = 1};
    swgl_status st = gpu_context_create(&cdesc, &ctx);
    if (st != SWGL_OK) return st;
    const gpu_info *info = gpu_context_info(ctx);
    gpu_compute *copy_cs = NULL;
    gpu_program *copy = NULL, *sten = NULL, *mrt3 = NULL;
    gpu_reductor *red = NULL;
    if (info->compute_context) st = gpu_compute_create("copy_cs", NULL, &copy_cs);
    if (st == SWGL_OK && (st = gpu_program_create("copy", NULL, &copy)) == SWGL_OK &&
        (st = gpu_program_create("stencil5", NULL, &sten)) == SWGL_OK &&
        (st = gpu_program_create("mrt3", NULL, &mrt3)) == SWGL_OK)
        st = gpu_reductor_create(&red);
    if (st == SWGL_OK) {
        fprintf(out, "swgl bench gpgpu — texture-layer ceilings (fragment passes, and the compute copy where GL 4.3 is "
                     "there; float4 elements)\n");
        fprintf(out, "renderer: %s | %s | GL %s\n", info->renderer, info->vendor, info->version);
        fprintf(out, "compute: %s\n",
                copy_cs ? "copy-cs is copy.glsl's work as a GL 4.3 compute pass (16 x 16 work groups, texelFetch in, "
                          "imageStore out)"
                        : "no GL 4.3 context on this device: fragment passes only");
        fprintf(out, "bytes: each input element read once + each output element written once, 16 B per float4;\n"
                     "each pass reads the previous pass's output (ping-pong), the median of 5 batches\n\n");
        fprintf(out, "%7s  %-12s %10s %10s %11s %9s\n", "N", "pass", "ms", "GB/s", "Mcells/s", "of copy");
        /* the ceiling every bench quotes, from the rows of its size or measured here */
        double ceil_gbs[2] = {0, 0};
        int failed = layer_table(out, info, copy_cs, copy, sten, mrt3, red, nmin, nmax, batch, ceil_gbs);
        for (int c = 0; c < 1 + (copy_cs != NULL); c++)
            if (ceil_gbs[c] <= 0) ceiling_seconds(c, 1, &ceil_gbs[c]);
        fprintf(out, "\nceiling (swgl_copy_bandwidth, what every bench quotes): the copy at %d^2, the median of 5 "
                     "batches of >= 0.2 s: fragment copy %.1f GB/s", SWGL_COPY_CEILING_N, ceil_gbs[0]);
        if (copy_cs) fprintf(out, ", compute copy-cs %.1f GB/s", ceil_gbs[1]);
        fprintf(out, "\n");
        if (ceil_gbs[0] <= 0 || (copy_cs && ceil_gbs[1] <= 0)) {
            fprintf(out, "  (the ceiling failed: %s)\n", swgl_last_error());
            failed = 1;
        }
        if (copy_cs && dispatch_latency(out, batch) != 0) failed = 1;
        fflush(out);
        if (failed) st = swgl_fail(SWGL_ERR_GL, "swgl_bench_layer: a pass failed (its row says why)");
    }
    gpu_reductor_destroy(red);
    gpu_program_destroy(copy);
    gpu_program_destroy(sten);
    gpu_program_destroy(mrt3);
    gpu_compute_destroy(copy_cs);
    gpu_context_destroy(ctx);
    return st;
}
