// swe_maps.glsl — the flood maps of a shallow-water run (docs/outputs.md "Flood maps"),
// updated per cell after every step from the new state (h, qx, qy) at time t, shared by
// the roe and kp maps passes (roe_maps.glsl, kp_maps.glsl) and the kernels that update
// them in place (SWE_MAPS_INLINE below), written as the CPU's swe_maps_update
// (solver/schemes/swe/swe_maps.c) computes them:
//   a = (largest depth, largest speed, largest hazard h (|v| + 0.5), arrival time),
//   b = (time of the largest depth, 0, 0, 0)
// speed = |q| / h where h > h_dry, else 0; the arrival time is the first t with
// h > u_arrival (-1 until then); a deeper depth than before moves the time of the largest.
// What the rule compares lies in a, so an update in place reads one texel a cell and
// writes b only where the depth rises.
uniform float u_arrival;   // m
uniform float u_maps_hdry; // m

void swe_maps(vec4 a, vec4 b, float h, float qx, float qy, float t, out vec4 oa, out vec4 ob)
{
    float speed = h > u_maps_hdry ? sqrt(qx * qx + qy * qy) / h : 0.0;
    float hazard = h * (speed + 0.5);
    bool deeper = h > a.x;
    oa = vec4(deeper ? h : a.x, max(a.y, speed), max(a.z, hazard), a.w < 0.0 && h > u_arrival ? t : a.w);
    ob = vec4(deeper ? t : b.x, 0.0, 0.0, 0.0);
}

// The time after the step on the GPU's clock (gpgpu/gpu_clock.h; its last texel holds
// the time since the CPU's u_t_known: the steps the CPU has not read back and this one);
// or, on the host clock, u_t.  (SWE_MAPS_CLOCK: the includer declares u_clock itself;
// SWE_MAPS_OWN_TIME: the includer defines swe_maps_time and u_t_known.)
#if defined(SWE_MAPS_OWN_TIME)
// (the includer defines swe_maps_time() and u_t_known)
#elif defined(SWE_MAPS_DT_ON_GPU)
#ifndef SWE_MAPS_CLOCK
SWGL_INPUT(u_clock);
#endif
uniform float u_t_known;
float swe_maps_time() { return u_t_known + SWGL_LOAD(u_clock, ivec2(SWGL_CLOCK_W, 0)).x; }
#else
uniform float u_t;
float swe_maps_time() { return u_t; }
#endif

// The maps updated in place by a kernel or compute pass that has the new state
// (SWE_MAPS_INLINE: images SWE_MAPS_UNIT and SWE_MAPS_UNIT_B = SWE_MAPS_UNIT + 1, gpu_maps_bind): the same
// rule for an active cell; a depth h <= 0 (or a NaN) changes nothing the maps hold (they
// start at 0 and -1: swe_maps_init), so such a cell reads nothing, and a texel is written
// only where it changes.
#if defined(SWE_MAPS_INLINE) && defined(SWGL_COMPUTE)
SWGL_IMAGE_RW(SWE_MAPS_UNIT, u_maps_img_a);
SWGL_IMAGE_RW(SWE_MAPS_UNIT_B, u_maps_img_b);   // (SWE_MAPS_UNIT + 1: a layout binding takes a literal)
void swe_maps_cell(ivec2 c, float h, float qx, float qy)
{
    if (!(h > 0.0)) return;
    vec4 a = imageLoad(u_maps_img_a, c), oa, ob;
    swe_maps(a, vec4(0.0), h, qx, qy, swe_maps_time(), oa, ob);
    if (oa != a) imageStore(u_maps_img_a, c, oa);
    if (oa.x != a.x) imageStore(u_maps_img_b, c, ob);
}
#elif defined(SWE_MAPS_INLINE)
// (the fragment form that gpgpu compiles first to learn a pass's outputs: GLSL 3.30 has no
// images, and this form never runs)
void swe_maps_cell(ivec2 c, float h, float qx, float qy) {}
#endif
