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
//            faster; solver/schemes/roe/roe_gpu.c)
// In double (roe_real.glsl; always ROE_MASS_FROM_EDGES) the same values in three
// targets: o_sums_d = (sum F-[qx], sum F-[qy]) and o_tau = (tau_i, dt_i), packed
// doubles, and o_bound = (0, 0, float(dt_i), 0) for gpgpu's min reduction (float4
// only) and its clock: the step is chosen from a float image of the bound (a step is
// any dt up to the bound; the update takes the chosen dt in double), the state and
// every sum stay double.
#include "roe_gather.glsl"

#ifdef ROE_DOUBLE
SWGL_INPUT_U(u_state_a);   // (h, qx)
SWGL_INPUT_U(u_state_b);   // (qy, cell code)
// u_cfl, u_area: #defines (roe_gpu.c)
SWGL_OUTPUT_U(0, o_sums_d);
SWGL_OUTPUT_U(1, o_tau);
SWGL_OUTPUT(2, o_bound);
rvec4 roe_state(ivec2 p) { return roe_unpack4(SWGL_LOAD(u_state_a, p), SWGL_LOAD(u_state_b, p)); }
void roe_put_sums(rvec4 v)
{
    o_sums_d = roe_pack2(v.xy);
    o_tau = roe_pack2(v.wz);
    o_bound = vec4(0.0, 0.0, float(v.z), 0.0);
}
#else
SWGL_INPUT(u_state);
uniform float u_cfl;
uniform float u_area;    // |V_i| = dx dy
SWGL_OUTPUT(0, o_sums);
#ifndef ROE_MASS_FROM_EDGES
SWGL_OUTPUT(1, o_mass);
#endif
vec4 roe_state(ivec2 p) { return SWGL_LOAD(u_state, p); }
void roe_put_sums(vec4 v) { o_sums = v; }
#endif

#include "roe_cell.glsl"

SWGL_MAIN
{
    ivec2 c = swgl_cell();
    rvec4 w = roe_state(c);
    roe_put_sums(rvec4(0.0, 0.0, roe_inf(), roe_inf()));
#ifndef ROE_MASS_FROM_EDGES
    o_mass = vec4(0.0);
#endif
    if (w.w != CELL_ACTIVE) return;
    rvec4 v[4];
    for (int k = 0; k < 4; k++) v[k] = roe_edge_value(c, k);
    real mass[4];
    rvec4 sums = roe_cell_sums(w, v, mass);
    sums.z = roe_own_dt(c, sums.z);
    roe_put_sums(sums);
#ifndef ROE_MASS_FROM_EDGES
    o_mass = vec4(mass[0], mass[1], mass[2], mass[3]);
#endif
}
