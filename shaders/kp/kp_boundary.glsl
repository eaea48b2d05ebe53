// kp_boundary.glsl — the one exterior-state rule of the kp passes (cpu_ref/kp_cpu.h
// items 1 and 7; Brodtkorb et al. 2011, 3.2 "Boundary conditions": wall = mirror with
// the normal discharge negated, free outlet = copy).  Boundaries come only from cell
// codes (the ghost ring and the inactive cells of a mask): a non-active cell of code
// `code` across a face shows the active side's value q with its component n, the one
// normal to the face, negated for a wall (and OFF) and copied for a free outlet.
//   item 1 (slopes):         q = (w, hu, hv) of the active cell, n = 1 (x) or 2 (y)
//   item 7 (boundary face):  q = (h, un, ut) of the active side's point, n = 1
// So across a boundary face the w difference is 0 and, at a wall, a+ = -a-: no mass
// crosses it (the passes write that 0 exactly, whatever the driver contracts).
// Issue 10 (more boundary types: level, depth, discharge) extends this function, with
// the new codes of swgl_grid.h and a per-cell value texture for the types that carry data.
// The rule itself is GRID_BC_SIGN of gpgpu/base/swgl_grid.h (CELL_CODE_GLSL), the one
// both schemes and both languages use.
real3 kp_exterior(real3 q, real code, int n)
{
    real s = real(GRID_BC_SIGN(code));
    // written without q[n] = ...: NVIDIA's compiler has no dynamic index into a double
    // vector (roe_update.glsl)
    return n == 1 ? real3(q.x, q.y * s, q.z) : real3(q.x, q.y, q.z * s);
}

// whether a face with the non-active side `code` is closed (no mass through it)
bool kp_closed(real code) { return GRID_BC_SIGN(code) < 0.0; }
