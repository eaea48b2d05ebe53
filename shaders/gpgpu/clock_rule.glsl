// clock_rule.glsl — the rule of clock.glsl (its header says it) as a function, for the
// clock pass and for kernels that choose the step themselves (kp_integrate_cs.glsl):
// b the bound the current state allows (channel BOUND_CHANNEL of the reduction), p the
// previous clock texel; the next texel.
uniform float u_left;
uniform int u_unknown;
uniform float u_floor;
uniform float u_stop;     // the stop's index

vec4 swgl_clock_next(float b, vec4 p)
{
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
    return vec4(dt, blown ? (blown_before ? p.y : b) : p.x, p.y,
                4.0 * u_stop + (lands || landed ? 1.0 : 0.0) + (blown ? 2.0 : 0.0));
}
