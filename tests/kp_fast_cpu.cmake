# The Kurganov-Petrova scheme's fast CPU solvers (cpu_ref/kp_fast.c, float and double,
# SIMD + OpenMP, early exit) against the scalar one and invariants: no GL.
swgl_test(test_kp_fast LABEL cpu SOURCES test_kp_fast.c LIBS swgl_cpu)
# Issue 28: the fast CPU solvers' threads on a shared machine (cpu_ref/cpu_info.h)
swgl_test(test_cpu_load LABEL cpu SOURCES test_cpu_load.c LIBS swgl_cpu)
