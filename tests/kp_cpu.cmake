# The Kurganov-Petrova scheme, CPU reference (cpu_ref/kp_scalar.c): no GL.
swgl_test(test_kp_cpu LABEL cpu SOURCES test_kp_cpu.c LIBS swgl_cpu)
