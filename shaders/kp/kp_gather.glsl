// kp_gather.glsl — the flux pass, "faces" variant, second half: per active cell, R and
// its bound (cpu_ref/kp_cpu.h items 9-10, Brodtkorb et al. (2011) (3), (8); kp_rates.glsl)
// from the faces kp_faces.glsl stored: its own east and north faces, its west
// neighbour's east face and its south neighbour's north face, and its source.
// Output as kp_flux_cell.glsl: (R_w, R_hu, R_hv, cfl r), non-active (0, 0, 0, +inf).
#include "kp_real.glsl"
#include "kp_rates.glsl"

KP_INPUT(u_fe);    // east faces (mass, hu, hv, a)
KP_INPUT(u_fn);    // north faces
KP_INPUT(u_src);   // (S_hu, S_hv, flag, 0): flag 1 active, -1 active holding a NaN, 0 not active
#include "kp_out.glsl"

SWGL_MAIN
{
    ivec2 c = swgl_cell();
    real4 src = KP_LOAD(u_src, c);
    if (src.z == 0.0) {
        kp_out(real4(0.0, 0.0, 0.0, kp_inf()));
        return;
    }
    real4 FE = KP_LOAD(u_fe, c), FW = KP_LOAD(u_fe, c - ivec2(1, 0));
    real4 GN = KP_LOAD(u_fn, c), GS = KP_LOAD(u_fn, c - ivec2(0, 1));
    real4 R = kp_rates(FE, FW, GN, GS, src.xy, src.z < 0.0, u_dxy, u_cfl);
    R.w = kp_own_bound(c, R.w);
    kp_out(R);
}
