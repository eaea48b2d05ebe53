/* hllc_flux.c — the face fluxes of the HLLC scheme with hydrostatic reconstruction
 * (hllc_cpu.h (H1)-(H4)): the interior face in double (hllc_face.h, the formula every
 * precision shares) and the boundary faces (wall, free, level, depth, discharge).
 *
 *   (H1) h_L* = max(0, h_L + z_L - max(z_L, z_R)), h_R* likewise, velocities kept
 *        [Audusse et al. 2004, sec. 2, the hydrostatic reconstruction]
 *   (H2) S_L = min(un_L - c_L, u~ - c~), S_R = max(un_R + c_R, u~ + c~) (Roe averages
 *        of the reconstructed states); dry left: S_L = un_R - 2 c_R, S_R = un_R + c_R;
 *        dry right: S_L = un_L - c_L, S_R = un_L + 2 c_L   [Toro 2001, HLL speeds]
 *   (H3) F = F(U_L*) if S_L >= 0, F(U_R*) if S_R <= 0, else the HLL mass and normal
 *        momentum fluxes with the transverse momentum F_h ut of the side of the contact
 *        S* (its sign)                                         [Toro 2001, HLLC]
 *   (H4) M_L = F_mom + g/2 (h_L^2 - h_L*^2) n, M_R = F_mom + g/2 (h_R^2 - h_R*^2) n
 *        [Audusse et al. 2004, sec. 2, the well-balanced first-order scheme]
 * (Own labels; the papers' equation numbers were not checked against the papers.) */
#include "hllc_cpu.h"

#include <math.h>

#define HLLC_T double
#define HLLC_FN(x) x##_d
#define HLLC_SQRT sqrt
#include "hllc_face.h"
#undef HLLC_T
#undef HLLC_FN
#undef HLLC_SQRT

double hllc_face(const double wL[3], const double wR[3], double zL, double zR, double ex, double ey, double g,
                 double h_dry, double *F_h, double mL[2], double mR[2])
{
    return hllc_face_t_d(wL, wR, zL, zR, ex, ey, g, h_dry, F_h, mL, mR);
}

double hllc_boundary_face(unsigned char c, double v, double vmax, const double wa[3], double za, double ex,
                          double ey, int ghost_low, double g, double h_dry, double *F_h, double mL[2], double mR[2])
{
    const double floor_speed = swe_boundary_speed(c, vmax, za, g);
    if (c == CELL_DISCHARGE) {
        /* the imposed flux: mass v into the domain, the inflow's normal momentum flux
         * M = q^2/h_b + g h_b^2/2 along n whichever side the ghost is (the inflow moves
         * along -n_out, so h un^2 > 0 and the pressure push the same way); v = 0: the
         * interior's pressure g h_a^2/2, a wall at rest */
        const double h = wa[0] > 0.0 ? wa[0] : 0.0;
        const int wet = h > h_dry;
        const double nx = ghost_low ? -ex : ex, ny = ghost_low ? -ey : ey;
        const double un = wet ? (wa[1] * nx + wa[2] * ny) / h : 0.0;
        double M, sp = swe_discharge_flux(v, h, g, &M);
        *F_h = ghost_low ? v : -v;
        mL[0] = mR[0] = M * ex;
        mL[1] = mR[1] = M * ey;
        const double sa = wet ? fabs(un) + sqrt(g * h) : 0.0;
        if (sa > sp) sp = sa;
        return floor_speed > sp ? floor_speed : sp;
    }
    double wg[3];
    if (c == CELL_LEVEL || c == CELL_DEPTH) {
        double hb = swe_exterior_depth(c, v, za, wa[0]);
        if (!(hb > 0.0)) hb = 0.0;
        const int moving = wa[0] > h_dry && hb > h_dry && !swe_exterior_at_rest(c, hb, wa[0]);
        wg[0] = hb;
        wg[1] = moving ? hb * (wa[1] / wa[0]) : 0.0;
        wg[2] = moving ? hb * (wa[2] / wa[0]) : 0.0;
    } else {   /* free: copy; wall (or off): mirror the normal discharge */
        const double qn = wa[1] * ex + wa[2] * ey;
        wg[0] = wa[0];
        wg[1] = GRID_BC_SIGN(c) > 0 ? wa[1] : wa[1] - 2.0 * qn * ex;
        wg[2] = GRID_BC_SIGN(c) > 0 ? wa[2] : wa[2] - 2.0 * qn * ey;
    }
    const double *wL = ghost_low ? wg : wa, *wR = ghost_low ? wa : wg;
    double sp = hllc_face_t_d(wL, wR, za, za, ex, ey, g, h_dry, F_h, mL, mR);
    if (GRID_BC_SIGN(c) < 0) *F_h = 0.0;   /* a wall moves no mass (0 in exact arithmetic) */
    return floor_speed > sp ? floor_speed : sp;
}
