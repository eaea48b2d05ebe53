// kp_ring.glsl — what the boundary faces carried in a stage, for the mass balance
// (cpu_ref/swe.h swe_clock, docs/boundaries.md): one fragment per texel (m, side) of an
// M x 4 array (side 0 west, 1 east, 2 south, 3 north; m the interior row or column), the
// face between the ring ghost there and the active cell beside it, computed as the flux
// pass computes it (kp_recon.glsl: the active cell's points, kp_face with the ghost's
// segment value), as a volume rate into the domain (m^3/s: mass flux x face length).
// Output (rate, the rounding of rate to float, 0, 0) as two floats whose sum the CPU
// takes in double (in double precision the second holds what float dropped).  0 where
// there is no face, no active cell or no segment.  Or (SWE_RING_ACC: the step on kernels,
// kp_gpu_kernels.c) the face's sums of the run so far with w dt times the rate added
// (swe_ring_acc.glsl).
#include "kp_real.glsl"
#include "kp_recon.glsl"

KP_INPUT(u_state);   // (w, hu, hv, l or -(1 + code)); a ghost's .y its segment
KP_INPUT(u_bed);     // (B_E, B_N, B_ij, code)
uniform int u_nx;
uniform int u_ny;
uniform real2 u_dxy;
SWGL_OUTPUT(0, o_rate);
#ifdef SWE_RING_ACC
#include "swe_ring_acc.glsl"
#endif

// the rate of texel t's face (m^3/s into the domain), 0 where there is none
real kp_ring_rate(ivec2 t)
{
    ivec2 u_n = ivec2(u_nx, u_ny);
    int m = t.x, side = t.y;
    if (m >= (side < 2 ? u_n.y : u_n.x)) return real(0.0);
    ivec2 gc = side == 0 ? ivec2(0, m + 1) : side == 1 ? ivec2(u_n.x + 1, m + 1)
             : side == 2 ? ivec2(m + 1, 0) : ivec2(m + 1, u_n.y + 1);
    ivec2 d = side == 0 ? ivec2(1, 0) : side == 1 ? ivec2(-1, 0) : side == 2 ? ivec2(0, 1) : ivec2(0, -1);
    ivec2 c = gc + d;   // the cell beside the ghost
    real4 sg = KP_LOAD(u_state, gc), bk = KP_LOAD(u_bed, c), bg = KP_LOAD(u_bed, gc);
    if (bk.w != CELL_ACTIVE || !(sg.y >= 0.0)) return real(0.0);
    real4 sk = KP_LOAD(u_state, c);
    int axis = side < 2 ? 0 : 1;
    ivec2 e = axis == 0 ? ivec2(1, 0) : ivec2(0, 1);
    real4 blo = KP_LOAD(u_bed, c - e), bhi = KP_LOAD(u_bed, c + e);
    real3 phi, plo;
    real Bhi = axis == 0 ? bk.x : bk.y, Blo = axis == 0 ? blo.x : blo.y;
    kp_cell_points(sk, bk.z, KP_LOAD(u_state, c - e), blo.w, KP_LOAD(u_state, c + e), bhi.w, axis, Bhi, Blo, phi,
                   plo);
    bool ghost_low = side == 0 || side == 2;
    real4 F = ghost_low ? kp_face(real3(0.0), false, bg.w, plo, true, CELL_ACTIVE, axis, kp_bv(sg), Blo)
                        : kp_face(phi, true, CELL_ACTIVE, real3(0.0), false, bg.w, axis, kp_bv(sg), Bhi);
    return (ghost_low ? F.x : -F.x) * (axis == 0 ? u_dxy.y : u_dxy.x);
}

SWGL_MAIN
{
    ivec2 t = swgl_cell();
    real rate = kp_ring_rate(t);
    float hi = float(rate);
#ifdef SWE_RING_ACC
    o_rate = swe_ring_add(SWGL_LOAD(u_acc, t), hi, float(rate - real(hi)));
#else
    o_rate = vec4(hi, float(rate - real(hi)), 0.0, 0.0);
#endif
}
