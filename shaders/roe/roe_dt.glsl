// roe_dt.glsl — Lastra 4.3 phase 2: each cell gathers its four edges once, for the time
// step and for the update (which then reads two texels of its own, not four edges):
//   local time step (8):  dt_i = 2 gamma |V_i| / sum_e |Gamma_e| ||D_e||_inf
//   outflow and drain time of the positivity limiter (cpu_ref/roe_cpu.h):
//       O_i = sum_e max(|Gamma_e| Phi_e,out, 0),   tau_i = h_i |V_i| / O_i
// Outputs (ghost and inactive cells: dt = tau = +inf, so that the min reduction and
// the limiter ignore them; a cell holding NaN or infinity: dt = -1, a blow-up):
//   o_sums = (sum |Gamma| F-[qx], sum |Gamma| F-[qy], dt_i, tau_i)
//   o_mass = |Gamma| Phi out of the cell through its (east, north, west, south) edges,
//            only without ROE_MASS_FROM_EDGES (the default defines it: the update then
//            re-reads them from the edge arrays, one render target less, which measured
//            faster; solver/schemes/roe_gpu.c)
#include "roe_gather.glsl"

SWGL_INPUT(u_low);       // edge pass output 0
SWGL_INPUT(u_high);      // edge pass output 1
SWGL_INPUT(u_state);
uniform float u_cfl;
uniform float u_area;    // |V_i| = dx dy
SWGL_OUTPUT(0, o_sums);
#ifndef ROE_MASS_FROM_EDGES
SWGL_OUTPUT(1, o_mass);
#endif

SWGL_MAIN
{
    ivec2 c = swgl_cell();
    vec4 w = SWGL_LOAD(u_state, c);
    o_sums = vec4(0.0, 0.0, swgl_inf(), swgl_inf());
#ifndef ROE_MASS_FROM_EDGES
    o_mass = vec4(0.0);
#endif
    if (w.w != CELL_ACTIVE) return;
    vec4 sum = vec4(0.0), mass;
    float out_flow = 0.0;
    for (int k = 0; k < 4; k++) {
        vec4 v = roe_edge_value(u_low, u_high, c, k);
        sum += v;
        mass[k] = v.x;
        out_flow += max(v.x, 0.0);
    }
    float dt = sum.w > 0.0 ? 2.0 * u_cfl * u_area / sum.w : swgl_inf();
    // a NaN must reach the time loop, and min() may drop a NaN: a cell whose state or
    // sums are not numbers reports dt = -1, which the min keeps and the loop calls a
    // blow-up
    if (any(isnan(w.xyz)) || any(isnan(sum)) || any(isinf(w.xyz))) dt = -1.0;
    float tau = out_flow > 0.0 ? max(w.x, 0.0) * u_area / out_flow : swgl_inf();
    o_sums = vec4(sum.yz, dt, tau);
#ifndef ROE_MASS_FROM_EDGES
    o_mass = mass;
#endif
}
