# Sediment (Su et al. 2013) CPU reference: one test program; the speed program is built
# but not run by ctest (run build/tests/bench_sediment_cpu by hand).
swgl_test(test_sediment_cpu LABEL cpu SOURCES test_sediment_cpu.c LIBS swgl_cpu)
add_executable(bench_sediment_cpu test_sediment_bench.c)
target_link_libraries(bench_sediment_cpu PRIVATE swgl_cpu ${MATH_LIBRARY})
