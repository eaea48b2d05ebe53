// clock_rule.glsl — the rule of clock.glsl (its header says it) as functions, for the
// clock pass and for kernels that choose the step themselves (kp_integrate_cs.glsl):
// swgl_clock_target, the stop a step aims at (a span may hold many: gpgpu/gpu_clock.h);
// swgl_clock_unknown, the time left less the steps the CPU has not read and their sum,
// from u_prev, the clock of the step before; swgl_clock_texel_with, texel j of the next
// clock from those and b, the bound the current state allows (channel BOUND_CHANNEL of the
// reduction); swgl_clock_texel, both.  A kernel may compute the first once and hand it to
// its other work groups (kp_flux_cs.glsl's control group).
#include "clock_window.glsl"
#include "step_rule.glsl"
SWGL_INPUT(u_prev);
uniform float u_left;     // stop - t as the CPU knows t (double, rounded), of the window's first stop
uniform int u_unknown;    // steps issued after that t: the u_unknown most recent of u_prev
uniform float u_floor;
uniform float u_stop;     // the span's first stop's index
uniform float u_last;     // its last stop's index (u_stop: a span of one stop)
uniform float u_wfirst;   // the index of u_left's stop: the window of stops the CPU gave times to
uniform vec4 u_more[2];   // stop - t of the window's next 8 stops (gpgpu/gpu_clock.h)

// The stop a step aims at, from the clock of the step before (p0 its texel 0): the stop
// after the one that step landed on, else that step's, within the span's [u_stop, u_last]
// (a fresh clock holds 0: the span's first).  *landed: the span's last stop is landed on
// already (no more steps); *hold: the stop lies past the window the CPU gave (no step
// until it gives more).
float swgl_clock_target(vec4 p0, out bool landed, out bool hold)
{
    float prev = floor(p0.w / 4.0), bits = p0.w - 4.0 * prev;
    bool was = bits == 1.0 || bits == 3.0;
    float T = clamp(prev + (was ? 1.0 : 0.0), u_stop, u_last);
    landed = was && prev == T;
    hold = T < u_wfirst || T > u_wfirst + 8.0;
    return T;
}

// the time to stop T as the CPU knows t (T in the window; outside it, held, a time of the
// window that the step does not use)
float swgl_clock_left_of(float T)
{
    int k = clamp(int(T - u_wfirst), 0, 8);
    return k == 0 ? u_left : u_more[(k - 1) / 4][(k - 1) % 4];
}

// left = the time to the stop this step aims at less the u_unknown most recent steps of
// u_prev, newest first; S their sum, in the same order.  A texel is read as its steps are
// reached, one live at a time: the window's 32 texels read at once (as this did before the
// stop's choice joined them) made NVIDIA's compiler slow kp's whole flux kernel, whose
// control group calls this: 38% at 4096^2 and 80% on Malpasset (docs/performance.md)
void swgl_clock_unknown(out float left, out float S)
{
    vec4 t = SWGL_LOAD(u_prev, ivec2(0, 0));
    bool landed, hold;
    left = swgl_clock_left_of(swgl_clock_target(t, landed, hold));
    S = 0.0;
    for (int k = 0; k < 4 * SWGL_CLOCK_W - 1; k++) {
        if (k >= u_unknown) break;
        int p = k < 3 ? k : k + 1;
        if (p % 4 == 0 && p > 0) t = SWGL_LOAD(u_prev, ivec2(p / 4, 0));
        float d = t[p % 4];
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
    bool landed, hold;
    float T = swgl_clock_target(p0, landed, hold);
    bool blown_before = p0.w - 4.0 * floor(p0.w / 4.0) >= 2.0;
    // the step rule (step_rule.glsl, the host's too), with no slack
    bool blown = blown_before || swgl_step_blown(b, u_floor);
    bool idle = blown || landed || hold;
    bool lands = !idle && swgl_step_lands(b, left, 0.0);
    float dt = idle ? 0.0 : swgl_step_dt(b, left, 0.0);
    if (j == 0) return vec4(dt, p0.x, p0.y, 4.0 * T + (lands || landed ? 1.0 : 0.0) + (blown ? 2.0 : 0.0));
    // texel W: the time after this step less the CPU's t (this step and the unknown ones),
    // the bound (after a blow-up: the one that caused it, for the message), the steps
    // since the last landing plus one (1: this step landed; 0: none in this span yet) and
    // that landing's stop
    vec4 pw = SWGL_LOAD(u_prev, ivec2(SWGL_CLOCK_W, 0));
    float since = lands ? 1.0 : pw.z > 0.0 ? pw.z + 1.0 : 0.0;
    return vec4(dt + S, blown_before ? pw.y : b, since, lands ? T : pw.w);
}

vec4 swgl_clock_texel(int j, float b)
{
    float left, S;
    swgl_clock_unknown(left, S);
    return swgl_clock_texel_with(j, b, left, S);
}
