// kp_wet.glsl — the wet map of early exit (Brodtkorb et al. 2011, 3.2.1 and Figure 5):
// one fragment per KP_TILE x KP_TILE tile of interior cells (tile (tx, ty) holds the
// ring cells 1 + KP_TILE tx .. and 1 + KP_TILE ty ..), 1 where any cell of it is active
// with h > eps (or holds a NaN, so that a blow-up is never skipped), else 0.  A tile
// that is dry with its four edge neighbours dry has R = 0 and r = +inf exactly
// (cpu_ref/kp_cpu.h, end of items 1-10): the flux pass then skips it (kp_tiles_vs.glsl).
// Non-active cells (.w = -(1 + code), kp_real.glsl) never count; an active cell's depth is
// (w - B_ij) + l, and its reconstruction's w - B_ij (kp_recon.glsl: the high word alone):
// wet where either is above eps (so that a tile skipped is dry to both).  Defines: KP_TILE,
// KP_NX, KP_NY.  The map itself is float in both precisions (kp_tiles_vs.glsl reads it).
#include "kp_real.glsl"

KP_INPUT(u_state);   // (w, hu, hv, l or -(1 + code))
KP_INPUT(u_bed);     // (B_E, B_N, B_ij, code)
SWGL_OUTPUT(0, o_wet);

SWGL_MAIN
{
    ivec2 lo = 1 + KP_TILE * swgl_cell();
    ivec2 hi = min(lo + KP_TILE, ivec2(KP_NX, KP_NY) + 1);
    bool wet = false;
    for (int y = lo.y; y < hi.y && !wet; y++)
        for (int x = lo.x; x < hi.x; x++) {
            real4 s = KP_LOAD(u_state, ivec2(x, y));
            if (s.w < -0.5) continue;
            real4 b = KP_LOAD(u_bed, ivec2(x, y));
            real h = kp_depth(s, b), hh = s.x - b.z;
            wet = wet || h > u_eps || hh > u_eps || isnan(h);
        }
    o_wet = vec4(wet ? 1.0 : 0.0, 0.0, 0.0, 0.0);
}
