/* test_gl_clock.c — gpgpu's clock (gpu_clock.h, clock.glsl): the step chosen on the GPU.
 * Each step's clock is compared with what the rule gives on the CPU in the same float
 * operations (tolerance 0: the same IEEE additions in the same order; the GPU's float add
 * and subtract round to nearest, as the CPU's do):
 *   - the window: after every step, d_k is the step k steps before (0 before the first),
 *     for every k < GPU_CLOCK_STEPS, through 200 steps, with the CPU knowing none, some or
 *     GPU_CLOCK_STEPS - 1 of the recent steps (u_unknown), and texel W the time since the
 *     CPU's t (this step and the unknown ones) and the bound;
 *   - the landing: the step that reaches the stop is the time left less the unknown steps,
 *     with the landed flag; the steps after it are 0 and keep the flag; another stop index
 *     clears it;
 *   - a blow-up (a NaN bound, a bound under the floor): dt = 0, the blown flag, the bound
 *     that blew up kept in texel W.y after it;
 *   - a clock read back through the ring (gpu_clock_request / fetch) is the clock in the
 *     array.  Skips (77) without an EGL device. */
#include <math.h>
#include <string.h>

#include "gl_util.h"
#include "gpu_clock.h"

enum { T = GPU_CLOCK_TEXELS, NS = GPU_CLOCK_STEPS, W = GPU_CLOCK_WINDOW };

/* The rule on the CPU, in float, as clock_rule.glsl: the next clock from the previous one */
static void rule(const float *prev, float b, const gpu_clock_args *a, float *next)
{
    float flags = prev[3], stop_of_prev = floorf(flags / 4.0f), bits = flags - 4.0f * stop_of_prev;
    int blown_before = bits >= 2.0f, landed = stop_of_prev == (float)a->stop && (bits == 1.0f || bits == 3.0f);
    float left = (float)a->left, S = 0.0f;
    for (int k = 0; k < a->unknown; k++) {
        float d = gpu_clock_dt(prev, k);
        left -= d;
        S += d;
    }
    int blown = blown_before || !(b > 0.0f) || b < (float)a->floor, lands = 0;
    float dt;
    if (blown || landed) dt = 0.0f;
    else if (left <= b) {
        dt = fmaxf(left, 0.0f);
        lands = 1;
    } else dt = b;
    memset(next, 0, 4 * T * sizeof(float));
    float d[NS];
    d[0] = dt;
    for (int k = 1; k < NS; k++) d[k] = gpu_clock_dt(prev, k - 1);
    for (int k = 0; k < NS; k++) next[k < 3 ? k : k + 1] = d[k];
    next[3] = 4.0f * (float)a->stop + (lands || landed ? 1.0f : 0.0f) + (blown ? 2.0f : 0.0f);
    next[4 * W] = dt + S;
    next[4 * W + 1] = blown_before ? prev[4 * W + 1] : b;
}

/* One step on the GPU (the clock pass with the bound b) and on the CPU; 1 when the two
 * clocks agree to the bit (NaN as NaN) */
static int step(gpu_clock *c, gpu_array2d *bound, float *cpu, float b, const gpu_clock_args *a)
{
    float bv[4] = {b, b, b, b}, next[4 * T], gpu[4 * T];
    rule(cpu, b, a, next);
    memcpy(cpu, next, sizeof next);
    if (gpu_array2d_upload(bound, bv) != SWGL_OK || gpu_clock_pass(c, bound, a) != SWGL_OK ||
        gpu_array2d_download(gpu_clock_now(c), gpu) != SWGL_OK) {
        printf("      step: %s\n", swgl_last_error());
        return 0;
    }
    for (int k = 0; k < 4 * T; k++) {
        int same = (isnan(gpu[k]) && isnan(cpu[k])) || memcmp(&gpu[k], &cpu[k], sizeof(float)) == 0;
        if (!same) {
            printf("      texel %d channel %d: GPU %.9g, CPU %.9g\n", k / 4, k % 4, gpu[k], cpu[k]);
            return 0;
        }
    }
    return 1;
}

int main(void)
{
    gpu_context *ctx = test_gl_context();
    gpu_clock *c = NULL;
    gpu_array2d *bound = NULL;
    gpu_array2d_desc bd = {1, 1, GPU_RGBA32F, "bound"};
    CHECK(gpu_clock_create(0, &c) == SWGL_OK && gpu_array2d_create(&bd, &bound) == SWGL_OK, "clock: %s",
          swgl_last_error());
    CHECK(gpu_clock_create(4, &(gpu_clock *){NULL}) == SWGL_ERR_ARG, "a bound channel past 3 is refused: %s",
          swgl_last_error());
    swgl_clear_error();
    float cpu[4 * T];
    memset(cpu, 0, sizeof cpu);

    /* the window through 200 steps, the CPU knowing none of them, then some */
    uint64_t seed = 5;
    int ok = 1, n = 0;
    for (int i = 0; i < 200 && ok; i++, n++) {
        float b = 0.5f + 0.25f * test_rand_float(&seed);
        int unknown = i < NS ? i : i % 3 == 0 ? NS : (int)(test_rand_u64(&seed) % NS);
        gpu_clock_args a = {1000.0 - 0.37 * i, unknown, 1e-6, 0};
        ok = step(c, bound, cpu, b, &a);
    }
    CHECK(ok, "200 steps: each clock holds the %d steps before it, the time since the CPU's t and the bound, "
              "as the rule on the CPU (to the bit)", NS);
    /* what came through the window: step k back is the bound of step n - k */
    float got[4 * T];
    gpu_clock_request(c);
    int ready = 0;
    CHECK(gpu_clock_pending(c) == 1 && gpu_clock_fetch(c, 1, got, &ready) == SWGL_OK && ready &&
              memcmp(got, cpu, sizeof got) == 0 && gpu_clock_pending(c) == 0,
          "a clock read back through the ring is the clock's array: %s", swgl_last_error());

    /* landing: 12 unknown steps and a time left that the next step reaches */
    float sum = 0.0f, left;
    for (int k = 0; k < 12; k++) sum += gpu_clock_dt(cpu, k);
    left = sum + 0.1f;   /* the step lands: time left less the 12 unknown ones < bound 0.5 */
    gpu_clock_args land = {left, 12, 1e-6, 3};
    ok = step(c, bound, cpu, 0.5f, &land);
    CHECK(ok && ((int)cpu[3] & 1) && (int)cpu[3] / 4 == 3 && cpu[0] > 0 && cpu[0] < 0.5f,
          "the landing step is the time left less the unknown steps (%.9g), landed on stop 3", cpu[0]);
    gpu_clock_args after = {left, 13, 1e-6, 3};
    ok = step(c, bound, cpu, 0.5f, &after);
    CHECK(ok && cpu[0] == 0.0f && ((int)cpu[3] & 1), "after the landing: dt = 0, still landed");
    gpu_clock_args next_stop = {100.0, 0, 1e-6, 4};
    ok = step(c, bound, cpu, 0.5f, &next_stop);
    CHECK(ok && cpu[0] == 0.5f && (int)cpu[3] == 16, "the next stop's first step is the bound again, not landed");

    /* blow-ups: a bound under the floor, then a NaN bound (the first one is kept) */
    gpu_clock_args go = {100.0, 0, 1e-3, 4};
    ok = step(c, bound, cpu, 1e-4f, &go);
    CHECK(ok && cpu[0] == 0.0f && ((int)cpu[3] & 2) && cpu[4 * W + 1] == 1e-4f,
          "a bound under the floor: dt = 0, blown, the bound kept for the message");
    ok = step(c, bound, cpu, NAN, &go);
    CHECK(ok && cpu[0] == 0.0f && ((int)cpu[3] & 2) && cpu[4 * W + 1] == 1e-4f,
          "after a blow-up: dt = 0, still blown, the first bound kept");
    CHECK(gpu_clock_reset(c) == SWGL_OK && gpu_array2d_download(gpu_clock_now(c), got) == SWGL_OK, "reset: %s",
          swgl_last_error());
    int zero = 1;
    for (int k = 0; k < 4 * T; k++) zero = zero && got[k] == 0.0f;
    CHECK(zero, "a reset clock is all zero (no step unknown, no flag)");
    memset(cpu, 0, sizeof cpu);
    ok = step(c, bound, cpu, NAN, &go);
    CHECK(ok && ((int)cpu[3] & 2) && isnan(cpu[4 * W + 1]), "a NaN bound blows up, and the NaN is reported");

    gpu_array2d_destroy(bound);
    gpu_clock_destroy(c);
    gpu_context_destroy(ctx);
    return check_done();
}
