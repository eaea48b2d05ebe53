// copy.glsl — out = in, element by element: the ceiling every other pass is compared to.
uniform sampler2D u_in;
layout(location = 0) out vec4 o_out;

void main()
{
    o_out = texelFetch(u_in, swgl_cell(), 0);
}
