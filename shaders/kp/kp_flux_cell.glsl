// kp_flux_cell.glsl — the flux pass, (the "cell" variant, the one kept): one fragment per
// cell computes R(Q) (3) and its local bound, cpu_ref/kp_cpu.h items 1-10, Brodtkorb et
// al. (2011) (3)-(6) and (8), with nothing stored between cells: it reconstructs its own
// four points and the facing point of each of its four neighbours (items 1-6), computes
// its four face fluxes (item 7; each interior face is thus computed by both its cells,
// with the same inputs and the same code, so both get the same bits), the bed source
// (item 8, kp_recon.glsl), R (item 9) and r (item 10, kp_rates.glsl).  Reads the 9-cell
// cross of the state (the cells two away only for the neighbours' slopes) and 7 bed
// texels (k, its 4 neighbours, and the cells two away west and south, whose B_E / B_N
// are their neighbours' B_W / B_S).
// Output o_R = (R_w, R_hu, R_hv, cfl r): the min reduction of .w is the bound of (8)
// (+inf where nothing moves; -1 for a NaN, a blow-up).  Non-active cells: (0, 0, 0, +inf),
// which is also what a tile skipped by early exit holds (kp_fill.glsl, kp_tiles_vs.glsl).
// Precision and storage: kp_real.glsl (double: o_R in two targets and the bound in a
// third, float, for the reduction).
#include "kp_real.glsl"
#include "kp_out.glsl"
#include "kp_cell.glsl"

SWGL_MAIN { kp_out(kp_cell_rates(swgl_cell())); }
