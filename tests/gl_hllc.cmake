# The HLLC scheme on the GPU backends (the first-order edge engine with hllc's face,
# solver/schemes/hllc/hllc_gpu.c): a program a subject, their shared helpers in gl_hllc_util.h.
# gl_zcompute.cmake runs them again on compute passes (the flag --compute, NAME_compute).
#   test_gl_hllc_face      the GLSL face vs the C one, interior and boundary (float; double with fp64)
#   test_gl_hllc_rest      lake at rest with an emerged island stays at rest
#   test_gl_hllc_volume    a drying bowl (Thacker): the volume to rounding over many steps
#   test_gl_hllc_cpu       GPU vs cpu-scalar: a dam break over a bump with friction
#   test_gl_hllc_friction  friction alone: a uniform flow's decay, GPU vs cpu-scalar, manning on
set(SWGL_GL_HLLC_TESTS test_gl_hllc_face test_gl_hllc_rest test_gl_hllc_volume test_gl_hllc_cpu
  test_gl_hllc_friction)
foreach(t IN LISTS SWGL_GL_HLLC_TESTS)
  swgl_test(${t} LABEL gl SOURCES ${t}.c LIBS swgl_schemes swgl_engine)
endforeach()
