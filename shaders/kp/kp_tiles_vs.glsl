// kp_tiles_vs.glsl — the vertex shader of early exit (Brodtkorb et al. 2011, 3.2.1): a pass
// is drawn as one quad (4-vertex triangle strip) per KP_TILE x KP_TILE tile of interior
// cells, instance t = tile (t mod KP_NTX, t / KP_NTX), and the quad of a tile it must not
// draw collapses to a point, so that no fragment of it runs (no read-back, no stall).  A
// tile is skipped when it is dry with its four edge neighbours dry in the wet map
// (kp_wet.glsl): what the flux pass would compute there is exactly R = 0, r = +inf.
//   KP_TILES_FILL: draw the tiles skipped now that were not skipped by the last early-exit
//     evaluation (u_wet_prev; every skipped tile when u_prev_valid is 0), for kp_fill.glsl
//     to write that value there; elsewhere the targets still hold it.
// The tiles on the domain's border reach out over the ghost ring, so that the ring's
// texels go with their tile.
//   KP_TILES_FILL + KP_TILES_DEPTH (early exit's depth marks): also the tiles whose mark in
//     the depth buffer changes (every tile when u_depth_valid is 0: the buffer holds no
//     mark), at clip z -1 (window depth 0) where skipped, +1 (depth 1) where computed; the
//     flux pass is then a full-screen quad at depth 0.5 with GL_LESS: early-Z rejects the
//     skipped tiles.  A computed tile drawn here gets the fill value, which its flux pass
//     overwrites.
//   neither: draw the tiles not skipped.
// The second rule (tiles at rest, tune kp.rest: u_rest; kp_wet.glsl's .y and .z): a tile
// that the dry rule computes is skipped too where it and its 8 neighbours were still
// through the last step: its inputs are those its R was last computed from, and that R
// was 0 (the integration gives back its texels).  Its R there is kept but for the cfl r,
// which the fill sets to the tile's least (.z), so that the min reduction finds the bound
// it would: a tile skipped at rest now that was computed is drawn by the fill with that
// value (v_fill), one skipped dry now that was not with +inf.
// Defines: KP_TILE, KP_NX, KP_NY, KP_NTX, KP_NTY.
uniform sampler2D u_wet;   // per tile: x = 1 wet, 0 dry; y = 1 still; z its least cfl r
uniform int u_rest;        // 1: the second rule
flat out float v_fill;     // the fill's cfl r for the tile

#ifdef KP_TILES_FILL
uniform sampler2D u_wet_prev;
uniform int u_prev_valid;
#endif
#ifdef KP_TILES_DEPTH
uniform int u_depth_valid;
#endif

bool kp_wet_at(sampler2D wet, ivec2 t)
{
    if (t.x < 0 || t.y < 0 || t.x >= KP_NTX || t.y >= KP_NTY) return false;
    return texelFetch(wet, t, 0).x != 0.0;
}

// a tile's class in a map: 0 computed, 1 skipped dry, 2 skipped at rest
int kp_class(sampler2D wet, ivec2 t)
{
    if (!(kp_wet_at(wet, t) || kp_wet_at(wet, t + ivec2(1, 0)) || kp_wet_at(wet, t - ivec2(1, 0)) ||
          kp_wet_at(wet, t + ivec2(0, 1)) || kp_wet_at(wet, t - ivec2(0, 1))))
        return 1;
    if (u_rest == 0) return 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            ivec2 u = t + ivec2(dx, dy);
            if (u.x < 0 || u.y < 0 || u.x >= KP_NTX || u.y >= KP_NTY) continue;
            if (texelFetch(wet, u, 0).y == 0.0) return 0;
        }
    return 2;
}
bool kp_computed(sampler2D wet, ivec2 t) { return kp_class(wet, t) == 0; }

void main()
{
    float z = 0.0;
    ivec2 t = ivec2(gl_InstanceID % KP_NTX, gl_InstanceID / KP_NTX), t1 = t;
    int cn = kp_class(u_wet, t);
    bool now = cn == 0;
    v_fill = cn == 2 ? texelFetch(u_wet, t, 0).z : uintBitsToFloat(0x7F800000u);   // (+inf)
#ifdef KP_TILES_FILL
    int cp = kp_class(u_wet_prev, t);   // (the depth marks' map, even where R was computed since)
    bool prev = cp == 0;
    bool run = cn != 0 && (u_prev_valid == 0 || cn != cp);   // (skipped now, otherwise than last time: the fill value)
#ifdef KP_TILES_DEPTH
    run = run || u_depth_valid == 0 || now != prev;
    z = now ? 1.0 : -1.0;
#endif
#else
    bool run = now;
#endif
    ivec2 lo = 1 + KP_TILE * t, hi = min(1 + KP_TILE * (t1 + 1), ivec2(KP_NX, KP_NY) + 1);
    if (t.x == 0) lo.x = 0;
    if (t.y == 0) lo.y = 0;
    if (t1.x == KP_NTX - 1) hi.x = KP_NX + 2;
    if (t1.y == KP_NTY - 1) hi.y = KP_NY + 2;
    vec2 corner = vec2((gl_VertexID & 1) != 0 ? hi.x : lo.x, (gl_VertexID & 2) != 0 ? hi.y : lo.y);
    vec2 ndc = corner / vec2(KP_NX + 2, KP_NY + 2) * 2.0 - 1.0;
    gl_Position = run ? vec4(ndc, z, 1.0) : vec4(-2.0, -2.0, 0.0, 1.0);
}
