# The sediment scheme on the GPU (issue: Su et al. 2013).
swgl_test(test_gl_sediment LABEL gl SOURCES test_gl_sediment.c LIBS swgl_schemes swgl_engine)
