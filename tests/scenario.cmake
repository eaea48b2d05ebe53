# Tests of the scenario/I-O library (solver/scenario*.c, expr.c, output*.c): no GL.
if(TARGET swgl_io)
  swgl_test(test_expr LABEL cpu SOURCES test_expr.c LIBS swgl_io)
  # the test data's folder as the argument; every scheme's keys (the reader knows no scheme)
  swgl_test(test_scenario LABEL cpu SOURCES test_scenario.c LIBS swgl_scheme_keys ARGS ${CMAKE_CURRENT_SOURCE_DIR}/data)
  swgl_test(test_scenario_errors LABEL cpu SOURCES test_scenario_errors.c LIBS swgl_scheme_keys ARGS ${CMAKE_CURRENT_SOURCE_DIR}/data)
  swgl_test(test_scenario_file_errors LABEL cpu SOURCES test_scenario_file_errors.c LIBS swgl_scheme_keys ARGS ${CMAKE_CURRENT_SOURCE_DIR}/data)
  swgl_test(test_output LABEL cpu SOURCES test_output.c LIBS swgl_io)
  # the ASCII grids' number formatter against printf's %.9g, byte for byte
  swgl_test(test_fmt_g9 LABEL cpu SOURCES test_fmt_g9.c LIBS swgl_io)
  # the exact mean of a hydrograph over a step, against integrals worked by hand
  swgl_test(test_hydrograph_mean LABEL cpu SOURCES test_hydrograph_mean.c LIBS swgl_io)
endif()
# run.nc read back with libnetcdf (where the build found it)
if(NETCDF_FOUND)
  swgl_test(test_output_nc LABEL cpu SOURCES test_output_nc.c LIBS swgl_io PkgConfig::NETCDF)
endif()
