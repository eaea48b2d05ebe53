// mrt3.glsl — one input, three outputs through multiple render targets, the shape of
// Lastra's edge pass.  Benchmark only.
uniform sampler2D u_in;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;

void main()
{
    vec4 v = texelFetch(u_in, swgl_cell(), 0);
    o0 = v;
    o1 = 2.0 * v;
    o2 = v + 1.0;
}
