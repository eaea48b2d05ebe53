/* gpu_clock.h — the time step chosen on the GPU (shaders/gpgpu/clock.glsl), so that a
 * time loop need not read anything back to take a step: a clock is a row of
 * GPU_CLOCK_TEXELS float4 texels written once per step, ping-pong,
 *     texel 0          (d_0, d_1, d_2, flags)        flags = 4 stop + landed + 2 blown
 *     texel j in 1..W-1 (d_4j-1, d_4j, d_4j+1, d_4j+2)
 *     texel W          (s, bound, 0, 0)
 * (W = GPU_CLOCK_WINDOW): d_0 the step this clock chose, d_k the step k steps before it,
 * GPU_CLOCK_STEPS of them; s the time after this step less the time the CPU knew
 * (u_left's), bound the bound this step's state allowed (once blown: the one that blew up).
 * Read back every so many steps, one clock gives the CPU every step since the last one it
 * read (solver/schemes/swe/gpu_steps.c), so a read-back (a pixel-pack copy and a fence: some
 * 50 us on an H200, docs/performance.md) is paid once per many steps, not once per step.
 * The rule (clock_rule.glsl) needs the steps the CPU has not read yet (at most
 * GPU_CLOCK_STEPS).  The shaders see W as SWGL_CLOCK_W (gpu_program.c defines it in every
 * program).  Knows nothing of water. */
#ifndef SWGL_GPU_CLOCK_H
#define SWGL_GPU_CLOCK_H

#include "gpu_array2d.h"
#include "gpu_pass.h"

#define GPU_CLOCK_WINDOW 32
#define GPU_CLOCK_TEXELS (GPU_CLOCK_WINDOW + 1)
#define GPU_CLOCK_STEPS (4 * GPU_CLOCK_WINDOW - 1)
#define GPU_CLOCK_STR2(x) #x
#define GPU_CLOCK_STR(x) GPU_CLOCK_STR2(x)
#define GPU_CLOCK_GLSL "#define SWGL_CLOCK_W " GPU_CLOCK_STR(GPU_CLOCK_WINDOW) "\n"

/* What the rule takes besides the bound: left = stop - t as the CPU knows t (computed in
 * double), unknown = the steps issued since that t (their steps are in the previous
 * clock), the step under which the bound counts as a collapse (dt_floor) and the stop's
 * index (the landed flag names it).
 * A span of many stops (multi; solver/schemes/swe/gpu_steps.c): the clock lands on each
 * in turn, stop to last, without the CPU (clock_rule.glsl swgl_clock_target: the stop
 * after the one the last step landed on); left is then the time to stop `wfirst` and
 * more[k] to stop wfirst + 1 + k (k < n_more <= 8), the window of stops the CPU gives
 * times to; a step that aims past it takes no time.  Texel W's z and w name the last
 * landing (the steps since it, plus one; its stop), so that the CPU can set its time to
 * that stop exactly. */
typedef struct gpu_clock_args {
    double left;
    int unknown;
    double floor;
    int stop;
    int multi, last, wfirst, n_more;
    double more[8];
    double t;    /* the CPU's time the lefts count from (the steps since: unknown) */
} gpu_clock_args;
#define GPU_CLOCK_WINDOW_STOPS 9   /* left and more[8] */

typedef struct gpu_clock gpu_clock;

/* bound_channel: the channel of the bound in the 1x1 array the clock pass reads. */
swgl_status gpu_clock_create(int bound_channel, gpu_clock **out);
void gpu_clock_destroy(gpu_clock *c);                     /* NULL is fine */
/* Both clocks to zero: no step unknown, no flag (a span's start). */
swgl_status gpu_clock_reset(gpu_clock *c);
/* The clock of the last step, and the one a step writes next (a kernel that chooses the
 * step itself: bind it with gpu_pass_image, then gpu_clock_flip). */
gpu_array2d *gpu_clock_now(gpu_clock *c);
gpu_array2d *gpu_clock_next(gpu_clock *c);
void gpu_clock_flip(gpu_clock *c);
/* Binds the previous clock (u_prev) and the rule's uniforms (clock_rule.glsl) to p: all of
 * them (swgl_clock_texel), those of swgl_clock_unknown (u_left, u_unknown), or those of
 * swgl_clock_texel_with (u_floor, u_stop), for a kernel that computes the two apart. */
void gpu_clock_bind_rule(gpu_clock *c, gpu_pass *p, const gpu_clock_args *a);
void gpu_clock_bind_unknown(gpu_clock *c, gpu_pass *p, const gpu_clock_args *a);
void gpu_clock_bind_texel(gpu_clock *c, gpu_pass *p, const gpu_clock_args *a);
/* The clock pass (clock.glsl) from a 1x1 bound array into the next clock; flips. */
swgl_status gpu_clock_pass(gpu_clock *c, const gpu_array2d *bound, const gpu_clock_args *a);

/* Reading a clock back: each request copies the last step's clock (gpu_readback), fetched
 * in the order requested; out holds GPU_CLOCK_TEXELS x 4 floats. */
swgl_status gpu_clock_request(gpu_clock *c);
int gpu_clock_pending(const gpu_clock *c);
swgl_status gpu_clock_fetch(gpu_clock *c, int wait, float *out, int *ready);

/* Of a clock read back: d_k, the step k steps before the clock's own (k < GPU_CLOCK_STEPS) */
float gpu_clock_dt(const float *texels, int k);

#endif
