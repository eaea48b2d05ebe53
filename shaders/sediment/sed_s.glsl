// sed_s.glsl — the s pass of the sediment scheme: (4) as printed (SED_FORM 0) or its
// flux form (SED_FORM 1), sed_point_s of cpu_ref/sediment.h:
//     s+ = (A s_C + dt RHS) / (A + h+_C - h_C).
// Inputs: the state at level l (u_state, or u_hs + u_ab in double) and h+ from the h
// pass (u_hn).  The paper form reads h+ at the neighbours; its ghosts come from the same
// rule applied to (h+_P, s_P), as the CPU's fill_ghosts(hn, s) does.  Output, the state
// at level l+1: single (h+, s+, alpha, beta); double (h+, s+) packed.
#include "sed_common.glsl"

#ifdef SED_DOUBLE
SWGL_INPUT_U(u_hn);
real sed_hn(ivec2 p) { return sed_lo(SWGL_LOAD(u_hn, p)); }
SWGL_OUTPUT_U(0, o_state);
#else
SWGL_INPUT(u_hn);
real sed_hn(ivec2 p) { return SWGL_LOAD(u_hn, p).x; }
SWGL_OUTPUT(0, o_state);
#endif

SWGL_MAIN
{
    ivec2 c = swgl_cell();
    real hl[5], s[5], a[5], b[5], hn[5];
    sed_stencil(c, hl, s, a, b);
    hn[0] = sed_hn(c);
#if SED_FORM == 0
    for (int q = 1; q < 5; q++) {
        if (sed_is_ghost(c, q)) {
            real sg;
            sed_ghost(q - 1, sed_along(c, q), hn[0], s[0], a[0], b[0], hn[q], sg);
        } else {
            hn[q] = sed_hn(c + SED_OFF[q]);
        }
    }
#else
    for (int q = 1; q < 5; q++) hn[q] = real(0.0);   // not read by the flux form
#endif
    real sn = sed_point_s(hl, hn, s, a);
#ifdef SED_DOUBLE
    o_state = sed_pack(hn[0], sn);
#else
    o_state = vec4(hn[0], sn, a[0], b[0]);
#endif
}
