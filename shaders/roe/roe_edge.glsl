// roe_edge.glsl — Lastra 4.3 phase 1, the edge pass: one fragment per edge, each
// interior edge computed once.  The edge arrays are twice as wide as the volume arrays:
// element (2i, j) is the east edge of cell (i, j), element (2i+1, j) its north edge
// (Lastra's "left, top, right" row layout, reduced to the two edges a cell owns).  An
// edge's normal, (1, 0) or (0, 1), and its length |Gamma| (dy or dx) follow from the
// parity of its column, so no edge texture is read.
//
// Outputs, through two render targets (Lastra's F- and F+), for the cell on each side:
//   o_low  = (|Gamma| Phi,  |Gamma| F-_ij[qx, qy],  |Gamma| ||D||_inf)   cell i = (i, j)
//   o_high = (-|Gamma| Phi, |Gamma| F-_ji[qx, qy],  |Gamma| ||D||_inf)   the cell across
// where Phi = qn_i + F-_ij[h] is the edge's conservative mass flux from i to j (equal to
// qn_j - F-_ji[h]; cpu_ref/roe_cpu.h), so the mass channel of each side is its outward flux
// and the mass update telescopes exactly.  Phi = 0 at a wall.
// Boundary edges: the ghost's state is built here from the active cell and the ghost's
// code (wall: mirror of the normal discharge, q.n = 0 on the edge; free: a copy,
// zero-order extrapolation) with the ghost's bed equal to the active cell's, so a wall
// is exact whatever the shape of the active region; only the active side gets a value.
#include "roe_flux.glsl"

SWGL_INPUT(u_state);   // (h, qx, qy, cell code) per cell
SWGL_INPUT(u_bed);     // (H, 0, 0, 0) per cell
uniform vec2 u_len;    // |Gamma| of an east edge (dy) and of a north edge (dx)
uniform float u_g;
uniform float u_hdry;
SWGL_OUTPUT(0, o_low);
SWGL_OUTPUT(1, o_high);

// exterior state of a boundary edge: the active cell's state seen through the edge
vec3 ghost_state(vec3 w, float code, vec2 e)
{
    if (code != CELL_WALL && code != CELL_OFF) return w;   // free: transmissive
    float qn = dot(w.yz, e);
    return vec3(w.x, w.yz - 2.0 * qn * e);                 // wall: mirror, q.n = 0 on the edge
}

SWGL_MAIN
{
    ivec2 p = swgl_cell();
    bool north = (p.x & 1) == 1;
    ivec2 ci = ivec2(p.x >> 1, p.y);
    ivec2 cj = ci + (north ? ivec2(0, 1) : ivec2(1, 0));
    vec4 si = SWGL_LOAD(u_state, ci);
    vec4 sj = swgl_fetch_or(u_state, cj, vec4(0.0, 0.0, 0.0, CELL_OFF));
    bool active_i = si.w == CELL_ACTIVE, active_j = sj.w == CELL_ACTIVE;
    o_low = vec4(0.0);
    o_high = vec4(0.0);
    if (!active_i && !active_j) return;

    vec2 e = north ? vec2(0.0, 1.0) : vec2(1.0, 0.0);
    float len = north ? u_len.y : u_len.x;
    vec3 wi = si.xyz, wj = sj.xyz;
    float Hi = active_i ? SWGL_LOAD(u_bed, ci).x : 0.0;
    float Hj = active_j ? SWGL_LOAD(u_bed, cj).x : 0.0;
    bool wall = false;
    if (!active_j) {
        wj = ghost_state(wi, sj.w, e);
        Hj = Hi;
        wall = sj.w != CELL_FREE;
    } else if (!active_i) {
        wi = ghost_state(wj, si.w, e);
        Hi = Hj;
        wall = si.w != CELL_FREE;
    }
    vec3 fi, fj;
    float speed = roe_edge(wi, wj, Hi, Hj, e, u_g, u_hdry, fi, fj);
    float phi = wall ? 0.0 : dot(wi.yz, e) + fi.x;
    if (active_i) o_low = vec4(len * phi, len * fi.yz, len * speed);
    if (active_j) o_high = vec4(-len * phi, len * fj.yz, len * speed);
}
