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
// With ROE_MANNING (hllc: the scheme has a Manning field; roe has none, its programs are
// as before) the momentum update is semi-implicit, (H7) of cpu_ref/hllc_cpu.h exactly as
// cpu_ref/hllc_solver_body.h does it: q <- (q - dt/|V| sum ...) / (1 + dt Hf), Hf = g n^2
// |u| / h^(4/3) of the state at the step's start with the desingularized velocity
// u = sqrt(2) h q / sqrt(h^4 + max(h^4, kappa^4)); 0 where h <= h_dry or n <= 0; before
// rain, the clip and the dry and thin-film rules.
// Both sides of an edge use the same theta and opposite fluxes, so mass telescopes.
// Ghost and inactive cells keep their state (and their code in w).
//
// In double (roe_real.glsl): the state in and out is (h, qx) + (qy, code), the sums
// u_sums_d (sum F-[qx], sum F-[qy]) and u_tau (tau, dt_i) of the dt pass, the mass
// fluxes always from the edges (u_low_a, u_high_a); dt comes as a double (two int
// uniforms), or with ROE_DT_ON_GPU from gpgpu's float clock: a step there is the float
// bound itself, which the double update takes as it is, except the step that lands on
// the stop, which it recomputes in double as the time loop would (stop - t): u_left =
// stop - t_known (the CPU's double) less the u_unknown steps the CPU had not read,
// which the previous clock holds (as the clock computes its float landing step).
#include "roe_real.glsl"

#ifdef ROE_DOUBLE
#include "roe_gather.glsl"
SWGL_INPUT_U(u_state_a);   // (h, qx)
SWGL_INPUT_U(u_state_b);   // (qy, cell code)
SWGL_INPUT_U(u_sums_d);    // dt pass output 0: (sum F-[qx], sum F-[qy])
SWGL_INPUT_U(u_tau);       // dt pass output 1: (tau_i, dt_i)
#ifdef ROE_DT_ON_GPU
SWGL_INPUT(u_clock);       // the step chosen on the GPU (gpgpu's clock.glsl)
SWGL_INPUT(u_prev);        // the clock before it
#include "clock_window.glsl"
uniform int u_left_lo, u_left_hi;   // stop - t_known, a double
uniform int u_unknown;
#else
uniform int u_dt_lo, u_dt_hi;       // dt, a double
#endif
// u_area, u_hdry, u_kappa: #defines (roe_gpu.c)
SWGL_OUTPUT_U(0, o_state_a);
SWGL_OUTPUT_U(1, o_state_b);
rvec4 roe_state(ivec2 p) { return roe_unpack4(SWGL_LOAD(u_state_a, p), SWGL_LOAD(u_state_b, p)); }
rvec2 roe_mom(ivec2 p) { return roe_unpack2(SWGL_LOAD(u_sums_d, p)); }
real roe_tau(ivec2 p) { return packDouble2x32(SWGL_LOAD(u_tau, p).xy); }
rvec4 roe_masses(ivec2 c)
{
    // written out: NVIDIA's compiler has no dynamic index into a double vector
    // ("can't find __setVectorIndex function in stdlib", driver 580)
    return rvec4(roe_edge_mass(c, 0), roe_edge_mass(c, 1), roe_edge_mass(c, 2), roe_edge_mass(c, 3));
}
void roe_put_state(rvec4 v)
{
    o_state_a = roe_pack2(v.xy);
    o_state_b = roe_pack2(v.zw);
}
real roe_step()
{
#ifdef ROE_DT_ON_GPU
    vec4 k = SWGL_LOAD(u_clock, ivec2(0));
    float bits = k.w - 4.0 * floor(k.w / 4.0);
    if (!(k.x > 0.0) || !(bits == 1.0 || bits == 3.0)) return real(k.x);
    // the landing step (dt > 0 and the landed flag: steps after it have dt = 0)
    real left = roe_bits(u_left_lo, u_left_hi);
    for (int k = 0; k < u_unknown; k++) left -= real(swgl_clock_dt(u_prev, k));
    return max(left, real(0.0));
#else
    return roe_bits(u_dt_lo, u_dt_hi);
#endif
}
#else
SWGL_INPUT(u_state);
SWGL_INPUT(u_sums);    // dt pass output 0: (sum F-[qx], sum F-[qy], dt_i, tau_i)
#ifdef ROE_MASS_FROM_EDGES
#include "roe_gather.glsl"
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
vec4 roe_state(ivec2 p) { return SWGL_LOAD(u_state, p); }
vec2 roe_mom(ivec2 p) { return SWGL_LOAD(u_sums, p).xy; }
float roe_tau(ivec2 p) { return SWGL_LOAD(u_sums, p).w; }
vec4 roe_masses(ivec2 c)
{
#ifdef ROE_MASS_FROM_EDGES
    vec4 m;
    for (int k = 0; k < 4; k++) m[k] = roe_edge_mass(c, k);
    return m;
#else
    return SWGL_LOAD(u_mass, c);
#endif
}
void roe_put_state(vec4 v) { o_state = v; }
float roe_step()
{
#ifdef ROE_DT_ON_GPU
    return SWGL_LOAD(u_clock, ivec2(0)).x;
#else
    return u_dt;
#endif
}
#endif

real roe_theta(real tau, real dt) { return tau >= dt ? real(1.0) : tau / dt; }

// Rain and point sources (cpu_ref/swe.h, as cpu_ref/roe_scalar.c adds them): rain (m/s,
// a texture) times u_rain_dt = dt x the rain series' mean over the step, added before the
// clip; a cell's rise u_cell_add (m), non-zero only where the update draws a cell again
// (solver/schemes/swe/gpu_redraw.h): its point sources' dt Q-bar / |V| and its discharge
// faces' dt (Q-bar - Q(t)) len / (L |V|), the step's mean less the value the faces took
// (cpu_ref/swe.h "over a step"); after the clip, taking no more than the cell holds.
#ifdef ROE_RAIN
#ifdef ROE_DOUBLE
SWGL_INPUT_U(u_rain);
uniform int u_rain_dt_lo, u_rain_dt_hi;
real roe_rain(ivec2 c) { return roe_bits(u_rain_dt_lo, u_rain_dt_hi) * roe_unpack2(SWGL_LOAD(u_rain, c)).x; }
#else
SWGL_INPUT(u_rain);
uniform float u_rain_dt;
real roe_rain(ivec2 c) { return u_rain_dt * SWGL_LOAD(u_rain, c).x; }
#endif
#endif
#ifdef ROE_CELL_ADD
#ifdef ROE_DOUBLE
uniform int u_cell_add_lo, u_cell_add_hi;
real roe_cell_add() { return roe_bits(u_cell_add_lo, u_cell_add_hi); }
#else
uniform float u_cell_add;
real roe_cell_add() { return u_cell_add; }
#endif
#endif

#ifdef ROE_MANNING
#ifdef ROE_DOUBLE
SWGL_INPUT_U(u_manning);   // (n, 0) per cell
real roe_manning(ivec2 c) { return roe_unpack2(SWGL_LOAD(u_manning, c)).x; }
#else
SWGL_INPUT(u_manning);     // (n, 0, 0, 0) per cell
uniform float u_g;
real roe_manning(ivec2 c) { return SWGL_LOAD(u_manning, c).x; }
#endif
// Hf of (H7) from the state w at the step's start (hllc_solver_body.h friction)
real roe_friction(ivec2 c, rvec4 w)
{
    real n = roe_manning(c), h = w.x;
    if (!(n > real(0.0)) || !(h > u_hdry)) return real(0.0);
    real h4 = h * h * h * h, k4 = u_kappa * u_kappa * u_kappa * u_kappa;
    real d = ROE_SQRT2 * h / sqrt(h4 + (h4 > k4 ? h4 : k4));   // u = d q
    real ux = d * w.y, uy = d * w.z;
    return u_g * n * n * sqrt(ux * ux + uy * uy) / (h * roe_cbrt(h));
}
#endif

// The flood maps updated here, in place (SWE_MAPS_INLINE with ROE_DT_ON_GPU, float: the
// step on the GPU's clock of the compute backend, roe_gpu_maps_start), instead of a pass
#ifdef SWE_MAPS_INLINE
#define SWE_MAPS_CLOCK 1
#include "swe_maps.glsl"
#endif

SWGL_MAIN
{
    ivec2 c = swgl_cell();
    rvec4 w = roe_state(c);
    roe_put_state(w);
    if (w.w != CELL_ACTIVE) return;
    real dt = roe_step();
    if (dt == real(0.0)) return;
    rvec2 mom = roe_mom(c);
    rvec4 m = roe_masses(c);
    const ivec2 nb[4] = ivec2[4](ivec2(1, 0), ivec2(0, 1), ivec2(-1, 0), ivec2(0, -1));
    real own = roe_theta(roe_tau(c), dt), mass = real(0.0);
    real ma[4] = real[4](m.x, m.y, m.z, m.w);   // an array: indexable by k with doubles too
    for (int k = 0; k < 4; k++) {
        real theta = ma[k] > real(0.0) ? own : roe_theta(roe_tau(c + nb[k]), dt);
        mass += theta * ma[k];
    }
    real k_dt = dt / u_area;
    real h = w.x - k_dt * mass;
#ifdef ROE_RAIN
    h += roe_rain(c);
#endif
    h = max(h, real(0.0));
#ifdef ROE_CELL_ADD
    real add = roe_cell_add();
    if (add != real(0.0)) h = add >= real(0.0) ? h + add : max(h + add, real(0.0));
#endif
    rvec2 q = w.yz - k_dt * mom;
#ifdef ROE_MANNING
    q /= real(1.0) + dt * roe_friction(c, w);
#endif
    if (h <= u_hdry) q = rvec2(0.0);
    else if (h < u_kappa) {                 // thin film: desingularized velocity (M5)
        real r = h / u_kappa, r2 = r * r;
        q *= ROE_SQRT2 * r2 / sqrt(r2 * r2 + real(1.0));
    }
    roe_put_state(rvec4(h, q, w.w));
#ifdef SWE_MAPS_INLINE
    swe_maps_cell(c, float(h), float(q.x), float(q.y));
#endif
}
