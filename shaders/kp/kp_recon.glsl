// kp_recon.glsl — the reconstruction and the face flux of the Kurganov-Petrova scheme as
// Brodtkorb et al. (2011) run it, shared by the flux passes (kp_flux_cell.glsl, kp_flux_cs.glsl).
// The numbered items are those of cpu_ref/kp_cpu.h (the C truth: cpu_ref/kp_scalar.c):
//   item 1  neighbour values for the slopes (kp_boundary.glsl)
//   item 2  generalized minmod slopes (4): d = MM(theta (Q+ - Q), (Q+ - Q-)/2, theta (Q - Q-))
//   item 3  point values Q +- d/2 at the face midpoints
//   item 4  positivity of w (Kurganov-Petrova 2007 (2.9)-(2.10), Brodtkorb Figure 1d)
//   item 5  a dry cell (h <= eps) gives no water; a point with h_F <= eps is dry
//   item 6  desingularized velocities (5)-(6): u = sqrt(2) h (hu) / sqrt(h^4 + max(h^4, kappa^4))
//   item 7  the central-upwind flux (Kurganov, Noelle & Petrova 2001) across a face
// Textures: state (w, hu, hv, x), x = l (the surface's low word, kp_real.glsl) for an active cell and -(1 + code) for
// a non-active one; bed (B_E, B_N, B_ij, code); B_W and B_S are the west and south
// neighbours' B_E and B_N.
#include "kp_boundary.glsl"
#include "kp_desing.glsl"

uniform real u_theta;    // minmod parameter, [1, 2]
uniform real u_g;

// The code of a cell from its state texel (for the cells two away, whose bed texel the
// passes do not read): ACTIVE unless x holds -(1 + code); a NaN counts as ACTIVE, so
// that it spreads into R and the bound rather than hiding behind a mirror.
real kp_code_of(real4 s) { return s.w < -0.5 ? -1.0 - s.w : real(CELL_ACTIVE); }

real kp_minmod(real a, real b, real c)
{
    if (a > 0.0 && b > 0.0 && c > 0.0) return min(a, min(b, c));
    if (a < 0.0 && b < 0.0 && c < 0.0) return max(a, max(b, c));
    return real(0.0);
}

// item 2, per component: the limited difference of v between its neighbours lo and hi
real3 kp_slope(real3 lo, real3 v, real3 hi)
{
    real3 f = u_theta * (hi - v), c = (hi - lo) * 0.5, b = u_theta * (v - lo);
    return real3(kp_minmod(f.x, c.x, b.x), kp_minmod(f.y, c.y, b.y), kp_minmod(f.z, c.z, b.z));
}

// items 3-6 along one axis for a wet cell q = (w, hu, hv) with slopes d: the points on
// its high (E or N, bed Bhi) and low (W or S, bed Blo) faces as (h, u, v)
void kp_points(real3 q, real3 d, real Bhi, real Blo, out real3 phi, out real3 plo)
{
    real whi = q.x + 0.5 * d.x, wlo = q.x - 0.5 * d.x;
    if (whi < Bhi) {
        whi = Bhi;
        wlo = 2.0 * q.x - Bhi;
    } else if (wlo < Blo) {
        wlo = Blo;
        whi = 2.0 * q.x - Blo;
    }
    real hhi = max(whi - Bhi, 0.0), hlo = max(wlo - Blo, 0.0);
    real2 mhi = q.yz + 0.5 * d.yz, mlo = q.yz - 0.5 * d.yz;
    phi = hhi <= u_eps ? real3(0.0) : real3(hhi, kp_desing(hhi, mhi.x), kp_desing(hhi, mhi.y));
    plo = hlo <= u_eps ? real3(0.0) : real3(hlo, kp_desing(hlo, mlo.x), kp_desing(hlo, mlo.y));
}

// The value and the largest value of the segment of a ghost (its state texel holds the
// segment in .y, -1 for none: kp_gpu.c), from u_bvals, one texel (value at the stage's
// time, largest value, 0, 0) per segment; (0, 0) without boundary data (KP_NSEG undefined).
#ifdef KP_NSEG
KP_INPUT(u_bvals);
real2 kp_bv(real4 ghost)
{
    int s = int(ghost.y);
    return s >= 0 ? KP_LOAD(u_bvals, ivec2(s, 0)).xy : real2(0.0);
}
#else
real2 kp_bv(real4 ghost) { return real2(0.0); }
#endif

// item 1: the value a ghost (state texel g, code, face bed BF) shows the cell s beside it
// for the slopes (cpu_ref/kp_scalar.c neighbour()): a wall mirrors s and copies its
// surface, as does a discharge; a free or depth ghost extends the depth (the surface
// follows the bed across the face); a level ghost shows its level where that is above
// the face, else extends the depth
real3 kp_slope_ghost(real4 s, real Bij, real code, int n, real BF, real4 g)
{
    real3 q = kp_exterior(s.xyz, code, n);
    real ext = s.x + 2.0 * (BF - Bij);
#ifdef SWGL_PLAIN_BOUNDARIES
    // no ghost of a value code (kp_gpu.c): walls and free outlets only (code
    // never run still takes registers)
    if (code == CELL_FREE) q.x = ext;
    return q;
#endif
    if (code == CELL_FREE || code == CELL_DEPTH) q.x = ext;
    else if (code == CELL_LEVEL) {
        real v = kp_bv(g).x;
        q.x = v > BF ? v : ext;
    }
    return q;
}

// items 1-6: an active cell's two points along `axis` (0: x, 1: y) from its state s, its
// B_ij, its neighbours' states and codes on the low (lo) and high (hi) side, and its face
// beds; a dry cell's points are 0
void kp_cell_points(real4 s, real Bij, real4 lo, real code_lo, real4 hi, real code_hi, int axis, real Bhi,
                    real Blo, out real3 phi, out real3 plo)
{
    phi = real3(0.0);
    plo = real3(0.0);
    if (!(s.x - Bij > u_eps)) return;
    real3 ql = code_lo == CELL_ACTIVE ? lo.xyz : kp_slope_ghost(s, Bij, code_lo, 1 + axis, Blo, lo);
    real3 qh = code_hi == CELL_ACTIVE ? hi.xyz : kp_slope_ghost(s, Bij, code_hi, 1 + axis, Bhi, hi);
    kp_points(s.xyz, kp_slope(ql, s.xyz, qh), Bhi, Blo, phi, plo);
}

// item 7: the flux from the minus point m = (h, un, ut) to the plus point p, in the
// face's frame: (mass, normal momentum, tangential momentum, face speed max(a+, -a-))
real4 kp_flux(real3 m, real3 p)
{
    real cm = sqrt(u_g * m.x), cp = sqrt(u_g * p.x);
    real ap = max(max(m.y + cm, p.y + cp), 0.0);
    real am = min(min(m.y - cm, p.y - cp), 0.0);
    real d = ap - am;
    if (!(d > 0.0)) return real4(0.0);
    real qm = m.x * m.y, qp = p.x * p.y;   // recomputed normal momenta
    real tm = m.x * m.z, tp = p.x * p.z;   // recomputed tangential momenta
    real c = ap * am;
    return real4((ap * qm - am * qp + c * (p.x - m.x)) / d,
                (ap * (qm * m.y + 0.5 * u_g * m.x * m.x) - am * (qp * p.y + 0.5 * u_g * p.x * p.x) + c * (qp - qm)) / d,
                (ap * (qm * m.z) - am * (qp * p.z) + c * (tp - tm)) / d, max(ap, -am));
}

// The smallest speed a face of a value code counts in the bound, from the segment's
// largest value (cpu_ref/swe.h swe_boundary_speed)
real kp_bspeed(real code, real vmax, real Bf)
{
    if (code == CELL_DISCHARGE) return vmax > 0.0 ? 2.0 * kp_cbrt(u_g * vmax) : real(0.0);
    real h = code == CELL_LEVEL ? vmax - Bf : code == CELL_DEPTH ? vmax : real(0.0);
    return h > 0.0 ? 2.0 * sqrt(u_g * h) : real(0.0);
}

// item 7 at a boundary face (cpu_ref/swe.h "Boundary data", cpu_ref/kp_scalar.c
// boundary_face): the active side's point a = (h, un, ut) in the face frame, the ghost's
// code, its segment's (value, largest value) bv, the face's bed, whether the ghost is on
// the low side; (mass, normal, tangential, face speed).  Wall: mirror; free: copy; level,
// depth: the exterior depth with a's velocities, at rest where deeper; discharge: the
// imposed flux.
real4 kp_bflux(real3 a, real code, real2 bv, real Bf, bool ghost_low)
{
#ifdef SWGL_PLAIN_BOUNDARIES
    // walls and free outlets only (kp_slope_ghost says why): the same operations as
    // below with their floor speed 0
    real3 x = real3(a.x, a.y * real(GRID_BC_SIGN(code)), a.z);
    if (!(x.x > u_eps)) x = real3(0.0);
    real4 F = ghost_low ? kp_flux(x, a) : kp_flux(a, x);
    if (kp_closed(code)) F.x = 0.0;
    return real4(F.xyz, max(F.w, real(0.0)));
#else
    real fs = kp_bspeed(code, bv.y, Bf);
    if (code == CELL_DISCHARGE) {
        real q = bv.x;
        real hc = q > 0.0 ? kp_cbrt(q * q / u_g) : real(0.0), hb = max(a.x, hc);
        if (!(hb > 0.0)) return real4(0.0, 0.0, 0.0, fs);
        return real4(ghost_low ? q : -q, q * q / hb + 0.5 * u_g * hb * hb, 0.0, max(q / hb + sqrt(u_g * hb), fs));
    }
    real he = code == CELL_LEVEL ? (bv.x - Bf > 0.0 ? bv.x - Bf : real(0.0)) : code == CELL_DEPTH ? bv.x : a.x;
    real3 x = real3(he, a.y * real(GRID_BC_SIGN(code)), a.z);
    // a deeper level or depth exterior is at rest (cpu_ref/swe.h swe_exterior_at_rest)
    if ((code == CELL_LEVEL || code == CELL_DEPTH) && he > a.x) x.yz = real2(0.0);
    if (!(x.x > u_eps)) x = real3(0.0);   // item 5: a dry point
    real4 F = ghost_low ? kp_flux(x, a) : kp_flux(a, x);
    // a wall's mass flux is 0 in exact arithmetic and in IEEE float (a+ = -a-, the mirror
    // momenta): written as 0 so that a driver's fused multiply-add cannot leak mass
    if (kp_closed(code)) F.x = 0.0;
    return real4(F.xyz, max(F.w, fs));
#endif
}

// item 7 at one face from the two sides' points in the xy frame (h, u, v): a non-active
// side is a boundary (kp_bflux, with the ghost's bv and the face's bed Bf); the result
// (mass, hu, hv, a) in the xy frame.  Face with no active side: 0.
real4 kp_face(real3 lo_pt, bool lo_active, real lo_code, real3 hi_pt, bool hi_active, real hi_code, int axis,
              real2 bv, real Bf)
{
    if (!lo_active && !hi_active) return real4(0.0);
    real3 m = axis == 0 ? lo_pt : lo_pt.xzy, p = axis == 0 ? hi_pt : hi_pt.xzy;
    real4 F = !lo_active ? kp_bflux(p, lo_code, bv, Bf, true)
            : !hi_active ? kp_bflux(m, hi_code, bv, Bf, false) : kp_flux(m, p);
    return axis == 0 ? F : F.xzyw;
}

// item 8: the bed source of a cell along one axis from its face beds and point depths
real kp_source(real Bhi, real Blo, real hhi, real hlo, real d)
{
    return -u_g * (Bhi - Blo) / d * ((hhi + hlo) * 0.5);
}
