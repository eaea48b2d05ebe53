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
// The second rule (tiles at rest, tune kp.rest; float only): with u_rest = 1 (stage 0) the
// map also says whether the tile was still through the last step (.y = 1): no cell of it
// changed to the bit (Q^n against Q^{n-1}, u_prev, and RK2's Q* of that step, u_qstar), and
// every active cell has R = 0 exactly (u_R: the last evaluation's, which for a skipped tile
// is what computing it would give) and hu = hv = +0.0 (the bits: the integration still runs
// on a tile skipped here, with the fill's R = +0), and .z = the least cfl r of its cells in
// u_R: what the fill writes into the tile when it is skipped at rest (kp_tiles_vs.glsl; the
// min reduction then finds the same bound).  A tile whose 5 x 5 neighbourhood was all dry in
// the last map (u_wet_prev) is not looked at (.y = 0): it is skipped by the dry rule or has a
// neighbour that changed, and so are the tiles its mark could keep from resting.  u_rest = 2
// (RK2's stage 1): .y and .z are stage 0's (u_rest_src): stage 1 skips the same tiles at rest.
#include "kp_real.glsl"

KP_INPUT(u_state);   // (w, hu, hv, l or -(1 + code))
KP_INPUT(u_bed);     // (B_E, B_N, B_ij, code)
SWGL_OUTPUT(0, o_wet);
#ifdef KP_REST
uniform int u_rest;            // 0 none, 1 look (stage 0), 2 stage 0's (stage 1)
KP_INPUT(u_prev);              // Q^{n-1}
#ifdef KP_RK2
KP_INPUT(u_qstar);             // the last step's Q*
#endif
KP_INPUT(u_R);                 // the last evaluation's R
uniform sampler2D u_wet_prev;  // the last map
uniform sampler2D u_rest_src;  // (u_rest = 2) stage 0's map

bool kp_bits_differ(real4 a, real4 b) { return any(notEqual(floatBitsToUint(a), floatBitsToUint(b))); }

// whether the last map had a wet tile within two tiles of t
bool kp_water_near(ivec2 t)
{
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++) {
            ivec2 u = t + ivec2(dx, dy);
            if (u.x < 0 || u.y < 0 || u.x >= KP_NTX || u.y >= KP_NTY) continue;
            if (texelFetch(u_wet_prev, u, 0).x != 0.0) return true;
        }
    return false;
}
#endif

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
    float still = 0.0, rmin = swgl_inf();
#ifdef KP_REST
    if (u_rest == 2) {
        vec4 m = texelFetch(u_rest_src, swgl_cell(), 0);
        still = m.y;
        rmin = m.z;
    } else if (u_rest == 1 && kp_water_near(swgl_cell())) {
        bool st = true;
        for (int y = lo.y; y < hi.y && st; y++)
            for (int x = lo.x; x < hi.x && st; x++) {
                ivec2 c = ivec2(x, y);
                real4 s = KP_LOAD(u_state, c), p = KP_LOAD(u_prev, c), R = KP_LOAD(u_R, c);
                rmin = min(rmin, float(R.w));
                if (s.w < -0.5) continue;
                // (hu, hv +0.0 to the bit: the fill's R = +0 leaves a -0.0 momentum +0.0, as a
                // computed R of -0.0 would not; the kernels and the CPU skip the update instead)
                st = !kp_bits_differ(s, p) && all(equal(R.xyz, real3(0.0))) && floatBitsToUint(s.y) == 0u &&
                     floatBitsToUint(s.z) == 0u;
#ifdef KP_RK2
                st = st && !kp_bits_differ(KP_LOAD(u_qstar, c), p);
#endif
            }
        still = st ? 1.0 : 0.0;
    }
#endif
    o_wet = vec4(wet ? 1.0 : 0.0, still, rmin, 0.0);
}
