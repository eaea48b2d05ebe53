// roe_edges.glsl — one edge of Lastra 4.3 phase 1 as a function, roe_edge_at, with the
// inputs it reads: the edge pass (roe_edge.glsl) runs it once per edge texel, the fused
// kernel of the compute backend (roe_step_cs.glsl) for the edges of its tile.  The edge
// layout, the boundary edges and the precisions are roe_edge.glsl's header.
// The face itself is the scheme's (the shared signature of shaders/swe/swe_face.glsl):
// roe's (roe_face.glsl) by default, hllc's (shaders/hllc/hllc_face.glsl) where the
// program's defines have SWGL_FACE_HLLC (solver/schemes/roe/roe_gpu.c, the face it is given).
// Both files are spliced in by gpgpu's #include, which knows no #ifdef: the driver's
// preprocessor drops the one not chosen.
#include "roe_real.glsl"

#ifdef ROE_DOUBLE
SWGL_INPUT_U(u_state_a);   // (h, qx) per cell
SWGL_INPUT_U(u_state_b);   // (qy, cell code)
SWGL_INPUT_U(u_bed);       // (H, 0)
// u_len, u_g, u_hdry: #defines (roe_gpu.c)
rvec4 roe_state(ivec2 p) { return roe_unpack4(SWGL_LOAD(u_state_a, p), SWGL_LOAD(u_state_b, p)); }
rvec4 roe_state_or(ivec2 p, rvec4 outside)
{
    ivec2 n = textureSize(u_state_a, 0);
    return (p.x < 0 || p.y < 0 || p.x >= n.x || p.y >= n.y) ? outside : roe_state(p);
}
real roe_bed(ivec2 p) { return packDouble2x32(SWGL_LOAD(u_bed, p).xy); }
#else
SWGL_INPUT(u_state);   // (h, qx, qy, cell code) per cell
SWGL_INPUT(u_bed);     // (H, 0, 0, 0) per cell
uniform vec2 u_len;    // |Gamma| of an east edge (dy) and of a north edge (dx)
uniform float u_g;
uniform float u_hdry;
vec4 roe_state(ivec2 p) { return SWGL_LOAD(u_state, p); }
vec4 roe_state_or(ivec2 p, vec4 outside) { return swgl_fetch_or(u_state, p, outside); }
float roe_bed(ivec2 p) { return SWGL_LOAD(u_bed, p).x; }
#endif

// The ghost's segment (value at the step's time, largest value): the ghost's state
// texel holds the segment in .x (-1 for none; roe_gpu.c), u_bvals one texel per segment;
// (0, 0) without boundary data (ROE_NSEG undefined).
#ifdef ROE_NSEG
#ifdef ROE_DOUBLE
SWGL_INPUT_U(u_bvals);
rvec2 roe_bv(rvec4 ghost)
{
    int s = int(ghost.x);
    return s >= 0 ? roe_unpack2(SWGL_LOAD(u_bvals, ivec2(s, 0))) : rvec2(0.0);
}
#else
SWGL_INPUT(u_bvals);
rvec2 roe_bv(rvec4 ghost)
{
    int s = int(ghost.x);
    return s >= 0 ? SWGL_LOAD(u_bvals, ivec2(s, 0)).xy : rvec2(0.0);
}
#endif
#else
rvec2 roe_bv(rvec4 ghost) { return rvec2(0.0); }
#endif

#ifdef SWGL_FACE_HLLC
#include "hllc_face.glsl"
#else
#include "roe_face.glsl"
#endif
// the bed elevation z = -H of cell p (the bed array holds Lastra's depth function H)
real roe_z(ivec2 p) { return -roe_bed(p); }

// Edge texel p of the edge arrays (the east edge of cell (p.x/2, p.y) for even p.x, its
// north edge for odd): what it gives the cell on its low side (low) and on its high
// side (high), zero for a side that is not active (F_h, mL, mR: the face's, swe_face.glsl):
//   low  = (|Gamma| F_h,  |Gamma| mL,   |Gamma| s_e)     (roe: F_h = Phi, mL = F-_ij[qx, qy],
//   high = (-|Gamma| F_h, -|Gamma| mR,  |Gamma| s_e)      -mR = F-_ji[qx, qy], s_e = ||D||_inf)
void roe_edge_at(ivec2 p, out rvec4 low, out rvec4 high)
{
    bool north = (p.x & 1) == 1;
    ivec2 ci = ivec2(p.x >> 1, p.y);
    ivec2 cj = ci + (north ? ivec2(0, 1) : ivec2(1, 0));
    rvec4 si = roe_state(ci);
    rvec4 sj = roe_state_or(cj, rvec4(0.0, 0.0, 0.0, CELL_OFF));
    bool active_i = si.w == CELL_ACTIVE, active_j = sj.w == CELL_ACTIVE;
    low = rvec4(0.0);
    high = rvec4(0.0);
    if (!active_i && !active_j) return;

    rvec2 e = north ? rvec2(0.0, 1.0) : rvec2(1.0, 0.0);
    real len = north ? u_len.y : u_len.x;
    rvec2 mi, mj;
    real speed, phi;
    if (active_i && active_j) {
        speed = SWE_FACE(si.xyz, sj.xyz, roe_z(ci), roe_z(cj), e, u_g, u_hdry, phi, mi, mj);
    } else if (active_i) {
        speed = SWE_BFACE(sj.w, roe_bv(sj), si.xyz, roe_z(ci), e, false, u_g, u_hdry, phi, mi, mj);
    } else {
        speed = SWE_BFACE(si.w, roe_bv(si), sj.xyz, roe_z(cj), e, true, u_g, u_hdry, phi, mi, mj);
    }
    if (active_i) low = rvec4(len * phi, len * mi, len * speed);
    if (active_j) high = rvec4(-len * phi, -len * mj, len * speed);
}
