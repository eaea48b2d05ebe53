// roe_update.glsl — Lastra 4.3 phase 4, the volume update (4):
//     W_i <- W_i - dt / |V_i| sum_j |Gamma_ij| F-_ij
// then positivity and the dry threshold: h < 0 -> h = 0; h <= h_dry -> q = 0.
// Ghost and inactive cells keep their (unused) state.
#include "roe_gather.glsl"

uniform sampler2D u_state;
uniform sampler2D u_low;
uniform sampler2D u_high;
uniform sampler2D u_const;
uniform float u_dt;
uniform float u_hdry;
layout(location = 0) out vec4 o_state;

void main()
{
    ivec2 c = swgl_cell();
    vec4 k = texelFetch(u_const, c, 0);
    vec4 w = texelFetch(u_state, c, 0);
    if (k.w == 0.0) {
        vec3 m = roe_gather(u_low, u_high, c, int(k.z)).xyz;
        w.xyz -= (u_dt / k.y) * m;
        w.x = max(w.x, 0.0);
        if (w.x <= u_hdry) w.yz = vec2(0.0);
    }
    o_state = w;
}
