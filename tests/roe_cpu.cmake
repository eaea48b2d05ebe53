# Roe scheme, CPU reference (cpu_ref/swe_*.c): no GL.
swgl_test(test_roe_flux LABEL cpu SOURCES test_roe_flux.c LIBS swgl_cpu)
