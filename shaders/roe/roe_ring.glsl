// roe_ring.glsl — what the boundary edges carried in a step, for the mass balance
// (cpu_ref/swe.h swe_clock, docs/boundaries.md): one fragment per texel (m, side) of an
// M x 4 array (side 0 west, 1 east, 2 south, 3 north; m the interior row or column).  The
// edge between the ring ghost there and the active cell beside it holds, on the active
// cell's side, |Gamma| Phi out of the cell (roe_edge.glsl); the update moves theta of it,
// theta = min(1, tau / dt) of the donor (roe_update.glsl: the active cell for an outflow,
// the ghost, theta = 1, for an inflow).  Output the volume rate into the domain (m^3/s)
// as two floats whose sum the CPU takes in double (the second holds what float dropped in
// double precision).  0 where the ghost has no segment or the cell is not active.
// The fused kernel (roe_step_cs.glsl; ROE_MASS_FROM_EDGES undefined) keeps no edge arrays:
// the cell's four outward mass fluxes (E, N, W, S) of its second target stand for them.  Or
// (SWE_RING_ACC: the step on the kernel with the GPU's clock, roe_gpu_step.c) the face's
// sums of the run so far with dt times the rate added, dt the clock's (swe_ring_acc.glsl).
#include "roe_real.glsl"

#ifdef ROE_DOUBLE
SWGL_INPUT_U(u_state_b);   // (qy, cell code)
SWGL_INPUT_U(u_state_a);   // (h or a ghost's segment, qx)
SWGL_INPUT_U(u_low_a);     // the edges' (|Gamma| Phi, |Gamma| F-[qx]) of their low cell
SWGL_INPUT_U(u_high_a);    // ... of their high cell
SWGL_INPUT_U(u_tau);       // (tau, dt_i)
uniform int u_dt_lo, u_dt_hi;
real roe_code(ivec2 p) { return packDouble2x32(SWGL_LOAD(u_state_b, p).zw); }
real roe_seg(ivec2 p) { return packDouble2x32(SWGL_LOAD(u_state_a, p).xy); }
real roe_out(ivec2 t, bool low) { return packDouble2x32((low ? SWGL_LOAD(u_low_a, t) : SWGL_LOAD(u_high_a, t)).xy); }
real roe_tau(ivec2 p) { return packDouble2x32(SWGL_LOAD(u_tau, p).xy); }
real roe_dt() { return roe_bits(u_dt_lo, u_dt_hi); }
#else
SWGL_INPUT(u_state);       // (h or a ghost's segment, qx, qy, code)
#ifdef ROE_MASS_FROM_EDGES
SWGL_INPUT(u_low);
SWGL_INPUT(u_high);
real roe_out(ivec2 t, bool low) { return (low ? SWGL_LOAD(u_low, t) : SWGL_LOAD(u_high, t)).x; }
#else
SWGL_INPUT(u_mass);        // the cells' outward mass fluxes (E, N, W, S)
#endif
SWGL_INPUT(u_sums);        // (.., .., dt_i, tau_i)
real roe_code(ivec2 p) { return SWGL_LOAD(u_state, p).w; }
real roe_seg(ivec2 p) { return SWGL_LOAD(u_state, p).x; }
real roe_tau(ivec2 p) { return SWGL_LOAD(u_sums, p).w; }
#ifdef SWE_RING_ACC
#include "swe_ring_acc.glsl"
real roe_dt() { return SWGL_LOAD(u_clock, ivec2(0)).x; }
#else
uniform float u_dt;
real roe_dt() { return u_dt; }
#endif
#endif
uniform int u_nx;
uniform int u_ny;
SWGL_OUTPUT(0, o_rate);

// the rate of texel t's face (m^3/s into the domain), 0 where there is none
real roe_ring_rate(ivec2 t)
{
    int m = t.x, side = t.y;
    if (m >= (side < 2 ? u_ny : u_nx)) return real(0.0);
    ivec2 g = side == 0 ? ivec2(0, m + 1) : side == 1 ? ivec2(u_nx + 1, m + 1)
            : side == 2 ? ivec2(m + 1, 0) : ivec2(m + 1, u_ny + 1);
    ivec2 c = g + (side == 0 ? ivec2(1, 0) : side == 1 ? ivec2(-1, 0) : side == 2 ? ivec2(0, 1) : ivec2(0, -1));
    if (roe_code(c) != CELL_ACTIVE || !(roe_seg(g) >= real(0.0))) return real(0.0);
#if defined(ROE_DOUBLE) || defined(ROE_MASS_FROM_EDGES)
    // the edge texel: (2i, j) the east edge of cell (i, j), (2i + 1, j) its north edge;
    // its low cell is the west / south one
    ivec2 lo = side == 0 || side == 2 ? g : c;
    ivec2 te = ivec2(2 * lo.x + (side < 2 ? 0 : 1), lo.y);
    bool active_low = side == 1 || side == 3;
    real P = roe_out(te, active_low);
#else
    // the cell's face toward the ghost: west ghost -> the cell's W, east -> E, south -> S, north -> N
    vec4 ms = SWGL_LOAD(u_mass, c);
    real P = side == 0 ? ms.z : side == 1 ? ms.x : side == 2 ? ms.w : ms.y;
#endif
    real dt = roe_dt();
    real tau = roe_tau(c);
    real theta = P > real(0.0) ? (tau >= dt ? real(1.0) : tau / dt) : real(1.0);
    return -(theta * P);
}

SWGL_MAIN
{
    ivec2 t = swgl_cell();
    real rate = roe_ring_rate(t);
    float hi = float(rate);
#ifdef SWE_RING_ACC
    o_rate = swe_ring_add(SWGL_LOAD(u_acc, t), hi, float(rate - real(hi)));
#else
    o_rate = vec4(hi, float(rate - real(hi)), 0.0, 0.0);
#endif
}
