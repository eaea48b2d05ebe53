// clock_window.glsl — where a clock (gpgpu/gpu_clock.h) keeps its steps: d_k, the step k
// steps before the clock's own (k < 4 SWGL_CLOCK_W - 1), is channel p % 4 of texel p / 4
// with p = k (k < 3) or k + 1 (texel 0's w holds the flags).
float swgl_clock_dt(sampler2D c, int k)
{
    int p = k < 3 ? k : k + 1;
    return SWGL_LOAD(c, ivec2(p / 4, 0))[p % 4];
}
