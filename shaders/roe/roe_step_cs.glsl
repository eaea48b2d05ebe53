// roe_step_cs.glsl — a kernel of the compute backend (gpu_program_create_kernel): Lastra
// 4.3 phases 1 and 2 fused, and the first level of phase 3, in one dispatch.  A work
// group covers a tile of cells, one invocation a cell (8 x 16, ROE_GX x ROE_GY below):
//   1. each invocation computes its cell's two own edges, east and north (roe_edge_at,
//      roe_edges.glsl: the edge pass's function), keeps what they give its cell (their
//      low side) and puts what they give the cell across (their high side) in shared
//      memory; the first ROE_GY + ROE_GX invocations (one warp) also compute the edges
//      the tile shares with the tiles to its west and south (their high side only), so
//      each edge is computed once per tile that needs it and only one warp computes a
//      third (measured: where the tile's west column and south row computed them, every
//      warp did, and the kernel ran 7% slower);
//   2. after a barrier each cell takes its four edge values and computes what the dt
//      pass computes (roe_cell_sums, roe_cell.glsl): o_sums = (sum |Gamma| F-[qx],
//      sum |Gamma| F-[qy], dt_i, tau_i), o_mass = the four outward mass fluxes (the
//      update reads them as it reads the dt pass's two targets);
//   3. the group's min of dt_i (group_min.glsl) goes to o_part at the group's index: a
//      min reduction of o_part (gpgpu's reduce_cs) is the step's bound.
// Tried and dropped (docs/performance.md): each cell computing its four edges itself
// (each interior edge twice, no shared memory) ran 1.30e10 cell updates/s on the H200
// where this form, with the group's min as below, runs 1.72e10.
// An edge on a tile's west or south border is computed twice, by its own cell's tile and
// by the first warp of the tile across, from the same inputs with the same function; the
// two sides' mass fluxes telescope as long as both calls round alike (they gave the same
// bits as the edge pass on llvmpipe and on the H200, tests/test_gpu_compute.sh; GLSL lets
// a driver contract multiply-adds differently at two call sites, which would leave a
// rounding of mass at those edges).
// Same functions and the same order of sums as the edge and dt passes, so the same
// values, with no edge array in between: per cell it reads the state and the bed (32 B;
// the neighbours' texels come from the cache) and writes 32 B, where the edge and dt
// passes move 192 B (solver/schemes/roe/roe_gpu_step.c).  Tried and dropped: one texel a cell
// (sums and the east and north mass fluxes, the update recomputing tau and the west and
// south fluxes from the neighbours' texels) halved what the kernel writes but doubled the
// update's time (615 against 296 us at 4096^2 on the H200); the group's state and bed texels
// staged in shared memory (about 1.5 fetches a cell instead of some 5) was 5% slower on the
// H200, where kp's kernel gains 4% from the same (docs/performance.md).  Float only, without boundary data
// (roe_gpu_step.c keeps the passes for double and for runs whose boundary rates are read
// back from the edge arrays).
// The work group: ROE_GX x ROE_GY invocations, one a cell of a tile of that size (defines
// of roe_gpu.c: 8 x 16, the fastest of six shapes measured on the H200, or --tune roe.group)
#ifndef ROE_GX
#define ROE_GX 8
#define ROE_GY 16
#endif
layout(local_size_x = ROE_GX, local_size_y = ROE_GY) in;
#include "roe_edges.glsl"
uniform float u_cfl;
uniform float u_area;
#include "roe_cell.glsl"
SWGL_IMAGE(0, o_sums);
SWGL_IMAGE(1, o_mass);
SWGL_IMAGE(2, o_part);

shared vec4 s_west[ROE_GY][ROE_GX + 1];    // [y][x]: the high side of the east edge of tile cell x - 1
shared vec4 s_south[ROE_GY + 1][ROE_GX];   // [y][x]: the high side of the north edge of tile cell y - 1
#include "group_min.glsl"

void main()
{
    ivec2 t = ivec2(gl_LocalInvocationID.xy), c = swgl_cell();
    bool in_rect = swgl_in_rect();
    if (gl_LocalInvocationIndex == 0u) swgl_group_min_init();
    vec4 east = vec4(0.0), north = vec4(0.0), high_e = vec4(0.0), high_n = vec4(0.0), low, high;
    if (in_rect) {
        roe_edge_at(ivec2(2 * c.x, c.y), east, high_e);
        roe_edge_at(ivec2(2 * c.x + 1, c.y), north, high_n);
    }
    s_west[t.y][t.x + 1] = high_e;
    s_south[t.y + 1][t.x] = high_n;
    // the ROE_GY + ROE_GX edges shared with the tiles to the west and south, by the first
    // invocations (one more edge for one warp, not for every warp of the group)
    int i = int(gl_LocalInvocationIndex);
    if (i < ROE_GY + ROE_GX) {
        ivec2 tile = swgl_rect.xy + ivec2(ROE_GX, ROE_GY) * ivec2(gl_WorkGroupID.xy);
        ivec2 owner = tile + (i < ROE_GY ? ivec2(-1, i) : ivec2(i - ROE_GY, -1));   // the edge's low cell
        high = vec4(0.0);
        if (all(greaterThanEqual(owner, ivec2(0))) && all(lessThan(owner, swgl_rect.xy + swgl_rect.zw)))
            roe_edge_at(ivec2(2 * owner.x + (i < ROE_GY ? 0 : 1), owner.y), low, high);
        if (i < ROE_GY) s_west[i][0] = high;
        else s_south[0][i - ROE_GY] = high;
    }
    barrier();

    float dt = swgl_inf();
    if (in_rect) {
        vec4 w = roe_state(c), sums = vec4(0.0, 0.0, swgl_inf(), swgl_inf());
        float mass[4] = float[4](0.0, 0.0, 0.0, 0.0);
        if (w.w == CELL_ACTIVE) {
            vec4 v[4] = vec4[4](east, north, s_west[t.y][t.x], s_south[t.y][t.x]);
            sums = roe_cell_sums(w, v, mass);
            sums.z = roe_own_dt(c, sums.z);
            dt = sums.z;
        }
        imageStore(o_sums, c, sums);
        imageStore(o_mass, c, vec4(mass[0], mass[1], mass[2], mass[3]));
    }
    swgl_group_min_add(dt);
    barrier();
    // (at the group's tile's index in the whole array's tiling: a rectangle whose corner is on
    // that tiling, as an overlapped stage draws, fills its own tiles' slots)
    if (gl_LocalInvocationIndex == 0u)
        imageStore(o_part, swgl_rect.xy / ivec2(ROE_GX, ROE_GY) + ivec2(gl_WorkGroupID.xy), vec4(swgl_group_min_value()));
}
