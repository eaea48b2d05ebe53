/* hllc_face.h — the interior face of the HLLC scheme, (H1)-(H4) of hllc_cpu.h, written
 * once for every precision: include with HLLC_T (float | double), HLLC_FN(name) (the
 * function's name for that type) and HLLC_SQRT (sqrtf | sqrt).
 * Paper sources: (H1), (H4): Audusse et al. (2004), section 2 (the reconstructed
 * interface depths and the first-order well-balanced scheme with its pressure
 * correction on each side); (H2), (H3): Toro, "Shock-capturing methods for free-surface
 * shallow flows" (2001), the HLL / HLLC solvers for the shallow-water equations with
 * Einfeldt's (Roe-average) wave-speed estimates and the dry-bed speeds u -+ 2c. */
static inline HLLC_T HLLC_FN(hllc_face_t)(const HLLC_T wL[3], const HLLC_T wR[3], HLLC_T zL, HLLC_T zR, HLLC_T ex,
                                          HLLC_T ey, HLLC_T g, HLLC_T h_dry, HLLC_T *F_h, HLLC_T mL[2],
                                          HLLC_T mR[2])
{
    typedef HLLC_T R_;   /* the type of this instance */
    const R_ zero = (R_)0, half = (R_)0.5, two = (R_)2;
    const R_ hL = wL[0] > zero ? wL[0] : zero, hR = wR[0] > zero ? wR[0] : zero;
    const R_ uxL = hL > h_dry ? wL[1] / hL : zero, uyL = hL > h_dry ? wL[2] / hL : zero;
    const R_ uxR = hR > h_dry ? wR[1] / hR : zero, uyR = hR > h_dry ? wR[2] / hR : zero;
    const R_ unL = uxL * ex + uyL * ey, utL = uyL * ex - uxL * ey;
    const R_ unR = uxR * ex + uyR * ey, utR = uyR * ex - uxR * ey;
    /* (H1) */
    const R_ zf = zL > zR ? zL : zR;
    R_ hLs = hL + zL - zf, hRs = hR + zR - zf;
    hLs = hLs > zero ? hLs : zero;
    hRs = hRs > zero ? hRs : zero;
    /* (H4)'s corrections */
    const R_ dL = half * g * (hL * hL - hLs * hLs), dR = half * g * (hR * hR - hRs * hRs);
    R_ Fh = zero, Fn = zero, Ft = zero, speed = zero;
    if (hLs > zero || hRs > zero) {
        const R_ cL = HLLC_SQRT(g * hLs), cR = HLLC_SQRT(g * hRs);
        R_ SL, SR;
        if (!(hLs > zero)) {   /* (H2) */
            SL = unR - two * cR;
            SR = unR + cR;
        } else if (!(hRs > zero)) {
            SL = unL - cL;
            SR = unL + two * cL;
        } else {
            const R_ sL = HLLC_SQRT(hLs), sR = HLLC_SQRT(hRs);
            const R_ ua = (sL * unL + sR * unR) / (sL + sR), ca = HLLC_SQRT(half * g * (hLs + hRs));
            SL = unL - cL < ua - ca ? unL - cL : ua - ca;
            SR = unR + cR > ua + ca ? unR + cR : ua + ca;
        }
        const R_ qL = hLs * unL, qR = hRs * unR;
        const R_ FnL = qL * unL + half * g * hLs * hLs, FnR = qR * unR + half * g * hRs * hRs;
        if (SL >= zero) {   /* (H3) */
            Fh = qL;
            Fn = FnL;
            Ft = qL * utL;
        } else if (SR <= zero) {
            Fh = qR;
            Fn = FnR;
            Ft = qR * utR;
        } else {
            const R_ r = (R_)1 / (SR - SL);
            Fh = (SR * qL - SL * qR + SL * SR * (hRs - hLs)) * r;
            Fn = (SR * FnL - SL * FnR + SL * SR * (qR - qL)) * r;
            const R_ Ss = (SL * hRs * (unR - SR) - SR * hLs * (unL - SL)) / (hRs * (unR - SR) - hLs * (unL - SL));
            Ft = Fh * (Ss >= zero ? utL : utR);
        }
        const R_ aL = SL < zero ? -SL : SL, aR = SR < zero ? -SR : SR;
        speed = aL > aR ? aL : aR;
    }
    *F_h = Fh;
    /* back to x, y: F_mom = Fn n + Ft t, t = (-ey, ex); then (H4) */
    const R_ Fx = Fn * ex - Ft * ey, Fy = Fn * ey + Ft * ex;
    mL[0] = Fx + dL * ex;
    mL[1] = Fy + dL * ey;
    mR[0] = Fx + dR * ex;
    mR[1] = Fy + dR * ey;
    return speed;
}
