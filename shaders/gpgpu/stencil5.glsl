// stencil5.glsl — the 5-point average, the access pattern of the sediment passes
// (Su et al. 2013) and of every cell-centred scheme: out = (c + n + s + e + w) / 5,
// with the array's edge clamped.  Benchmark only.
SWGL_INPUT(u_in);
SWGL_OUTPUT(0, o_out);

SWGL_MAIN
{
    ivec2 c = swgl_cell(), n = textureSize(u_in, 0) - 1;
    vec4 v = SWGL_LOAD(u_in, c);
    v += SWGL_LOAD(u_in, ivec2(max(c.x - 1, 0), c.y));
    v += SWGL_LOAD(u_in, ivec2(min(c.x + 1, n.x), c.y));
    v += SWGL_LOAD(u_in, ivec2(c.x, max(c.y - 1, 0)));
    v += SWGL_LOAD(u_in, ivec2(c.x, min(c.y + 1, n.y)));
    o_out = 0.2 * v;
}
