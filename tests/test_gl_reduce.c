/* test_gl_reduce.c — gpu_reductor: min and max are exact, sums agree with a
 * compensated (Kahan) double sum within the float pairwise-summation bound, at sizes
 * 1x1, 1xN, Nx1, 3x7, 257x129, 1000x1000; scratch arrays are reused across calls, a
 * size's kept when two sizes are reduced in turn. */
#include "gl_util.h"
#include "gpu_program.h"
#include "gpu_reductor.h"

static void one_size(gpu_reductor *r, int w, int h, uint64_t seed)
{
    size_t n = (size_t)w * h;
    float *v = malloc(4 * n * sizeof(float));
    for (size_t i = 0; i < 4 * n; i++) v[i] = test_rand_float(&seed) * (float)(1 + (i % 4) * 100);
    gpu_array2d *a = NULL;
    gpu_array2d_desc d = {w, h, GPU_RGBA32F, "reduce input"};
    gpu_array2d_create(&d, &a);
    gpu_array2d_upload(a, v);
    float mn[4], mx[4], sm[4];
    CHECK(gpu_reductor_run(r, a, GPU_REDUCE_MIN, mn) == SWGL_OK, "min %dx%d: %s", w, h, swgl_last_error());
    CHECK(gpu_reductor_run(r, a, GPU_REDUCE_MAX, mx) == SWGL_OK, "max %dx%d: %s", w, h, swgl_last_error());
    CHECK(gpu_reductor_run(r, a, GPU_REDUCE_SUM, sm) == SWGL_OK, "sum %dx%d: %s", w, h, swgl_last_error());
    int passes = gpu_reductor_passes(r);
    for (int c = 0; c < 4; c++) {
        float lo = v[c], hi = v[c];
        double s = 0, comp = 0, abs_sum = 0;
        for (size_t i = 0; i < n; i++) {
            float x = v[4 * i + c];
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
            double y = (double)x - comp, t = s + y;   /* Kahan */
            comp = (t - s) - y;
            s = t;
            abs_sum += fabs((double)x);
        }
        CHECK(mn[c] == lo, "%dx%d channel %d: min %.9g exact (min picks an element: no rounding)", w, h, c, mn[c]);
        CHECK(mx[c] == hi, "%dx%d channel %d: max %.9g exact", w, h, c, mx[c]);
        /* pairwise float summation: each stage adds twice, so at most 2*passes rounding
           steps of 2^-24 relative to the sum of magnitudes */
        double tol = 2.0 * passes * ldexp(1.0, -24) * abs_sum + 1e-30;
        CHECK_NEAR(sm[c], s, tol, "%dx%d channel %d: sum vs Kahan sum, tolerance 2*%d*2^-24*sum|x| (pairwise float)",
                   w, h, c, passes);
    }
    gpu_array2d_destroy(a);
    free(v);
}

int main(void)
{
    gpu_context *ctx = test_gl_context();
    gpu_reductor *r = NULL;
    CHECK(gpu_reductor_create(&r) == SWGL_OK, "create");
    static const int sizes[][2] = {{1, 1}, {1, 1000}, {1000, 1}, {3, 7}, {257, 129}, {1000, 1000}, {2, 2}, {5, 1}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) one_size(r, sizes[i][0], sizes[i][1], 77 + i);
    /* reuse: a second call at one size takes the same number of passes (the scratch arrays
     * are kept per input size, one chain for the 2x2 passes and one for the kernel) */
    one_size(r, 257, 129, 5);
    CHECK(gpu_reductor_passes(r) == 9, "257x129 sums in 9 passes (ceil(log2 257))");
    if (gpu_compute_passes()) {   /* min and max: the kernel reduce_cs, 32x32 blocks a dispatch */
        gpu_array2d *a = NULL;
        gpu_array2d_desc d = {257, 129, GPU_RGBA32F, "reduce input"};
        float mn[4];
        gpu_array2d_create(&d, &a);
        CHECK(gpu_array2d_fill(a, (const float[4]){1, 2, 3, 4}) == SWGL_OK, "fill");
        CHECK(gpu_reductor_run(r, a, GPU_REDUCE_MIN, mn) == SWGL_OK && mn[3] == 4, "min of a constant array");
        CHECK(gpu_reductor_passes(r) == 2, "257x129: min in 2 kernel dispatches (257 -> 9 -> 1), not %d",
              gpu_reductor_passes(r));
        gpu_array2d_destroy(a);
    }
    /* two sizes in turn (a stage in parts over MPI ranks reduces every cell's bound, the
     * whole stage its work groups' minima): each size's arrays are built once and kept,
     * and every result is still right; the kernel (min, max) and the 2x2 passes (sum) each
     * keep a chain a size on the compute path, the 2x2 passes one on the fragment path */
    gpu_reductor *r2 = NULL;
    CHECK(gpu_reductor_create(&r2) == SWGL_OK, "create a second reductor");
    for (int k = 0; k < 6; k++) one_size(r2, k % 2 ? 1000 : 257, k % 2 ? 999 : 129, 900 + (uint64_t)k);
    unsigned long kinds = gpu_compute_passes() ? 2 : 1;
    CHECK(gpu_reductor_builds(r2) == 2 * kinds, "257x129 and 1000x999 reduced in turn three times: %lu chains built, "
          "expected %lu (a size's kept)", gpu_reductor_builds(r2), 2 * kinds);
    gpu_reductor_destroy(r2);
    gpu_reductor_destroy(r);
    gpu_reductor_destroy(NULL);
    gpu_context_destroy(ctx);
    return check_done();
}
