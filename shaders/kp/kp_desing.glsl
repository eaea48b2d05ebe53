// kp_desing.glsl — the desingularized velocity of Kurganov-Petrova, Brodtkorb et al.
// (2011) (5)-(6), cpu_ref/kp_cpu.h item 6 (kp_desing()):
//   u = sqrt(2) h (hu) / sqrt(h^4 + max(h^4, kappa^4))     (= hu / h for h >= kappa)
// for h > eps >= 0 (the callers test it); with kappa = 0 and h^4 below float's range the
// limit hu / h.
#ifndef KP_DESING_GLSL
#define KP_DESING_GLSL
uniform real u_kappa4;   // kappa^4

real kp_desing(real h, real q)
{
    real h4 = (h * h) * (h * h);
    real den = sqrt(h4 + max(h4, u_kappa4));
    return den > 0.0 ? KP_SQRT2 * h * q / den : q / h;
}

// h^(1/3) for h >= 0: float's pow, refined by two Newton steps in double (the friction of
// kp_integrate.glsl, the critical depth of a discharge boundary)
real kp_cbrt(real h)
{
    if (!(h > 0.0)) return real(0.0);
    real y = real(pow(float(h), 1.0 / 3.0));
#ifdef KP_DOUBLE
    y -= (y * y * y - h) / (3.0 * y * y);
    y -= (y * y * y - h) / (3.0 * y * y);
#endif
    return y;
}
#endif
