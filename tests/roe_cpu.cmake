# Roe scheme, CPU reference (cpu_ref/swe_*.c): no GL.
swgl_test(test_roe_flux LABEL cpu SOURCES test_roe_flux.c LIBS swgl_cpu)
swgl_test(test_roe_balance LABEL cpu SOURCES test_roe_balance.c LIBS swgl_cpu)
swgl_test(test_roe_solver LABEL cpu SOURCES test_roe_solver.c LIBS swgl_cpu)
swgl_test(test_roe_dambreak LABEL cpu SOURCES test_roe_dambreak.c LIBS swgl_cpu)
swgl_test(test_roe_thacker LABEL cpu SOURCES test_roe_thacker.c LIBS swgl_cpu)
# open boundaries with values, rain, point sources and the accounts (cpu_ref/swe.h "Boundary data")
swgl_test(test_roe_forcing LABEL cpu SOURCES test_roe_forcing.c LIBS swgl_cpu)
# speed of the CPU Roe solvers: built, not run by ctest
add_executable(bench_roe_cpu ${CMAKE_CURRENT_LIST_DIR}/test_roe_bench.c)
target_link_libraries(bench_roe_cpu PRIVATE swgl_cpu ${MATH_LIBRARY})
# the fast solver in double (--backend cpu --precision double) vs the scalar reference
swgl_test(test_roe_double LABEL cpu SOURCES test_roe_double.c LIBS swgl_cpu)
