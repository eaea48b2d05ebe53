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
#include "roe_edges.glsl"

#ifdef ROE_DOUBLE
SWGL_OUTPUT_U(0, o_low_a);
SWGL_OUTPUT_U(1, o_low_b);
SWGL_OUTPUT_U(2, o_high_a);
SWGL_OUTPUT_U(3, o_high_b);
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
SWGL_OUTPUT(0, o_low);
SWGL_OUTPUT(1, o_high);
void roe_put_low(vec4 v) { o_low = v; }
void roe_put_high(vec4 v) { o_high = v; }
#endif

SWGL_MAIN
{
    rvec4 low, high;
    roe_edge_at(swgl_cell(), low, high);
    roe_put_low(low);
    roe_put_high(high);
}
