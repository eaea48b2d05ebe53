// kp_rates.glsl — cpu_ref/kp_cpu.h items 9-10 (Brodtkorb et al. 2011 (3), (8)): R of an
// active cell from its four faces (xy frame: (mass, hu, hv, a)) and its bed source, and
// its local bound, shared by kp_flux_cell.glsl and kp_flux_cs.glsl:
//   R = -(F_E - F_W)/dx - (G_N - G_S)/dy + (0, S_hu, S_hv)
//   r = min(dx / max(a_E, a_W), dy / max(a_N, a_S))   (x / 0 = +inf)
// out = (R_w, R_hu, R_hv, cfl r); cfl r = -1 when `bad` (a NaN or an infinity in the
// cell's state) or R or r is NaN: the min reduction keeps it, and the time loop (or the
// clock) calls it a blow-up.  min(cfl r) = cfl min(r) (rounding is monotonic).
// A run over MPI ranks (kp_gpu.c defines KP_OWN: the texels (x0, y0, x1, y1), half-open,
// of the rank's own cells; solver/schemes/core/scheme_mpi.c): a cell outside them, in the halo,
// bounds nothing (+inf; its faces toward the halo's edge are not the whole grid's), a blow-up
// there (b < 0) included: with a halo exchanged every k steps its outer cells go stale, and
// the next exchange replaces them before an own cell reads them; a blow-up of the grid's is
// in some rank's own cells, and counts there (cpu_ref/swe.h swe_owns)
real kp_own_bound(ivec2 c, real b)
{
#ifdef KP_OWN
    ivec4 o = KP_OWN;
    if (any(lessThan(c, o.xy)) || any(greaterThanEqual(c, o.zw))) return kp_inf();
#endif
    return b;
}

real4 kp_rates(real4 FE, real4 FW, real4 GN, real4 GS, real2 S, bool bad, real2 dxy, real cfl)
{
    real3 R = -(FE.xyz - FW.xyz) / dxy.x - (GN.xyz - GS.xyz) / dxy.y + real3(0.0, S);
    real ax = max(FE.w, FW.w), ay = max(GN.w, GS.w);
    real r = min(ax > 0.0 ? dxy.x / ax : kp_inf(), ay > 0.0 ? dxy.y / ay : kp_inf());
    real b = cfl * r;
    if (bad || any(isnan(R)) || isnan(r)) b = -1.0;
    return real4(R, b);
}
