// sed_common.glsl — shared by the sediment passes (Su et al. 2013, docs/sediment.md):
// precision, storage, and the per-point rules of cpu_ref/sediment.h (sed_k, sed_face,
// sed_point_h, sed_point_s, sed_ghost) copied line by line.
//
// Storage, (nx+2) x (ny+2) texels with the ghost ring (texel (i, j) = point (i, j) of
// sediment.h); the passes draw the interior only and never read a ghost texel: a
// neighbour that is a ghost is built from the boundary point (the centre C) by the
// ghost rule sed_ghost, exactly as the CPU's fill_ghosts does before each pass.
//   single (RGBA32F):  u_state = (h, s, alpha, beta), one texel per point;
//   double (SED_DOUBLE, RGBA32UI, two doubles per texel via packDouble2x32):
//                      u_hs = (h, s), u_ab = (alpha, beta).
// The OPT-2 analog (sed_k pass) stores per point
//   single: u_kk = (h, alpha s, beta (1 - s), 0);  double: u_kk = (alpha s, beta (1 - s)).
//
// Defines supplied by solver/sediment_gpu.c (constants are exact decimal images of
// sed_consts, with the LF suffix in double):
//   SED_FORM (0 paper, 1 conservative), SED_NX, SED_NY,
//   C_DT C_RDX2 C_RDY2 C_ICS C_ICM C_LAYER C_PX C_PY   (sed_consts)
//   C_QS C_QM (inflow rates), C_DNX C_DNY (dx, dy),
//   SED_IN_SIDE (-1 none, 0 W, 1 E, 2 S, 3 N), SED_IN_FIRST, SED_IN_LAST (1-based).
#ifdef SED_DOUBLE
#define real double
#else
#define real float
#endif

#ifdef SED_DOUBLE
SWGL_INPUT_U(u_hs);
SWGL_INPUT_U(u_ab);
real sed_lo(uvec4 t) { return packDouble2x32(t.xy); }
real sed_hi(uvec4 t) { return packDouble2x32(t.zw); }
uvec4 sed_pack(real x, real y) { return uvec4(unpackDouble2x32(x), unpackDouble2x32(y)); }
void sed_load(ivec2 p, out real h, out real s, out real a, out real b)
{
    uvec4 t = SWGL_LOAD(u_hs, p), u = SWGL_LOAD(u_ab, p);
    h = sed_lo(t);
    s = sed_hi(t);
    a = sed_lo(u);
    b = sed_hi(u);
}
#else
SWGL_INPUT(u_state);
void sed_load(ivec2 p, out real h, out real s, out real a, out real b)
{
    vec4 t = SWGL_LOAD(u_state, p);
    h = t.x;
    s = t.y;
    a = t.z;
    b = t.w;
}
#endif

// Stencil order of sediment.h: [0] C, [1] W, [2] E, [3] S, [4] N.
const ivec2 SED_OFF[5] = ivec2[5](ivec2(0, 0), ivec2(-1, 0), ivec2(1, 0), ivec2(0, -1), ivec2(0, 1));

real sed_k(real a, real b, real s)
{
    return a * s * C_ICS + b * (real(1.0) - s) * C_ICM;
}

real sed_face(real kC, real kN, real hC, real hN)
{
#if SED_FORM == 0
    return real(0.5) * (kC + kN);
#else
    return hN > hC ? kN : kC;
#endif
}

// Ghost rule: the ghost next to boundary point P (= the centre) on side `side` (0 W,
// 1 E, 2 S, 3 N); m is P's 1-based position along that side.  out: hG, sG.
void sed_ghost(int side, int m, real hP, real sP, real aP, real bP, out real hG, out real sG)
{
    bool in_ = side == SED_IN_SIDE && m >= SED_IN_FIRST && m <= SED_IN_LAST;
    real qs = in_ ? C_QS : real(0.0);
    real qm = in_ ? C_QM : real(0.0);
    real dn = side < 2 ? C_DNX : C_DNY;
    if (!(qs + qm > real(0.0))) {
        hG = hP;
        sG = sP;
        return;
    }
    real X = qs > real(0.0) ? qs / (aP * C_ICS) : real(0.0);
    real Y = qm > real(0.0) ? qm / (bP * C_ICM) : real(0.0);
    real sg = X / (X + Y);
    real jump;
#if SED_FORM == 0
    jump = dn * (qs + qm) / (real(0.5) * (sed_k(aP, bP, sP) + sed_k(aP, bP, sg)));
#else
    jump = dn * (X + Y);
#endif
    hG = hP + jump;
    sG = sg;
}

// Neighbour q (1..4) of interior point c is a ghost?  Side index of that ghost = q - 1.
bool sed_is_ghost(ivec2 c, int q)
{
    ivec2 p = c + SED_OFF[q];
    return p.x == 0 || p.y == 0 || p.x == SED_NX + 1 || p.y == SED_NY + 1;
}
int sed_along(ivec2 c, int q) { return q <= 2 ? c.y : c.x; }

// The 5-point stencil of (h, s, alpha, beta) around interior point c, ghosts by the rule
// applied to the centre's values.
void sed_stencil(ivec2 c, out real h[5], out real s[5], out real a[5], out real b[5])
{
    sed_load(c, h[0], s[0], a[0], b[0]);
    for (int q = 1; q < 5; q++) {
        if (sed_is_ghost(c, q)) {
            sed_ghost(q - 1, sed_along(c, q), h[0], s[0], a[0], b[0], h[q], s[q]);
            a[q] = a[0];
            b[q] = b[0];
        } else {
            sed_load(c + SED_OFF[q], h[q], s[q], a[q], b[q]);
        }
    }
}

// (3): sed_point_h of sediment.h, with the point diffusivities k[] given.
real sed_point_h_k(const real h[5], const real k[5])
{
    real fW = sed_face(k[0], k[1], h[0], h[1]);
    real fE = sed_face(k[0], k[2], h[0], h[2]);
    real fS = sed_face(k[0], k[3], h[0], h[3]);
    real fN = sed_face(k[0], k[4], h[0], h[4]);
    real lap = (fE * (h[2] - h[0]) + fW * (h[1] - h[0])) * C_RDX2
             + (fN * (h[4] - h[0]) + fS * (h[3] - h[0])) * C_RDY2;
    return h[0] + C_DT * lap;
}

real sed_point_h(const real h[5], const real s[5], const real a[5], const real b[5])
{
    real k[5];
    for (int q = 0; q < 5; q++) k[q] = sed_k(a[q], b[q], s[q]);
    return sed_point_h_k(h, k);
}

// s pass: sed_point_s of sediment.h.
real sed_point_s(const real hl[5], const real hn[5], const real s[5], const real a[5])
{
    real rhs;
#if SED_FORM == 0
    real u0 = a[0] * s[0];
    real gx = hn[1] > hn[2] ? u0 - a[1] * s[1] : a[2] * s[2] - u0;
    real gy = hn[3] > hn[4] ? u0 - a[3] * s[3] : a[4] * s[4] - u0;
    rhs = C_PX * gx * (hn[2] - hn[1]) + C_PY * gy * (hn[4] - hn[3]);
#else
    real u[5];
    for (int q = 0; q < 5; q++) u[q] = a[q] * s[q] * C_ICS;
    real fW = sed_face(u[0], u[1], hl[0], hl[1]);
    real fE = sed_face(u[0], u[2], hl[0], hl[2]);
    real fS = sed_face(u[0], u[3], hl[0], hl[3]);
    real fN = sed_face(u[0], u[4], hl[0], hl[4]);
    rhs = (fE * (hl[2] - hl[0]) + fW * (hl[1] - hl[0])) * C_RDX2
        + (fN * (hl[4] - hl[0]) + fS * (hl[3] - hl[0])) * C_RDY2;
#endif
    return (C_LAYER * s[0] + C_DT * rhs) / (C_LAYER + (hn[0] - hl[0]));
}
