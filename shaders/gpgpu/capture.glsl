// capture.glsl — a kernel: the texels of u_src at the cells u_at lists (as gather.glsl's),
// kept where the step that wrote the clock u_clock landed on a stop (gpgpu/gpu_gather.h
// gpu_gather_capture; gpu_clock.h: texel W's z is 1 on a landing step, w the stop): texel k
// into row (stop - u_first) of the image o_rows.  Run after each step of a span of many
// stops, so that each stop's values (a run's gauges) stay on the GPU until the span ends.
layout(local_size_x = 64, local_size_y = 1) in;
SWGL_INPUT(u_src);
SWGL_INPUT(u_at);
SWGL_INPUT(u_clock);
uniform float u_first;
uniform int u_rows;
SWGL_IMAGE(0, o_rows);

void main()
{
    int k = int(gl_GlobalInvocationID.x);
    if (k >= swgl_rect.z) return;
    vec4 w = SWGL_LOAD(u_clock, ivec2(SWGL_CLOCK_W, 0));
    int row = int(w.w - u_first);
    if (w.z != 1.0 || row < 0 || row >= u_rows) return;
    imageStore(o_rows, ivec2(k, row), SWGL_LOAD(u_src, ivec2(SWGL_LOAD(u_at, ivec2(k, 0)).xy)));
}
