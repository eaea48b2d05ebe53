// swe_face.glsl — the face of a first-order shallow-water scheme on the edge engine
// (solver/schemes/roe/roe_gpu*.c: edge pass, local dt, draining update), one signature in
// GLSL and in C (cpu_ref/swe.h swe_face_fn, swe_bface_fn), as Basilisk's riemann.h or
// GeoClaw's rpn2 give every solver one Riemann-solver signature.  A scheme's face file
// (shaders/roe/roe_face.glsl, shaders/hllc/hllc_face.glsl) includes this one, defines
//
//   real NAME_face(rvec3 wL, rvec3 wR, real zL, real zR, rvec2 e, real g, real h_dry,
//                  out real F_h, out rvec2 mL, out rvec2 mR);
//       interior face between cells L (west/south) and R (east/north): w = (h, qx, qy),
//       z the bed elevations, e the unit normal from L to R.  F_h: the mass flux per
//       unit length from L to R (the draining update moves theta_donor |Gamma| F_h);
//       mL: the momentum flux per unit length L loses (q_L -= dt/|V| |Gamma| mL), mR
//       the one R gains (q_R += dt/|V| |Gamma| mR); returns the face's speed s_e for
//       the bound dt = 2 cfl |V| / sum_e |Gamma_e| s_e.
//   real NAME_bface(real code, rvec2 bv, rvec3 wa, real za, rvec2 e, bool ghost_low,
//                   real g, real h_dry, out real F_h, out rvec2 mL, out rvec2 mR);
//       a face between the active cell (wa, za) and a ghost of cell code `code` (wall,
//       free, level, depth, discharge; swgl_grid.h), bv = (the ghost's segment value at
//       the step's time, its largest value), (0, 0) without one; ghost_low: the ghost is
//       L.  The same outputs as NAME_face; a wall moves no mass.
//
// and #defines SWE_FACE and SWE_BFACE to those names: roe_edges.glsl calls them.  The
// program's defines choose the file (roe_edges.glsl: SWGL_FACE_HLLC, else roe's).
// This file: what the faces share, the exterior state of a wall or free boundary.
#ifndef SWE_FACE_GLSL
#define SWE_FACE_GLSL
#include "roe_real.glsl"

// exterior state of a wall or free boundary edge: the active cell's state seen through it
rvec3 ghost_state(rvec3 w, real code, rvec2 e)
{
    if (GRID_BC_SIGN(code) > 0.0) return w;                // free: transmissive (swgl_grid.h)
    real qn = dot(w.yz, e);
    return rvec3(w.x, w.yz - real(2.0) * qn * e);          // wall: mirror, q.n = 0 on the edge
}

#endif
