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
uniform float u_left;
uniform int u_unknown;
uniform float u_floor;
uniform float u_stop;     // the stop's index
SWGL_OUTPUT(0, o_clock);

SWGL_MAIN
{
    float b = SWGL_LOAD(u_bound, ivec2(0))[BOUND_CHANNEL];
    vec4 p = SWGL_LOAD(u_prev, ivec2(0));
    float flags = p.w;
    float stop_of_prev = floor(flags / 4.0);
    float bits = flags - 4.0 * stop_of_prev;
    bool blown_before = bits >= 2.0;
    bool landed = stop_of_prev == u_stop && (bits == 1.0 || bits == 3.0);
    float left = u_left;
    if (u_unknown > 0) left -= p.x;
    if (u_unknown > 1) left -= p.y;
    if (u_unknown > 2) left -= p.z;
    bool blown = blown_before || !(b > 0.0) || b < u_floor;   // !(b > 0) is true for NaN
    float dt;
    bool lands = false;
    if (blown || landed) dt = 0.0;
    else if (left <= b) {
        dt = max(left, 0.0);
        lands = true;
    } else dt = b;
    // after a blow-up the texel keeps the bound that caused it in y, for the message
    o_clock = vec4(dt, blown ? (blown_before ? p.y : b) : p.x, p.y,
                   4.0 * u_stop + (lands || landed ? 1.0 : 0.0) + (blown ? 2.0 : 0.0));
}
