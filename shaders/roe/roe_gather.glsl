// roe_gather.glsl — what a cell collects from its four edges in the edge pass's two
// outputs.  The orientation bits of the volume-constant texture say, for each edge,
// whether the cell is the edge's low side (its outward normal is the edge's normal,
// Lastra 4.2.1): bit 0 east, bit 1 north, bit 2 west, bit 3 south.  On this grid a
// cell owns its east and north edges (bits 0b0011): the west edge is the east edge of
// the cell to the west, the south edge the north edge of the cell to the south.

struct roe_edge_ref { ivec2 texel; bool low; };

roe_edge_ref roe_edge_of(ivec2 c, int k, int bits)
{
    // k: 0 east, 1 north, 2 west, 3 south
    ivec2 owner = c - (k == 2 ? ivec2(1, 0) : (k == 3 ? ivec2(0, 1) : ivec2(0)));
    int slot = (k == 0 || k == 2) ? 0 : 1;
    return roe_edge_ref(ivec2(2 * owner.x + slot, owner.y), ((bits >> k) & 1) != 0);
}

// sum over the four edges of |Gamma| F- (xyz) and |Gamma| ||D||_inf (w)
vec4 roe_gather(sampler2D low, sampler2D high, ivec2 c, int bits)
{
    vec4 sum = vec4(0.0);
    for (int k = 0; k < 4; k++) {
        roe_edge_ref r = roe_edge_of(c, k, bits);
        sum += r.low ? texelFetch(low, r.texel, 0) : texelFetch(high, r.texel, 0);
    }
    return sum;
}
