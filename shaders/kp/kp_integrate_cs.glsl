// kp_integrate_cs.glsl — a kernel of the compute backend (gpu_program_create_kernel): the
// step's clock and stage 0's integration in one dispatch, where the passes draw the
// reduction, the clock (gpgpu's clock.glsl) and then the integration (kp_integrate.glsl).
// It runs the step's list of tiles (kp_tiles.glsl), a work group of KP_IX x KP_IY
// invocations a tile in turn (KP_TX x KP_TY cells, the flux kernel's; a cell or more an
// invocation):
//   1. each group reads the step's bound, the min of kp_flux_cs.glsl's groups (their
//      atomicMin into kp_bound[u_par]), and the time left that the flux's control group
//      computed from the last clock, and from them the step (swgl_clock_texel_with,
//      clock_rule.glsl: the clock pass's rule, so the same step); the control group writes
//      the new clock to o_clock for the read-back, stage 1 and the flood maps, and sets
//      the other bound word to +inf for the next step's flux;
//   2. the tile's groups integrate its cells as kp_integrate.glsl does (kp_integrate_cell):
//      Q* (RK2) or Q^{n+1} (Euler) from Q^n (u_state), R (u_R) and the bed; Euler
//      (KP_TILES_WRITE) also puts the tiles the next step computes on its list.
// The step is computed by every group (a few loads from the cache and a dozen flops)
// rather than by a dispatch of its own: each dispatch costs some 4 us on an H200 however
// little it does (docs/performance.md).
layout(local_size_x = KP_IX, local_size_y = KP_IY) in;
#include "kp_real.glsl"
KP_INPUT(u_state);     // Q^n
KP_INPUT(u_R);         // R of Q^n (kp_flux_cs.glsl)
KP_INPUT(u_bed);
#include "clock_rule.glsl"
#define KP_STAGE_IN u_state   // the stage's state (kp_integrate_fn.glsl's cap): Q^n
#include "kp_integrate_fn.glsl"
#include "group_min.glsl"
#include "kp_tiles.glsl"
SWGL_IMAGE(0, o_state);
SWGL_IMAGE(1, o_clock);

shared float s_dt;
#ifdef SWE_MAPS_INLINE
// (Euler) the flood maps updated here, in place, from Q^{n+1} (kp_gpu_maps_start), instead
// of a pass; the time after the step as the clock's texel W holds it (clock_rule.glsl:
// dt plus the steps the CPU has not read), which this dispatch writes and cannot read
#define SWE_MAPS_OWN_TIME 1
uniform float u_t_known;
float swe_maps_time()
{
    precise float w = s_dt + kp_unk;   // (kept as the texel holds it: not reassociated)
    return u_t_known + w;
}
#include "swe_maps.glsl"
#endif

void main()
{
    ivec2 l = ivec2(gl_LocalInvocationID.xy);
    int i = int(gl_LocalInvocationIndex);
    float bound = swgl_min_key_value(kp_bound[u_par]);
    if (gl_WorkGroupID.x == 0u) {   // the control group: the clock, and the next step's bound word
        for (int j = i; j <= SWGL_CLOCK_W; j += KP_IX * KP_IY)
            imageStore(o_clock, ivec2(j, 0), swgl_clock_texel_with(j, bound, kp_left, kp_unk));
        if (i == 0) kp_bound[1 - u_par] = 0xFFFFFFFFu;
        return;
    }
    if (i == 0) s_dt = swgl_clock_texel_with(0, bound, kp_left, kp_unk).x;
    ivec2 n = textureSize(KP_TEX(u_bed), 0);
    uint count = kp_tile_count(), k = kp_tile_first();
    ivec2 t = kp_tile_at(min(k, uint(KP_NT - 1)));   // (read with the count)
    for (; k < count; k += kp_tile_stride(), t = k < count ? kp_tile_at(k) : t) {
#ifdef KP_TILES_WRITE
        kp_tile_open();
#endif
        barrier();   // (s_dt; the last tile's note read)
        real dt = real(s_dt);
        for (int y = l.y; y < KP_TY; y += KP_IY)
            for (int x = l.x; x < KP_TX; x += KP_IX) {
                ivec2 c = ivec2(KP_TX, KP_TY) * t + ivec2(x, y);
                if (c.x >= n.x || c.y >= n.y) continue;
                real4 s = KP_LOAD(u_state, c), b = KP_LOAD(u_bed, c), s1 = s;
                real3 R = KP_LOAD(u_R, c).xyz;
                if (b.w == CELL_ACTIVE && dt != 0.0) s1 = kp_integrate_cell(c, s, s, b, dt, R);
                imageStore(o_state, c, s1);
#ifdef SWE_MAPS_INLINE
                if (b.w == CELL_ACTIVE) swe_maps_cell(c, float(kp_depth(s1, b)), float(s1.y), float(s1.z));
#endif
#ifdef KP_TILES_WRITE
                kp_tile_note(s1, b, kp_texel_differs(s1, s), vec3(R));
#endif
            }
#ifdef KP_TILES_WRITE
        barrier();
        kp_tile_close(t);
        barrier();   // (the note read before the next tile's is opened)
#endif
    }
}
