// hllc_face.glsl — the HLLC face with Audusse's hydrostatic reconstruction, (H1)-(H4) of
// cpu_ref/hllc_cpu.h, in the shared signature of shaders/swe/swe_face.glsl, float or
// double (roe_real.glsl).  A line-by-line transliteration of cpu_ref/hllc_face.h
// (hllc_face: the interior face) and cpu_ref/hllc_flux.c (hllc_boundary_face: wall,
// free, level, depth, discharge, with cpu_ref/swe.h's swe_boundary_speed,
// swe_exterior_depth, swe_exterior_at_rest and swe_discharge_flux written out);
// tests/test_gl_hllc_face.c compares the two point by point in both precisions.
#ifndef HLLC_FACE_GLSL
#define HLLC_FACE_GLSL
#include "swe_face.glsl"

real hllc_face(rvec3 wL, rvec3 wR, real zL, real zR, rvec2 e, real g, real h_dry, out real F_h, out rvec2 mL,
               out rvec2 mR)
{
    const real zero = real(0.0), hf = real(0.5), two = real(2.0);
    real hL = wL.x > zero ? wL.x : zero, hR = wR.x > zero ? wR.x : zero;
    real uxL = hL > h_dry ? wL.y / hL : zero, uyL = hL > h_dry ? wL.z / hL : zero;
    real uxR = hR > h_dry ? wR.y / hR : zero, uyR = hR > h_dry ? wR.z / hR : zero;
    real unL = uxL * e.x + uyL * e.y, utL = uyL * e.x - uxL * e.y;
    real unR = uxR * e.x + uyR * e.y, utR = uyR * e.x - uxR * e.y;
    // (H1)
    real zf = zL > zR ? zL : zR;
    real hLs = hL + zL - zf, hRs = hR + zR - zf;
    hLs = hLs > zero ? hLs : zero;
    hRs = hRs > zero ? hRs : zero;
    // (H4)'s corrections
    real dL = hf * g * (hL * hL - hLs * hLs), dR = hf * g * (hR * hR - hRs * hRs);
    real Fh = zero, Fn = zero, Ft = zero, speed = zero;
    if (hLs > zero || hRs > zero) {
        real cL = sqrt(g * hLs), cR = sqrt(g * hRs);
        real SL, SR;
        if (!(hLs > zero)) {   // (H2)
            SL = unR - two * cR;
            SR = unR + cR;
        } else if (!(hRs > zero)) {
            SL = unL - cL;
            SR = unL + two * cL;
        } else {
            real sL = sqrt(hLs), sR = sqrt(hRs);
            real ua = (sL * unL + sR * unR) / (sL + sR), ca = sqrt(hf * g * (hLs + hRs));
            SL = unL - cL < ua - ca ? unL - cL : ua - ca;
            SR = unR + cR > ua + ca ? unR + cR : ua + ca;
        }
        real qL = hLs * unL, qR = hRs * unR;
        real FnL = qL * unL + hf * g * hLs * hLs, FnR = qR * unR + hf * g * hRs * hRs;
        if (SL >= zero) {   // (H3)
            Fh = qL;
            Fn = FnL;
            Ft = qL * utL;
        } else if (SR <= zero) {
            Fh = qR;
            Fn = FnR;
            Ft = qR * utR;
        } else {
            real r = real(1.0) / (SR - SL);
            Fh = (SR * qL - SL * qR + SL * SR * (hRs - hLs)) * r;
            Fn = (SR * FnL - SL * FnR + SL * SR * (qR - qL)) * r;
            real Ss = (SL * hRs * (unR - SR) - SR * hLs * (unL - SL)) / (hRs * (unR - SR) - hLs * (unL - SL));
            Ft = Fh * (Ss >= zero ? utL : utR);
        }
        real aL = SL < zero ? -SL : SL, aR = SR < zero ? -SR : SR;
        speed = aL > aR ? aL : aR;
    }
    F_h = Fh;
    // back to x, y: F_mom = Fn n + Ft t, t = (-ey, ex); then (H4)
    real Fx = Fn * e.x - Ft * e.y, Fy = Fn * e.y + Ft * e.x;
    mL = rvec2(Fx + dL * e.x, Fy + dL * e.y);
    mR = rvec2(Fx + dR * e.x, Fy + dR * e.y);
    return speed;
}

real hllc_bface(real code, rvec2 bv, rvec3 wa, real za, rvec2 e, bool ghost_low, real g, real h_dry, out real F_h,
                out rvec2 mL, out rvec2 mR)
{
#ifdef SWGL_PLAIN_BOUNDARIES
    // walls and free outlets only (roe_gpu.c): the operations below with the floor speed 0
    rvec3 wg = ghost_state(wa, code, e);
    rvec3 wL = ghost_low ? wg : wa, wR = ghost_low ? wa : wg;
    real sp = hllc_face(wL, wR, za, za, e, g, h_dry, F_h, mL, mR);
    if (GRID_BC_SIGN(code) < 0.0) F_h = real(0.0);   // a wall moves no mass
    return real(0.0) > sp ? real(0.0) : sp;
#else
    real v = bv.x, vmax = bv.y;
    // swe_boundary_speed(code, vmax, za, g)
    real hfl = code == CELL_LEVEL ? vmax - za : code == CELL_DEPTH ? vmax : real(0.0);
    real floor_speed = code == CELL_DISCHARGE ? (vmax > real(0.0) ? real(2.0) * roe_cbrt(g * vmax) : real(0.0))
                     : hfl > real(0.0) ? real(2.0) * sqrt(g * hfl) : real(0.0);
    if (code == CELL_DISCHARGE) {
        // the imposed flux: mass v into the domain, the inflow's normal momentum flux
        // M = q^2/h_b + g h_b^2/2 along n whichever side the ghost is (hllc_flux.c)
        real h = wa.x > real(0.0) ? wa.x : real(0.0);
        bool wet = h > h_dry;
        rvec2 n = ghost_low ? -e : e;
        real un = wet ? (wa.y * n.x + wa.z * n.y) / h : real(0.0);
        // swe_discharge_flux(v, h, g, &M)
        real hc = v > real(0.0) ? roe_cbrt(v * v / g) : real(0.0), hb = h > hc ? h : hc;
        real M = real(0.0), sp = real(0.0);
        if (hb > real(0.0)) {
            M = v * v / hb + real(0.5) * g * hb * hb;
            sp = v / hb + sqrt(g * hb);
        }
        F_h = ghost_low ? v : -v;
        mL = M * e;
        mR = M * e;
        real sa = wet ? abs(un) + sqrt(g * h) : real(0.0);
        if (sa > sp) sp = sa;
        return floor_speed > sp ? floor_speed : sp;
    }
    rvec3 wg;
    if (code == CELL_LEVEL || code == CELL_DEPTH) {
        // swe_exterior_depth; the interior's velocity unless either is dry or the
        // exterior is deeper (swe_exterior_at_rest)
        real hb = code == CELL_LEVEL ? (v - za > real(0.0) ? v - za : real(0.0)) : v;
        if (!(hb > real(0.0))) hb = real(0.0);
        bool moving = wa.x > h_dry && hb > h_dry && !(hb > wa.x);
        wg = rvec3(hb, moving ? hb * (wa.y / wa.x) : real(0.0), moving ? hb * (wa.z / wa.x) : real(0.0));
    } else {   // free: copy; wall (or off): mirror the normal discharge
        wg = ghost_state(wa, code, e);
    }
    rvec3 wL = ghost_low ? wg : wa, wR = ghost_low ? wa : wg;
    real sp = hllc_face(wL, wR, za, za, e, g, h_dry, F_h, mL, mR);
    if (GRID_BC_SIGN(code) < 0.0) F_h = real(0.0);   // a wall moves no mass (0 in exact arithmetic)
    return floor_speed > sp ? floor_speed : sp;
#endif
}

#define SWE_FACE hllc_face
#define SWE_BFACE hllc_bface
#endif
