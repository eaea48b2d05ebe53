// roe_flux.glsl — one edge of the Lastra et al. (2009) first-order, well-balanced,
// path-conservative Roe scheme, in single precision, or in double with ROE_DOUBLE
// (roe_real.glsl: one source for both).  A line-by-line transliteration of roe_edge()
// in cpu_ref/roe_flux.c, where the derivation is written out; tests/test_gl_roe.c
// compares the two point by point, in both precisions.
//
//   R      = A_ij (W_j - W_i) - S_ij (H_j - H_i)                         (5)
//   F-_ij  = P-_ij R,  P-_ij = 1/2 K (I - sgn D) K^-1                    (6)
//   u_ij   = (sqrt(h_i) u_i + sqrt(h_j) u_j) / (sqrt(h_i) + sqrt(h_j)),
//   h_ij   = (h_i + h_j) / 2,  c = sqrt(g h_ij)                          (7)
// In the edge frame (normal e from i to j, tangent (-e.y, e.x)) with un, ut:
//   lambda = (un - c, un, un + c),  r_1 = (1, un - c, ut), r_2 = (0, 0, 1), r_3 = (1, un + c, ut)
//   alpha = K^-1 dW,  sigma = K^-1 S dH = (-c dH/2, 0, c dH/2),  beta = lambda alpha - sigma
//   F-_ij = sum beta-_k r_k, F-_ji = sum (beta_k - beta-_k) r_k, beta-_k = phi_k beta_k,
//   phi_k = (1 - sgn lambda_k)/2, with the Harten-Hyman split of lambda_k alpha_k for a
//   transonic rarefaction (lambda_k(W_i) < 0 < lambda_k(W_j)), k = 1, 3.
// Emerging bottom (Lastra 3.1 remark 4), h <= h_dry counting as dry:
//   i dry, h_j <= H_j - H_i:  F-_ij = 0,  F-_ji = (qn_j, qx_j un_j, qy_j un_j)
//   j dry, h_i <= H_i - H_j:  F-_ij = -(qn_i, qx_i un_i, qy_i un_i),  F-_ji = 0
//
// roe_edge returns ||D||_inf = |un| + c (0 when both cells are dry) and writes the two
// contributions fi (subtracted by cell i) and fj (subtracted by cell j).

#include "roe_real.glsl"

real roe_phi_minus(real l) { return real(0.5) * (real(1.0) - sign(l)); }

real roe_left_part(real l, real a, real s, real lL, real lR)
{
    real phi = roe_phi_minus(l);
    real cons = phi * l * a;
    if (lL < real(0.0) && lR > real(0.0))
        cons = lL * (lR - l) / (lR - lL) * a;
    return cons - phi * s;
}

real roe_edge(rvec3 wi, rvec3 wj, real Hi, real Hj, rvec2 e, real g, real h_dry,
              out rvec3 fi, out rvec3 fj)
{
    real hi = max(wi.x, real(0.0)), hj = max(wj.x, real(0.0));
    bool dry_i = !(hi > h_dry), dry_j = !(hj > h_dry);
    fi = rvec3(0.0);
    fj = rvec3(0.0);
    if (dry_i && dry_j) return real(0.0);

    real qni = wi.y * e.x + wi.z * e.y, qti = -wi.y * e.y + wi.z * e.x;
    real qnj = wj.y * e.x + wj.z * e.y, qtj = -wj.y * e.y + wj.z * e.x;
    real uni = dry_i ? real(0.0) : qni / hi, uti = dry_i ? real(0.0) : qti / hi;
    real unj = dry_j ? real(0.0) : qnj / hj, utj = dry_j ? real(0.0) : qtj / hj;

    real si = sqrt(hi), sj = sqrt(hj);
    real un = (si * uni + sj * unj) / (si + sj);
    real ut = (si * uti + sj * utj) / (si + sj);
    real hm = real(0.5) * (hi + hj);
    real c = sqrt(g * hm);
    real speed = abs(un) + c;

    if (dry_i && hj <= Hj - Hi) {          // emerging bottom, i dry above j's surface
        fj = rvec3(qnj, wj.y * unj, wj.z * unj);
        return speed;
    }
    if (dry_j && hi <= Hi - Hj) {          // emerging bottom, j dry above i's surface
        fi = -rvec3(qni, wi.y * uni, wi.z * uni);
        return speed;
    }

    real l1 = un - c, l2 = un, l3 = un + c;
    real d0 = hj - hi, dn = qnj - qni, dt = qtj - qti;
    real inv2c = real(0.5) / c;
    real a1 = ((un + c) * d0 - dn) * inv2c;
    real a2 = dt - ut * d0;
    real a3 = (dn - (un - c) * d0) * inv2c;
    real dH = Hj - Hi;
    real s1 = real(-0.5) * c * dH, s3 = real(0.5) * c * dH;
    real b1 = l1 * a1 - s1, b2 = l2 * a2, b3 = l3 * a3 - s3;

    real ci = sqrt(g * hi), cj = sqrt(g * hj);
    real m1 = roe_left_part(l1, a1, s1, uni - ci, unj - cj);
    real m2 = roe_phi_minus(l2) * b2;
    real m3 = roe_left_part(l3, a3, s3, uni + ci, unj + cj);
    real p1 = b1 - m1, p2 = b2 - m2, p3 = b3 - m3;

    real fi0 = m1 + m3, fin = m1 * l1 + m3 * l3, fit = fi0 * ut + m2;
    real fj0 = p1 + p3, fjn = p1 * l1 + p3 * l3, fjt = fj0 * ut + p2;
    fi = rvec3(fi0, fin * e.x - fit * e.y, fin * e.y + fit * e.x);
    fj = rvec3(fj0, fjn * e.x - fjt * e.y, fjn * e.y + fjt * e.x);
    return speed;
}
