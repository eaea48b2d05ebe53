// swe_bvals.glsl — the boundary segments' values at a time on the GPU's clock (docs/
// boundaries.md "on the GPU's clock"; solver/schemes/swe/gpu_bvals.h): one fragment per
// segment s of an ns x 1 array, (f_s(t), vmax_s, 0, 0), what the host clock's
// swe_clock_stage uploads (cpu_ref/swe.c swe_forcing_at) where it steps itself.  f_s is
// the segment's series read as every backend reads it (gpgpu/base/swgl_series.h):
//     f(t) = v_0 (t <= t_0),  v_k + (t - t_k) (v_{k+1} - v_k) / (t_{k+1} - t_k)
//            (t_k < t <= t_{k+1}),  v_{n-1} (t >= t_{n-1}),
// with the value already the one the faces take (a level less the datum, a steady
// discharge over its segment's length).  The table
// u_table holds, for segment s, n_s + 1 texels from index s u_stride: (n_s, vmax_s, 0, 0),
// then (t_k - t_ref, v_k, 0, 0); index q is texel (q % u_w, q / u_w).  The time:
//     t - t_ref = u_t + the u_k most recent steps of the clock u_clock
// (u_t the CPU's time less t_ref; the clock's window holds the steps since: gpgpu/
// gpu_clock.h), so the value at a stage's time costs no read-back.
#include "clock_window.glsl"
SWGL_INPUT(u_table);
SWGL_INPUT(u_clock);
uniform int u_w;
uniform int u_stride;
uniform float u_t;
uniform int u_k;
SWGL_OUTPUT(0, o_v);

vec4 swe_bv_texel(int q) { return SWGL_LOAD(u_table, ivec2(q % u_w, q / u_w)); }

SWGL_MAIN
{
    int s = swgl_cell().x, q0 = s * u_stride;
    vec4 head = swe_bv_texel(q0);
    int n = int(head.x);
    // the steps since the CPU's time, newest first (as the clock's own texel W sums them)
    float S = 0.0;
    for (int k = 0; k < 4 * SWGL_CLOCK_W - 1; k++) {
        if (k >= u_k) break;
        S += swgl_clock_dt(u_clock, k);
    }
    float x = u_t + S;
    vec2 a = swe_bv_texel(q0 + 1).xy, b = swe_bv_texel(q0 + n).xy;
    float v;
    if (n <= 1 || !(x > a.x)) v = a.y;
    else if (x >= b.x) v = b.y;
    else {
        int lo = 0, hi = n - 1;   // t_lo < x <= t_hi
        while (hi - lo > 1) {
            int mid = lo + (hi - lo) / 2;
            if (swe_bv_texel(q0 + 1 + mid).x < x) lo = mid;
            else hi = mid;
        }
        a = swe_bv_texel(q0 + 1 + lo).xy;
        b = swe_bv_texel(q0 + 2 + lo).xy;
        v = a.y + (x - a.x) / (b.x - a.x) * (b.y - a.y);
    }
    o_v = vec4(v, head.y, 0.0, 0.0);
}
