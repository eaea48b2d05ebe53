// kp_out.glsl — the output of the passes that finish R (kp_flux_cell.glsl):
// o_R = (R_w, R_hu, R_hv, cfl r), and in double a third, float, target holding cfl r for
// the min reduction and the clock; the cell sizes and cfl they take.
uniform real2 u_dxy;
uniform real u_cfl;
KP_OUTPUT(0, 0, 1, o_R);
#ifdef KP_DOUBLE
SWGL_OUTPUT(2, o_bound);   // (0, 0, 0, cfl r) in float, for the min reduction
#endif

void kp_out(real4 R)
{
    KP_STORE(o_R, R);
#ifdef KP_DOUBLE
    o_bound = vec4(0.0, 0.0, 0.0, float(R.w));
#endif
}
