// kp_flux_cs.glsl — a kernel of the compute backend (gpu_program_create_kernel): the
// flux evaluation of one stage, early exit and the first level of the bound's min reduction
// in one dispatch.  A work group of KP_GX x KP_GY invocations covers a tile of
// KP_GX KP_CX x KP_GY KP_CY cells: one cell an invocation (KP_CX = KP_CY = 1, the default),
// or a sweep of its KP_CX columns of KP_CY cells upwards, row by row:
//   0. (u_skip_dry) the group reads the tile and the ring of cells around it; if none is
//      wet (active with h > eps, or holding a NaN or an infinity), every point of those
//      cells is 0 (cpu_ref/kp_cpu.h item 5), so every face flux, speed and source of the
//      tile is 0 and R = (0, 0, 0, +inf) (kp_fill.glsl's value; computed, a momentum rate
//      can come out as -0.0 where the bed slopes, which adds to a state as +0.0 does): the
//      group writes that without computing it (Brodtkorb et al. 2011, 3.2.1, decided inside the
//      dispatch, so it needs no wet-map pass, no fill pass, no quads and no depth test);
//   1. each cell's R and cfl r: kp_cell_rates (kp_cell.glsl), the flux pass
//      kp_flux_cell.glsl's function, so the same values; or the sweep, which gives the
//      same values from the same functions with the same arguments (kp_cell_points,
//      kp_face, kp_source, kp_rates), but computes each point and face once per sweep
//      where kp_cell_rates computes them once per cell: a cell's points along y (items
//      1-6) and its north face (item 7) serve the cell above it in the next row, and along
//      x the KP_CX cells of a row share their points and the faces between them.  Per cell,
//      kp_cell_rates makes 6 calls of kp_cell_points and 4 of kp_face; the sweep makes
//      1 + (KP_CX + 2) / KP_CX and 1 + (KP_CX + 1) / KP_CX (1 x 4: 4 and 3, 2 x 4: 3 and
//      2.5), plus one row's worth at the start of each column; or (KP_XSHARE, one
//      column an invocation) the sweep with a row's points along x computed once: each
//      invocation's west point and east face go to its neighbours through shared memory
//      (2 points and 2 faces a cell, times KP_GX / (KP_GX - 2): the first and last
//      invocation of a row stand for the cells beside the tile).  Each reads the texels
//      from the group's copy in shared memory (loaded first; KP_NO_STAGING: the arrays);
//   2. the group's min of cfl r (group_min.glsl) goes to o_part at the group's index (a
//      min reduction of o_part, gpgpu's reduce_cs, is the step's bound);
//   or (KP_TILES, the step on kernels) 0. the group runs the tiles of the step's list
//      (kp_tiles.glsl: a tile off it is neither computed nor written, in the flux nor in
//      the integration), work group 0 the step's time left instead, and 2. the group's
//      min goes straight into the step's bound word with one atomicMin
//      (kp_integrate_cs.glsl reads it: no reduction dispatch);
//   or (KP_FUSE_STAGE1, with KP_TILES: RK2's second stage) 2. each cell's integration
//      (kp_integrate_cell, kp_integrate_fn.glsl) with that R: Q^{n+1} in one dispatch, and
//      the tiles the next step computes on its list.
// Float, without boundary data (kp_gpu.c keeps the passes for double and for runs with
// boundary data, rain or sources, whose inflow wets dry tiles).
// Tried and dropped (docs/performance.md): forms that compute each point (and each face)
// once per tile in shared memory, as the removed "faces" pass did across passes, ran 1.5 (points)
// and 3.3 (points and faces) times slower on an H200 than one cell per invocation, which
// computes them once per cell; the sweep shares them through registers instead (its
// speed against one cell per invocation: docs/performance.md).
// The work group and the cells an invocation sweeps: defines of kp_gpu_kernels.c, chosen by the
// grid's size (tune kp.group, kp.cells, kp.xshare, kp.stage override; the
// dispatch covers KP_GX KP_CX x KP_GY KP_CY cells a group, (KP_GX - 2) x KP_GY KP_CY
// under KP_XSHARE)
#ifndef KP_GX
#define KP_GX 16
#define KP_GY 16
#endif
#ifndef KP_CX
#define KP_CX 1
#define KP_CY 1
#endif
layout(local_size_x = KP_GX, local_size_y = KP_GY) in;
#define KP_GN (KP_GX * KP_GY)
#ifdef KP_XSHARE
// (KP_CX = 1) the group's first and last invocation of a row compute points for their
// neighbours and own no cell: the tile is KP_GX - 2 columns wide
#define KP_TX (KP_GX - 2)
#else
#define KP_TX (KP_GX * KP_CX)   // the tile, in cells
#endif
#define KP_TY (KP_GY * KP_CY)
#include "kp_real.glsl"
uniform real2 u_dxy;
uniform real u_cfl;
#ifdef KP_TILES
#ifdef KP_FUSE_STAGE1
#define KP_TILES_WRITE 1
#else
#include "clock_rule.glsl"   // (the control group's swgl_clock_unknown)
#endif
#include "kp_tiles.glsl"
#else
uniform int u_skip_dry;   // 0: compute dry tiles too (kp.early_exit = off)
#endif
#ifndef KP_NO_STAGING
// The group's copy of the state and bed texels its cells read (the tile and two cells
// around it), loaded once (3 to 4 texel fetches a cell instead of kp_cell_rates' 16) and
// read by the sweep and the wet test from shared memory
shared vec4 s_st[KP_TY + 4][KP_TX + 4], s_bd[KP_TY + 4][KP_TX + 4];
ivec2 kp_org;   // the array cell of s_st[0][0]: the tile's first cell less (2, 2)
#define KP_CELL_STATE(p) s_st[(p).y - kp_org.y][(p).x - kp_org.x]
#define KP_CELL_BED(p) s_bd[(p).y - kp_org.y][(p).x - kp_org.x]
#endif
#include "kp_cell.glsl"
#ifdef KP_FUSE_STAGE1
// RK2's second stage, flux and integration in one dispatch: R of Q* (u_state here) goes
// straight into kp_integrate_cell with Q^n (u_qn) and the step stage 0 chose (u_clock),
// and the new state is written instead of R (no min: the step is already chosen)
KP_INPUT(u_qn);
SWGL_INPUT(u_clock);
#define KP_STAGE_IN u_state   // the stage's state (kp_integrate_fn.glsl's cap): Q* here
#include "kp_integrate_fn.glsl"
SWGL_IMAGE(0, o_state);
#ifdef SWE_MAPS_INLINE
// the flood maps updated here, in place, from Q^{n+1} (kp_gpu_maps_start), instead of a pass
#define SWE_MAPS_CLOCK 1
#include "swe_maps.glsl"
#endif
// cell c's Q^{n+1} from Q^n, Q* (qs: its texel of u_state), its bed texel and R of Q*
// (kp_integrate.glsl's main with R from here), stored, and noted for the next list
void kp_stage1_store(ivec2 c, real4 qs, real4 bk, real dt, real4 R)
{
    real4 qn = KP_LOAD(u_qn, c), s = qn;
    if (bk.w == CELL_ACTIVE && dt != 0.0) s = kp_integrate_cell(c, qn, qs, bk, dt, R.xyz);
    imageStore(o_state, c, s);
#ifdef SWE_MAPS_INLINE
    if (bk.w == CELL_ACTIVE) swe_maps_cell(c, float(kp_depth(s, bk)), float(s.y), float(s.z));
#endif
    kp_tile_note(s, bk, kp_texel_differs(s, qn) || kp_texel_differs(qs, qn), vec3(R.xyz));
}
#else
SWGL_IMAGE(0, o_R);
#ifndef KP_TILES
SWGL_IMAGE(1, o_part);
#endif
#endif
#include "group_min.glsl"

shared bool s_wet;
#ifdef KP_XSHARE
// a row's west points and east faces, one an invocation, handed to the neighbour on the east
shared real3 s_pW[KP_GY][KP_GX];
shared real4 s_F[KP_GY][KP_GX];
#endif

// A cell's state and bed texels for the sweep: past the arrays' edge, a cell that is not
// active (what the staged copy holds there)
#ifdef KP_NO_STAGING
bool kp_inside(ivec2 p) { return all(greaterThanEqual(p, ivec2(0))) && all(lessThan(p, textureSize(KP_TEX(u_bed), 0))); }
real4 kp_st(ivec2 p) { return kp_inside(p) ? KP_LOAD(u_state, p) : real4(0.0, 0.0, 0.0, -1.0 - CELL_OFF); }
real4 kp_bd(ivec2 p) { return kp_inside(p) ? KP_LOAD(u_bed, p) : real4(0.0, 0.0, 0.0, CELL_OFF); }
#else
#define kp_st(p) KP_CELL_STATE(p)
#define kp_bd(p) KP_CELL_BED(p)
#endif

// Invocation i's share (cells i, i + KP_GN, ...) of step 0's test: whether a cell of the tile or
// of its ring is wet (kp_cell_points would give it points) or holds a NaN or an infinity
bool kp_region_wet(int i, ivec2 tile)
{
    ivec2 last = textureSize(KP_TEX(u_bed), 0) - 1;
    bool wet = false;
    for (int j = i; j < (KP_TX + 2) * (KP_TY + 2); j += KP_GN) {   // the tile and its ring
        ivec2 p = tile - 1 + ivec2(j % (KP_TX + 2), j / (KP_TX + 2));
        if (any(lessThan(p, ivec2(0))) || any(greaterThan(p, last))) continue;
        real4 s = kp_st(p), b = kp_bd(p);
        wet = wet || (b.w == CELL_ACTIVE && (s.x - b.z > u_eps || any(isnan(s.xyz)) || any(isinf(s.xyz))));
    }
    return wet;
}

// A cell's two points along `axis` (kp_cell_points: 0 for a dry cell) from its texels (s,
// b) and its neighbours' on the low and high side; 0 for a cell that is not active
void kp_points_of(real4 s, real4 b, real4 slo, real4 blo, real4 shi, real4 bhi, int axis, out real3 phi,
                  out real3 plo)
{
    phi = real3(0.0);
    plo = real3(0.0);
    if (b.w != CELL_ACTIVE) return;
    kp_cell_points(s, b.z, slo, blo.w, shi, bhi.w, axis, axis == 0 ? b.x : b.y, axis == 0 ? blo.x : blo.y, phi, plo);
}

// The face between cell lo (west or south) and cell hi along `axis` from lo's high point
// and hi's low point (kp_face; the face's bed is lo's B_E or B_N; 0 where neither side is
// active): the value kp_cell_finish gives the face from either side
real4 kp_face_of(real3 plo, real4 slo, real4 blo, real3 phi, real4 shi, real4 bhi, int axis)
{
    bool alo = blo.w == CELL_ACTIVE, ahi = bhi.w == CELL_ACTIVE;
    return kp_face(plo, alo, blo.w, phi, ahi, bhi.w, axis, kp_bv(alo ? shi : slo), axis == 0 ? blo.x : blo.y);
}

#ifdef KP_FUSE_STAGE1
real dt;     // the step stage 0 chose
#else
real bmin;   // this invocation's min of cfl r over its cells
#endif
#if defined(KP_TILES) && !defined(KP_FUSE_STAGE1)
// (u_rest) the tile's own bound, kept for the rest rule (kp_tiles.glsl): this invocation's
// min over its cells of the tile, then the group's in s_tkey, stored at KP_TBOUND
real tmin;
shared uint s_tkey;
#define KP_BOUND_ADD(v) bmin = min(bmin, v); tmin = min(tmin, v)
#else
#define KP_BOUND_ADD(v) bmin = min(bmin, v)
#endif

// The tile of cells from `tile` (its first cell) up to `end` (exclusive): R and the bound
// of its cells, or (KP_FUSE_STAGE1) their Q^{n+1}; after a group's first tile (first
// false) it begins with a barrier, so that a work group may run several tiles in turn
void kp_flux_tile(ivec2 tile, ivec2 end, bool first)
{
    int i = int(gl_LocalInvocationIndex);
    const ivec2 ex = ivec2(1, 0), ey = ivec2(0, 1);
    if (!first) barrier();   // (the shared memory of the group's last tile is read no more)
#if defined(KP_TILES) && !defined(KP_FUSE_STAGE1)
    tmin = kp_inf();
#endif
#ifdef KP_XSHARE
    ivec2 c0 = tile + ivec2(int(gl_LocalInvocationID.x) - 1, KP_CY * int(gl_LocalInvocationID.y));
#else
    ivec2 c0 = tile + ivec2(KP_CX, KP_CY) * ivec2(gl_LocalInvocationID.xy);   // the sweep's first cell
#endif
    // (the barriers are met by every invocation of the group, in control flow that is
    // the same for the whole group: u_skip_dry is a uniform, s_wet is shared)
#ifndef KP_NO_STAGING
    kp_org = tile - 2;
    {
        ivec2 last = textureSize(KP_TEX(u_bed), 0) - 1;
        for (int j = i; j < (KP_TX + 4) * (KP_TY + 4); j += KP_GN) {
            ivec2 r = ivec2(j % (KP_TX + 4), j / (KP_TX + 4)), p = kp_org + r;
            bool inside = all(greaterThanEqual(p, ivec2(0))) && all(lessThanEqual(p, last));
            s_st[r.y][r.x] = inside ? KP_LOAD(u_state, p) : real4(0.0, 0.0, 0.0, -1.0 - CELL_OFF);
            s_bd[r.y][r.x] = inside ? KP_LOAD(u_bed, p) : real4(0.0, 0.0, 0.0, CELL_OFF);
        }
    }
#endif
#ifdef KP_TILES
    if (i == 0) s_wet = true;   // on the list: computed (a dry tile computes R = (0, 0, 0, +inf) as it is)
#ifdef KP_TILES_WRITE
    kp_tile_open();
#endif
    barrier();
#else
    if (i == 0) s_wet = u_skip_dry == 0;
    barrier();
    if (u_skip_dry != 0 && kp_region_wet(i, tile)) s_wet = true;
    barrier();
#endif
#if defined(KP_XSHARE)
    // a column of KP_CY cells an invocation, as the sweep below with KP_CX = 1, but a row's
    // points along x are computed once: each invocation computes its cell's two points
    // and the face east of it from its own east point and the west point of the cell east
    // of it (the next invocation's, through s_pW), and takes the face west of it from the
    // invocation west of it (s_F).  The first and last invocation of a row (lx 0 and
    // KP_GX - 1) stand for the cells beside the tile.  Per cell 2 calls of kp_cell_points
    // and 2 faces (against the sweep's 4 and 3 at KP_CX = 1), times KP_GX / (KP_GX - 2);
    // the same functions with the same arguments, so the same values.
    int lx = int(gl_LocalInvocationID.x), ly = int(gl_LocalInvocationID.y);
    bool own = lx >= 1 && lx <= KP_GX - 2;
    real4 sD = real4(0.0), bD = real4(0.0), sC = kp_st(c0), bC = kp_bd(c0), GS = real4(0.0);
    real3 yN = real3(0.0), yS = real3(0.0);
    if (own) {
        sD = kp_st(c0 - ey);
        bD = kp_bd(c0 - ey);
        if (s_wet) {
            real3 dN, unused;
            kp_points_of(sD, bD, kp_st(c0 - 2 * ey), kp_bd(c0 - 2 * ey), sC, bC, 1, dN, unused);
            kp_points_of(sC, bC, sD, bD, kp_st(c0 + ey), kp_bd(c0 + ey), 1, yN, yS);
            GS = kp_face_of(dN, sD, bD, yS, sC, bC, 1);
        }
    }
    for (int j = 0; j < KP_CY; j++) {
        ivec2 c = c0 + j * ey;
        real4 sW = kp_st(c - ex), bW = kp_bd(c - ex), sE = kp_st(c + ex), bE = kp_bd(c + ex);
        real3 pE = real3(0.0), pW = real3(0.0);
        if (s_wet) kp_points_of(sC, bC, sW, bW, sE, bE, 0, pE, pW);
        s_pW[ly][lx] = pW;
        barrier();
        real4 Fe = real4(0.0);
        if (s_wet && lx < KP_GX - 1) Fe = kp_face_of(pE, sC, bC, s_pW[ly][lx + 1], sE, bE, 0);
        s_F[ly][lx] = Fe;
        barrier();
        real4 sU = real4(0.0), bU = real4(0.0);
        if (own) {
            real4 Fw = s_F[ly][lx - 1];
            sU = kp_st(c + ey);
            bU = kp_bd(c + ey);
            real4 GN = real4(0.0);
            real3 uN = real3(0.0), uS = real3(0.0);
            if (s_wet) {
                kp_points_of(sU, bU, sC, bC, kp_st(c + 2 * ey), kp_bd(c + 2 * ey), 1, uN, uS);
                GN = kp_face_of(yN, sC, bC, uS, sU, bU, 1);
            }
            real4 R = real4(0.0, 0.0, 0.0, kp_inf());
            if (s_wet && bC.w == CELL_ACTIVE) {   // kp_cell_finish's items 8-10
                real2 S = real2(kp_source(bC.x, bW.x, pE.x, pW.x, u_dxy.x), kp_source(bC.y, bD.y, yN.x, yS.x, u_dxy.y));
                bool bad = any(isnan(sC.xyz)) || any(isinf(sC.xyz));
                R = kp_rates(Fe, Fw, GN, GS, S, bad, u_dxy, u_cfl);
                R.w = kp_own_bound(c, R.w);
            }
            if (all(lessThan(c, end))) {
#ifdef KP_FUSE_STAGE1
                kp_stage1_store(c, sC, bC, dt, R);
#else
                imageStore(o_R, c, R);
                KP_BOUND_ADD(R.w);
#endif
            }
            GS = GN;
            yN = uN;
            yS = uS;
        } else {
            sU = kp_st(c + ey);   // (the helper's next cell: only its texels along x are used)
            bU = kp_bd(c + ey);
        }
        sD = sC;
        bD = bC;
        sC = sU;
        bC = bU;
    }
#elif KP_CX == 1 && KP_CY == 1
    // one cell: kp_cell_rates
    if (all(lessThan(c0, end))) {
        real4 R = s_wet ? kp_cell_rates(c0) : real4(0.0, 0.0, 0.0, kp_inf());
#ifdef KP_FUSE_STAGE1
        kp_stage1_store(c0, KP_LOAD(u_state, c0), KP_LOAD(u_bed, c0), dt, R);
#else
        imageStore(o_R, c0, R);
        KP_BOUND_ADD(R.w);
#endif
    }
#else
    // carried up each column k: the texels of the row below (sD, bD) and of the current
    // row (sC, bC), the current cell's points along y (yN, yS) and its south face (GS)
    real4 sD[KP_CX], bD[KP_CX], sC[KP_CX], bC[KP_CX], GS[KP_CX];
    real3 yN[KP_CX], yS[KP_CX];
    for (int k = 0; k < KP_CX; k++) {
        ivec2 p = c0 + k * ex;
        sD[k] = kp_st(p - ey);
        bD[k] = kp_bd(p - ey);
        sC[k] = kp_st(p);
        bC[k] = kp_bd(p);
        yN[k] = yS[k] = real3(0.0);
        GS[k] = real4(0.0);
        if (s_wet) {
            real3 dN, unused;
            kp_points_of(sD[k], bD[k], kp_st(p - 2 * ey), kp_bd(p - 2 * ey), sC[k], bC[k], 1, dN, unused);
            kp_points_of(sC[k], bC[k], sD[k], bD[k], kp_st(p + ey), kp_bd(p + ey), 1, yN[k], yS[k]);
            GS[k] = kp_face_of(dN, sD[k], bD[k], yS[k], sC[k], bC[k], 1);
        }
    }
    for (int j = 0; j < KP_CY; j++) {
        ivec2 row = ivec2(c0.x, c0.y + j);
        // along x: the row's texels from two cells west to two east of the columns, the
        // points of the columns' cells and of the cell beside them on either side, and the
        // KP_CX + 1 faces between those
        real4 sr[KP_CX + 4], br[KP_CX + 4], F[KP_CX + 1];
        real3 pE[KP_CX + 2], pW[KP_CX + 2];
        for (int m = 0; m < KP_CX + 4; m++) {
            sr[m] = kp_st(row + (m - 2) * ex);
            br[m] = kp_bd(row + (m - 2) * ex);
        }
        for (int m = 0; m < KP_CX + 2; m++) {
            pE[m] = pW[m] = real3(0.0);
            if (s_wet) kp_points_of(sr[m + 1], br[m + 1], sr[m], br[m], sr[m + 2], br[m + 2], 0, pE[m], pW[m]);
        }
        for (int f = 0; f <= KP_CX; f++)
            F[f] = s_wet ? kp_face_of(pE[f], sr[f + 1], br[f + 1], pW[f + 1], sr[f + 2], br[f + 2], 0) : real4(0.0);
        for (int k = 0; k < KP_CX; k++) {
            ivec2 c = row + k * ex;
            // along y: the points of the cell above and the north face
            real4 sU = kp_st(c + ey), bU = kp_bd(c + ey), GN = real4(0.0);
            real3 uN = real3(0.0), uS = real3(0.0);
            if (s_wet) {
                kp_points_of(sU, bU, sC[k], bC[k], kp_st(c + 2 * ey), kp_bd(c + 2 * ey), 1, uN, uS);
                GN = kp_face_of(yN[k], sC[k], bC[k], uS, sU, bU, 1);
            }
            real4 R = real4(0.0, 0.0, 0.0, kp_inf());
            if (s_wet && bC[k].w == CELL_ACTIVE) {   // kp_cell_finish's items 8-10
                real2 S = real2(kp_source(bC[k].x, br[k + 1].x, pE[k + 1].x, pW[k + 1].x, u_dxy.x),
                                kp_source(bC[k].y, bD[k].y, yN[k].x, yS[k].x, u_dxy.y));
                bool bad = any(isnan(sC[k].xyz)) || any(isinf(sC[k].xyz));
                R = kp_rates(F[k + 1], F[k], GN, GS[k], S, bad, u_dxy, u_cfl);
                R.w = kp_own_bound(c, R.w);
            }
            if (all(lessThan(c, end))) {
#ifdef KP_FUSE_STAGE1
                kp_stage1_store(c, sC[k], bC[k], dt, R);
#else
                imageStore(o_R, c, R);
                KP_BOUND_ADD(R.w);
#endif
            }
            sD[k] = sC[k];
            bD[k] = bC[k];
            sC[k] = sU;
            bC[k] = bU;
            yN[k] = uN;
            yS[k] = uS;
            GS[k] = GN;
        }
    }
#endif
#ifdef KP_TILES_WRITE
    barrier();   // (every cell noted)
    kp_tile_close(tile / ivec2(KP_TX, KP_TY));
#endif
#if defined(KP_TILES) && !defined(KP_FUSE_STAGE1)
    if (u_rest != 0) {   // the tile's bound (a uniform branch: the whole group takes it)
        atomicMin(s_tkey, swgl_min_key(float(tmin)));
        barrier();
        if (i == 0) {   // (the next tile's keys come after its first barrier)
            ivec2 tt = tile / ivec2(KP_TX, KP_TY);
            kp_tile[KP_TBOUND + tt.y * KP_TILES_X + tt.x] = s_tkey;
            s_tkey = 0xFFFFFFFFu;
        }
    }
#endif
}

void main()
{
    int i = int(gl_LocalInvocationIndex);
#ifdef KP_TILES
    // 0. the tiles of the step's list (kp_tiles.glsl), in turn (kp_tile_first/stride): a tile off
    // the list is not run at all; group 0, the control group, has none: in stage 0 it
    // computes the time left for the integration's groups and opens the next list
    if (gl_WorkGroupID.x == 0u) {
#ifndef KP_FUSE_STAGE1
        if (i == 0) {
            float left, unk;
            swgl_clock_unknown(left, unk);
            kp_left = left;
            kp_unk = unk;
            kp_tiles_open_next();
        }
#endif
        return;
    }
#endif
#ifdef KP_FUSE_STAGE1
    dt = real(SWGL_LOAD(u_clock, ivec2(0)).x);
#else
    bmin = kp_inf();
    if (i == 0) swgl_group_min_init();   // (the barriers of the group's first tile follow)
#ifdef KP_TILES
    if (i == 0) s_tkey = 0xFFFFFFFFu;
#endif
#endif
#ifdef KP_TILES
    ivec2 end = textureSize(KP_TEX(u_bed), 0);
    uint n = kp_tile_count(), k = kp_tile_first();
    ivec2 t = kp_tile_at(min(k, uint(KP_NT - 1)));   // (read with the count)
    bool ran = k < n;
    for (bool first = true; k < n; first = false) {
        kp_flux_tile(ivec2(KP_TX, KP_TY) * t, end, first);
        k += kp_tile_stride();
        if (k < n) t = kp_tile_at(k);
    }
    if (!ran) return;   // (a group past the list's end: no cell, no bound)
#else
    kp_flux_tile(swgl_rect.xy + ivec2(KP_TX, KP_TY) * ivec2(gl_WorkGroupID.xy), swgl_rect.xy + swgl_rect.zw, true);
#endif
#ifndef KP_FUSE_STAGE1
    swgl_group_min_add(bmin);
    barrier();
#ifdef KP_TILES
    if (i == 0) atomicMin(kp_bound[u_par], swgl_gmin);
#else
    // (at the tile's index in the whole array's tiling: a rectangle whose corner is on that
    // tiling, as an overlapped stage draws, fills its own tiles' slots)
    if (i == 0) imageStore(o_part, swgl_rect.xy / ivec2(KP_TX, KP_TY) + ivec2(gl_WorkGroupID.xy), vec4(swgl_group_min_value()));
#endif
#endif
}
