// roe_edges.glsl — one edge of Lastra 4.3 phase 1 as a function, roe_edge_at, with the
// inputs it reads: the edge pass (roe_edge.glsl) runs it once per edge texel, the fused
// kernel of the compute backend (roe_step_cs.glsl) for the edges of its tile.  The edge
// layout, the boundary edges and the precisions are roe_edge.glsl's header.
#include "roe_flux.glsl"

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
#ifndef ROE_CUSTOM_FETCH   // (roe_step_cs.glsl reads its group's copy in shared memory)
vec4 roe_state(ivec2 p) { return SWGL_LOAD(u_state, p); }
vec4 roe_state_or(ivec2 p, vec4 outside) { return swgl_fetch_or(u_state, p, outside); }
float roe_bed(ivec2 p) { return SWGL_LOAD(u_bed, p).x; }
#endif
#endif

// exterior state of a wall or free boundary edge: the active cell's state seen through it
rvec3 ghost_state(rvec3 w, real code, rvec2 e)
{
    if (GRID_BC_SIGN(code) > 0.0) return w;                // free: transmissive (swgl_grid.h)
    real qn = dot(w.yz, e);
    return rvec3(w.x, w.yz - real(2.0) * qn * e);          // wall: mirror, q.n = 0 on the edge
}

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

// x^(1/3), x >= 0: float's pow, refined by two Newton steps in double
real roe_cbrt(real x)
{
    if (!(x > real(0.0))) return real(0.0);
    real y = real(pow(float(x), 1.0 / 3.0));
#ifdef ROE_DOUBLE
    y -= (y * y * y - x) / (real(3.0) * y * y);
    y -= (y * y * y - x) / (real(3.0) * y * y);
#endif
    return y;
}

// A boundary edge, as cpu_ref/roe_scalar.c roe_boundary_edge computes it (cpu_ref/swe.h
// "Boundary data"): wa, Ha the active cell's state and depth function (the ghost's bed is
// the active cell's), code and bv = (value, largest value) the ghost's, e the normal from
// the low cell L to the high one R, ghost_low whether the ghost is L.  Writes F-_LR (fL),
// F-_RL (fR) and phi = (M1) the mass flux from L to R; returns the edge's speed for (8),
// at least the boundary's floor (swe_boundary_speed).
real roe_bedge(real code, rvec2 bv, rvec3 wa, real Ha, rvec2 e, bool ghost_low, out rvec3 fL, out rvec3 fR,
               out real phi)
{
#ifdef SWGL_PLAIN_BOUNDARIES
    // no ghost of a value code and no boundary segment (roe_gpu.c): walls and free outlets only, the
    // same operations as below with their floor speed 0 (code that is never run still
    // takes registers, and fewer registers let more work groups share a multiprocessor)
    rvec3 wg = ghost_state(wa, code, e);
    rvec3 wL = ghost_low ? wg : wa, wR = ghost_low ? wa : wg;
    real sp = roe_edge(wL, wR, Ha, Ha, e, u_g, u_hdry, fL, fR);
    phi = GRID_BC_SIGN(code) < 0.0 ? real(0.0) : dot(wL.yz, e) + fL.x;
    return real(0.0) > sp ? real(0.0) : sp;
#else
    real vmax = bv.y, Bf = -Ha;
    real hfl = code == CELL_LEVEL ? vmax - Bf : code == CELL_DEPTH ? vmax : real(0.0);
    real floor_speed = code == CELL_DISCHARGE ? (vmax > real(0.0) ? real(2.0) * roe_cbrt(u_g * vmax) : real(0.0))
                     : hfl > real(0.0) ? real(2.0) * sqrt(u_g * hfl) : real(0.0);
    if (code == CELL_DISCHARGE) {
        // the imposed flux, outward from the active cell (n_out): mass -v, momentum
        // M n_out, less F(W_a).n_out (roe_scalar.c says why)
        rvec2 n = ghost_low ? -e : e;
        real v = bv.x, h = max(wa.x, real(0.0));
        bool wet = h > u_hdry;
        real qn = wa.y * n.x + wa.z * n.y, un = wet ? qn / h : real(0.0);
        real hc = v > real(0.0) ? roe_cbrt(v * v / u_g) : real(0.0), hb = h > hc ? h : hc;
        real M = real(0.0), sp = real(0.0);
        if (hb > real(0.0)) {
            M = v * v / hb + real(0.5) * u_g * hb * hb;
            sp = v / hb + sqrt(u_g * hb);
        }
        real dp = M - real(0.5) * u_g * h * h;
        rvec3 fa = rvec3(-v - qn, dp * n.x - wa.y * un, dp * n.y - wa.z * un);
        fL = ghost_low ? rvec3(0.0) : fa;
        fR = ghost_low ? fa : rvec3(0.0);
        phi = ghost_low ? v : -v;
        real sa = wet ? abs(un) + sqrt(u_g * h) : real(0.0);
        if (sa > sp) sp = sa;
        return floor_speed > sp ? floor_speed : sp;
    }
    rvec3 wg;
    if (code == CELL_LEVEL || code == CELL_DEPTH) {
        // the exterior depth with the active cell's velocity (none where either is dry, or
        // where the exterior is deeper)
        real hb = code == CELL_LEVEL ? (bv.x - Bf > real(0.0) ? bv.x - Bf : real(0.0)) : bv.x;
        if (!(hb > real(0.0))) hb = real(0.0);
        bool moving = wa.x > u_hdry && hb > u_hdry && !(hb > wa.x);   // deeper: at rest (swe.h)
        wg = rvec3(hb, moving ? hb * (wa.y / wa.x) : real(0.0), moving ? hb * (wa.z / wa.x) : real(0.0));
    } else {
        wg = ghost_state(wa, code, e);
    }
    rvec3 wL = ghost_low ? wg : wa, wR = ghost_low ? wa : wg;
    real sp = roe_edge(wL, wR, Ha, Ha, e, u_g, u_hdry, fL, fR);
    phi = GRID_BC_SIGN(code) < 0.0 ? real(0.0) : dot(wL.yz, e) + fL.x;   // (M1); a wall: 0
    return floor_speed > sp ? floor_speed : sp;   // (a NaN speed stays NaN)
#endif
}

// Edge texel p of the edge arrays (the east edge of cell (p.x/2, p.y) for even p.x, its
// north edge for odd): what it gives the cell on its low side (low) and on its high
// side (high), zero for a side that is not active:
//   low  = (|Gamma| Phi,  |Gamma| F-_ij[qx, qy],  |Gamma| ||D||_inf)
//   high = (-|Gamma| Phi, |Gamma| F-_ji[qx, qy],  |Gamma| ||D||_inf)
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
    rvec3 fi, fj;
    real speed, phi;
    if (active_i && active_j) {
        speed = roe_edge(si.xyz, sj.xyz, roe_bed(ci), roe_bed(cj), e, u_g, u_hdry, fi, fj);
        phi = dot(si.yz, e) + fi.x;
    } else if (active_i) {
        speed = roe_bedge(sj.w, roe_bv(sj), si.xyz, roe_bed(ci), e, false, fi, fj, phi);
    } else {
        speed = roe_bedge(si.w, roe_bv(si), sj.xyz, roe_bed(cj), e, true, fi, fj, phi);
    }
    if (active_i) low = rvec4(len * phi, len * fi.yz, len * speed);
    if (active_j) high = rvec4(-len * phi, len * fj.yz, len * speed);
}
