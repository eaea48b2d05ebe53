// kp_integrate_fn.glsl — the time integration of one active cell as a function,
// kp_integrate_cell (kp_integrate.glsl's header has the equations), with the inputs it
// reads beyond the cell's own texels: friction, rain and sources.  The integration pass
// (kp_integrate.glsl) and the kernel of the compute backend (kp_integrate_cs.glsl) call it.
#include "kp_real.glsl"
#if KP_MANNING == 2
KP_INPUT(u_manning);   // (g n^2, 0, 0, 0)
#elif KP_MANNING == 1
uniform real u_gn2;
#endif
uniform real u_kappa;
uniform real u_cap_depth;   // the thin cells' speed cap below this depth (0: none)
uniform real u_cap_g;       // g, for the cap's 2 sqrt(g h)
#ifdef KP_RAIN
KP_INPUT(u_rain);      // (rain rate m/s, 0, 0, 0)
uniform real u_rain_dt;   // the stage's weight x dt x the rain series' factor
#endif
#ifdef KP_CELL_ADD
uniform real u_cell_add;  // a cell's rise (m, with the stage's weight): 0 but where the
                          // integration draws a cell again (solver/schemes/swe/gpu_redraw.h):
                          // its point sources' Q-bar dt / |V| and its discharge faces'
                          // (Q-bar - Q(t_stage)) dt len / (L |V|) (cpu_ref/swe.h "over a step")
#endif
#include "kp_desing.glsl"

#if KP_MANNING != 0
real kp_friction(real gn2, real h, real2 q)
{
    if (!(gn2 > 0.0) || !(h > u_eps)) return real(0.0);
    real u = kp_desing(h, q.x), v = kp_desing(h, q.y);
    return gn2 * sqrt(u * u + v * v) / (h * kp_cbrt(h));
}
#endif

// The thin cells' speed cap (cpu_ref/kp_cpu.h, after (10)) of cell c: the largest
// |u_n| + 2 sqrt(g h_n) over its active neighbours deeper than hin, its depth in the stage's
// state (KP_STAGE_IN, the texture the including shader names: Q^n, or Q* in RK2's stage 1),
// u_n the velocity (6) of that state: the speed water of n reaches running out onto a dry
// bed, which no thin cell it feeds can pass; -1 without such a neighbour
real kp_cap_speed(ivec2 c, real hin)
{
    real S = -1.0;
    ivec2 size = textureSize(KP_TEX(u_bed), 0);
    for (int m = 0; m < 4; m++) {
        ivec2 p = c + (m == 0 ? ivec2(-1, 0) : m == 1 ? ivec2(1, 0) : m == 2 ? ivec2(0, -1) : ivec2(0, 1));
        if (any(lessThan(p, ivec2(0))) || any(greaterThanEqual(p, size))) continue;
        real4 bn = KP_LOAD(u_bed, p);
        if (bn.w != CELL_ACTIVE) continue;
        real4 sn = KP_LOAD(KP_STAGE_IN, p);
        real hn = kp_depth(sn, bn);
        if (!(hn > hin) || !(hn > u_eps)) continue;   // (a dry one feeds nothing; in float a
                                                      // deficit within h_dry makes hn < 0)
        real u = kp_desing(hn, sn.y), v = kp_desing(hn, sn.z);
        S = max(S, sqrt(u * u + v * v) + 2.0 * sqrt(u_cap_g * hn));
    }
    return S;
}

// One active cell's new state for a step of dt > 0 from its Q^n texel s, its Q* texel qs
// (stage 1; unused in stage 0), its bed texel b and R of the stage's state: the pass
// below and the kernel of the compute backend (kp_integrate_cs.glsl) call it.  Returns
// (w, hu, hv, l): in float the surface's update is compensated (issue 27; cpu_ref's
// kp_fast_update.h does the same): w + l = (w^n + l^n) + dt R_w (stage 1: the half sum of
// both stages' surfaces and dt R_w) by TwoSum, its rounding error kept in the low word l, so
// that the sum of the surfaces follows the sum of dt R_w (zero inside a closed domain) where a
// plain float update drifts (biased rounding where thin films fill: +5.2e-6 of Thacker's volume
// a period).  The depths (friction, clip, dry and shoal rules) are (w - B_ij) + l.  In double
// the update is plain and l = 0.  kp_clipped: the depth the clip added (0 but where h < 0:
// in float only below -h_dry, a shallower deficit carried instead).
real kp_clipped;

real4 kp_integrate_cell(ivec2 c, real4 s, real4 qs, real4 b, real dt, real3 R)
{
#if KP_MANNING == 2
    real gn2 = KP_LOAD(u_manning, c).x;
#elif KP_MANNING == 1
    real gn2 = u_gn2;
#endif
#ifndef KP_STAGE1
#if KP_MANNING != 0
    real den = 1.0 + dt * kp_friction(gn2, kp_depth(s, b), s.yz);
#else
    real den = 1.0;
#endif
    real2 q = (s.yz + dt * R.yz) / den;
#ifdef KP_DOUBLE
    real w = s.x + dt * R.x, l = 0.0;
#else
    // (w^n + l^n) + dt R_w: a = w^n, y = dt R_w + l^n
    KP_PRECISE real a = s.x, y = dt * R.x + s.w;
#endif
#else
#if KP_MANNING != 0
    real den = 1.0 + 0.5 * dt * kp_friction(gn2, kp_depth(qs, b), qs.yz);
#else
    real den = 1.0;
#endif
    real2 q = 0.5 * (s.yz + (qs.yz + dt * R.yz)) / den;
#ifdef KP_DOUBLE
    real w = 0.5 * (s.x + (qs.x + dt * R.x)), l = 0.0;
#else
    // ((w^n + l^n) + (w* + l*) + dt R_w) / 2: a = (w^n + w*) / 2 (TwoSum, its error e; the
    // halving exact), y = ((e + (l^n + l*)) + dt R_w) / 2
    KP_PRECISE real a2 = s.x + qs.x;
    KP_PRECISE real e = (s.x - (a2 - (a2 - s.x))) + (qs.x - (a2 - s.x));
    KP_PRECISE real y = ((e + (s.w + qs.w)) + dt * R.x) * 0.5;
    KP_PRECISE real a = a2 * 0.5;
#endif
#endif
#ifndef KP_DOUBLE
#ifdef KP_RAIN
    y = y + u_rain_dt * KP_LOAD(u_rain, c).x;
#endif
    // TwoSum(a, y) = (w, l), w + l = a + y exactly
    KP_PRECISE real w = a + y;
    KP_PRECISE real bb = w - a;
    KP_PRECISE real l = (a - (w - bb)) + (y - bb);
#elif defined(KP_RAIN)
    w += u_rain_dt * KP_LOAD(u_rain, c).x;
#endif
    real h = (w - b.z) + l;
    kp_clipped = 0.0;
    if (h < 0.0) {
#ifndef KP_DOUBLE
        // in float a deficit within h_dry (u_eps) is carried, not clipped: w + l stays
        // B_ij + h, so no volume is made, and the cell is dry (the rules below with h = 0, the
        // reconstruction's w - B_ij <= 0) until water pays it back: a rounding's worth below
        // the bed makes no volume.  A deeper deficit (no step within the bound makes one) is
        // clipped as in double.
        if (-h > u_eps)
#endif
        {   // the clip, booked: kp_clipped
            kp_clipped = -h;
            w = b.z;
            l = 0.0;
        }
        h = 0.0;
    }
#ifdef KP_CELL_ADD
    if (u_cell_add != 0.0) {   // cpu_ref/swe.h swe_source_take: no more than the cell holds
        real v = w + u_cell_add;
        if (u_cell_add >= 0.0 || v > b.z) {
#ifdef KP_DOUBLE
            w = v;
#else
            // (w + l) + add: TwoSum(w, add), its error added to l, then the pair renormalized
            // (TwoSum again: v may be near 0 where a source took nearly all) so that w is the
            // rounded sum, as the update leaves it
            KP_PRECISE real vb = v - w;
            KP_PRECISE real ve = (w - (v - vb)) + (u_cell_add - vb);
            KP_PRECISE real le = l + ve;
            KP_PRECISE real r = v + le;
            KP_PRECISE real rb = r - v;
            l = (v - (r - rb)) + (le - rb);
            w = r;
#endif
        } else {
            w = b.z;
            l = 0.0;
        }
        h = (w - b.z) + l;
    }
#endif
    if (h <= u_eps) q = real2(0.0);
    else if (h < u_kappa) q = h * real2(kp_desing(h, q.x), kp_desing(h, q.y));
    if (h > u_eps && h < u_cap_depth) {   // the thin cells' speed cap (kp_cap_speed)
#ifdef KP_STAGE1
        real hin = kp_depth(qs, b);
#else
        real hin = kp_depth(s, b);
#endif
        if (hin < u_cap_depth) {
            real S = kp_cap_speed(c, hin), sp = sqrt(q.x * q.x + q.y * q.y) / h;
            if (S >= 0.0 && sp > S) q = q * (S / sp);
        }
    }
    return real4(w, q, l);
}
