// roe_real.glsl — the number type of the roe passes, which are written once over
// `real` and rvec2..rvec4:
//   default      real = float; every array is RGBA32F, one float4 per texel;
//   ROE_DOUBLE   real = double (GL_ARB_gpu_shader_fp64, `--precision double`:
//                solver/schemes/roe/roe_gpu.c refuses it where the renderer lacks fp64);
//                an array that is one float4 in single precision is two RGBA32UI
//                arrays NAME_a = (x, y) and NAME_b = (z, w), each texel two doubles
//                packed with packDouble2x32, as the sediment passes store theirs
//                (shaders/sediment/sed_common.glsl).  The problem's constants (u_g,
//                u_len, ...) are then #defines, exact decimal images of the doubles
//                with the LF suffix, in place of the float uniforms.
// ROE_SQRT2 is today's float literal in single precision, so that the float passes are
// the same operations as before this file existed.
#ifndef ROE_REAL_GLSL
#define ROE_REAL_GLSL

#ifdef ROE_DOUBLE
#define real double
#define rvec2 dvec2
#define rvec3 dvec3
#define rvec4 dvec4
#define ROE_SQRT2 1.4142135623730951LF

// two doubles of a texel
rvec2 roe_unpack2(uvec4 t) { return rvec2(packDouble2x32(t.xy), packDouble2x32(t.zw)); }
// a float4-like element from its two texels
rvec4 roe_unpack4(uvec4 a, uvec4 b) { return rvec4(roe_unpack2(a), roe_unpack2(b)); }
uvec4 roe_pack2(rvec2 v) { return uvec4(unpackDouble2x32(v.x), unpackDouble2x32(v.y)); }
// a double passed as two int uniforms (its low and high 32 bits): gpgpu sets float and
// int uniforms only
real roe_bits(int lo, int hi) { return packDouble2x32(uvec2(uint(lo), uint(hi))); }
#else
#define real float
#define rvec2 vec2
#define rvec3 vec3
#define rvec4 vec4
#define ROE_SQRT2 1.41421356
#endif

real roe_inf() { return real(swgl_inf()); }

// x^(1/3), x >= 0: float's pow, refined by two Newton steps in double
real roe_cbrt(real x)
{
    if (!(x > real(0.0))) return real(0.0);
    real y = real(pow(float(x), 1.0 / 3.0));
#ifdef ROE_DOUBLE
    y -= (y * y * y - x) / (real(3.0) * y * y);
    y -= (y * y * y - x) / (real(3.0) * y * y);
#endif
    return y;
}

#endif
