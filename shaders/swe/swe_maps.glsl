// swe_maps.glsl — the flood maps of a shallow-water run (docs/outputs.md "Flood maps"),
// updated per cell after every step from the new state (h, qx, qy) at time t, shared by
// the roe and kp maps passes (roe_maps.glsl, kp_maps.glsl) and written as the CPU's
// swe_maps_update (solver/schemes/swe/swe_maps.c) computes them:
//   a = (largest depth, largest speed, time of the largest depth, arrival time),
//   b = (largest hazard h (|v| + 0.5), 0, 0, 0)
// speed = |q| / h where h > h_dry, else 0; the arrival time is the first t with
// h > u_arrival (-1 until then); a deeper depth than before moves the time of the largest.
uniform float u_arrival;   // m
uniform float u_maps_hdry; // m

void swe_maps(vec4 a, vec4 b, float h, float qx, float qy, float t, out vec4 oa, out vec4 ob)
{
    float speed = h > u_maps_hdry ? sqrt(qx * qx + qy * qy) / h : 0.0;
    float hazard = h * (speed + 0.5);
    bool deeper = h > a.x;
    oa = vec4(deeper ? h : a.x, max(a.y, speed), deeper ? t : a.z, a.w < 0.0 && h > u_arrival ? t : a.w);
    ob = vec4(max(b.x, hazard), 0.0, 0.0, 0.0);
}

// The time after the step on the GPU's clock (gpgpu/gpu_clock.h; its last texel holds
// the time since the CPU's u_t_known: the steps the CPU has not read back and this one);
// or, on the host clock, u_t.
#ifdef SWE_MAPS_DT_ON_GPU
SWGL_INPUT(u_clock);
uniform float u_t_known;
float swe_maps_time() { return u_t_known + SWGL_LOAD(u_clock, ivec2(SWGL_CLOCK_W, 0)).x; }
#else
uniform float u_t;
float swe_maps_time() { return u_t; }
#endif
