# The gpgpu layer (issue: foundation).  GL tests: they skip (77) without an EGL device.
foreach(t test_gl_array test_gl_mrt test_gl_reduce test_gl_program test_gl_compute test_gl_clock test_gl_strips)
  swgl_test(${t} LABEL gl SOURCES ${t}.c LIBS swgl_gpgpu)
endforeach()
