// roe_update.glsl — Lastra 4.3 phase 4, the volume update (4) with the mass-conservative
// positivity limiter (cpu_ref/roe_cpu.h, after Bollermann et al. 2013):
//     theta_k = min(1, tau_k / dt)                       (1 when dt <= tau_k)
//     h_i  <- h_i  - dt/|V_i| sum_e theta_donor(e) |Gamma_e| Phi_e,out
//                    donor(e) = i where the edge's flux leaves i, else the cell across
//     q_i  <- q_i  - dt/|V_i| sum_e |Gamma_e| F-_e[qx, qy]
// then h = max(h, 0) (rounding only: the limiter keeps h >= 0), h <= h_dry -> q = 0, and
// in a thin film h < kappa the velocity desingularization (M5) of cpu_ref/roe_cpu.h:
//     q <- q sqrt(2) r^2 / sqrt(r^4 + 1),  r = h / kappa.
// A step of dt = 0 (the clock's after it has landed on a stop, or blown up) leaves the
// state exactly as it is.
// Both sides of an edge use the same theta and opposite fluxes, so mass telescopes.
// Ghost and inactive cells keep their state (and their code in w).

SWGL_INPUT(u_state);
SWGL_INPUT(u_sums);    // dt pass output 0: (sum F-[qx], sum F-[qy], dt_i, tau_i)
#ifdef ROE_MASS_FROM_EDGES
#include "roe_gather.glsl"
SWGL_INPUT(u_low);     // edge pass outputs: x = the outward mass flux of that side
SWGL_INPUT(u_high);
#else
SWGL_INPUT(u_mass);    // dt pass output 1: outward mass fluxes (E, N, W, S)
#endif
#ifdef ROE_DT_ON_GPU
SWGL_INPUT(u_clock);   // the step chosen on the GPU (gpgpu's clock.glsl): dt in x
#else
uniform float u_dt;
#endif
uniform float u_area;
uniform float u_hdry;
uniform float u_kappa;
SWGL_OUTPUT(0, o_state);

float roe_theta(float tau, float dt) { return tau >= dt ? 1.0 : tau / dt; }

SWGL_MAIN
{
    ivec2 c = swgl_cell();
    vec4 w = SWGL_LOAD(u_state, c);
    o_state = w;
    if (w.w != CELL_ACTIVE) return;
#ifdef ROE_DT_ON_GPU
    float u_dt = SWGL_LOAD(u_clock, ivec2(0)).x;
#endif
    if (u_dt == 0.0) return;
    vec4 s = SWGL_LOAD(u_sums, c);
#ifdef ROE_MASS_FROM_EDGES
    vec4 m;
    for (int k = 0; k < 4; k++) m[k] = roe_edge_value(u_low, u_high, c, k).x;
#else
    vec4 m = SWGL_LOAD(u_mass, c);
#endif
    const ivec2 nb[4] = ivec2[4](ivec2(1, 0), ivec2(0, 1), ivec2(-1, 0), ivec2(0, -1));
    float own = roe_theta(s.w, u_dt), mass = 0.0;
    for (int k = 0; k < 4; k++) {
        float theta = m[k] > 0.0 ? own : roe_theta(SWGL_LOAD(u_sums, c + nb[k]).w, u_dt);
        mass += theta * m[k];
    }
    float k_dt = u_dt / u_area;
    float h = max(w.x - k_dt * mass, 0.0);
    vec2 q = w.yz - k_dt * s.xy;
    if (h <= u_hdry) q = vec2(0.0);
    else if (h < u_kappa) {                 // thin film: desingularized velocity (M5)
        float r = h / u_kappa, r2 = r * r;
        q *= 1.41421356 * r2 / sqrt(r2 * r2 + 1.0);
    }
    o_state = vec4(h, q, w.w);
}
