// mrt3.glsl — one input, three outputs through multiple render targets, the shape of
// Lastra's edge pass.  Benchmark only.
SWGL_INPUT(u_in);
SWGL_OUTPUT(0, o0);
SWGL_OUTPUT(1, o1);
SWGL_OUTPUT(2, o2);

SWGL_MAIN
{
    vec4 v = SWGL_LOAD(u_in, swgl_cell());
    o0 = v;
    o1 = 2.0 * v;
    o2 = v + 1.0;
}
