# The Kurganov-Petrova scheme on the GPU (Brodtkorb et al. 2011): a program a subject,
# their shared helpers in gl_kp_util.h.  gl_zcompute.cmake runs them again on compute
# passes (--compute, NAME_compute).
#   test_gl_kp_conservation  lake at rest (rough bed, emerged island), mass with walls
#   test_gl_kp_early_exit    early exit on/off/auto, tiles, fragments; the step on kernels
#   test_gl_kp_flux          a problem and its transpose
#   test_gl_kp_clock         the step chosen on the GPU (run_to) vs read back; the profile
#   test_gl_kp_cpu           GPU (float) vs the CPU scalar solver (double), masked domain
#   test_gl_kp_scheme        refusals, scheme.h and the time loop, the case thacker
#   test_gl_kp_double        double precision (77 without GL_ARB_gpu_shader_fp64)
set(SWGL_GL_KP_TESTS test_gl_kp_conservation test_gl_kp_early_exit test_gl_kp_flux test_gl_kp_clock
  test_gl_kp_cpu test_gl_kp_scheme test_gl_kp_double)
foreach(t IN LISTS SWGL_GL_KP_TESTS)
  swgl_test(${t} LABEL gl SOURCES ${t}.c LIBS swgl_schemes swgl_engine)
endforeach()
