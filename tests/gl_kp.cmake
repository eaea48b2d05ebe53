# The Kurganov-Petrova scheme on the GPU (Brodtkorb et al. 2011).
swgl_test(test_gl_kp LABEL gl SOURCES test_gl_kp.c LIBS swgl_schemes swgl_engine)
