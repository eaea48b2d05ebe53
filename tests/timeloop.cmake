# The one time loop (solver/schemes/core/timeloop.c) with a made-up backend: no GL context.
swgl_test(test_timeloop LABEL cpu SOURCES test_timeloop.c LIBS swgl_schemes)
