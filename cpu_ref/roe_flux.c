/* roe_flux.c — one edge of the Lastra et al. (2009) first-order, well-balanced,
 * path-conservative Roe scheme for the one-layer shallow-water system, in double.
 * This is the function the GLSL edge pass transliterates: keep the two in step.
 *
 * System (1)-(2): W = (h, qx, qy), H = depth function (downward), surface eta = h - H.
 * Update (4):   W_i <- W_i - dt/|V_i| sum_j |Gamma_ij| F-_ij
 * Fluctuation (5)-(6):
 *     R      = A_ij (W_j - W_i) - S_ij (H_j - H_i)
 *     F-_ij  = P-_ij R,   P-_ij = 1/2 K (I - sgn D) K^-1
 * Roe state (7): u_ij = (sqrt(h_i) u_i + sqrt(h_j) u_j) / (sqrt(h_i) + sqrt(h_j)),
 *                h_ij = (h_i + h_j)/2,  c = sqrt(g h_ij),  S_ij = (0, g h_ij eta).
 *
 * Everything is done in the edge frame: normal eta = (ex, ey) from i to j, tangent
 * tau = (-ey, ex); a vector v = (v0, vx, vy) becomes (v0, vn, vt) with
 * vn = vx ex + vy ey, vt = -vx ey + vy ex, and back with vx = vn ex - vt ey,
 * vy = vn ey + vt ex.  In that frame, with un = u.eta, ut = u.tau:
 *     A = [[0, 1, 0], [c^2 - un^2, 2 un, 0], [-un ut, ut, un]]
 *     lambda_1 = un - c,  lambda_2 = un,  lambda_3 = un + c
 *     r_1 = (1, un - c, ut),  r_2 = (0, 0, 1),  r_3 = (1, un + c, ut)
 * (in Cartesian components: r_1 = (1, u - c eta), r_2 = (0, tau), r_3 = (1, u + c eta)).
 * Closed-form K^-1 v:
 *     a_1 = ((un + c) v0 - vn) / (2c),  a_2 = vt - ut v0,  a_3 = (vn - (un - c) v0) / (2c).
 * alpha = K^-1 dW.  sigma = K^-1 (S_ij dH) with S_ij dH = (0, g h_ij dH, 0) in the frame:
 *     sigma_1 = -g h_ij dH / (2c) = -c dH / 2,  sigma_2 = 0,  sigma_3 = c dH / 2
 * (c^2 = g h_ij; the form c dH / 2 makes the lake at rest cancel term by term:
 * lambda_1 alpha_1 - sigma_1 = c (dH - dh) / 2 = 0 when dh = dH and q = 0).
 * So R = sum_k beta_k r_k with beta_k = lambda_k alpha_k - sigma_k, and
 *     F-_ij = sum_k phi_k beta_k r_k,   phi_k = (1 - sgn lambda_k) / 2   (1/2 at 0).
 *
 * Cell j: with the normal reversed, A_ji = -A_ij and S_ji = -S_ij, so R_ji = R_ij and
 * P-_ji = P+_ij: F-_ji = sum_k (1 - phi_k) beta_k r_k.  We write each wave's split as
 * beta_k = beta-_k + beta+_k, with F-_ij = sum beta-_k r_k and F-_ji = sum beta+_k r_k,
 * beta+_k = beta_k - beta-_k, so F-_ij + F-_ji = R on every edge (the mass component of
 * R is qn_j - qn_i: the mass update telescopes), whatever beta-_k is.
 *
 * Harten-Hyman entropy fix (Lastra 3.1 remark 2), for k = 1, 3: with each cell's own
 * speeds lambda^L_k = lambda_k(W_i), lambda^R_k = lambda_k(W_j) (un and c = sqrt(g h)
 * of the cell), a transonic rarefaction lambda^L_k < 0 < lambda^R_k splits its
 * conservative part lambda_k alpha_k into
 *     left  = lambda^L_k (lambda^R_k - lambda_k) / (lambda^R_k - lambda^L_k) alpha_k
 *     right = lambda^R_k (lambda_k - lambda^L_k) / (lambda^R_k - lambda^L_k) alpha_k
 * (left + right = lambda_k alpha_k), while the source part keeps phi_k sigma_k:
 *     beta-_k = left - phi_k sigma_k,   beta+_k = beta_k - beta-_k.
 * Otherwise beta-_k = phi_k beta_k.
 *
 * Wet/dry, emerging bottom (Lastra 3.1 remark 4, Castro et al. 2005), "h = 0" read as
 * h <= h_dry; each side of the edge is tested on its own:
 *   case A: i dry and h_j <= H_j - H_i (j's surface below i's bed):
 *           F-_ij = 0;  for j it is case 2 with the normal reversed:
 *           F-_ji = (0, g h_j^2/2 (-eta)) - F(W_j, -eta) = (qn_j, qx_j un_j, qy_j un_j).
 *   case B: j dry and h_i <= H_i - H_j:
 *           F-_ij = (0, g h_i^2/2 eta) - F(W_i, eta) = -(qn_i, qx_i un_i, qy_i un_i);
 *           F-_ji = 0.
 *   both dry: F-_ij = F-_ji = 0, and the edge reports no wave speed.
 * (F(W, eta) = (qn, qx un + g h^2/2 ex, qy un + g h^2/2 ey): the edge is a wall for the
 * wet cell, whose numerical flux F(W_i) + F-_ij is the pressure g h_i^2/2 eta alone.)
 *
 * Returns ||D_ij||_inf = |un| + c of the Roe state (0 when both cells are dry), for (8).
 */
#include "roe_cpu.h"

#include <math.h>

/* phi = (1 - sgn lambda) / 2, with sgn 0 = 0 (GLSL: 0.5 * (1.0 - sign(l))) */
static double phi_minus(double l)
{
    return l < 0.0 ? 1.0 : (l > 0.0 ? 0.0 : 0.5);
}

/* Left-going part of wave k: Harten-Hyman split of its conservative part lambda alpha
 * when lambda^L < 0 < lambda^R, else phi lambda alpha; the source part is phi sigma. */
static double left_part(double l, double a, double s, double lL, double lR)
{
    double phi = phi_minus(l);
    double cons = phi * l * a;
    if (lL < 0.0 && lR > 0.0)
        cons = lL * (lR - l) / (lR - lL) * a;
    return cons - phi * s;
}

double roe_edge(const double wi[3], const double wj[3], double Hi, double Hj,
                    double ex, double ey, double g, double h_dry,
                    double fi[3], double fj[3])
{
    const double hi = wi[0] > 0.0 ? wi[0] : 0.0;
    const double hj = wj[0] > 0.0 ? wj[0] : 0.0;
    const int dry_i = !(hi > h_dry), dry_j = !(hj > h_dry);

    for (int m = 0; m < 3; m++) fi[m] = fj[m] = 0.0;
    if (dry_i && dry_j) return 0.0;

    /* discharges in the edge frame */
    const double qni = wi[1] * ex + wi[2] * ey, qti = -wi[1] * ey + wi[2] * ex;
    const double qnj = wj[1] * ex + wj[2] * ey, qtj = -wj[1] * ey + wj[2] * ex;
    /* velocities, 0 in a dry cell */
    const double uni = dry_i ? 0.0 : qni / hi, uti = dry_i ? 0.0 : qti / hi;
    const double unj = dry_j ? 0.0 : qnj / hj, utj = dry_j ? 0.0 : qtj / hj;

    /* Roe state (7); si + sj > 0 since one cell is wet */
    const double si = sqrt(hi), sj = sqrt(hj);
    const double un = (si * uni + sj * unj) / (si + sj);
    const double ut = (si * uti + sj * utj) / (si + sj);
    const double hm = 0.5 * (hi + hj);
    const double c = sqrt(g * hm);
    const double speed = fabs(un) + c;

    /* emerging bottom: cases A and B replace (5) */
    if (dry_i && hj <= Hj - Hi) {                       /* case A */
        fj[0] = qnj;
        fj[1] = wj[1] * unj;
        fj[2] = wj[2] * unj;
        return speed;
    }
    if (dry_j && hi <= Hi - Hj) {                       /* case B */
        fi[0] = -qni;
        fi[1] = -wi[1] * uni;
        fi[2] = -wi[2] * uni;
        return speed;
    }

    const double l1 = un - c, l2 = un, l3 = un + c;

    /* alpha = K^-1 dW, in the edge frame */
    const double d0 = hj - hi, dn = qnj - qni, dt = qtj - qti;
    const double inv2c = 0.5 / c;
    const double a1 = ((un + c) * d0 - dn) * inv2c;
    const double a2 = dt - ut * d0;
    const double a3 = (dn - (un - c) * d0) * inv2c;

    /* sigma = K^-1 (S_ij dH) */
    const double dH = Hj - Hi;
    const double s1 = -0.5 * c * dH, s3 = 0.5 * c * dH;

    /* beta_k = lambda_k alpha_k - sigma_k (sigma_2 = 0) */
    const double b1 = l1 * a1 - s1, b2 = l2 * a2, b3 = l3 * a3 - s3;

    /* each cell's own speeds, for the entropy fix */
    const double ci = sqrt(g * hi), cj = sqrt(g * hj);
    const double m1 = left_part(l1, a1, s1, uni - ci, unj - cj);
    const double m2 = phi_minus(l2) * b2;
    const double m3 = left_part(l3, a3, s3, uni + ci, unj + cj);
    const double p1 = b1 - m1, p2 = b2 - m2, p3 = b3 - m3;

    /* sum_k beta_k r_k in the frame, then back to x, y */
    const double fi0 = m1 + m3;
    const double fin = m1 * l1 + m3 * l3;
    const double fit = fi0 * ut + m2;
    const double fj0 = p1 + p3;
    const double fjn = p1 * l1 + p3 * l3;
    const double fjt = fj0 * ut + p2;

    fi[0] = fi0;
    fi[1] = fin * ex - fit * ey;
    fi[2] = fin * ey + fit * ex;
    fj[0] = fj0;
    fj[1] = fjn * ex - fjt * ey;
    fj[2] = fjn * ey + fjt * ex;
    return speed;
}

/* roe_edge in the shared face signature (swe.h swe_face_fn; shaders/roe/roe_face.glsl is
 * the same in GLSL): z = -H, F_h = (M1) Phi = qn_L + F-_LR[h], mL = F-_LR[qx, qy], mR =
 * -F-_RL[qx, qy]; negations only, so the edge engine's sums are roe's bit for bit. */
double roe_face(const double wL[3], const double wR[3], double zL, double zR, double ex, double ey, double g,
                double h_dry, double *F_h, double mL[2], double mR[2])
{
    double fL[3], fR[3];
    double speed = roe_edge(wL, wR, -zL, -zR, ex, ey, g, h_dry, fL, fR);
    *F_h = (wL[1] * ex + wL[2] * ey) + fL[0];
    mL[0] = fL[1];
    mL[1] = fL[2];
    mR[0] = -fR[1];
    mR[1] = -fR[2];
    return speed;
}
