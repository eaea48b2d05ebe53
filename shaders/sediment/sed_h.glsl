// sed_h.glsl — the h pass of the sediment scheme, (3) of Su et al. (2013):
//     h+ = h + dt [ (K_E (h_E - h_C) + K_W (h_W - h_C)) / dx^2 + (K_N .. + K_S ..) / dy^2 ]
// at every interior point (sed_point_h of cpu_ref/sediment.h; storage, ghosts and
// defines: sed_common.glsl).  Output: single (h+, 0, 0, 0); double (h+, 0) packed.
#include "sed_common.glsl"

#ifdef SED_DOUBLE
SWGL_OUTPUT_U(0, o_hn);
#else
SWGL_OUTPUT(0, o_hn);
#endif

SWGL_MAIN
{
    ivec2 c = swgl_cell();
    real h[5], s[5], a[5], b[5];
    sed_stencil(c, h, s, a, b);
    real hn = sed_point_h(h, s, a, b);
#ifdef SED_DOUBLE
    o_hn = sed_pack(hn, real(0.0));
#else
    o_hn = vec4(hn, 0.0, 0.0, 0.0);
#endif
}
