// swe_ring_acc.glsl — the boundary faces' volumes summed on the GPU, for runs whose steps
// never come back to the CPU (kp's and roe's kernels with open, level or depth boundaries:
// docs/boundaries.md "Accounts").  A ring pass under SWE_RING_ACC adds, per boundary face,
// w dt times the rate it computed (m^3/s into the domain, as (hi, lo) floats) to that face's
// sums from the pass before, (in_hi, in_lo, out_hi, out_lo) in m^3: the volume that came
// in and the volume that went out, each a float pair (hi + lo, lo within half an ulp of
// hi), so that a sum over a long run keeps about twice float's digits.  dt is the step's
// own float (the clock's texel 0, what the kernels advanced with); w is 1 (Euler, roe) or
// 1/2 (each of RK2's stages).  The product w dt r is kept exact as a pair (fma), so each
// step adds its volume to within an ulp of the pair, as swe_account_faces adds it in double
// on the CPU; the CPU reads the sums back only when it asks for the accounts.
SWGL_INPUT(u_acc);     // the sums before this pass
SWGL_INPUT(u_clock);   // the step's clock (gpgpu/clock.glsl): texel 0's x is its dt
uniform float u_w;     // the stage's weight

#if __VERSION__ >= 400 || defined(GL_ARB_gpu_shader5)
#define SWE_PRECISE precise
#define SWE_PRODUCT_ERR(a, b, p) fma(a, b, -(p))
#else
#define SWE_PRECISE
#define SWE_PRODUCT_ERR(a, b, p) 0.0
#endif

// (hi, lo) + (p, e) as a float pair (TwoSum of the leading words, then the low words)
vec2 swe_pair_add(vec2 s, float p, float e)
{
    SWE_PRECISE float h = s.x + p;
    SWE_PRECISE float bb = h - s.x;
    SWE_PRECISE float err = (s.x - (h - bb)) + (p - bb);
    SWE_PRECISE float l = s.y + e + err;
    SWE_PRECISE float h2 = h + l;
    SWE_PRECISE float l2 = l - (h2 - h);
    return vec2(h2, l2);
}

// the sums after adding w dt (r_hi + r_lo): into the face's in (> 0) or out (< 0)
vec4 swe_ring_add(vec4 acc, float r_hi, float r_lo)
{
    float wdt = u_w * SWGL_LOAD(u_clock, ivec2(0)).x;
    SWE_PRECISE float p = wdt * r_hi;
    SWE_PRECISE float e = SWE_PRODUCT_ERR(wdt, r_hi, p) + wdt * r_lo;
    if (p > 0.0 || (p == 0.0 && e > 0.0)) return vec4(swe_pair_add(acc.xy, p, e), acc.zw);
    if (p < 0.0 || e < 0.0) return vec4(acc.xy, swe_pair_add(acc.zw, -p, -e));
    return acc;
}
