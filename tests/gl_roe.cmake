# The Roe scheme on the GPU (issue: Lastra et al.).
swgl_test(test_gl_roe LABEL gl SOURCES test_gl_roe.c LIBS swgl_schemes swgl_engine)
