// copy_cs.glsl — out = in, element by element, as a compute pass (GL 4.3): the memory
// ceiling that the compute backend's passes are compared to, as copy.glsl is for the
// fragment passes.  16 x 16 invocations a work group; texelFetch in, imageStore out.
layout(local_size_x = 16, local_size_y = 16) in;
uniform sampler2D u_in;
layout(rgba32f, binding = 0) uniform writeonly image2D o_out;

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(p, imageSize(o_out)))) return;
    imageStore(o_out, p, texelFetch(u_in, p, 0));
}
