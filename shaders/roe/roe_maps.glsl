// roe_maps.glsl — the flood maps pass of roe (shaders/swe/swe_maps.glsl): per active cell,
// the maps updated from the new state (h, qx, qy, code) (double: two packed texels).
#include "roe_real.glsl"
#include "swe_maps.glsl"

#ifdef ROE_DOUBLE
SWGL_INPUT_U(u_state_a);   // (h, qx)
SWGL_INPUT_U(u_state_b);   // (qy, code)
rvec4 roe_state(ivec2 p) { return roe_unpack4(SWGL_LOAD(u_state_a, p), SWGL_LOAD(u_state_b, p)); }
#else
SWGL_INPUT(u_state);
vec4 roe_state(ivec2 p) { return SWGL_LOAD(u_state, p); }
#endif
SWGL_INPUT(u_maps_a);
SWGL_INPUT(u_maps_b);
SWGL_OUTPUT(0, o_maps_a);
SWGL_OUTPUT(1, o_maps_b);

SWGL_MAIN
{
    ivec2 c = swgl_cell();
    vec4 a = SWGL_LOAD(u_maps_a, c), b = SWGL_LOAD(u_maps_b, c);
    rvec4 s = roe_state(c);
    o_maps_a = a;
    o_maps_b = b;
    if (s.w != CELL_ACTIVE) return;
    swe_maps(a, b, float(s.x), float(s.y), float(s.z), swe_maps_time(), o_maps_a, o_maps_b);
}
