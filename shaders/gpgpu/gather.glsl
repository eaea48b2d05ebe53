// gather.glsl — n texels of u_src, at the cells u_at lists, into an n x 1 array (gpgpu/
// gpu_gather.h): one pass and one read-back of n texels where n reads of one texel each
// would be n round trips to the GPU (a run's gauges).  u_at's texel k holds cell k's
// (x, y) in .xy, exact integers in float.
SWGL_INPUT(u_src);
SWGL_INPUT(u_at);
SWGL_OUTPUT(0, o_v);

SWGL_MAIN
{
    o_v = SWGL_LOAD(u_src, ivec2(SWGL_LOAD(u_at, ivec2(swgl_cell().x, 0)).xy));
}
