/* kp_face.c — the Kurganov-Petrova flux at a face (kp_cpu.h item 7), shared by the
 * scalar solver (kp_scalar.c) and the fast one's boundary faces (kp_fast.c): the
 * central-upwind flux between two points, and the flux at a face of the ring with
 * boundary data (cpu_ref/swe.h "Boundary data"). */
#include "kp_cpu.h"
#include "kp_internal.h"

#include <math.h>

/* item 7: the central-upwind flux from the minus point (h, un, ut) to the plus point,
 * un the normal and ut the tangential velocity; F = (mass, normal momentum, tangential
 * momentum); returns the face speed max(a+, -a-) */
double kp_cu_flux(const double m[3], const double p[3], double g, double F[3])
{
    double cm = sqrt(g * m[0]), cp = sqrt(g * p[0]);
    double ap = fmax(fmax(m[1] + cm, p[1] + cp), 0.0);
    double am = fmin(fmin(m[1] - cm, p[1] - cp), 0.0);
    double d = ap - am;
    if (!(d > 0.0)) {
        F[0] = F[1] = F[2] = 0.0;
        return 0.0;
    }
    double qm = m[0] * m[1], qp = p[0] * p[1];   /* recomputed normal momenta */
    double tm = m[0] * m[2], tp = p[0] * p[2];   /* recomputed tangential momenta */
    double c = ap * am;
    F[0] = (ap * qm - am * qp + c * (p[0] - m[0])) / d;
    F[1] = (ap * (qm * m[1] + 0.5 * g * m[0] * m[0]) - am * (qp * p[1] + 0.5 * g * p[0] * p[0]) + c * (qp - qm)) / d;
    F[2] = (ap * (qm * m[2]) - am * (qp * p[2]) + c * (tp - tm)) / d;
    return fmax(ap, -am);
}

/* item 7 at a boundary face (cpu_ref/swe.h "Boundary data"): the active side's point a =
 * (h, un, ut) in the face frame, the ghost's code c and value v (its segment's), the
 * face's bed Bf, whether the ghost is on the low (west / south) side.  The flux F in the
 * face frame; returns the face speed.  Wall: mirror; free: copy; level, depth: the
 * exterior depth with the active side's velocities, or at rest where it is deeper
 * (swe_exterior_at_rest; a dry exterior point has none);
 * discharge: the imposed flux of swe_discharge_flux. */
double kp_boundary_face(int c, double v, double vmax, double Bf, const double a[3], int ghost_low, double g,
                        double eps, double F[3])
{
    double floor_speed = swe_boundary_speed(c, vmax, Bf, g);
    if (c == CELL_DISCHARGE) {
        double M, speed = swe_discharge_flux(v, a[0], g, &M);
        F[0] = ghost_low ? v : -v;
        F[1] = M;
        F[2] = 0.0;
        return fmax(speed, floor_speed);
    }
    double x[3] = {swe_exterior_depth(c, v, Bf, a[0]), GRID_BC_SIGN(c) * a[1], a[2]};
    if (swe_exterior_at_rest(c, x[0], a[0])) x[1] = x[2] = 0.0;
    if (!(x[0] > eps)) x[0] = x[1] = x[2] = 0.0;   /* item 5: a dry point */
    double speed = ghost_low ? kp_cu_flux(x, a, g, F) : kp_cu_flux(a, x, g, F);
    /* a wall (or off) ghost carries no mass: 0 by item 7 in exact arithmetic and with
     * separate roundings, written as 0 so that a fused multiply-add (which a compiler may
     * form from ap qm - am qp) cannot leave a residue */
    if (GRID_BC_SIGN(c) < 0) F[0] = 0.0;
    return fmax(speed, floor_speed);
}
