// roe_edge.glsl — Lastra 4.3 phase 1, the edge pass: one fragment per edge, each
// interior edge computed once.  The edge texture is twice as wide as the volume
// textures: element (2i, j) is the east edge of cell (i, j), element (2i+1, j) its north
// edge (Lastra's "left, top, right" row layout, reduced to the two edges a cell owns).
// Each edge element holds (normal x, normal y, length |Gamma|, flag): flag 0 for an
// edge between two active cells, 1 for a boundary edge (one side a ghost), -1 for no
// edge (both sides inactive).
//
// Outputs, through two render targets (Lastra's F- and F+):
//   o_low  = (|Gamma| F-_ij, |Gamma| ||D||_inf)  for the cell on the low side (i, j)
//   o_high = (|Gamma| F-_ji, |Gamma| ||D||_inf)  for the cell across the edge
// Boundary edges: the ghost's state is built here from the active cell and the ghost's
// code (wall: mirror of the normal discharge, q.n = 0 on the edge; free: a copy, zero-order
// extrapolation) with the ghost's depth function equal to the active cell's, so a wall is
// exact whatever the shape of the active region, and only the active side gets a value.
#include "roe_flux.glsl"

uniform sampler2D u_state;   // (h, qx, qy, 0) per cell
uniform sampler2D u_const;   // (H, area, orientation bits, code) per cell
uniform sampler2D u_edges;   // (nx, ny, |Gamma|, flag) per edge
uniform float u_g;
uniform float u_hdry;
layout(location = 0) out vec4 o_low;
layout(location = 1) out vec4 o_high;

const float CODE_ACTIVE = 0.0, CODE_WALL = 1.0;

// exterior state of a boundary edge: the active cell's state seen through the edge
vec3 ghost_state(vec3 w, float code, vec2 e)
{
    if (code != CODE_WALL) return w;             // free: transmissive
    float qn = dot(w.yz, e);
    return vec3(w.x, w.yz - 2.0 * qn * e);       // wall: mirror, q.n = 0 on the edge
}

void main()
{
    ivec2 p = swgl_cell();
    vec4 edge = texelFetch(u_edges, p, 0);
    o_low = vec4(0.0);
    o_high = vec4(0.0);
    if (edge.w < 0.0) return;

    ivec2 ci = ivec2(p.x >> 1, p.y);
    ivec2 cj = ci + ((p.x & 1) == 0 ? ivec2(1, 0) : ivec2(0, 1));
    vec4 ki = texelFetch(u_const, ci, 0), kj = texelFetch(u_const, cj, 0);
    vec3 wi = texelFetch(u_state, ci, 0).xyz, wj = texelFetch(u_state, cj, 0).xyz;
    vec2 e = edge.xy;
    float len = edge.z;
    float Hi = ki.x, Hj = kj.x;
    bool active_i = ki.w == CODE_ACTIVE, active_j = kj.w == CODE_ACTIVE;
    if (!active_j) {
        wj = ghost_state(wi, kj.w, e);
        Hj = Hi;
    } else if (!active_i) {
        wi = ghost_state(wj, ki.w, e);
        Hi = Hj;
    }
    vec3 fi, fj;
    float speed = roe_edge(wi, wj, Hi, Hj, e, u_g, u_hdry, fi, fj);
    if (active_i) o_low = vec4(len * fi, len * speed);
    if (active_j) o_high = vec4(len * fj, len * speed);
}
