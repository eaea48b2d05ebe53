# Tests of the scenario/I-O library (solver/scenario*.c, expr.c, output*.c): no GL.
if(TARGET swgl_io)
  swgl_test(test_expr LABEL cpu SOURCES test_expr.c LIBS swgl_io)
  # the test data's folder as the argument
  swgl_test(test_scenario LABEL cpu SOURCES test_scenario.c LIBS swgl_io ARGS ${CMAKE_CURRENT_SOURCE_DIR}/data)
  swgl_test(test_scenario_errors LABEL cpu SOURCES test_scenario_errors.c LIBS swgl_io ARGS ${CMAKE_CURRENT_SOURCE_DIR}/data)
  swgl_test(test_output LABEL cpu SOURCES test_output.c LIBS swgl_io)
endif()
# run.nc read back with libnetcdf (where the build found it)
if(NETCDF_FOUND)
  swgl_test(test_output_nc LABEL cpu SOURCES test_output_nc.c LIBS swgl_io PkgConfig::NETCDF)
endif()
