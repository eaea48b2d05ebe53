# HLLC scheme, CPU solvers (cpu_ref/hllc_*.c): no GL.
swgl_test(test_hllc_cpu LABEL cpu SOURCES test_hllc_cpu.c LIBS swgl_cpu)
