// kp_integrate_cs.glsl — a kernel of the compute backend (gpu_program_create_kernel): the
// step's clock and stage 0's integration in one dispatch, where the passes draw the clock
// (gpgpu's clock.glsl, one texel) and then the integration (kp_integrate.glsl).  Each
// work group of 16 x 16:
//   1. takes the min of the bound's partial minima u_part (at most 1024 texels, four an
//      invocation: what kp_flux_cs.glsl's groups left, reduced by gpgpu's reduce_cs until
//      that few, so that a grid of at most 1024 flux groups needs no reduction dispatch;
//      channel 0) and from it and the last clock texel u_prev the step (swgl_clock_next,
//      clock_rule.glsl: the clock pass's function, so the same step); group (0, 0) writes
//      that texel to o_clock for the read-back, stage 1 and the flood maps;
//   2. integrates its cells as kp_integrate.glsl does (kp_integrate_cell): Q* (RK2) or
//      Q^{n+1} (Euler) from Q^n (u_state), R (u_R) and the bed.
// The min and the clock are computed by every group (a few hundred loads from the cache
// and a dozen flops) rather than by a dispatch of their own: each dispatch costs some 6 us
// on an H200 however little it does, as much as the whole integration of 0.7 M cells.
layout(local_size_x = 16, local_size_y = 16) in;
#include "kp_real.glsl"
KP_INPUT(u_state);     // Q^n
KP_INPUT(u_R);         // R of Q^n (kp_flux_cs.glsl)
KP_INPUT(u_bed);
SWGL_INPUT(u_part);    // the bound's partial minima, at most 1024 texels
SWGL_INPUT(u_prev);    // the last clock texel
#include "clock_rule.glsl"
#include "kp_integrate_fn.glsl"
#include "group_min.glsl"
SWGL_IMAGE(0, o_state);
SWGL_IMAGE(1, o_clock);

shared vec4 s_clock;

void main()
{
    ivec2 c = swgl_cell();
    int i = int(gl_LocalInvocationIndex);
    if (i == 0) swgl_group_min_init();
    barrier();
    ivec2 n = textureSize(u_part, 0);
    float m = swgl_inf();
    for (int j = i; j < n.x * n.y; j += 256) m = min(m, SWGL_LOAD(u_part, ivec2(j % n.x, j / n.x)).x);
    swgl_group_min_add(m);
    barrier();
    if (i == 0) {
        s_clock = swgl_clock_next(swgl_group_min_value(), SWGL_LOAD(u_prev, ivec2(0)));
        if (gl_WorkGroupID.xy == uvec2(0)) imageStore(o_clock, ivec2(0), s_clock);
    }
    barrier();
    if (!swgl_in_rect()) return;
    real4 s = KP_LOAD(u_state, c), b = KP_LOAD(u_bed, c);
    real dt = real(s_clock.x);
    if (b.w == CELL_ACTIVE && dt != 0.0) s = kp_integrate_cell(c, s, s, b, dt, KP_LOAD(u_R, c).xyz);
    imageStore(o_state, c, s);
}
