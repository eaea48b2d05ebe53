// sed_kpass.glsl — the OPT-2 analog (Su et al. store per-point products once instead of
// recomputing them in every stencil): per interior point, alpha s and beta (1 - s), the
// two products of sed_k, so that sed_h_opt.glsl forms K = (alpha s) / C_s + ... with the
// same operations in the same order as sed_k.
// Output: single (h, alpha s, beta (1 - s), 0); double (alpha s, beta (1 - s)) packed.
#include "sed_common.glsl"

#ifdef SED_DOUBLE
SWGL_OUTPUT_U(0, o_kk);
#else
SWGL_OUTPUT(0, o_kk);
#endif

SWGL_MAIN
{
    ivec2 c = swgl_cell();
    real h, s, a, b;
    sed_load(c, h, s, a, b);
#ifdef SED_DOUBLE
    o_kk = sed_pack(a * s, b * (real(1.0) - s));
#else
    o_kk = vec4(h, a * s, b * (real(1.0) - s), 0.0);
#endif
}
