// strip.glsl — a rectangle of one array copied into another, element by element:
// out(c) = in(c + u_shift).  The halo of a run over MPI ranks moves through it
// (gpgpu/gpu_strips.c): a strip of the state packed into a small array of its own to be
// read back, and a strip received, uploaded into a small array, unpacked into the state.
// STRIP_UINT: arrays of uint4 (doubles packed two to an element), copied as bits.
#ifdef STRIP_UINT
SWGL_INPUT_U(u_in);
SWGL_OUTPUT_U(0, o_out);
#else
SWGL_INPUT(u_in);
SWGL_OUTPUT(0, o_out);
#endif
uniform int u_sx, u_sy;

SWGL_MAIN
{
    o_out = SWGL_LOAD(u_in, swgl_cell() + ivec2(u_sx, u_sy));
}
