// kp_integrate.glsl — the time integration of one stage, per active cell (cpu_ref/kp_cpu.h
// "Time integration with friction"; Brodtkorb et al. (2011) (7), (9)-(10)):
//   stage 0 (Euler, and RK2's first):  w* = w + dt R_w,
//                                      (hu)* = (hu + dt R_hu) / (1 + dt H~f(Q^n))
//   stage 1 (KP_STAGE1, RK2):  w^{n+1} = (w^n + (w* + dt R_w(Q*))) / 2,
//                              (hu)^{n+1} = (hu^n + ((hu)* + dt R_hu(Q*))) / 2 / (1 + dt/2 H~f(Q*))
// (hv likewise), with Manning's semi-implicit friction (9):
//   H~f(Q) = g n^2 sqrt(u^2 + v^2) / h^(4/3), u, v desingularized (6), 0 where h <= eps;
//   KP_MANNING 0: n = 0, 1: one g n^2 for every cell (u_gn2), 2: a texture of g n^2.
// Then h = (w - B_ij) + l (l: the surface's low word, kp_real.glsl; the float update is
// compensated, kp_integrate_fn.glsl); h < 0 (rounding only, for cfl <= 1/4) -> w = B_ij,
// in float a deficit within eps carried instead; h <= eps ->
// hu = hv = 0; eps < h < kappa -> the momenta from the desingularized velocity,
// hu = h u(6) (as cpu_ref/kp_scalar.c does).  Output (w, hu, hv, l).  dt from u_dt, or
// (KP_DT_ON_GPU) from the clock texel of gpgpu's clock.glsl; a step of dt = 0 (the
// clock's after it landed, or blew up) leaves the state exactly as it was (stage 0
// copies Q^n, stage 1 keeps Q^n).  Non-active cells keep their texel (the code in .w).
// Precision and storage: kp_real.glsl (double: h^(1/3) by float's pow and Newton steps).
#include "kp_real.glsl"

KP_INPUT(u_state);     // Q^n: (w, hu, hv, l or -(1 + code)), kp_real.glsl
#ifdef KP_STAGE1
KP_INPUT(u_qstar);     // Q*
#endif
KP_INPUT(u_R);         // R of the stage's state (R_w, R_hu, R_hv, bound)
KP_INPUT(u_bed);       // (B_E, B_N, B_ij, code)
#ifdef KP_DT_ON_GPU
SWGL_INPUT(u_clock);   // dt in x (float: gpgpu's clock.glsl)
#else
uniform real u_dt;
#endif
KP_OUTPUT(0, 0, 1, o_state);
#ifdef KP_CLIP
// the depth the clip added to each cell of the rank's own (KP_OWN) this stage, (d, 0, 0, 0):
// the host sums it (kp_gpu_step.c, boundary data's runs: the accounts)
#ifdef KP_DOUBLE
SWGL_OUTPUT(2, o_clip);
#else
SWGL_OUTPUT(1, o_clip);
#endif
#endif

#ifdef KP_STAGE1
#define KP_STAGE_IN u_qstar   // the stage's state (kp_integrate_fn.glsl's cap)
#else
#define KP_STAGE_IN u_state
#endif
#include "kp_integrate_fn.glsl"

SWGL_MAIN
{
    ivec2 c = swgl_cell();
    real4 s = KP_LOAD(u_state, c);
    real4 b = KP_LOAD(u_bed, c);
#ifdef KP_DT_ON_GPU
    real dt = real(SWGL_LOAD(u_clock, ivec2(0)).x);
#else
    real dt = u_dt;
#endif
#ifdef KP_CLIP
    o_clip = vec4(0.0);
#endif
    if (b.w != CELL_ACTIVE || dt == 0.0) {
        KP_STORE(o_state, s);
        return;
    }
#ifdef KP_STAGE1
    real4 qs = KP_LOAD(u_qstar, c);
#else
    real4 qs = s;
#endif
    KP_STORE(o_state, kp_integrate_cell(c, s, qs, b, dt, KP_LOAD(u_R, c).xyz));
#ifdef KP_CLIP
#ifdef KP_OWN   // (a rank's own cells: its halo's are another's, kp_rates.glsl)
    ivec4 o = KP_OWN;
    if (any(lessThan(c, o.xy)) || any(greaterThanEqual(c, o.zw))) return;
#endif
    o_clip = vec4(float(kp_clipped), 0.0, 0.0, 0.0);
#endif
}
