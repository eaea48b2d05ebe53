/* test_roe_flux.c — roe_edge (cpu_ref/roe_flux.c) point by point: consistency,
 * conservation, rotation, lake at rest (wet and emerged), the emerging-bottom cases,
 * the entropy fix, and P- against a brute-force 3x3 eigendecomposition of A_ij (6). */
#include "check.h"
#include "roe_cpu.h"

#include <math.h>
#include <string.h>

static const double G = 9.81;
static const double PI = 3.14159265358979323846;
static const double HDRY = 1e-6;

/* xorshift64*, uniform in [a, b) */
static unsigned long long rng_state = 0x9E3779B97F4A7C15ull;
static double urand(double a, double b)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    unsigned long long r = rng_state * 2685821657736338717ull;
    return a + (b - a) * (double)(r >> 11) / 9007199254740992.0;
}

static double maxabs3(const double v[3])
{
    double m = 0.0;
    for (int k = 0; k < 3; k++)
        if (fabs(v[k]) > m) m = fabs(v[k]);
    return m;
}

/* ---- brute force: A_ij of (6)-(7) in Cartesian form, K, K^-1 by Gauss-Jordan ---- */

typedef double mat3[3][3];

static double eig_worst;        /* max |A r_k - lambda_k r_k| / (|u|+c+1)^2 over all brute() calls */
static int eig_singular;        /* brute() calls where K could not be inverted */

static void roe_state(const double wi[3], const double wj[3], double *ux, double *uy, double *hm)
{
    double si = sqrt(wi[0]), sj = sqrt(wj[0]);
    *ux = (si * wi[1] / wi[0] + sj * wj[1] / wj[0]) / (si + sj);
    *uy = (si * wi[2] / wi[0] + sj * wj[2] / wj[0]) / (si + sj);
    *hm = 0.5 * (wi[0] + wj[0]);
}

static void build_A(double ux, double uy, double c, double ex, double ey, mat3 A)
{
    A[0][0] = 0.0;
    A[0][1] = ex;
    A[0][2] = ey;
    A[1][0] = (-ux * ux + c * c) * ex - ux * uy * ey;
    A[1][1] = 2.0 * ux * ex + uy * ey;
    A[1][2] = ux * ey;
    A[2][0] = -ux * uy * ex + (-uy * uy + c * c) * ey;
    A[2][1] = uy * ex;
    A[2][2] = ux * ex + 2.0 * uy * ey;
}

static int invert3(mat3 M, mat3 Inv)
{
    double a[3][6];
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 6; k++) a[r][k] = k < 3 ? M[r][k] : (k - 3 == r);
    for (int col = 0; col < 3; col++) {
        int piv = col;
        for (int r = col + 1; r < 3; r++)
            if (fabs(a[r][col]) > fabs(a[piv][col])) piv = r;
        if (fabs(a[piv][col]) < 1e-300) return 0;
        for (int k = 0; k < 6; k++) {
            double t = a[col][k];
            a[col][k] = a[piv][k];
            a[piv][k] = t;
        }
        double d = a[col][col];
        for (int k = 0; k < 6; k++) a[col][k] /= d;
        for (int r = 0; r < 3; r++) {
            if (r == col) continue;
            double f = a[r][col];
            for (int k = 0; k < 6; k++) a[r][k] -= f * a[col][k];
        }
    }
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++) Inv[r][k] = a[r][k + 3];
    return 1;
}

static void matvec(mat3 M, const double v[3], double out[3])
{
    for (int r = 0; r < 3; r++) out[r] = M[r][0] * v[0] + M[r][1] * v[1] + M[r][2] * v[2];
}

/* Brute-force F-_ij, F-_ji = P-+ R with explicit matrices; returns the scale used for
 * tolerances (max |lambda| |dW| + |S dH|). Also checks A K = K D. */
static double brute(const double wi[3], const double wj[3], double Hi, double Hj,
                    double ex, double ey, double fi[3], double fj[3], double lam[3],
                    mat3 K, mat3 Ki, double alpha[3])
{
    double ux, uy, hm;
    roe_state(wi, wj, &ux, &uy, &hm);
    double c = sqrt(G * hm), un = ux * ex + uy * ey;
    mat3 A;
    build_A(ux, uy, c, ex, ey, A);
    lam[0] = un - c;
    lam[1] = un;
    lam[2] = un + c;
    /* eigenvectors as columns */
    double r[3][3] = {{1.0, ux - c * ex, uy - c * ey}, {0.0, -ey, ex}, {1.0, ux + c * ex, uy + c * ey}};
    for (int k = 0; k < 3; k++)
        for (int m = 0; m < 3; m++) K[m][k] = r[k][m];
    double scaleA = fabs(un) + c + 1.0;
    for (int k = 0; k < 3; k++) {
        double Ar[3];
        matvec(A, r[k], Ar);
        for (int m = 0; m < 3; m++)
            eig_worst = fmax(eig_worst, fabs(Ar[m] - lam[k] * r[k][m]) / (scaleA * scaleA));
    }
    if (!invert3(K, Ki)) eig_singular++;
    double dW[3] = {wj[0] - wi[0], wj[1] - wi[1], wj[2] - wi[2]};
    double dH = Hj - Hi;
    double AdW[3];
    matvec(A, dW, AdW);
    double R[3] = {AdW[0], AdW[1] - G * hm * ex * dH, AdW[2] - G * hm * ey * dH};
    double beta[3];
    matvec(Ki, R, beta);
    matvec(Ki, dW, alpha);
    for (int m = 0; m < 3; m++) fi[m] = fj[m] = 0.0;
    for (int k = 0; k < 3; k++) {
        double phi = 0.5 * (1.0 - (lam[k] > 0 ? 1.0 : (lam[k] < 0 ? -1.0 : 0.0)));
        for (int m = 0; m < 3; m++) {
            fi[m] += phi * beta[k] * K[m][k];
            fj[m] += (1.0 - phi) * beta[k] * K[m][k];
        }
    }
    return scaleA * maxabs3(dW) + G * hm * fabs(dH) + 1e-300;
}

/* true when wave 1 or 3 is a transonic rarefaction (the entropy fix applies) */
static int transonic(const double wi[3], const double wj[3], double ex, double ey)
{
    double ci = sqrt(G * wi[0]), cj = sqrt(G * wj[0]);
    double uni = (wi[1] * ex + wi[2] * ey) / wi[0], unj = (wj[1] * ex + wj[2] * ey) / wj[0];
    return (uni - ci < 0 && unj - cj > 0) || (uni + ci < 0 && unj + cj > 0);
}

static void random_wet(double w[3], double umax)
{
    w[0] = urand(0.2, 3.0);
    w[1] = w[0] * urand(-umax, umax);
    w[2] = w[0] * urand(-umax, umax);
}

int main(void)
{
    double fi[3], fj[3];

    /* 0. roe_face, roe_edge in the shared face signature (swe_face_fn): negations and the
     *    (M1) sum only, so exactly: F_h = qn_L + F-_LR[h], mL = F-_LR[q], mR = -F-_RL[q], the
     *    same speed, the beds as z = -H; 1000 random wet and dry pairs */
    {
        int bad = 0;
        for (int n = 0; n < 1000; n++) {
            double wl[3], wr[3], th = urand(0, 2 * PI), ex = cos(th), ey = sin(th);
            random_wet(wl, 6.0);
            random_wet(wr, 6.0);
            if (n % 4 == 1) wl[0] = wl[1] = wl[2] = 0;    /* a dry side */
            if (n % 4 == 2) wr[0] = wr[1] = wr[2] = 0;
            double Hl = urand(-1, 3), Hr = urand(-1, 3), Fh, mL[2], mR[2];
            double sp = roe_edge(wl, wr, Hl, Hr, ex, ey, G, HDRY, fi, fj);
            double sf = roe_face(wl, wr, -Hl, -Hr, ex, ey, G, HDRY, &Fh, mL, mR);
            bad += sp != sf || Fh != (wl[1] * ex + wl[2] * ey) + fi[0] || mL[0] != fi[1] || mL[1] != fi[2] ||
                   mR[0] != -fj[1] || mR[1] != -fj[2];
        }
        CHECK(bad == 0, "roe_face is roe_edge in the shared signature, bit for bit (exact negations): "
              "%d of 1000 differ", bad);
    }

    /* 1. consistency: dW = 0, dH = 0 -> F- = 0 exactly */
    {
        double worst = 0.0;
        for (int n = 0; n < 1000; n++) {
            double w[3], th = urand(0, 2 * PI);
            random_wet(w, 8.0);
            double H = urand(-1, 5);
            roe_edge(w, w, H, H, cos(th), sin(th), G, HDRY, fi, fj);
            worst = fmax(worst, fmax(maxabs3(fi), maxabs3(fj)));
        }
        CHECK(worst == 0.0, "consistency: W_i = W_j, H_i = H_j gives F- = 0 exactly "
              "(every term is a product with dW = 0 or dH = 0), 1000 random states; worst %g", worst);
    }

    /* 2. conservation: F-_ij + F-_ji = R = A dW - S dH, incl. transonic (entropy-fixed) edges;
     *    the mass component is qn_j - qn_i, so the mass update telescopes */
    {
        double worst_mass = 0.0, worst_all = 0.0;
        int nfix = 0;
        for (int n = 0; n < 2000; n++) {
            double wi[3], wj[3], th = urand(0, 2 * PI), ex = cos(th), ey = sin(th);
            random_wet(wi, 6.0);
            random_wet(wj, 6.0);
            double Hi = urand(0, 2), Hj = urand(0, 2);
            roe_edge(wi, wj, Hi, Hj, ex, ey, G, HDRY, fi, fj);
            nfix += transonic(wi, wj, ex, ey);
            double bf[3], bj[3], lam[3], alpha[3];
            mat3 K, Ki;
            double scale = brute(wi, wj, Hi, Hj, ex, ey, bf, bj, lam, K, Ki, alpha);
            double dqn = (wj[1] - wi[1]) * ex + (wj[2] - wi[2]) * ey;
            double qscale = fabs(wi[1]) + fabs(wi[2]) + fabs(wj[1]) + fabs(wj[2]);
            worst_mass = fmax(worst_mass, fabs(fi[0] + fj[0] - dqn) / qscale);
            for (int m = 0; m < 3; m++)
                worst_all = fmax(worst_all, fabs(fi[m] + fj[m] - (bf[m] + bj[m])) / scale);
        }
        CHECK(nfix > 100, "the random set has transonic edges (%d of 2000)", nfix);
        CHECK_LE(worst_mass, 1e-13, "conservation: mass of F-_ij + F-_ji = qn_j - qn_i, relative to |q| "
                 "(double rounding of a few operations, with or without the entropy fix)");
        CHECK_LE(worst_all, 1e-12, "conservation: F-_ij + F-_ji = A dW - S dH (all components), "
                 "relative to (|u|+c)|dW| + g h |dH| (double rounding through K^-1, 1/(2c))");
    }

    /* 3. rotation: an x-edge and the same edge rotated by 90 degrees (a y-edge with
     *    q -> (-qy, qx)) give the rotated numbers, bitwise; any angle to rounding */
    {
        int same = 1;
        double worst = 0.0;
        for (int n = 0; n < 1000; n++) {
            double wi[3], wj[3];
            random_wet(wi, 6.0);
            random_wet(wj, 6.0);
            if (n % 4 == 0) wj[0] = 0.0, wj[1] = wj[2] = 0.0;    /* some wet/dry edges */
            double Hi = urand(0, 2), Hj = urand(0, 2);
            double gi[3], gj[3], s1, s2;
            s1 = roe_edge(wi, wj, Hi, Hj, 1.0, 0.0, G, HDRY, fi, fj);
            double ri[3] = {wi[0], -wi[2], wi[1]}, rj[3] = {wj[0], -wj[2], wj[1]};
            s2 = roe_edge(ri, rj, Hi, Hj, 0.0, 1.0, G, HDRY, gi, gj);
            if (!(s1 == s2 && gi[0] == fi[0] && gi[1] == -fi[2] && gi[2] == fi[1] && gj[0] == fj[0] &&
                  gj[1] == -fj[2] && gj[2] == fj[1]))
                same = 0;
            /* arbitrary angle */
            double th = urand(0, 2 * PI), cs = cos(th), sn = sin(th);
            double ai[3] = {wi[0], cs * wi[1] - sn * wi[2], sn * wi[1] + cs * wi[2]};
            double aj[3] = {wj[0], cs * wj[1] - sn * wj[2], sn * wj[1] + cs * wj[2]};
            double hi2[3], hj2[3];
            roe_edge(ai, aj, Hi, Hj, cs, sn, G, HDRY, hi2, hj2);
            double scale = 1.0 + maxabs3(fi) + maxabs3(fj);
            worst = fmax(worst, fabs(hi2[0] - fi[0]) / scale);
            worst = fmax(worst, fabs(hi2[1] - (cs * fi[1] - sn * fi[2])) / scale);
            worst = fmax(worst, fabs(hi2[2] - (sn * fi[1] + cs * fi[2])) / scale);
            worst = fmax(worst, fabs(hj2[1] - (cs * fj[1] - sn * fj[2])) / scale);
            worst = fmax(worst, fabs(hj2[2] - (sn * fj[1] + cs * fj[2])) / scale);
        }
        CHECK(same, "rotation by 90 degrees: x-edge vs y-edge with q -> (-qy, qx) gives the "
              "rotated F-_ij, F-_ji and speed bit for bit (the edge frame makes them the same operations)");
        CHECK_LE(worst, 1e-12, "rotation by a random angle: same numbers rotated, relative to |F| "
                 "(double rounding of the rotated inputs, amplified by up to ~100 through 1/c)");
    }

    /* 4. lake at rest: eta = h - H constant, q = 0 -> F- = 0 to rounding */
    {
        double worst = 0.0;
        for (int n = 0; n < 1000; n++) {
            double eta = urand(-0.5, 0.5), Hi = urand(1, 3), Hj = urand(1, 3);
            double th = urand(0, 2 * PI);
            double wi[3] = {eta + Hi, 0, 0}, wj[3] = {eta + Hj, 0, 0};
            roe_edge(wi, wj, Hi, Hj, cos(th), sin(th), G, HDRY, fi, fj);
            double scale = sqrt(G * 3.5) * 3.5;
            worst = fmax(worst, fmax(maxabs3(fi), maxabs3(fj)) / scale);
        }
        CHECK_LE(worst, 1e-14, "lake at rest, wet-wet: |F-| / (c h) at rounding "
                 "(beta_1 = c (dH - dh)/2, dh - dH is the rounding of h = eta + H)");
        /* emerged: i dry with its bed above the surface */
        double wi[3] = {0, 0, 0}, wj[3] = {1.2, 0, 0};
        double Hi = -0.3, Hj = 1.2;         /* eta = 0, i's bed at +0.3 */
        roe_edge(wi, wj, Hi, Hj, 1.0, 0.0, G, HDRY, fi, fj);
        CHECK(maxabs3(fi) == 0.0 && maxabs3(fj) == 0.0,
              "lake at rest, emerged dry cell i (case A): F-_ij = F-_ji = 0 exactly");
        roe_edge(wj, wi, Hj, Hi, 0.0, -1.0, G, HDRY, fi, fj);
        CHECK(maxabs3(fi) == 0.0 && maxabs3(fj) == 0.0,
              "lake at rest, emerged dry cell j (case B): F-_ij = F-_ji = 0 exactly");
        /* water touching the bed level of the dry cell exactly: still at rest */
        double wk[3] = {1.5, 0, 0};
        roe_edge(wi, wk, 0.0, 1.5, 1.0, 0.0, G, HDRY, fi, fj);
        CHECK(maxabs3(fi) == 0.0 && maxabs3(fj) == 0.0,
              "lake at rest with the surface exactly at the dry bed (h_j = H_j - H_i): 0 exactly");
    }

    /* 5. emerging bottom with moving water: the edge is a wall for the wet cell */
    {
        double wi[3] = {0.8, 0.5, -0.3}, wj[3] = {0, 0, 0};
        double Hi = 1.0, Hj = 0.0, ex = 0.6, ey = 0.8;    /* h_i <= H_i - H_j: case B */
        double sp = roe_edge(wi, wj, Hi, Hj, ex, ey, G, HDRY, fi, fj);
        double qn = wi[1] * ex + wi[2] * ey, un = qn / wi[0], p = 0.5 * G * wi[0] * wi[0];
        double F[3] = {qn, wi[1] * un + p * ex, wi[2] * un + p * ey};
        CHECK_NEAR(fi[0], 0.0 - F[0], 1e-15, "case B mass: F-_ij = -qn_i (double rounding)");
        CHECK_NEAR(fi[1], p * ex - F[1], 1e-14, "case B x-momentum: g h^2/2 ex - F_x(W_i) (rounding)");
        CHECK_NEAR(fi[2], p * ey - F[2], 1e-14, "case B y-momentum: g h^2/2 ey - F_y(W_i) (rounding)");
        CHECK(maxabs3(fj) == 0.0, "case B: F-_ji = 0 (the dry cell j gets nothing)");
        double hm = 0.4, c = sqrt(G * hm);
        CHECK_NEAR(sp, fabs(un) + c, 1e-14,
                   "speed on a wet/dry edge: |un| + c of the Roe state (u_ij = u_i)");
        /* case A mirrored: same numbers on the other side with the normal reversed */
        double gi[3], gj[3];
        roe_edge(wj, wi, Hj, Hi, -ex, -ey, G, HDRY, gi, gj);
        CHECK(maxabs3(gi) == 0.0, "case A: F-_ij = 0 for the dry cell");
        CHECK_NEAR(gj[0], fi[0], 1e-15, "case A = case B seen from the other side (mass)");
        CHECK_NEAR(gj[1], fi[1], 1e-14, "case A = case B seen from the other side (x-momentum)");
        CHECK_NEAR(gj[2], fi[2], 1e-14, "case A = case B seen from the other side (y-momentum)");
        /* the wet cell's water reaches over the dry bed: plain Roe (flooding) */
        double wk[3] = {1.5, 0, 0};
        roe_edge(wk, wj, 1.0, 0.0, 1.0, 0.0, G, HDRY, fi, fj);
        CHECK(fj[0] < 0.0, "flooding: water above the dry cell's bed flows into it (F-_ji mass %g < 0)", fj[0]);
        /* both dry */
        double d1[3] = {0.5 * HDRY, 0, 0}, d2[3] = {0, 0, 0};
        sp = roe_edge(d1, d2, 0.0, 0.0, 1.0, 0.0, G, HDRY, fi, fj);
        CHECK(sp == 0.0 && maxabs3(fi) == 0.0 && maxabs3(fj) == 0.0, "both dry: F- = 0, speed 0");
    }

    /* 6. P- = 1/2 K (I - sgn D) K^-1 against brute force, random states without
     *    transonic waves, both sides */
    {
        double worst = 0.0;
        int tested = 0;
        for (int n = 0; tested < 2000 && n < 100000; n++) {
            double wi[3], wj[3], th = urand(0, 2 * PI), ex = cos(th), ey = sin(th);
            random_wet(wi, 7.0);
            random_wet(wj, 7.0);
            if (transonic(wi, wj, ex, ey)) continue;
            double Hi = urand(0, 2), Hj = urand(0, 2);
            double sp = roe_edge(wi, wj, Hi, Hj, ex, ey, G, HDRY, fi, fj);
            double bf[3], bj[3], lam[3], alpha[3];
            mat3 K, Ki;
            double scale = brute(wi, wj, Hi, Hj, ex, ey, bf, bj, lam, K, Ki, alpha);
            for (int m = 0; m < 3; m++) {
                worst = fmax(worst, fabs(fi[m] - bf[m]) / scale);
                worst = fmax(worst, fabs(fj[m] - bj[m]) / scale);
            }
            worst = fmax(worst, fabs(sp - fmax(fabs(lam[0]), fabs(lam[2]))) / (fabs(lam[2]) + 1.0));
            tested++;
        }
        CHECK(tested == 2000, "2000 random non-transonic edges tested");
        CHECK_LE(worst, 1e-12, "F-_ij = P- R, F-_ji = P+ R and speed = ||D||_inf vs explicit A, K, K^-1 "
                 "(Gauss-Jordan), relative to (|u|+c)|dW| + g h|dH| (double rounding)");
    }

    /* 7. Harten-Hyman: on transonic edges F-_ij = P- R + (HH_left - phi lambda alpha) r_k
     *    for the fixed wave(s), computed with the brute-force K^-1 */
    {
        double worst = 0.0;
        int tested = 0;
        for (int n = 0; tested < 500 && n < 100000; n++) {
            double wi[3], wj[3], th = urand(0, 2 * PI), ex = cos(th), ey = sin(th);
            random_wet(wi, 7.0);
            random_wet(wj, 7.0);
            if (!transonic(wi, wj, ex, ey)) continue;
            double Hi = urand(0, 2), Hj = urand(0, 2);
            roe_edge(wi, wj, Hi, Hj, ex, ey, G, HDRY, fi, fj);
            double bf[3], bj[3], lam[3], alpha[3];
            mat3 K, Ki;
            double scale = brute(wi, wj, Hi, Hj, ex, ey, bf, bj, lam, K, Ki, alpha);
            double ci = sqrt(G * wi[0]), cj = sqrt(G * wj[0]);
            double uni = (wi[1] * ex + wi[2] * ey) / wi[0], unj = (wj[1] * ex + wj[2] * ey) / wj[0];
            double lL[3] = {uni - ci, 0, uni + ci}, lR[3] = {unj - cj, 0, unj + cj};
            for (int k = 0; k < 3; k += 2) {
                if (!(lL[k] < 0 && lR[k] > 0)) continue;
                double phi = lam[k] < 0 ? 1.0 : (lam[k] > 0 ? 0.0 : 0.5);
                double left = lL[k] * (lR[k] - lam[k]) / (lR[k] - lL[k]) * alpha[k];
                double d = left - phi * lam[k] * alpha[k];
                for (int m = 0; m < 3; m++) {
                    bf[m] += d * K[m][k];
                    bj[m] -= d * K[m][k];
                }
            }
            for (int m = 0; m < 3; m++) {
                worst = fmax(worst, fabs(fi[m] - bf[m]) / scale);
                worst = fmax(worst, fabs(fj[m] - bj[m]) / scale);
            }
            tested++;
        }
        CHECK(tested == 500, "500 random transonic edges tested");
        CHECK_LE(worst, 1e-12, "entropy-fixed F-_ij and F-_ji (complementary split) vs brute force, "
                 "relative to (|u|+c)|dW| + g h|dH| (double rounding)");
        /* a symmetric transonic rarefaction (dam break with u_i = -u_j) over a flat bed:
         * the fix makes the split exactly symmetric: F-_ij mass = -F-_ji mass */
        double wi[3] = {1.0, -4.0, 0.0}, wj[3] = {1.0, 4.0, 0.0};
        roe_edge(wi, wj, 0.0, 0.0, 1.0, 0.0, G, HDRY, fi, fj);
        CHECK(transonic(wi, wj, 1.0, 0.0), "u = -+4, c = 3.13: both acoustic waves transonic");
        CHECK_NEAR(fi[0] + fj[0], 8.0, 1e-14, "symmetric expansion: mass of F-_ij + F-_ji = dqn = 8 (rounding)");
        CHECK_NEAR(wi[1] + fi[0], 0.0, 1e-14, "symmetric expansion: numerical mass flux qn_i + F-_ij = 0 "
                   "by symmetry (rounding)");
    }

    CHECK_LE(eig_worst, 1e-14, "brute force: A_ij r_k = lambda_k r_k for every matrix built, relative to "
             "(|u|+c+1)^2 (double rounding of the entries of A)");
    CHECK(eig_singular == 0, "brute force: K invertible every time (c > 0): %d failures", eig_singular);
    return check_done();
}
