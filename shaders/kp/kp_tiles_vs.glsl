// kp_tiles_vs.glsl — the vertex shader of early exit (Brodtkorb et al. 2011, 3.2.1): a pass
// is drawn as one quad (4-vertex triangle strip) per KP_TILE x KP_TILE tile of interior
// cells, instance t = tile (t mod KP_NTX, t / KP_NTX), and the quad of a tile it must not
// draw collapses to a point, so that no fragment of it runs (no read-back, no stall).  A
// tile is skipped when it is dry with its four edge neighbours dry in the wet map
// (kp_wet.glsl): what the flux passes would compute there is exactly R = 0, r = +inf
// and faces 0.
//   flux passes (default): draw the tiles not skipped;
//   KP_TILES_FILL: draw the tiles skipped now that were not skipped by the last early-exit
//     evaluation (u_wet_prev; every skipped tile when u_prev_valid is 0), for kp_fill.glsl
//     to write that value there; elsewhere the targets still hold it.
// The tiles on the domain's border reach out over the ghost ring, so that the ring's
// texels (and the boundary faces the faces variant stores there) go with their tile.
//   KP_GROUP g (flux passes, the "quads32" / "quads64" methods): instance t is a group of
//     g x g tiles (groups (t mod KP_NGX, t / KP_NGX)), drawn when any tile of it is not
//     skipped: a skipped tile computed anyway gives exactly the fill value, so the bits
//     stay the same; fewer, larger quads.
//   KP_TILES_FILL + KP_TILES_DEPTH (the "depth" method): also the tiles whose mark in the
//     depth buffer changes (every tile when u_depth_valid is 0: the buffer holds no mark),
//     at clip z -1 (window depth 0) where skipped, +1 (depth 1) where computed; the flux
//     passes are then full-screen quads at depth 0.5 with GL_LESS: early-Z rejects the
//     skipped tiles.  A computed tile drawn here gets the fill value, which its flux pass
//     overwrites.
//   KP_TILES_MARK (the "depthclear" method, depth-only after a clear to 1): the tiles
//     skipped now, at clip z -1.
// Defines: KP_TILE, KP_NX, KP_NY, KP_NTX, KP_NTY, [KP_GROUP, KP_NGX, KP_NGY].
uniform sampler2D u_wet;   // per tile: x = 1 wet, 0 dry

#ifndef KP_GROUP
#define KP_GROUP 1
#define KP_NGX KP_NTX
#define KP_NGY KP_NTY
#endif

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

bool kp_computed(sampler2D wet, ivec2 t)
{
    return kp_wet_at(wet, t) || kp_wet_at(wet, t + ivec2(1, 0)) || kp_wet_at(wet, t - ivec2(1, 0)) ||
           kp_wet_at(wet, t + ivec2(0, 1)) || kp_wet_at(wet, t - ivec2(0, 1));
}

void main()
{
    float z = 0.0;
#if defined(KP_TILES_FILL) || defined(KP_TILES_MARK)
    ivec2 t = ivec2(gl_InstanceID % KP_NTX, gl_InstanceID / KP_NTX), t1 = t;
    bool now = kp_computed(u_wet, t);
#if defined(KP_TILES_MARK)
    bool run = !now;
    z = -1.0;
#else
    bool prev = kp_computed(u_wet_prev, t);
    bool run = !now && (u_prev_valid == 0 || prev);
#ifdef KP_TILES_DEPTH
    run = run || u_depth_valid == 0 || now != prev;
    z = now ? 1.0 : -1.0;
#endif
#endif
#else
    ivec2 grp = ivec2(gl_InstanceID % KP_NGX, gl_InstanceID / KP_NGX);
    ivec2 t = KP_GROUP * grp, t1 = min(t + (KP_GROUP - 1), ivec2(KP_NTX, KP_NTY) - 1);
    bool run = false;
    for (int y = t.y; y <= t1.y; y++)
        for (int x = t.x; x <= t1.x; x++) run = run || kp_computed(u_wet, ivec2(x, y));
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
