#version 330 core
// prelude.glsl — prepended to every pass (gpgpu/gpu_program.c puts any defines
// between the #version line above and the rest of this file).
//
// How a pass is driven is hidden behind these macros, so that the same per-cell code
// can later be driven as a compute dispatch by changing this file (and gpgpu/), not the
// passes.  A pass is written as
//     SWGL_INPUT(u_state);                   an input array (float4 elements)
//     SWGL_INPUT_U(u_hs);                    an input array of uint4 (packed doubles)
//     SWGL_OUTPUT(0, o_state);               output k of the pass (an MRT member for k > 0)
//     SWGL_OUTPUT_U(0, o_hs);                a uint4 output
//     SWGL_MAIN { ivec2 c = swgl_cell(); ... o_state = SWGL_LOAD(u_state, c); }
// As fragment passes (GL 3.3): one fragment per output element, drawn as a full-screen
// quad (or a sub-rectangle); inputs are textures read with texelFetch (no filtering, no
// normalised coordinates); outputs are render targets.  A pass never reads the array it
// writes.  As compute passes (SWGL_COMPUTE below: the gpu-compute backend) the same
// source runs as a dispatch: SWGL_OUTPUT is a variable stored to an image at the end of
// SWGL_MAIN, and swgl_cell() comes from gl_GlobalInvocationID.
#ifdef SWGL_KERNEL
// A kernel (gpu_program_create_kernel): a compute shader written as one.  It declares its
// work-group size and main() itself; it covers the rectangle swgl_rect (x, y, width,
// height) of its outputs, one invocation per element, in whole work groups (an
// invocation past the rectangle must still reach every barrier(): test swgl_in_rect()).
uniform ivec4 swgl_rect;
#define SWGL_INPUT(name) uniform sampler2D name
#define SWGL_INPUT_U(name) uniform usampler2D name
#define SWGL_IMAGE(k, name) layout(rgba32f, binding = k) uniform writeonly image2D name
#define SWGL_IMAGE_U(k, name) layout(rgba32ui, binding = k) uniform writeonly uimage2D name
#define SWGL_IMAGE_RW(k, name) layout(rgba32f, binding = k) uniform image2D name
#define SWGL_LOAD(a, p) texelFetch(a, p, 0)
ivec2 swgl_cell() { return swgl_rect.xy + ivec2(gl_GlobalInvocationID.xy); }
bool swgl_in_rect() { return all(lessThan(ivec2(gl_GlobalInvocationID.xy), swgl_rect.zw)); }
#elif defined(SWGL_COMPUTE)
// As a compute pass (GL 4.3; gpgpu/gpu_program.c defines SWGL_COMPUTE and replaces the
// #version line): one invocation per output element of the rectangle swgl_rect (x, y,
// width, height) in work groups of 16 x 16; an output is a variable that the epilogue
// gpu_program.c appends (swgl_store) writes to image k after the pass's body has run.
layout(local_size_x = 16, local_size_y = 16) in;
uniform ivec4 swgl_rect;
ivec2 swgl_px;
#define SWGL_INPUT(name) uniform sampler2D name
#define SWGL_INPUT_U(name) uniform usampler2D name
#define SWGL_OUTPUT(k, name) vec4 name
#define SWGL_OUTPUT_U(k, name) uvec4 name
// an image read and written in place, at a unit above the outputs' (gpu_pass_image_rw)
#define SWGL_IMAGE_RW(k, name) layout(rgba32f, binding = k) uniform image2D name
#define SWGL_LOAD(a, p) texelFetch(a, p, 0)
void swgl_body();
void swgl_store();
#define SWGL_MAIN void main() { ivec2 swgl_g = ivec2(gl_GlobalInvocationID.xy); if (swgl_g.x >= swgl_rect.z || swgl_g.y >= swgl_rect.w) return; swgl_px = swgl_rect.xy + swgl_g; swgl_body(); swgl_store(); } void swgl_body()

// Integer coordinates of the element this invocation computes.
ivec2 swgl_cell() { return swgl_px; }
#else
#define SWGL_INPUT(name) uniform sampler2D name
#define SWGL_INPUT_U(name) uniform usampler2D name
#define SWGL_OUTPUT(k, name) layout(location = k) out vec4 name
#define SWGL_OUTPUT_U(k, name) layout(location = k) out uvec4 name
#define SWGL_LOAD(a, p) texelFetch(a, p, 0)
#define SWGL_MAIN void main()

// Integer coordinates of the element this fragment computes.
ivec2 swgl_cell() { return ivec2(gl_FragCoord.xy); }
#endif

// +infinity, the neutral element of min.
float swgl_inf() { return uintBitsToFloat(0x7F800000u); }

// Element p of a, or `outside` when p lies outside a.
vec4 swgl_fetch_or(sampler2D a, ivec2 p, vec4 outside)
{
    ivec2 n = textureSize(a, 0);
    return (p.x < 0 || p.y < 0 || p.x >= n.x || p.y >= n.y) ? outside : SWGL_LOAD(a, p);
}
