// kp_fill.glsl — what the flux pass computes on a tile that early exit skips (cpu_ref/
// kp_cpu.h, end of items 1-10: every point depth there is 0, so every flux, speed and
// source is 0): drawn through kp_tiles_vs.glsl (KP_TILES_FILL) on the tiles newly
// skipped, so that a skipped tile holds exactly what computing it would give:
// R = (0, 0, 0, +inf).
#include "kp_real.glsl"

// A tile skipped at rest (kp_tiles_vs.glsl, the second rule; float only) gets R = (0, 0,
// 0, its least cfl r) instead (v_fill): its rates are 0, and the bound its cells give the
// min reduction is the one computing them would.
KP_OUTPUT(0, 0, 1, o_R);
#ifdef KP_DOUBLE
SWGL_OUTPUT(2, o_bound);
#endif
flat in float v_fill;   // +inf, or (at rest) the tile's least cfl r

SWGL_MAIN
{
    KP_STORE(o_R, real4(0.0, 0.0, 0.0, real(v_fill)));
#ifdef KP_DOUBLE
    o_bound = vec4(0.0, 0.0, 0.0, swgl_inf());
#endif
}
