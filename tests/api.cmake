# The public API (include/swgl.h): a test that includes swgl.h alone, as a user's program
# does, on the CPU backends (no GL context needed), and one that draws a field from the
# device in its own GL context.
swgl_test(test_api_sim LABEL cpu SOURCES test_api_sim.c LIBS swgl_engine)
swgl_test(test_gl_api_device LABEL gl SOURCES test_gl_api_device.c LIBS swgl_engine OpenGL::OpenGL OpenGL::EGL)
# Issue 26: the held time step's window through the API (steps, then run_to, = one run_to)
swgl_test(test_gl_api_held LABEL gl SOURCES test_gl_api_held.c LIBS swgl_engine)
# examples/timed_run.c, a run through the API timed without files (docs/mpi.md's figures)
add_test(NAME test_timed_run COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/test_timed_run.sh
  $<TARGET_FILE:swgl_example_timed_run> $<TARGET_FILE:swgl>)
set_tests_properties(test_timed_run PROPERTIES LABELS cpu TIMEOUT 120 ENVIRONMENT "OMP_NUM_THREADS=2")
# Issue 27 item 5: kp's thin cells' speed cap (the SWASHES bowl, Ritter, the lake at rest),
# on the CPU backends and, with the argument gl, the GPU's
swgl_test(test_kp_thin LABEL cpu SOURCES test_kp_thin.c LIBS swgl_engine)
swgl_test(test_gl_kp_thin LABEL gl SOURCES test_kp_thin.c LIBS swgl_engine ARGS gl)
