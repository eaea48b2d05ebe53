# Issue 13: the GL tests of the schemes (roe, kp, hllc, sediment) again with every pass built and run as a GL
# 4.3 compute pass from the same GLSL (the flag --compute, tests/gl_util.h): the
# same checks against the CPU solvers and the same bounds.  They skip (77) without an EGL
# device or where it offers no GL 4.3.  test_gpu_compute.sh: --backend gpu-compute
# through the program, against gpu and cpu-scalar, for every scheme and boundary type.
foreach(t test_gl_reduce test_gl_strips ${SWGL_GL_ROE_TESTS} ${SWGL_GL_KP_TESTS} ${SWGL_GL_HLLC_TESTS} test_gl_sediment)
  add_test(NAME ${t}_compute COMMAND ${t} --compute)
  set_tests_properties(${t}_compute PROPERTIES LABELS gl SKIP_RETURN_CODE 77 TIMEOUT 600
    ENVIRONMENT "OMP_WAIT_POLICY=PASSIVE;SWGL_DATA=${PROJECT_SOURCE_DIR}/../shared/data")
endforeach()
add_test(NAME test_gpu_compute COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/test_gpu_compute.sh $<TARGET_FILE:swgl>)
set_tests_properties(test_gpu_compute PROPERTIES LABELS gl SKIP_RETURN_CODE 77 TIMEOUT 300
  ENVIRONMENT "OMP_WAIT_POLICY=PASSIVE")
# the boundaries, hydrographs, sources, gauges, flood maps, trace, SIGINT and restart tests
# (test_boundaries.sh) with their GPU part on compute passes: every boundary type
add_test(NAME test_boundaries_compute COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/test_boundaries.sh $<TARGET_FILE:swgl> --compute)
set_tests_properties(test_boundaries_compute PROPERTIES LABELS gl SKIP_RETURN_CODE 77 TIMEOUT 300
  ENVIRONMENT "OMP_WAIT_POLICY=PASSIVE")
# issue 28: a modeller's run on the compute kernels (open and level boundaries summed on the
# GPU, the flood maps in the kernels, the gauges gathered) against the host clock, and the
# grids as ESRI binary floats (test_real_run.sh)
add_test(NAME test_real_run COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/test_real_run.sh $<TARGET_FILE:swgl>)
set_tests_properties(test_real_run PROPERTIES LABELS gl SKIP_RETURN_CODE 77 TIMEOUT 600)
