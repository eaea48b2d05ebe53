// clock_rule.glsl — the rule of clock.glsl (its header says it) as functions, for the
// clock pass and for kernels that choose the step themselves (kp_integrate_cs.glsl):
// swgl_clock_unknown, the time left less the steps the CPU has not read and their sum,
// from u_prev, the clock of the step before; swgl_clock_texel_with, texel j of the next
// clock from those and b, the bound the current state allows (channel BOUND_CHANNEL of the
// reduction); swgl_clock_texel, both.  A kernel may compute the first once and hand it to
// its other work groups (kp_flux_cs.glsl's control group).
#include "clock_window.glsl"
#include "step_rule.glsl"
SWGL_INPUT(u_prev);
uniform float u_left;     // stop - t as the CPU knows t (double, rounded)
uniform int u_unknown;    // steps issued after that t: the u_unknown most recent of u_prev
uniform float u_floor;
uniform float u_stop;     // the stop's index

// left = u_left less the u_unknown most recent steps of u_prev, newest first; S their sum,
// in the same order (the texels read at once, then added in turn)
void swgl_clock_unknown(out float left, out float S)
{
    vec4 w[SWGL_CLOCK_W];
    for (int j = 0; j < SWGL_CLOCK_W; j++) w[j] = SWGL_LOAD(u_prev, ivec2(j, 0));
    left = u_left;
    S = 0.0;
    for (int k = 0; k < 4 * SWGL_CLOCK_W - 1; k++) {
        if (k >= u_unknown) break;
        int p = k < 3 ? k : k + 1;
        float d = w[p / 4][p % 4];
        left -= d;
        S += d;
    }
}

vec4 swgl_clock_texel_with(int j, float b, float left, float S)
{
    if (j > 0 && j < SWGL_CLOCK_W)   // the steps before this one, shifted by one
        return vec4(swgl_clock_dt(u_prev, 4 * j - 2), swgl_clock_dt(u_prev, 4 * j - 1), swgl_clock_dt(u_prev, 4 * j),
                    swgl_clock_dt(u_prev, 4 * j + 1));
    vec4 p0 = SWGL_LOAD(u_prev, ivec2(0));
    float flags = p0.w;
    float stop_of_prev = floor(flags / 4.0);
    float bits = flags - 4.0 * stop_of_prev;
    bool blown_before = bits >= 2.0;
    bool landed = stop_of_prev == u_stop && (bits == 1.0 || bits == 3.0);
    // the step rule (step_rule.glsl, the host's too), with no slack
    bool blown = blown_before || swgl_step_blown(b, u_floor);
    bool lands = !(blown || landed) && swgl_step_lands(b, left, 0.0);
    float dt = blown || landed ? 0.0 : swgl_step_dt(b, left, 0.0);
    if (j == 0) return vec4(dt, p0.x, p0.y, 4.0 * u_stop + (lands || landed ? 1.0 : 0.0) + (blown ? 2.0 : 0.0));
    // texel W: the time after this step less the CPU's t (this step and the unknown ones),
    // and the bound (after a blow-up: the one that caused it, for the message)
    return vec4(dt + S, blown_before ? SWGL_LOAD(u_prev, ivec2(SWGL_CLOCK_W, 0)).y : b, 0.0, 0.0);
}

vec4 swgl_clock_texel(int j, float b)
{
    float left, S;
    swgl_clock_unknown(left, S);
    return swgl_clock_texel_with(j, b, left, S);
}
