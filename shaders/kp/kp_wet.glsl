// kp_wet.glsl — the wet map of early exit (Brodtkorb et al. 2011, 3.2.1 and Figure 5):
// one fragment per KP_TILE x KP_TILE tile of interior cells (tile (tx, ty) holds the
// ring cells 1 + KP_TILE tx .. and 1 + KP_TILE ty ..), 1 where any cell of it is active
// with h > eps (or holds a NaN, so that a blow-up is never skipped), else 0.  A tile
// that is dry with its four edge neighbours dry has R = 0 and r = +inf exactly
// (cpu_ref/kp_cpu.h, end of items 1-10): the flux pass then skips it (kp_tiles_vs.glsl).
// Non-active cells hold -(1 + code) < 0 in .w and never count.  Defines: KP_TILE, KP_NX, KP_NY.
// The map itself is float in both precisions (kp_tiles_vs.glsl reads it).
#include "kp_real.glsl"

KP_INPUT(u_state);   // (w, hu, hv, h or -(1 + code))
SWGL_OUTPUT(0, o_wet);

SWGL_MAIN
{
    ivec2 lo = 1 + KP_TILE * swgl_cell();
    ivec2 hi = min(lo + KP_TILE, ivec2(KP_NX, KP_NY) + 1);
    bool wet = false;
    for (int y = lo.y; y < hi.y && !wet; y++)
        for (int x = lo.x; x < hi.x; x++) {
            real h = KP_LOAD(u_state, ivec2(x, y)).w;
            wet = wet || h > u_eps || isnan(h);
        }
    o_wet = vec4(wet ? 1.0 : 0.0, 0.0, 0.0, 0.0);
}
