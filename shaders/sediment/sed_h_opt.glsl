// sed_h_opt.glsl — the h pass (3) reading the products stored by sed_kpass.glsl (the
// OPT-2 analog) instead of recomputing them: K = (alpha s) * 1/C_s + (beta (1-s)) * 1/C_m,
// bit for bit the sed_k of sed_h.glsl.  Boundary points still read their (h, s, alpha,
// beta) to build their ghosts by the rule.  Output as sed_h.glsl.
#include "sed_common.glsl"

#ifdef SED_DOUBLE
SWGL_INPUT_U(u_kk);
void sed_load_k(ivec2 p, out real h, out real k)
{
    uvec4 t = SWGL_LOAD(u_kk, p);
    h = sed_lo(SWGL_LOAD(u_hs, p));
    k = sed_lo(t) * C_ICS + sed_hi(t) * C_ICM;
}
SWGL_OUTPUT_U(0, o_hn);
#else
SWGL_INPUT(u_kk);
void sed_load_k(ivec2 p, out real h, out real k)
{
    vec4 t = SWGL_LOAD(u_kk, p);
    h = t.x;
    k = t.y * C_ICS + t.z * C_ICM;
}
SWGL_OUTPUT(0, o_hn);
#endif

SWGL_MAIN
{
    ivec2 c = swgl_cell();
    real h[5], k[5];
    sed_load_k(c, h[0], k[0]);
    bool edge = c.x == 1 || c.y == 1 || c.x == SED_NX || c.y == SED_NY;
    real s0 = real(0.0), a0 = real(0.0), b0 = real(0.0), h0;
    if (edge) sed_load(c, h0, s0, a0, b0);
    for (int q = 1; q < 5; q++) {
        if (sed_is_ghost(c, q)) {
            real sg;
            sed_ghost(q - 1, sed_along(c, q), h[0], s0, a0, b0, h[q], sg);
            k[q] = sed_k(a0, b0, sg);
        } else {
            sed_load_k(c + SED_OFF[q], h[q], k[q]);
        }
    }
    real hn = sed_point_h_k(h, k);
#ifdef SED_DOUBLE
    o_hn = sed_pack(hn, real(0.0));
#else
    o_hn = vec4(hn, 0.0, 0.0, 0.0);
#endif
}
