// kp_flux_cell.glsl — the flux pass, "cell" variant (SWGL_KP_FLUX=cell): one fragment per
// cell computes R(Q) (3) and its local bound, cpu_ref/kp_cpu.h items 1-10, Brodtkorb et
// al. (2011) (3)-(6) and (8), with nothing stored between cells: it reconstructs its own
// four points and the facing point of each of its four neighbours (items 1-6), computes
// its four face fluxes (item 7; each interior face is thus computed by both its cells,
// with the same inputs and the same code, so both get the same bits), the bed source
// (item 8, kp_recon.glsl), R (item 9) and r (item 10, kp_rates.glsl).  Reads the 9-cell
// cross of the state (the cells two away only for the neighbours' slopes) and 7 bed
// texels (k, its 4 neighbours, and the cells two away west and south, whose B_E / B_N
// are their neighbours' B_W / B_S).
// Output o_R = (R_w, R_hu, R_hv, cfl r): the min reduction of .w is the bound of (8)
// (+inf where nothing moves; -1 for a NaN, a blow-up).  Non-active cells: (0, 0, 0, +inf),
// which is also what a tile skipped by early exit holds (kp_fill.glsl, kp_tiles_vs.glsl).
// Precision and storage: kp_real.glsl (double: o_R in two targets and the bound in a
// third, float, for the reduction).
#include "kp_real.glsl"
#include "kp_recon.glsl"
#include "kp_rates.glsl"

KP_INPUT(u_state);   // (w, hu, hv, h or -(1 + code))
KP_INPUT(u_bed);     // (B_E, B_N, B_ij, code)
#include "kp_out.glsl"

SWGL_MAIN
{
    ivec2 c = swgl_cell();
    real4 bk = KP_LOAD(u_bed, c);
    if (bk.w != CELL_ACTIVE) {
        kp_out(real4(0.0, 0.0, 0.0, kp_inf()));
        return;
    }
    ivec2 last = textureSize(KP_TEX(u_bed), 0) - 1;
    real4 sk = KP_LOAD(u_state, c);
    const ivec2 ex = ivec2(1, 0), ey = ivec2(0, 1);
    real4 bW = KP_LOAD(u_bed, c - ex), bE = KP_LOAD(u_bed, c + ex);
    real4 bS = KP_LOAD(u_bed, c - ey), bN = KP_LOAD(u_bed, c + ey);
    real4 sW = KP_LOAD(u_state, c - ex), sE = KP_LOAD(u_state, c + ex);
    real4 sS = KP_LOAD(u_state, c - ey), sN = KP_LOAD(u_state, c + ey);
    bool aW = bW.w == CELL_ACTIVE, aE = bE.w == CELL_ACTIVE, aS = bS.w == CELL_ACTIVE, aN = bN.w == CELL_ACTIVE;

    // the cell's own points
    real3 pE, pW, pN, pS;
    kp_cell_points(sk, bk.z, sW, bW.w, sE, bE.w, 0, bk.x, bW.x, pE, pW);
    kp_cell_points(sk, bk.z, sS, bS.w, sN, bN.w, 1, bk.y, bS.y, pN, pS);

    // the neighbours' facing points (only where the neighbour is active)
    real3 qW = real3(0.0), qE = real3(0.0), qS = real3(0.0), qN = real3(0.0), unused;
    if (aW) {
        ivec2 cw = max(c - 2 * ex, ivec2(0));
        real4 bWW = KP_LOAD(u_bed, cw);
        kp_cell_points(sW, bW.z, KP_LOAD(u_state, cw), bWW.w, sk, CELL_ACTIVE, 0, bW.x, bWW.x, qW, unused);
    }
    if (aE) {
        real4 sEE = KP_LOAD(u_state, min(c + 2 * ex, last));
        kp_cell_points(sE, bE.z, sk, CELL_ACTIVE, sEE, kp_code_of(sEE), 0, bE.x, bk.x, unused, qE);
    }
    if (aS) {
        ivec2 cs = max(c - 2 * ey, ivec2(0));
        real4 bSS = KP_LOAD(u_bed, cs);
        kp_cell_points(sS, bS.z, KP_LOAD(u_state, cs), bSS.w, sk, CELL_ACTIVE, 1, bS.y, bSS.y, qS, unused);
    }
    if (aN) {
        real4 sNN = KP_LOAD(u_state, min(c + 2 * ey, last));
        kp_cell_points(sN, bN.z, sk, CELL_ACTIVE, sNN, kp_code_of(sNN), 1, bN.y, bk.y, unused, qN);
    }

    // the four faces, each from its low side to its high side
    real4 FE = kp_face(pE, true, CELL_ACTIVE, qE, aE, bE.w, 0, aE ? real2(0.0) : kp_bv(sE), bk.x);
    real4 FW = kp_face(qW, aW, bW.w, pW, true, CELL_ACTIVE, 0, aW ? real2(0.0) : kp_bv(sW), bW.x);
    real4 GN = kp_face(pN, true, CELL_ACTIVE, qN, aN, bN.w, 1, aN ? real2(0.0) : kp_bv(sN), bk.y);
    real4 GS = kp_face(qS, aS, bS.w, pS, true, CELL_ACTIVE, 1, aS ? real2(0.0) : kp_bv(sS), bS.y);
    real2 S = real2(kp_source(bk.x, bW.x, pE.x, pW.x, u_dxy.x), kp_source(bk.y, bS.y, pN.x, pS.x, u_dxy.y));
    bool bad = any(isnan(sk.xyz)) || any(isinf(sk.xyz));
    kp_out(kp_rates(FE, FW, GN, GS, S, bad, u_dxy, u_cfl));
}
