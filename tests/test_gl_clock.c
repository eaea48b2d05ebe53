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
 *   - a span of many stops: the clock lands on each in turn by itself, texel W naming the
 *     last landing; a stop past the window the CPU gave takes no time;
 *   - a blow-up (a NaN bound, a bound under the floor): dt = 0, the blown flag, the bound
 *     that blew up kept in texel W.y after it;
 *   - a clock read back through the ring (gpu_clock_request / fetch) is the clock in the
 *     array.  Skips (77) without an EGL device. */
#include <math.h>
#include <string.h>

#include "gl_util.h"
#include "gpu_clock.h"

enum { T = GPU_CLOCK_TEXELS, NS = GPU_CLOCK_STEPS, W = GPU_CLOCK_WINDOW };

/* The rule on the CPU, in float, as clock_rule.glsl: the next clock from the previous one;
 * the stop aimed at is the one after the stop the last step landed on, within the span's
 * [stop, last], its time left from the window (left, more[]) */
static void rule(const float *prev, float b, const gpu_clock_args *a, float *next)
{
    float flags = prev[3], stop_of_prev = floorf(flags / 4.0f), bits = flags - 4.0f * stop_of_prev;
    float first = (float)a->stop, last = (float)(a->multi ? a->last : a->stop);
    float wfirst = (float)(a->multi ? a->wfirst : a->stop);
    int was = bits == 1.0f || bits == 3.0f;
    float Tt = fminf(fmaxf(stop_of_prev + (was ? 1.0f : 0.0f), first), last);
    int blown_before = bits >= 2.0f, landed = was && stop_of_prev == Tt, hold = Tt < wfirst || Tt > wfirst + 8.0f;
    int k0 = (int)(Tt - wfirst);
    float left = k0 <= 0 || hold ? (float)a->left : (float)a->more[k0 - 1], S = 0.0f;
    for (int k = 0; k < a->unknown; k++) {
        float d = gpu_clock_dt(prev, k);
        left -= d;
        S += d;
    }
    int blown = blown_before || !(b > 0.0f) || b < (float)a->floor, lands = 0;
    float dt;
    if (blown || landed || hold) dt = 0.0f;
    else if (left <= b) {
        dt = fmaxf(left, 0.0f);
        lands = 1;
    } else dt = b;
    memset(next, 0, 4 * T * sizeof(float));
    float d[NS];
    d[0] = dt;
    for (int k = 1; k < NS; k++) d[k] = gpu_clock_dt(prev, k - 1);
    for (int k = 0; k < NS; k++) next[k < 3 ? k : k + 1] = d[k];
    next[3] = 4.0f * Tt + (lands || landed ? 1.0f : 0.0f) + (blown ? 2.0f : 0.0f);
    next[4 * W] = dt + S;
    next[4 * W + 1] = blown_before ? prev[4 * W + 1] : b;
    next[4 * W + 2] = lands ? 1.0f : prev[4 * W + 2] > 0.0f ? prev[4 * W + 2] + 1.0f : 0.0f;
    next[4 * W + 3] = lands ? Tt : prev[4 * W + 3];
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
        gpu_clock_args a = {.left = 1000.0 - 0.37 * i, .unknown = unknown, .floor = 1e-6, .stop = 0};
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
    gpu_clock_args land = {.left = left, .unknown = 12, .floor = 1e-6, .stop = 3};
    ok = step(c, bound, cpu, 0.5f, &land);
    CHECK(ok && ((int)cpu[3] & 1) && (int)cpu[3] / 4 == 3 && cpu[0] > 0 && cpu[0] < 0.5f,
          "the landing step is the time left less the unknown steps (%.9g), landed on stop 3", cpu[0]);
    gpu_clock_args after = {.left = left, .unknown = 13, .floor = 1e-6, .stop = 3};
    ok = step(c, bound, cpu, 0.5f, &after);
    CHECK(ok && cpu[0] == 0.0f && ((int)cpu[3] & 1), "after the landing: dt = 0, still landed");
    gpu_clock_args next_stop = {.left = 100.0, .unknown = 0, .floor = 1e-6, .stop = 4};
    ok = step(c, bound, cpu, 0.5f, &next_stop);
    CHECK(ok && cpu[0] == 0.5f && (int)cpu[3] == 16, "the next stop's first step is the bound again, not landed");

    /* a span of many stops (gpu_clock.h): stops 10..14 at 0.3, 0.6, 0.9, 1.2, 1.5 s from a
     * fresh clock, the CPU knowing none of the steps (its t stays 0), the window from stop
     * 10 holding 11..14; the clock lands on each in turn, a step of bound 0.25 otherwise,
     * texel W naming the last landing (steps since it + 1, its stop) */
    CHECK(gpu_clock_reset(c) == SWGL_OK, "reset: %s", swgl_last_error());
    memset(cpu, 0, sizeof cpu);
    gpu_clock_args ms = {.left = 0.3, .floor = 1e-6, .stop = 10, .multi = 1, .last = 14, .wfirst = 10, .n_more = 4,
                         .more = {0.6, 0.9, 1.2, 1.5}};
    int landings = 0, order = 1;
    float tl = 0.0f;
    for (int i = 0; i < 12 && ok; i++) {
        ms.unknown = i;
        ok = step(c, bound, cpu, 0.25f, &ms);
        tl += cpu[0];
        if (cpu[4 * W + 2] == 1.0f) order = order && cpu[4 * W + 3] == (float)(10 + landings++);
    }
    CHECK(ok && landings == 5 && order && ((int)cpu[3] & 1) && (int)cpu[3] / 4 == 14 && fabsf(tl - 1.5f) < 1e-6f,
          "a span of 5 stops: landed on each in turn (%d landings, in order %d), the last one kept, time %.9g", landings,
          order, tl);
    /* the window: stops 10..30 every 0.3 s, the CPU giving the times of 10..18 only (its
     * nine) and learning nothing: the clock lands on those nine, then holds at 19 (no
     * time taken, not landed) until the CPU gives more */
    CHECK(gpu_clock_reset(c) == SWGL_OK, "reset: %s", swgl_last_error());
    memset(cpu, 0, sizeof cpu);
    gpu_clock_args win = {.left = 0.3, .floor = 1e-6, .stop = 10, .multi = 1, .last = 30, .wfirst = 10, .n_more = 8,
                          .more = {0.6, 0.9, 1.2, 1.5, 1.8, 2.1, 2.4, 2.7}};
    landings = 0;
    for (int i = 0; i < 30 && ok; i++) {
        win.unknown = i;
        ok = step(c, bound, cpu, 0.25f, &win);
        landings += cpu[4 * W + 2] == 1.0f;
    }
    CHECK(ok && landings == 9 && (int)cpu[3] == 4 * 19 && cpu[0] == 0.0f && cpu[4 * W + 3] == 18.0f,
          "stops past the window the CPU gave: %d landings (10..18), then no time taken, aimed at stop 19 (flags %g)",
          landings, cpu[3]);

    /* blow-ups: a bound under the floor, then a NaN bound (the first one is kept) */
    gpu_clock_args go = {.left = 100.0, .unknown = 0, .floor = 1e-3, .stop = 4};
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
