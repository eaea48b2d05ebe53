// roe_dt.glsl — Lastra 4.3 phase 2: the local time step of each volume, from (8):
//     dt_i = 2 gamma |V_i| / sum_j |Gamma_ij| ||D_ij||_inf
// +infinity for ghosts and for cells where no wave moves, so that the min reduction
// (phase 3) ignores them.
#include "roe_gather.glsl"

uniform sampler2D u_low;     // edge pass output 0
uniform sampler2D u_high;    // edge pass output 1
uniform sampler2D u_const;
uniform float u_cfl;
layout(location = 0) out vec4 o_dt;

void main()
{
    ivec2 c = swgl_cell();
    vec4 k = texelFetch(u_const, c, 0);
    float dt = swgl_inf();
    if (k.w == 0.0) {
        float s = roe_gather(u_low, u_high, c, int(k.z)).w;
        if (s > 0.0) dt = 2.0 * u_cfl * k.y / s;
    }
    o_dt = vec4(dt);
}
