// kp_cell.glsl — the "cell" flux of one cell as a function, kp_cell_rates(c): R (3) and
// cfl r of cell c from its 9-cell cross (kp_flux_cell.glsl's header has the items), with
// the inputs it reads.  The flux pass kp_flux_cell.glsl writes it for every cell; the
// kernel of the compute backend (kp_flux_cs.glsl) for the cells of its wet tiles.  The
// includer declares u_dxy and u_cfl (kp_out.glsl, or the kernel itself).
#include "kp_real.glsl"
#include "kp_recon.glsl"
#include "kp_rates.glsl"

KP_INPUT(u_state);   // (w, hu, hv, l or -(1 + code)): kp_real.glsl
KP_INPUT(u_bed);     // (B_E, B_N, B_ij, code)
// where kp_cell_rates reads a cell's texels: the arrays, or (a kernel that defines these)
// its work group's copy of them in shared memory
#ifndef KP_CELL_STATE
#define KP_CELL_STATE(p) KP_LOAD(u_state, p)
#define KP_CELL_BED(p) KP_LOAD(u_bed, p)
#endif

// items 7-10 of an active cell k from its own points (pE, pW, pN, pS) and the facing
// points of its neighbours (qW, qE, qS, qN: 0 where the neighbour is not active), with
// the states s* and bed texels b* of k and its neighbours
real4 kp_cell_finish(real4 sk, real4 bk, real4 sW, real4 bW, real4 sE, real4 bE, real4 sS, real4 bS, real4 sN,
                     real4 bN, real3 pE, real3 pW, real3 pN, real3 pS, real3 qW, real3 qE, real3 qS, real3 qN)
{
    bool aW = bW.w == CELL_ACTIVE, aE = bE.w == CELL_ACTIVE, aS = bS.w == CELL_ACTIVE, aN = bN.w == CELL_ACTIVE;
    // the four faces, each from its low side to its high side
    real4 FE = kp_face(pE, true, CELL_ACTIVE, qE, aE, bE.w, 0, aE ? real2(0.0) : kp_bv(sE), bk.x);
    real4 FW = kp_face(qW, aW, bW.w, pW, true, CELL_ACTIVE, 0, aW ? real2(0.0) : kp_bv(sW), bW.x);
    real4 GN = kp_face(pN, true, CELL_ACTIVE, qN, aN, bN.w, 1, aN ? real2(0.0) : kp_bv(sN), bk.y);
    real4 GS = kp_face(qS, aS, bS.w, pS, true, CELL_ACTIVE, 1, aS ? real2(0.0) : kp_bv(sS), bS.y);
    real2 S = real2(kp_source(bk.x, bW.x, pE.x, pW.x, u_dxy.x), kp_source(bk.y, bS.y, pN.x, pS.x, u_dxy.y));
    bool bad = any(isnan(sk.xyz)) || any(isinf(sk.xyz));
    return kp_rates(FE, FW, GN, GS, S, bad, u_dxy, u_cfl);
}

real4 kp_cell_rates(ivec2 c)
{
    real4 bk = KP_CELL_BED(c);
    if (bk.w != CELL_ACTIVE) return real4(0.0, 0.0, 0.0, kp_inf());
    ivec2 last = textureSize(KP_TEX(u_bed), 0) - 1;
    real4 sk = KP_CELL_STATE(c);
    const ivec2 ex = ivec2(1, 0), ey = ivec2(0, 1);
    real4 bW = KP_CELL_BED(c - ex), bE = KP_CELL_BED(c + ex);
    real4 bS = KP_CELL_BED(c - ey), bN = KP_CELL_BED(c + ey);
    real4 sW = KP_CELL_STATE(c - ex), sE = KP_CELL_STATE(c + ex);
    real4 sS = KP_CELL_STATE(c - ey), sN = KP_CELL_STATE(c + ey);
    bool aW = bW.w == CELL_ACTIVE, aE = bE.w == CELL_ACTIVE, aS = bS.w == CELL_ACTIVE, aN = bN.w == CELL_ACTIVE;

    // the cell's own points
    real3 pE, pW, pN, pS;
    kp_cell_points(sk, bk.z, sW, bW.w, sE, bE.w, 0, bk.x, bW.x, pE, pW);
    kp_cell_points(sk, bk.z, sS, bS.w, sN, bN.w, 1, bk.y, bS.y, pN, pS);

    // the neighbours' facing points (only where the neighbour is active)
    real3 qW = real3(0.0), qE = real3(0.0), qS = real3(0.0), qN = real3(0.0), unused;
    if (aW) {
        ivec2 cw = max(c - 2 * ex, ivec2(0));
        real4 bWW = KP_CELL_BED(cw);
        kp_cell_points(sW, bW.z, KP_CELL_STATE(cw), bWW.w, sk, CELL_ACTIVE, 0, bW.x, bWW.x, qW, unused);
    }
    if (aE) {
        real4 sEE = KP_CELL_STATE(min(c + 2 * ex, last));
        kp_cell_points(sE, bE.z, sk, CELL_ACTIVE, sEE, kp_code_of(sEE), 0, bE.x, bk.x, unused, qE);
    }
    if (aS) {
        ivec2 cs = max(c - 2 * ey, ivec2(0));
        real4 bSS = KP_CELL_BED(cs);
        kp_cell_points(sS, bS.z, KP_CELL_STATE(cs), bSS.w, sk, CELL_ACTIVE, 1, bS.y, bSS.y, qS, unused);
    }
    if (aN) {
        real4 sNN = KP_CELL_STATE(min(c + 2 * ey, last));
        kp_cell_points(sN, bN.z, sk, CELL_ACTIVE, sNN, kp_code_of(sNN), 1, bN.y, bk.y, unused, qN);
    }

    real4 R = kp_cell_finish(sk, bk, sW, bW, sE, bE, sS, bS, sN, bN, pE, pW, pN, pS, qW, qE, qS, qN);
    R.w = kp_own_bound(c, R.w);
    return R;
}
