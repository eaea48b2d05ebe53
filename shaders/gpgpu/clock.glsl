// clock.glsl — the time step chosen on the GPU, so that a step needs no read-back and
// the pipeline never stalls (solver/schemes/timeloop.c describes the same rule on the
// CPU).  One texel per step, ping-pong:
//     (dt_n, dt_{n-1}, dt_{n-2}, flags),   flags = 4 stop + landed + 2 blown
// (once blown: (0, the bound that blew up, -, flags))
// Inputs: u_bound, a 1x1 array whose channel BOUND_CHANNEL is the step the stability
// condition of the current state allows (a min reduction); u_prev, the previous texel.
// The CPU knows the time only up to a few steps back (it reads the texels back through
// a ring of pixel buffers): u_left = stop - t_known (computed in double), u_unknown =
// how many of the most recent steps it has not read yet (0..3), so the time left is
//     R = u_left - (the u_unknown most recent dt)      (a few roundings of small numbers)
// and the step is
//     blown (bound NaN, <= 0 or < u_floor, or blown before): dt = 0, the state stays the
//         last good one and the CPU reports the blow-up;
//     already landed on this stop:                           dt = 0;
//     R <= bound:  dt = R, landed (the step lands on the stop);
//     else         dt = bound.
// So dt never exceeds the bound of the state it advances.
SWGL_INPUT(u_bound);
SWGL_INPUT(u_prev);
SWGL_OUTPUT(0, o_clock);
#include "clock_rule.glsl"

SWGL_MAIN { o_clock = swgl_clock_next(SWGL_LOAD(u_bound, ivec2(0))[BOUND_CHANNEL], SWGL_LOAD(u_prev, ivec2(0))); }
