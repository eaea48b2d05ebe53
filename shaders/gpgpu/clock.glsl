// clock.glsl — the time step chosen on the GPU, so that a step needs no read-back and
// the pipeline never stalls (solver/schemes/core/timeloop.c describes the same rule on the
// CPU).  One clock per step, ping-pong: a row of SWGL_CLOCK_W + 1 texels (gpgpu/
// gpu_clock.h): this step's dt and the 4 SWGL_CLOCK_W - 2 before it, the flags
// (4 stop + landed + 2 blown), the time since the CPU's t and the bound.
// Inputs: u_bound, a 1x1 array whose channel BOUND_CHANNEL is the step the stability
// condition of the current state allows (a min reduction); u_prev, the previous clock.
// The CPU knows the time only up to some steps back (it reads a clock back now and then,
// each holding the steps since the last it read): u_left = stop - t_known (computed in
// double), u_unknown = how many of the most recent steps it has not read yet (at most
// 4 SWGL_CLOCK_W - 1), so the time left is
//     R = u_left - (the u_unknown most recent dt, newest first)     (roundings of small numbers)
// and the step is
//     blown (bound NaN, <= 0 or < u_floor, or blown before): dt = 0, the state stays the
//         last good one and the CPU reports the blow-up;
//     already landed on this stop:                           dt = 0;
//     R <= bound:  dt = R, landed (the step lands on the stop);
//     else         dt = bound.
// So dt never exceeds the bound of the state it advances.
SWGL_INPUT(u_bound);
SWGL_OUTPUT(0, o_clock);
#include "clock_rule.glsl"

SWGL_MAIN { o_clock = swgl_clock_texel(swgl_cell().x, SWGL_LOAD(u_bound, ivec2(0))[BOUND_CHANNEL]); }
