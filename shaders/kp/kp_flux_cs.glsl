// kp_flux_cs.glsl — a kernel of the compute backend (gpu_program_create_kernel): the flux
// evaluation of one stage, early exit and the first level of the bound's min reduction
// in one dispatch.  A work group covers a tile of cells, one invocation a cell (16 x 8):
//   0. (u_skip_dry) the group reads the tile and the ring of cells around it; if none is
//      wet (active with h > eps, or holding a NaN or an infinity), every point of those
//      cells is 0 (cpu_ref/kp_cpu.h item 5), so every face flux, speed and source of the
//      tile is 0 and R = (0, 0, 0, +inf) (kp_fill.glsl's value; computed, a momentum rate
//      can come out as -0.0 where the bed slopes, which adds to a state as +0.0 does): the
//      group writes that without computing it (Brodtkorb et al. 2011, 3.2.1, decided inside the
//      dispatch, so it needs no wet-map pass, no fill pass, no quads and no depth test);
//   1. each cell's R and cfl r: kp_cell_rates (kp_cell.glsl), the flux pass
//      kp_flux_cell.glsl's function, so the same values, reading the texels from the
//      group's copy in shared memory (loaded before step 0; KP_NO_STAGING: from the
//      arrays);
//   2. the group's min of cfl r (group_min.glsl) goes to o_part at the group's index (a
//      min reduction of o_part, gpgpu's reduce_cs, is the step's bound);
//   or (KP_FUSE_STAGE1, RK2's second stage) 2. each cell's integration
//      (kp_integrate_cell, kp_integrate_fn.glsl) with that R: Q^{n+1} in one dispatch.
// Float, without boundary data (kp_gpu.c keeps the passes for double and for runs with
// boundary data, rain or sources, whose inflow wets dry tiles).
// Tried and dropped (docs/performance.md): forms that compute each point (and each face)
// once per tile in shared memory, as kp_faces.glsl does across passes, ran 1.5 (points)
// and 3.3 (points and faces) times slower on an H200 than this one, which recomputes
// them per cell.
// The work group: KP_GX x KP_GY invocations, one a cell of a tile of that size (defines of
// kp_gpu.c: 16 x 8, the fastest of eight shapes measured on the H200, or SWGL_KP_GROUP)
#ifndef KP_GX
#define KP_GX 16
#define KP_GY 16
#endif
layout(local_size_x = KP_GX, local_size_y = KP_GY) in;
#define KP_GN (KP_GX * KP_GY)
#include "kp_real.glsl"
uniform real2 u_dxy;
uniform real u_cfl;
uniform int u_skip_dry;   // 0: compute dry tiles too (kp.early_exit = off)
#ifndef KP_NO_STAGING
// The group's copy of the state and bed texels its cells read (the tile and two cells
// around it), loaded once (3 to 4 texel fetches a cell instead of kp_cell_rates' 16)
// and read by kp_cell_rates from shared memory (kp_cell.glsl's KP_CELL_STATE, _BED)
shared vec4 s_st[KP_GY + 4][KP_GX + 4], s_bd[KP_GY + 4][KP_GX + 4];
ivec2 kp_org;   // the array cell of s_st[0][0]: the tile's first cell less (2, 2)
#define KP_CELL_STATE(p) s_st[(p).y - kp_org.y][(p).x - kp_org.x]
#define KP_CELL_BED(p) s_bd[(p).y - kp_org.y][(p).x - kp_org.x]
#endif
#include "kp_cell.glsl"
#ifdef KP_FUSE_STAGE1
// RK2's second stage, flux and integration in one dispatch: R of Q* (u_state here) goes
// straight into kp_integrate_cell with Q^n (u_qn) and the step stage 0 chose (u_clock),
// and the new state is written instead of R (no min: the step is already chosen)
KP_INPUT(u_qn);
SWGL_INPUT(u_clock);
#include "kp_integrate_fn.glsl"
SWGL_IMAGE(0, o_state);
#else
SWGL_IMAGE(0, o_R);
SWGL_IMAGE(1, o_part);
#endif
#include "group_min.glsl"

shared bool s_wet;

// Invocation i's share (cells i, i + KP_GN, ...) of step 0's test: whether a cell of the tile or
// of its ring is wet (kp_cell_points would give it points) or holds a NaN or an infinity
bool kp_region_wet(int i)
{
    ivec2 origin = swgl_rect.xy + ivec2(KP_GX, KP_GY) * ivec2(gl_WorkGroupID.xy) - 1,
          last = textureSize(KP_TEX(u_bed), 0) - 1;
    bool wet = false;
    for (int j = i; j < (KP_GX + 2) * (KP_GY + 2); j += KP_GN) {   // the tile and its ring
        ivec2 p = origin + ivec2(j % (KP_GX + 2), j / (KP_GX + 2));
        if (any(lessThan(p, ivec2(0))) || any(greaterThan(p, last))) continue;
        real4 s = KP_CELL_STATE(p), b = KP_CELL_BED(p);
        wet = wet || (b.w == CELL_ACTIVE && (s.x - b.z > u_eps || any(isnan(s.xyz)) || any(isinf(s.xyz))));
    }
    return wet;
}

void main()
{
    ivec2 c = swgl_cell();
    int i = int(gl_LocalInvocationIndex);
    // (the barriers are met by every invocation of the group, in control flow that is
    // the same for the whole group: u_skip_dry is a uniform, s_wet is shared)
#ifndef KP_NO_STAGING
    kp_org = swgl_rect.xy + ivec2(KP_GX, KP_GY) * ivec2(gl_WorkGroupID.xy) - 2;
    {
        ivec2 last = textureSize(KP_TEX(u_bed), 0) - 1;
        for (int j = i; j < (KP_GX + 4) * (KP_GY + 4); j += KP_GN) {
            ivec2 r = ivec2(j % (KP_GX + 4), j / (KP_GX + 4)), p = kp_org + r;
            bool inside = all(greaterThanEqual(p, ivec2(0))) && all(lessThanEqual(p, last));
            s_st[r.y][r.x] = inside ? KP_LOAD(u_state, p) : real4(0.0, 0.0, 0.0, -1.0 - CELL_OFF);
            s_bd[r.y][r.x] = inside ? KP_LOAD(u_bed, p) : real4(0.0, 0.0, 0.0, CELL_OFF);
        }
    }
#endif
    if (i == 0) {
        s_wet = u_skip_dry == 0;
        swgl_group_min_init();
    }
    barrier();
    if (u_skip_dry != 0 && kp_region_wet(i)) s_wet = true;
    barrier();
#ifdef KP_FUSE_STAGE1
    if (swgl_in_rect()) {   // kp_integrate.glsl's main, with R from here
        real4 s = KP_LOAD(u_qn, c), bk = KP_LOAD(u_bed, c);
        real dt = real(SWGL_LOAD(u_clock, ivec2(0)).x);
        if (bk.w == CELL_ACTIVE && dt != 0.0) {
            real3 R = s_wet ? kp_cell_rates(c).xyz : real3(0.0);
            s = kp_integrate_cell(c, s, KP_LOAD(u_state, c), bk, dt, R);
        }
        imageStore(o_state, c, s);
    }
#else
    real b = kp_inf();
    if (swgl_in_rect()) {
        real4 R = s_wet ? kp_cell_rates(c) : real4(0.0, 0.0, 0.0, kp_inf());
        imageStore(o_R, c, R);
        b = R.w;
    }
    swgl_group_min_add(b);
    barrier();
    if (i == 0) imageStore(o_part, ivec2(gl_WorkGroupID.xy), vec4(swgl_group_min_value()));
#endif
}
