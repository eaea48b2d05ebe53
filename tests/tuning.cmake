# The tuning keys' parser (solver/schemes/core/tuning.c, swgl_sim_desc.tune, --tune): every key's
# default, good values, each class of bad text and its message; no GL context.
swgl_test(test_tuning LABEL cpu SOURCES test_tuning.c LIBS swgl_schemes swgl_engine)
