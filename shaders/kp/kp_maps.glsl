// kp_maps.glsl — the flood maps pass of kp (shaders/swe/swe_maps.glsl): per active cell,
// the maps updated from the new state (w, hu, hv, l): its depth (w - B_ij) + l (kp_real.glsl).
#include "kp_real.glsl"
#include "swe_maps.glsl"

KP_INPUT(u_state);
KP_INPUT(u_bed);
SWGL_INPUT(u_maps_a);
SWGL_INPUT(u_maps_b);
SWGL_OUTPUT(0, o_maps_a);
SWGL_OUTPUT(1, o_maps_b);

SWGL_MAIN
{
    ivec2 c = swgl_cell();
    vec4 a = SWGL_LOAD(u_maps_a, c), b = SWGL_LOAD(u_maps_b, c);
    real4 s = KP_LOAD(u_state, c);
    o_maps_a = a;
    o_maps_b = b;
    if (s.w < -0.5) return;   // not active: -(1 + code)
    real h = kp_depth(s, KP_LOAD(u_bed, c));
    swe_maps(a, b, float(h), float(s.y), float(s.z), swe_maps_time(), o_maps_a, o_maps_b);
}
