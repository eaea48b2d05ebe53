// kp_real.glsl — the precision and the storage of the kp passes, included first by each.
//   single (default):  real = float; an array element is one RGBA32F texel, X = (x, y, z, w)
//   double (KP_DOUBLE, GL_ARB_gpu_shader_fp64, enabled by the defines): real = double; an
//                      element is two RGBA32UI texels of two doubles each (packDouble2x32),
//                      X_a = (x, y) and X_b = (z, w), two arrays of one MRT
// A pass declares an array with KP_INPUT(u_x) / KP_OUTPUT(location single, locations
// double a, b, o_x), reads an element with KP_LOAD(u_x, p) (a real4) and writes one with
// KP_STORE(o_x, v); KP_TEX(u_x) names a texture of it (for textureSize).  Constants come
// as real uniforms (double uniforms in double).
#ifndef KP_REAL_GLSL
#define KP_REAL_GLSL
#ifdef KP_DOUBLE
#define real double
#define real2 dvec2
#define real3 dvec3
#define real4 dvec4
#define KP_SQRT2 1.4142135623730951LF
#define KP_INPUT(name) SWGL_INPUT_U(name##_a); SWGL_INPUT_U(name##_b)
#define KP_LOAD(name, p) kp_unpack(SWGL_LOAD(name##_a, p), SWGL_LOAD(name##_b, p))
#define KP_OUTPUT(k, ka, kb, name) SWGL_OUTPUT_U(ka, name##_a); SWGL_OUTPUT_U(kb, name##_b)
#define KP_STORE(name, v) kp_pack(v, name##_a, name##_b)
#define KP_TEX(name) name##_a
real4 kp_unpack(uvec4 a, uvec4 b)
{
    return real4(packDouble2x32(a.xy), packDouble2x32(a.zw), packDouble2x32(b.xy), packDouble2x32(b.zw));
}
void kp_pack(real4 v, out uvec4 a, out uvec4 b)
{
    a = uvec4(unpackDouble2x32(v.x), unpackDouble2x32(v.y));
    b = uvec4(unpackDouble2x32(v.z), unpackDouble2x32(v.w));
}
#else
#define real float
#define real2 vec2
#define real3 vec3
#define real4 vec4
#define KP_SQRT2 1.41421356
#define KP_INPUT(name) SWGL_INPUT(name)
#define KP_LOAD(name, p) SWGL_LOAD(name, p)
#define KP_OUTPUT(k, ka, kb, name) SWGL_OUTPUT(k, name)
#define KP_STORE(name, v) name = (v)
#define KP_TEX(name) name
#endif

real kp_inf() { return real(swgl_inf()); }
uniform real u_eps;      // h_dry: depths at or below are dry (every kp pass's)

// A state texel is (w, hu, hv, x): x < -0.5 is -(1 + code) of a non-active cell (kp_code_of);
// an active cell's x is its surface's low word l (issue 27): the surface is w + l, l within
// half an ulp of w, kept by the integration's compensated update in float (0 in double, whose
// update is plain).  Its depth: (w - B_ij) + l.
real kp_depth(real4 s, real4 bed) { return (s.x - bed.z) + s.w; }
// `precise` (GLSL 4.00, or GL_ARB_gpu_shader5, which the kp defines enable where the driver has
// it): the compensated sums' operations kept as written, not reassociated or contracted
#if __VERSION__ >= 400 || defined(GL_ARB_gpu_shader5)
#define KP_PRECISE precise
#else
#define KP_PRECISE
#endif
#endif
