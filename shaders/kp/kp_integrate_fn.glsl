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

// One active cell's new state for a step of dt > 0 from its Q^n texel s, its Q* texel qs
// (stage 1; unused in stage 0), its bed texel b and R of the stage's state: the pass
// below and the kernel of the compute backend (kp_integrate_cs.glsl) call it.
real4 kp_integrate_cell(ivec2 c, real4 s, real4 qs, real4 b, real dt, real3 R)
{
#if KP_MANNING == 2
    real gn2 = KP_LOAD(u_manning, c).x;
#elif KP_MANNING == 1
    real gn2 = u_gn2;
#endif
#ifndef KP_STAGE1
#if KP_MANNING != 0
    real den = 1.0 + dt * kp_friction(gn2, s.x - b.z, s.yz);
#else
    real den = 1.0;
#endif
    real w = s.x + dt * R.x;
    real2 q = (s.yz + dt * R.yz) / den;
#else
#if KP_MANNING != 0
    real den = 1.0 + 0.5 * dt * kp_friction(gn2, qs.x - b.z, qs.yz);
#else
    real den = 1.0;
#endif
    real w = 0.5 * (s.x + (qs.x + dt * R.x));
    real2 q = 0.5 * (s.yz + (qs.yz + dt * R.yz)) / den;
#endif
#ifdef KP_RAIN
    w += u_rain_dt * KP_LOAD(u_rain, c).x;
#endif
    real h = w - b.z;
    if (h < 0.0) {
        w = b.z;
        h = 0.0;
    }
#ifdef KP_CELL_ADD
    if (u_cell_add != 0.0) {   // cpu_ref/swe.h swe_source_take: no more than the cell holds
        real v = w + u_cell_add;
        w = u_cell_add >= 0.0 ? v : v > b.z ? v : b.z;
        h = w - b.z;
    }
#endif
    if (h <= u_eps) q = real2(0.0);
    else if (h < u_kappa) q = h * real2(kp_desing(h, q.x), kp_desing(h, q.y));
    return real4(w, q, h);
}

