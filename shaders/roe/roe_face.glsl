// roe_face.glsl — roe's face (Lastra et al. 2009, roe_flux.glsl's roe_edge and the
// boundary edge roe_bedge below) in the shared signature of swe_face.glsl: the edge
// engine's outputs from roe's fluctuations F-_LR (fL) and F-_RL (fR):
//   F_h = (M1) Phi = qn_L + F-_LR[h],  mL = F-_LR[qx, qy],  mR = -F-_RL[qx, qy]
// and the bed as Lastra's depth function H = -z.  The arithmetic is roe's as it was
// before the face was pluggable (negations only, which are exact): roe's outputs are
// byte-identical.
#ifndef ROE_FACE_GLSL
#define ROE_FACE_GLSL
#include "swe_face.glsl"
#include "roe_flux.glsl"

// A boundary edge, as cpu_ref/roe_scalar.c roe_boundary_edge computes it (cpu_ref/swe.h
// "Boundary data"): wa, Ha the active cell's state and depth function (the ghost's bed is
// the active cell's), code and bv = (value, largest value) the ghost's, e the normal from
// the low cell L to the high one R, ghost_low whether the ghost is L.  Writes F-_LR (fL),
// F-_RL (fR) and phi = (M1) the mass flux from L to R; returns the edge's speed for (8),
// at least the boundary's floor (swe_boundary_speed).
real roe_bedge(real code, rvec2 bv, rvec3 wa, real Ha, rvec2 e, bool ghost_low, real g, real h_dry, out rvec3 fL,
               out rvec3 fR, out real phi)
{
#ifdef SWGL_PLAIN_BOUNDARIES
    // no ghost of a value code (roe_gpu.c): walls and free outlets only, the
    // same operations as below with their floor speed 0 (code that is never run still
    // takes registers, and fewer registers let more work groups share a multiprocessor)
    rvec3 wg = ghost_state(wa, code, e);
    rvec3 wL = ghost_low ? wg : wa, wR = ghost_low ? wa : wg;
    real sp = roe_edge(wL, wR, Ha, Ha, e, g, h_dry, fL, fR);
    phi = GRID_BC_SIGN(code) < 0.0 ? real(0.0) : dot(wL.yz, e) + fL.x;
    return real(0.0) > sp ? real(0.0) : sp;
#else
    real vmax = bv.y, Bf = -Ha;
    real hfl = code == CELL_LEVEL ? vmax - Bf : code == CELL_DEPTH ? vmax : real(0.0);
    real floor_speed = code == CELL_DISCHARGE ? (vmax > real(0.0) ? real(2.0) * roe_cbrt(g * vmax) : real(0.0))
                     : hfl > real(0.0) ? real(2.0) * sqrt(g * hfl) : real(0.0);
    if (code == CELL_DISCHARGE) {
        // the imposed flux, outward from the active cell (n_out): mass -v, momentum
        // M n_out, less F(W_a).n_out (roe_scalar.c says why)
        rvec2 n = ghost_low ? -e : e;
        real v = bv.x, h = max(wa.x, real(0.0));
        bool wet = h > h_dry;
        real qn = wa.y * n.x + wa.z * n.y, un = wet ? qn / h : real(0.0);
        real hc = v > real(0.0) ? roe_cbrt(v * v / g) : real(0.0), hb = h > hc ? h : hc;
        real M = real(0.0), sp = real(0.0);
        if (hb > real(0.0)) {
            M = v * v / hb + real(0.5) * g * hb * hb;
            sp = v / hb + sqrt(g * hb);
        }
        real dp = M - real(0.5) * g * h * h;
        rvec3 fa = rvec3(-v - qn, dp * n.x - wa.y * un, dp * n.y - wa.z * un);
        fL = ghost_low ? rvec3(0.0) : fa;
        fR = ghost_low ? fa : rvec3(0.0);
        phi = ghost_low ? v : -v;
        real sa = wet ? abs(un) + sqrt(g * h) : real(0.0);
        if (sa > sp) sp = sa;
        return floor_speed > sp ? floor_speed : sp;
    }
    rvec3 wg;
    if (code == CELL_LEVEL || code == CELL_DEPTH) {
        // the exterior depth with the active cell's velocity (none where either is dry, or
        // where the exterior is deeper)
        real hb = code == CELL_LEVEL ? (bv.x - Bf > real(0.0) ? bv.x - Bf : real(0.0)) : bv.x;
        if (!(hb > real(0.0))) hb = real(0.0);
        bool moving = wa.x > h_dry && hb > h_dry && !(hb > wa.x);   // deeper: at rest (swe.h)
        wg = rvec3(hb, moving ? hb * (wa.y / wa.x) : real(0.0), moving ? hb * (wa.z / wa.x) : real(0.0));
    } else {
        wg = ghost_state(wa, code, e);
    }
    rvec3 wL = ghost_low ? wg : wa, wR = ghost_low ? wa : wg;
    real sp = roe_edge(wL, wR, Ha, Ha, e, g, h_dry, fL, fR);
    phi = GRID_BC_SIGN(code) < 0.0 ? real(0.0) : dot(wL.yz, e) + fL.x;   // (M1); a wall: 0
    return floor_speed > sp ? floor_speed : sp;   // (a NaN speed stays NaN)
#endif
}

real roe_face(rvec3 wL, rvec3 wR, real zL, real zR, rvec2 e, real g, real h_dry, out real F_h, out rvec2 mL,
              out rvec2 mR)
{
    rvec3 fL, fR;
    real speed = roe_edge(wL, wR, -zL, -zR, e, g, h_dry, fL, fR);
    F_h = dot(wL.yz, e) + fL.x;   // (M1)
    mL = fL.yz;
    mR = -fR.yz;
    return speed;
}

real roe_bface(real code, rvec2 bv, rvec3 wa, real za, rvec2 e, bool ghost_low, real g, real h_dry, out real F_h,
               out rvec2 mL, out rvec2 mR)
{
    rvec3 fL, fR;
    real speed = roe_bedge(code, bv, wa, -za, e, ghost_low, g, h_dry, fL, fR, F_h);
    mL = fL.yz;
    mR = -fR.yz;
    return speed;
}

#define SWE_FACE roe_face
#define SWE_BFACE roe_bface
#endif
