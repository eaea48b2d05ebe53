// copy.glsl — out = in, element by element: the ceiling every other pass is compared to.
SWGL_INPUT(u_in);
SWGL_OUTPUT(0, o_out);

SWGL_MAIN
{
    o_out = SWGL_LOAD(u_in, swgl_cell());
}
