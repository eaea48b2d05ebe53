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
    if (active_i) roe_put_low(rvec4(len * phi, len * fi.yz, len * speed));
    if (active_j) roe_put_high(rvec4(-len * phi, len * fj.yz, len * speed));
}
