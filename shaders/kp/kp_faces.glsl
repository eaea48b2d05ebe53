// kp_faces.glsl — the flux pass, "faces" variant (SWGL_KP_FLUX=faces), first half: one
// fragment per cell k computes the two faces k owns, its east face k | E and its north
// face k | N (each face of the grid once: the mass update telescopes by construction),
// and k's bed source; kp_gather.glsl then adds them up.  cpu_ref/kp_cpu.h items 1-8,
// Brodtkorb et al. (2011) (3)-(6):
//   k's four points (items 1-6, needs W, E, S, N), E's west point (needs EE), N's south
//   point (needs NN), the flux of each face with an active side (item 7), and for an
//   active k the source S = -g dB/dx (h_E + h_W)/2, -g dB/dy (h_N + h_S)/2 (item 8).
// Runs over the ghost ring too: a ghost's east / north face may be a boundary face.
// Outputs (MRT): o_fe = east face (mass, hu, hv, a), o_fn = north face (mass, hu, hv, a),
// o_src = (S_hu, S_hv, flag, 0), flag 1 active, -1 active with a NaN or an infinity in
// its state, 0 not active.  All 0 in a tile early exit skips (kp_fill.glsl: the faces of
// cells that are dry with dry neighbours are exactly 0, speed 0).  Precision and storage:
// kp_real.glsl (double: six targets).
#include "kp_real.glsl"
#include "kp_recon.glsl"

KP_INPUT(u_state);   // (w, hu, hv, h or -(1 + code))
KP_INPUT(u_bed);     // (B_E, B_N, B_ij, code)
uniform real2 u_dxy;
KP_OUTPUT(0, 0, 1, o_fe);
KP_OUTPUT(1, 2, 3, o_fn);
KP_OUTPUT(2, 4, 5, o_src);

SWGL_MAIN
{
    ivec2 c = swgl_cell();
    ivec2 last = textureSize(KP_TEX(u_bed), 0) - 1;
    const ivec2 ex = ivec2(1, 0), ey = ivec2(0, 1);
    real4 fe = real4(0.0), fn = real4(0.0), src = real4(0.0);
    real4 bk = KP_LOAD(u_bed, c), sk = KP_LOAD(u_state, c);
    bool ak = bk.w == CELL_ACTIVE;
    bool hasE = c.x < last.x, hasN = c.y < last.y;
    real4 bE = KP_LOAD(u_bed, min(c + ex, last)), bN = KP_LOAD(u_bed, min(c + ey, last));
    bool aE = hasE && bE.w == CELL_ACTIVE, aN = hasN && bN.w == CELL_ACTIVE;
    if (!ak && !aE && !aN) {
        KP_STORE(o_fe, fe);
        KP_STORE(o_fn, fn);
        KP_STORE(o_src, src);
        return;
    }
    real4 sE = KP_LOAD(u_state, min(c + ex, last)), sN = KP_LOAD(u_state, min(c + ey, last));

    real3 pE = real3(0.0), pW = real3(0.0), pN = real3(0.0), pS = real3(0.0), unused;
    real4 bW = real4(0.0), bS = real4(0.0);
    if (ak) {
        bW = KP_LOAD(u_bed, c - ex);
        bS = KP_LOAD(u_bed, c - ey);
        kp_cell_points(sk, bk.z, KP_LOAD(u_state, c - ex), bW.w, sE, bE.w, 0, bk.x, bW.x, pE, pW);
        kp_cell_points(sk, bk.z, KP_LOAD(u_state, c - ey), bS.w, sN, bN.w, 1, bk.y, bS.y, pN, pS);
    }
    if (aE || (ak && hasE)) {
        real3 qE = real3(0.0);
        if (aE) {
            real4 sEE = KP_LOAD(u_state, min(c + 2 * ex, last));
            kp_cell_points(sE, bE.z, sk, bk.w, sEE, kp_code_of(sEE), 0, bE.x, bk.x, unused, qE);
        }
        fe = kp_face(pE, ak, bk.w, qE, aE, bE.w, 0, kp_bv(ak ? sE : sk), bk.x);
    }
    if (aN || (ak && hasN)) {
        real3 qN = real3(0.0);
        if (aN) {
            real4 sNN = KP_LOAD(u_state, min(c + 2 * ey, last));
            kp_cell_points(sN, bN.z, sk, bk.w, sNN, kp_code_of(sNN), 1, bN.y, bk.y, unused, qN);
        }
        fn = kp_face(pN, ak, bk.w, qN, aN, bN.w, 1, kp_bv(ak ? sN : sk), bk.y);
    }
    if (ak) {
        real Sx = kp_source(bk.x, bW.x, pE.x, pW.x, u_dxy.x);
        real Sy = kp_source(bk.y, bS.y, pN.x, pS.x, u_dxy.y);
        bool bad = any(isnan(sk.xyz)) || any(isinf(sk.xyz));
        src = real4(Sx, Sy, bad ? -1.0 : 1.0, 0.0);
    }
    KP_STORE(o_fe, fe);
    KP_STORE(o_fn, fn);
    KP_STORE(o_src, src);
}
