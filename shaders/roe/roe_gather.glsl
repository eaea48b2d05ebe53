// roe_gather.glsl — where a cell finds its four edges in the edge pass's two outputs.
// Lastra 4.2.1 keeps orientation bits per cell saying, for each edge, whether the cell
// is the edge's low side (its outward normal is the edge's normal).  On this grid every
// cell owns its east and north edges (it is their low side: output o_low) and is the
// high side of its west and south edges (the east edge of the cell to the west and the
// north edge of the cell to the south: output o_high), so the bits are the constant
// 0b0011 and the texels follow from the cell's coordinates:
//   k = 0 east  (2i, j) low     1 north (2i+1, j) low
//       2 west  (2i-2, j) high  3 south (2i+1, j-1) high
// The edge arrays are this file's inputs: u_low, u_high (the edge pass's outputs 0 and
// 1), or in double (roe_real.glsl) u_low_a, u_low_b, u_high_a, u_high_b (its outputs
// 0..3); a pass binds the ones it reads.
#include "roe_real.glsl"

#include "roe_layout.glsl"

#ifdef ROE_DOUBLE
SWGL_INPUT_U(u_low_a);    // (|Gamma| Phi, |Gamma| F-[qx]) of the low side
SWGL_INPUT_U(u_low_b);    // (|Gamma| F-[qy], |Gamma| ||D||)
SWGL_INPUT_U(u_high_a);   // the same for the high side
SWGL_INPUT_U(u_high_b);

// what edge k (0 east, 1 north, 2 west, 3 south) of cell c holds for that cell
rvec4 roe_edge_value(ivec2 c, int k)
{
    ivec2 t = roe_edge_texel(c, k);
    return k < 2 ? roe_unpack4(SWGL_LOAD(u_low_a, t), SWGL_LOAD(u_low_b, t))
                 : roe_unpack4(SWGL_LOAD(u_high_a, t), SWGL_LOAD(u_high_b, t));
}

// its outward mass flux |Gamma| Phi alone (reads the _a arrays only)
real roe_edge_mass(ivec2 c, int k)
{
    ivec2 t = roe_edge_texel(c, k);
    return packDouble2x32((k < 2 ? SWGL_LOAD(u_low_a, t) : SWGL_LOAD(u_high_a, t)).xy);
}
#else
SWGL_INPUT(u_low);        // edge pass output 0
SWGL_INPUT(u_high);       // edge pass output 1

// what edge k (0 east, 1 north, 2 west, 3 south) of cell c holds for that cell
vec4 roe_edge_value(ivec2 c, int k)
{
    ivec2 t = roe_edge_texel(c, k);
    return k < 2 ? SWGL_LOAD(u_low, t) : SWGL_LOAD(u_high, t);
}

// its outward mass flux |Gamma| Phi alone
float roe_edge_mass(ivec2 c, int k) { return roe_edge_value(c, k).x; }
#endif
