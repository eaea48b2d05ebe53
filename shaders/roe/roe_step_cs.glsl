// roe_step_cs.glsl — a kernel of the compute backend (gpu_program_create_kernel): Lastra
// 4.3 phases 1 and 2 fused, and the first level of phase 3, in one dispatch.  A work
// group of 16 x 16 invocations covers a 16 x 16 tile of cells:
//   1. each invocation computes its cell's two own edges, east and north (roe_edge_at,
//      roe_edges.glsl: the edge pass's function), keeps what they give its cell (their
//      low side) and puts what they give the cell across (their high side) in shared
//      memory; the tile's west column and south row also compute the edge they share
//      with the tile next door (its high side only), so each edge is computed once per
//      tile that needs it (17 x 16 + 16 x 17 edges for 256 cells);
//   2. after a barrier each cell takes its four edge values and computes what the dt
//      pass computes (roe_cell_sums, roe_cell.glsl): o_sums = (sum |Gamma| F-[qx],
//      sum |Gamma| F-[qy], dt_i, tau_i), o_mass = the four outward mass fluxes;
//   3. the group's min of dt_i goes to o_part at the group's index: a min reduction of
//      o_part (gpgpu's reduce_cs) is the step's bound.
// Same functions and the same order of sums as the edge and dt passes, so the same
// values, with no edge array in between: per cell it reads the state and the bed (32 B;
// the neighbours' texels come from the cache) and writes 32 B, where the edge and dt
// passes move 192 B (solver/schemes/roe_gpu.c).  Float only, without boundary data
// (roe_gpu.c keeps the passes for double and for runs whose boundary rates are read
// back from the edge arrays).
layout(local_size_x = 16, local_size_y = 16) in;
#include "roe_edges.glsl"
uniform float u_cfl;
uniform float u_area;
#include "roe_cell.glsl"
SWGL_IMAGE(0, o_sums);
SWGL_IMAGE(1, o_mass);
SWGL_IMAGE(2, o_part);

shared vec4 s_west[16][17];    // [y][x]: the high side of the east edge of tile cell x - 1
shared vec4 s_south[17][16];   // [y][x]: the high side of the north edge of tile cell y - 1
shared float s_min[256];

void main()
{
    ivec2 t = ivec2(gl_LocalInvocationID.xy), c = swgl_cell();
    bool in_rect = swgl_in_rect();
    vec4 east = vec4(0.0), north = vec4(0.0), high_e = vec4(0.0), high_n = vec4(0.0), low, high;
    if (in_rect) {
        roe_edge_at(ivec2(2 * c.x, c.y), east, high_e);
        roe_edge_at(ivec2(2 * c.x + 1, c.y), north, high_n);
    }
    s_west[t.y][t.x + 1] = high_e;
    s_south[t.y + 1][t.x] = high_n;
    if (t.x == 0) {
        high = vec4(0.0);
        if (in_rect && c.x > 0) roe_edge_at(ivec2(2 * c.x - 2, c.y), low, high);
        s_west[t.y][0] = high;
    }
    if (t.y == 0) {
        high = vec4(0.0);
        if (in_rect && c.y > 0) roe_edge_at(ivec2(2 * c.x + 1, c.y - 1), low, high);
        s_south[0][t.x] = high;
    }
    barrier();

    float dt = swgl_inf();
    if (in_rect) {
        vec4 w = roe_state(c), sums = vec4(0.0, 0.0, swgl_inf(), swgl_inf());
        float mass[4] = float[4](0.0, 0.0, 0.0, 0.0);
        if (w.w == CELL_ACTIVE) {
            vec4 v[4] = vec4[4](east, north, s_west[t.y][t.x], s_south[t.y][t.x]);
            sums = roe_cell_sums(w, v, mass);
            dt = sums.z;
        }
        imageStore(o_sums, c, sums);
        imageStore(o_mass, c, vec4(mass[0], mass[1], mass[2], mass[3]));
    }
    uint i = gl_LocalInvocationIndex;
    s_min[i] = dt;
    barrier();
    for (uint span = 128u; span > 0u; span >>= 1) {
        if (i < span) s_min[i] = min(s_min[i], s_min[i + span]);
        barrier();
    }
    if (i == 0u) imageStore(o_part, ivec2(gl_WorkGroupID.xy), vec4(s_min[0]));
}
