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
// Precision (roe_real.glsl): in double the state is u_state_a (h, qx), u_state_b (qy,
// code), the bed u_bed (H, 0), and each output two targets: o_low_a (|Gamma| Phi,
// |Gamma| F-[qx]), o_low_b (|Gamma| F-[qy], |Gamma| ||D||), o_high_a, o_high_b.
#include "roe_flux.glsl"

#ifdef ROE_DOUBLE
SWGL_INPUT_U(u_state_a);   // (h, qx) per cell
SWGL_INPUT_U(u_state_b);   // (qy, cell code)
SWGL_INPUT_U(u_bed);       // (H, 0)
// u_len, u_g, u_hdry: #defines (roe_gpu.c)
SWGL_OUTPUT_U(0, o_low_a);
SWGL_OUTPUT_U(1, o_low_b);
SWGL_OUTPUT_U(2, o_high_a);
SWGL_OUTPUT_U(3, o_high_b);
rvec4 roe_state(ivec2 p) { return roe_unpack4(SWGL_LOAD(u_state_a, p), SWGL_LOAD(u_state_b, p)); }
rvec4 roe_state_or(ivec2 p, rvec4 outside)
{
    ivec2 n = textureSize(u_state_a, 0);
    return (p.x < 0 || p.y < 0 || p.x >= n.x || p.y >= n.y) ? outside : roe_state(p);
}
real roe_bed(ivec2 p) { return packDouble2x32(SWGL_LOAD(u_bed, p).xy); }
void roe_put_low(rvec4 v)
{
    o_low_a = roe_pack2(v.xy);
    o_low_b = roe_pack2(v.zw);
}
void roe_put_high(rvec4 v)
{
    o_high_a = roe_pack2(v.xy);
    o_high_b = roe_pack2(v.zw);
}
#else
SWGL_INPUT(u_state);   // (h, qx, qy, cell code) per cell
SWGL_INPUT(u_bed);     // (H, 0, 0, 0) per cell
uniform vec2 u_len;    // |Gamma| of an east edge (dy) and of a north edge (dx)
uniform float u_g;
uniform float u_hdry;
SWGL_OUTPUT(0, o_low);
SWGL_OUTPUT(1, o_high);
vec4 roe_state(ivec2 p) { return SWGL_LOAD(u_state, p); }
vec4 roe_state_or(ivec2 p, vec4 outside) { return swgl_fetch_or(u_state, p, outside); }
float roe_bed(ivec2 p) { return SWGL_LOAD(u_bed, p).x; }
void roe_put_low(vec4 v) { o_low = v; }
void roe_put_high(vec4 v) { o_high = v; }
#endif

// exterior state of a boundary edge: the active cell's state seen through the edge
rvec3 ghost_state(rvec3 w, real code, rvec2 e)
{
    if (GRID_BC_SIGN(code) > 0.0) return w;                // free: transmissive (swgl_grid.h)
    real qn = dot(w.yz, e);
    return rvec3(w.x, w.yz - real(2.0) * qn * e);          // wall: mirror, q.n = 0 on the edge
}

SWGL_MAIN
{
    ivec2 p = swgl_cell();
    bool north = (p.x & 1) == 1;
    ivec2 ci = ivec2(p.x >> 1, p.y);
    ivec2 cj = ci + (north ? ivec2(0, 1) : ivec2(1, 0));
    rvec4 si = roe_state(ci);
    rvec4 sj = roe_state_or(cj, rvec4(0.0, 0.0, 0.0, CELL_OFF));
    bool active_i = si.w == CELL_ACTIVE, active_j = sj.w == CELL_ACTIVE;
    roe_put_low(rvec4(0.0));
    roe_put_high(rvec4(0.0));
    if (!active_i && !active_j) return;

    rvec2 e = north ? rvec2(0.0, 1.0) : rvec2(1.0, 0.0);
    real len = north ? u_len.y : u_len.x;
    rvec3 wi = si.xyz, wj = sj.xyz;
    real Hi = active_i ? roe_bed(ci) : real(0.0);
    real Hj = active_j ? roe_bed(cj) : real(0.0);
    bool wall = false;
    if (!active_j) {
        wj = ghost_state(wi, sj.w, e);
        Hj = Hi;
        wall = GRID_BC_SIGN(sj.w) < 0.0;
    } else if (!active_i) {
        wi = ghost_state(wj, si.w, e);
        Hi = Hj;
        wall = GRID_BC_SIGN(si.w) < 0.0;
    }
    rvec3 fi, fj;
    real speed = roe_edge(wi, wj, Hi, Hj, e, u_g, u_hdry, fi, fj);
    real phi = wall ? real(0.0) : dot(wi.yz, e) + fi.x;
    if (active_i) roe_put_low(rvec4(len * phi, len * fi.yz, len * speed));
    if (active_j) roe_put_high(rvec4(-len * phi, len * fj.yz, len * speed));
}
