// kp_fill.glsl — what the flux passes compute on a tile that early exit skips (cpu_ref/
// kp_cpu.h, end of items 1-10: every point depth there is 0, so every flux, speed and
// source is 0): drawn through kp_tiles_vs.glsl (KP_TILES_FILL) on the tiles newly
// skipped, so that a skipped tile holds exactly what computing it would give.
//   default:            R = (0, 0, 0, +inf)           (the R array)
//   KP_FILL_FACES:      east face, north face, source = 0 (the faces variant's MRT; the
//                       source's flag 0 is never read there: the gather skips the tile too)
#include "kp_real.glsl"

#ifdef KP_FILL_FACES
KP_OUTPUT(0, 0, 1, o_fe);
KP_OUTPUT(1, 2, 3, o_fn);
KP_OUTPUT(2, 4, 5, o_src);
#else
KP_OUTPUT(0, 0, 1, o_R);
#ifdef KP_DOUBLE
SWGL_OUTPUT(2, o_bound);
#endif
#endif

SWGL_MAIN
{
#ifdef KP_FILL_FACES
    KP_STORE(o_fe, real4(0.0));
    KP_STORE(o_fn, real4(0.0));
    KP_STORE(o_src, real4(0.0));
#else
    KP_STORE(o_R, real4(0.0, 0.0, 0.0, kp_inf()));
#ifdef KP_DOUBLE
    o_bound = vec4(0.0, 0.0, 0.0, swgl_inf());
#endif
#endif
}
