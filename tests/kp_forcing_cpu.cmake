# The forcing (cpu_ref/swe.h: open boundaries with values, rain, point sources, mass
# accounts) of the Kurganov-Petrova fast CPU solvers against the scalar one: no GL.
swgl_test(test_kp_forcing LABEL cpu SOURCES test_kp_forcing.c LIBS swgl_cpu)
