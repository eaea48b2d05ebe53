// kp_tiles.glsl — the step on kernels that skip dry tiles outright (KP_TILES; kp_gpu_kernels.c
// step_kernels).  A tile is the flux kernel's (KP_TX x KP_TY cells; KP_TILES_X x
// KP_TILES_Y of them over the arrays from (0, 0)).  Each dispatch of a step runs a list of
// the tiles to compute, a tile a work group (or, past KP_MAX_GROUPS groups, several in
// turn: kp_tile_first, kp_tile_stride), plus work group 0, the control group, which owns
// no tile (it chooses the step: kp_flux_cs.glsl, kp_integrate_cs.glsl); the list and its
// dispatch's group count (glDispatchComputeIndirect) are made by the step before, in a
// shader storage buffer:
//   kp_bound[2]  the step's bound as group_min.glsl's key, [u_par] this step's (the flux
//                groups' atomicMin), the other set to +inf for the next step
//   kp_left, kp_unk  the time left less the steps the CPU has not read, and their sum
//                (clock_rule.glsl swgl_clock_unknown), from the flux's control group
//   kp_cmd[6]    two dispatch commands (groups x, 1, 1): list k's at kp_cmd[3 k], its
//                length + 1 up to KP_MAX_GROUPS
//   kp_count[2]  the lists' lengths
//   kp_tile[]    a stamp per tile (the step that last put it on the next list), then the
//                two lists of tile indices (y KP_TILES_X + x): list k at KP_NT (1 + k)
// A tile is on the next list when the step's last kernel (Euler's integration, RK2's
// stage 1) finds it or a neighbour wet (active with h > eps, or a NaN or an infinity: what
// kp_flux_cs.glsl's dry test asks of a cell), or finds that it changed a cell of it to
// the bit in an array the step wrote (Euler: Q^{n+1} != Q^n; RK2: Q* or Q^{n+1} != Q^n);
// each wet tile puts itself and its 8 neighbours on it, a changed one itself
// (kp_tile_close).  A tile left off is dry with dry neighbours, and every array the steps
// write holds the same texels there, so R there would be (0, 0, 0, +inf) (kp_flux_cs.glsl
// item 0: every point 0), the integration of a dry cell with R = 0 gives back its texel to
// the bit (kp_integrate_fn.glsl: TwoSum(w, 0 + l) gives back the pair (w, l), which every
// update leaves rounded so; q = 0 / 1 = 0), and running the tile
// would write what every array already holds.  RK2's stage 1 runs stage 0's list: water
// moves at most one cell a stage, and the wet cells nearest a tile left off are a tile's
// width (KP_TX, KP_TY >= 2) from its ring.  With u_all (kp.early_exit off, or auto's
// choice) a dispatch runs every tile (group g: tile g - 1) and still makes the next list.
// The second rule of Brodtkorb et al.'s early exit (u_rest, tune kp.rest): a tile at rest
// is skipped too.  The rule above needs a tile dry with dry neighbours; this one needs its
// history instead: the step's last kernel finds a tile at rest where no cell of it changed
// to the bit (as above), and every active cell has R = 0 exactly (all three rates of the
// last stage) and hu = hv = 0.  Then the update of each of its cells gives back its texel
// whatever the step dt (q = (0 + dt 0) / den = 0; the surface's TwoSum of (w, 0 + l) gives
// back (w, l); no friction, cap or desingularization moves a zero momentum; rain, sources and
// series values are not on these kernels), so computing it again gives the same texels for as
// long as its cells and its ring of two do not change.  So the rules, where u_rest is set:
//   - a tile that changed a cell, or has a cell with R or q not 0 ("moving"), puts itself
//     and its 8 neighbours on the next list (their ring may have changed);
//   - else, where its bound (the min of cfl r over its cells, kp_tbound, which stage 0's flux
//     writes for every tile it runs) is finite (a wet tile, or a dry one beside water),
//     it goes on the next rest list (kp_rest_mark): a tile there and not on the list is not
//     computed, and the rest kernel (kp_rest_cs.glsl) puts its bound into the step's min
//     and the tile back on the rest list after;
//   - a tile with neither (dry, at rest, bound +inf) is on no list: skipped as the dry rule's.
// A tile left off both lists or only on the rest list then holds the texels computing it
// would write, and its bound is the one computing it would give (its inputs are those it was
// last computed from), so the run is bit-identical with the rule on and off.  In RK2 a tile
// left off takes stage 1 from neighbours that changed in stage 0 only where those were put on
// the list by a tile beside them that moved: their stage 0 changes lie within 2 cells of that
// tile and their stage 1 reads within 2 of the tile left off, so tiles 4 or more cells a side
// keep the two apart (kp_gpu_kernels.c sets u_rest only then, and without a series' values).
// The rest words lie in kp_tile[] after the two lists: KP_RHEAD (list k's dispatch command at
// + 3k, for the rest kernel's groups of KP_RG tiles; its length at + 6 + k), a stamp a tile
// (KP_RSTAMP), the two rest lists (KP_RLIST(k)) and the tiles' bounds as group_min.glsl's keys
// (KP_TBOUND).
// (kp_gpu_kernels.c's KT_HEAD, KT_CMD, KT_COUNT and KT_R* give the same layout: change both together)
layout(std430, binding = 0) buffer kp_tiles_buf {
    uint kp_bound[2];
    float kp_left, kp_unk;
    uint kp_cmd[6];
    uint kp_count[2];
    uint kp_tile[];
};
uniform int u_par;     // this step's list and bound word
uniform int u_all;     // 1: the dispatch runs every tile (kp.early_exit off)
uniform int u_rest;    // 1: tiles at rest are skipped too (the rule above)
#define KP_NT (KP_TILES_X * KP_TILES_Y)
#define KP_RG 256                          // the rest kernel's work group
#define KP_RHEAD (3 * KP_NT)
#define KP_RSTAMP (3 * KP_NT + 8)
#define KP_RLIST(k) (4 * KP_NT + 8 + (k) * KP_NT)
#define KP_TBOUND (6 * KP_NT + 8)

// the tiles this work group runs: k = first, first + stride, ... < count, tile kp_tile_at(k)
uint kp_tile_first() { return gl_WorkGroupID.x - 1u; }
uint kp_tile_stride() { return gl_NumWorkGroups.x - 1u; }
uint kp_tile_count() { return u_all != 0 ? uint(KP_NT) : kp_count[u_par]; }
ivec2 kp_tile_at(uint k)
{
    uint t = u_all != 0 ? k : kp_tile[KP_NT * (1 + u_par) + int(k)];
    return ivec2(int(t % uint(KP_TILES_X)), int(t / uint(KP_TILES_X)));
}
// (the flux's control group, before the step's last kernel adds to it) the next list empty
// and the rest list this step's rest kernel read empty (the next step's kernels fill it)
void kp_tiles_open_next()
{
    kp_count[1 - u_par] = 0u;
    kp_cmd[3 * (1 - u_par)] = 1u;
    kp_tile[KP_RHEAD + 6 + u_par] = 0u;
    kp_tile[KP_RHEAD + 3 * u_par] = 0u;
}

#if defined(KP_TILES_WRITE) || defined(KP_REST_KERNEL)
uniform uint u_stamp;    // this step's number (1, 2, ...): tiles already on the next list hold it
// tile k (its index) on the next rest list, once
void kp_rest_mark(uint k)
{
    if (atomicExchange(kp_tile[KP_RSTAMP + int(k)], u_stamp) == u_stamp) return;
    uint slot = atomicAdd(kp_tile[KP_RHEAD + 6 + (1 - u_par)], 1u);
    kp_tile[KP_RLIST(1 - u_par) + int(slot)] = k;
    atomicMax(kp_tile[KP_RHEAD + 3 * (1 - u_par)], slot / uint(KP_RG) + 1u);
}
#endif

#ifdef KP_TILES_WRITE
shared uint kp_tnote;    // the group's cells so far: 1 a wet one, 4 a changed one, 8 a moving one
void kp_tile_open()
{
    if (gl_LocalInvocationIndex == 0u) kp_tnote = 0u;
}
// a cell of the tile stored as s (bed texel b), changed or not, R its rates in the step's
// last stage (moving: an active cell with R or q not 0, or not a number)
void kp_tile_note(vec4 s, vec4 b, bool changed, vec3 R)
{
    bool act = b.w == CELL_ACTIVE;
    bool wet = act && (s.x - b.z > u_eps || any(isnan(s.xyz)) || any(isinf(s.xyz)));
    bool moving = act && (any(notEqual(R, vec3(0.0))) || s.y != 0.0 || s.z != 0.0);
    uint f = (wet ? 1u : 0u) | (changed ? 4u : 0u) | (moving ? 8u : 0u);
    if (f != 0u) atomicOr(kp_tnote, f);
}
bool kp_texel_differs(vec4 a, vec4 b) { return any(notEqual(floatBitsToUint(a), floatBitsToUint(b))); }
// tile t on the next list, once
void kp_tile_mark(ivec2 t)
{
    if (any(lessThan(t, ivec2(0))) || any(greaterThanEqual(t, ivec2(KP_TILES_X, KP_TILES_Y)))) return;
    uint k = uint(t.y * KP_TILES_X + t.x);
    if (atomicExchange(kp_tile[k], u_stamp) == u_stamp) return;
    uint slot = atomicAdd(kp_count[1 - u_par], 1u);
    kp_tile[KP_NT * (2 - u_par) + int(slot)] = k;
    atomicMax(kp_cmd[3 * (1 - u_par)], min(slot + 2u, uint(KP_MAX_GROUPS)));   // (the control group too)
}
// after a barrier that follows every kp_tile_note: the tiles this one puts on the next list
// (one invocation a neighbour)
// (the dry rule: a wet tile all nine, a changed one itself; with u_rest: a changed or moving
// one all nine, one at rest with a finite bound the rest list)
void kp_tile_close(ivec2 t)
{
    uint f = kp_tnote;
    bool nine = u_rest != 0 ? (f & 12u) != 0u : (f & 1u) != 0u, self = (f & 4u) != 0u;
    for (uint k = gl_LocalInvocationIndex; k < 9u; k += gl_WorkGroupSize.x * gl_WorkGroupSize.y)
        if (nine || (k == 4u && self)) kp_tile_mark(t + ivec2(int(k % 3u) - 1, int(k / 3u) - 1));
    uint ti = uint(t.y * KP_TILES_X + t.x);
    if (u_rest != 0 && !nine && gl_LocalInvocationIndex == 0u && kp_tile[KP_TBOUND + int(ti)] < 0x7F800001u)
        kp_rest_mark(ti);
}
#endif
