// roe_layout.glsl — the edge texel of edge k (0 east, 1 north, 2 west, 3 south) of cell c
// in the edge arrays (roe_gather.glsl's header: a cell owns its east and north edges).
#ifndef ROE_LAYOUT_GLSL
#define ROE_LAYOUT_GLSL
ivec2 roe_edge_texel(ivec2 c, int k)
{
    ivec2 owner = c - (k == 2 ? ivec2(1, 0) : (k == 3 ? ivec2(0, 1) : ivec2(0)));
    return ivec2(2 * owner.x + ((k & 1) == 1 ? 1 : 0), owner.y);
}
#endif
