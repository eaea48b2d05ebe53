// roe_gather.glsl — where a cell finds its four edges in the edge pass's two outputs.
// Lastra 4.2.1 keeps orientation bits per cell saying, for each edge, whether the cell
// is the edge's low side (its outward normal is the edge's normal).  On this grid every
// cell owns its east and north edges (it is their low side: output o_low) and is the
// high side of its west and south edges (the east edge of the cell to the west and the
// north edge of the cell to the south: output o_high), so the bits are the constant
// 0b0011 and the texels follow from the cell's coordinates:
//   k = 0 east  (2i, j) low     1 north (2i+1, j) low
//       2 west  (2i-2, j) high  3 south (2i+1, j-1) high

ivec2 roe_edge_texel(ivec2 c, int k)
{
    ivec2 owner = c - (k == 2 ? ivec2(1, 0) : (k == 3 ? ivec2(0, 1) : ivec2(0)));
    return ivec2(2 * owner.x + ((k & 1) == 1 ? 1 : 0), owner.y);
}

// what edge k (0 east, 1 north, 2 west, 3 south) of cell c holds for that cell
vec4 roe_edge_value(sampler2D low, sampler2D high, ivec2 c, int k)
{
    ivec2 t = roe_edge_texel(c, k);
    return k < 2 ? SWGL_LOAD(low, t) : SWGL_LOAD(high, t);
}
