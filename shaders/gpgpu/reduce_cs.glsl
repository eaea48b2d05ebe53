// reduce_cs.glsl — a kernel (gpu_program_create_kernel) for the min and max reductions of
// the compute passes: each work group of 16 x 16 invocations combines a 32 x 32 block of
// its input into one element of its output, so each dispatch shrinks the array 32-fold a
// side (a 4096^2 array: 128^2, 4^2, 1 — three dispatches where the 2x2 passes of
// reduce.glsl take twelve).  Invocation (x, y) reads the four elements (x, y) + 16 (i, j)
// of the block (neighbouring invocations read neighbouring elements), then the group
// combines its 256 values in shared memory.  Elements past the input's edge are the
// operation's neutral element.  Min and max only: both are exact in any order, so the
// result is the fragment path's to the bit (for inputs without NaN, whose min and max GLSL
// leaves undefined, and but for the sign of a zero; the schemes' bounds hold neither: a
// NaN is reported as -1); sums keep reduce.glsl's pairwise order.
// REDUCE_OP 0 (min) or 1 (max).
layout(local_size_x = 16, local_size_y = 16) in;
SWGL_INPUT(u_in);
SWGL_IMAGE(0, o_out);

shared vec4 s_v[256];

vec4 combine(vec4 a, vec4 b)
{
#if REDUCE_OP == 0
    return min(a, b);
#else
    return max(a, b);
#endif
}

void main()
{
#if REDUCE_OP == 0
    vec4 neutral = vec4(swgl_inf());
#else
    vec4 neutral = vec4(-swgl_inf());
#endif
    ivec2 t = ivec2(gl_LocalInvocationID.xy), p = 32 * ivec2(gl_WorkGroupID.xy) + t;
    vec4 v = combine(combine(swgl_fetch_or(u_in, p, neutral), swgl_fetch_or(u_in, p + ivec2(16, 0), neutral)),
                     combine(swgl_fetch_or(u_in, p + ivec2(0, 16), neutral),
                             swgl_fetch_or(u_in, p + ivec2(16, 16), neutral)));
    uint i = gl_LocalInvocationIndex;
    s_v[i] = v;
    barrier();
    for (uint span = 128u; span > 0u; span >>= 1) {
        if (i < span) s_v[i] = combine(s_v[i], s_v[i + span]);
        barrier();
    }
    if (i == 0u) imageStore(o_out, ivec2(gl_WorkGroupID.xy), s_v[0]);
}
