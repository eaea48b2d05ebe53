# The Roe scheme on the GPU (issue: Lastra et al.): a program a subject, their shared
# helpers in gl_roe_util.h.  gl_zcompute.cmake runs them again on compute passes
# (--compute, NAME_compute).
#   test_gl_roe_flux          the GLSL edge flux vs the C one (float; double with fp64)
#   test_gl_roe_conservation  lake at rest, mass with walls, a case and its rotation
#   test_gl_roe_cpu           GPU (float) vs CPU double: lastra-test1, lastra-test2, Thacker
#   test_gl_roe_clock         the step kept on the GPU vs read back; blow-ups
#   test_gl_roe_backend       refusals; backends' names and precisions; pass modes
#   test_gl_roe_double        --precision double (77 without GL_ARB_gpu_shader_fp64)
set(SWGL_GL_ROE_TESTS test_gl_roe_flux test_gl_roe_conservation test_gl_roe_cpu test_gl_roe_clock
  test_gl_roe_backend test_gl_roe_double)
foreach(t IN LISTS SWGL_GL_ROE_TESTS)
  swgl_test(${t} LABEL gl SOURCES ${t}.c LIBS swgl_schemes swgl_engine)
endforeach()
