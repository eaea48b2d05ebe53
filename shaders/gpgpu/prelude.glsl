#version 330 core
// prelude.glsl — prepended to every pass (gpgpu/gpu_program.c puts any defines
// between the #version line above and the rest of this file).
//
// Conventions of every pass: one fragment per output element; the element's integer
// coordinates are swgl_cell(); inputs are read with texelFetch (no filtering, no
// normalised coordinates); a pass never reads the array it writes.

// Integer coordinates of the element this fragment computes.
ivec2 swgl_cell() { return ivec2(gl_FragCoord.xy); }

// +infinity, the neutral element of min.
float swgl_inf() { return uintBitsToFloat(0x7F800000u); }

// Element p of a, or `outside` when p lies outside a.
vec4 swgl_fetch_or(sampler2D a, ivec2 p, vec4 outside)
{
    ivec2 n = textureSize(a, 0);
    return (p.x < 0 || p.y < 0 || p.x >= n.x || p.y >= n.y) ? outside : texelFetch(a, p, 0);
}
