// roe_cell.glsl — Lastra 4.3 phase 2 for one active cell as a function, roe_cell_sums:
// the dt pass (roe_dt.glsl) calls it with the four edge values it gathers from the edge
// arrays, the fused kernel of the compute backend (roe_step_cs.glsl) with the four its
// work group computed.  v[k]: what edge k (0 east, 1 north, 2 west, 3 south;
// roe_gather.glsl) holds for the cell, (|Gamma| Phi out, |Gamma| F-[qx, qy],
// |Gamma| ||D||).  Returns (sum |Gamma| F-[qx], sum |Gamma| F-[qy], dt_i, tau_i) and the
// four outward mass fluxes in mass[] (roe_dt.glsl's header has the equations).  The
// includer declares u_cfl and u_area (float: uniforms; double: #defines).
// A run over MPI ranks (roe_gpu.c defines ROE_OWN: the texels (x0, y0, x1, y1), half-open,
// of the rank's own cells; solver/schemes/core/scheme_mpi.c): dt_i of a cell outside them, in the
// halo, bounds nothing (+inf), a blow-up there (dt_i < 0) included: with a halo exchanged every
// k steps its outer cells go stale, and the next exchange replaces them before an own cell
// reads them; a blow-up of the grid's is in some rank's own cells, and counts there
real roe_own_dt(ivec2 c, real dt)
{
#ifdef ROE_OWN
    ivec4 o = ROE_OWN;
    if (any(lessThan(c, o.xy)) || any(greaterThanEqual(c, o.zw))) return roe_inf();
#endif
    return dt;
}

rvec4 roe_cell_sums(rvec4 w, rvec4 v[4], out real mass[4])
{
    rvec4 sum = rvec4(0.0);   // mass[]: an array, not a vector: NVIDIA has no dynamic index into a dvec4
    real out_flow = real(0.0);
    for (int k = 0; k < 4; k++) {
        sum += v[k];
        mass[k] = v[k].x;
        out_flow += max(v[k].x, real(0.0));
    }
    real dt = sum.w > real(0.0) ? real(2.0) * u_cfl * u_area / sum.w : roe_inf();
    // a NaN must reach the time loop, and min() may drop a NaN: a cell whose state or
    // sums are not numbers reports dt = -1, which the min keeps and the loop calls a
    // blow-up
    if (any(isnan(w.xyz)) || any(isnan(sum)) || any(isinf(w.xyz))) dt = real(-1.0);
    real tau = out_flow > real(0.0) ? max(w.x, real(0.0)) * u_area / out_flow : roe_inf();
    return rvec4(sum.yz, dt, tau);
}
