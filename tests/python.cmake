# Issue 24: the Python module (python/swgl) as installed, with Debian's python3-numpy
# (tests/test_python.sh installs the build into a fresh prefix, tests/test_python.py runs
# the dam break against swgl run, the fields, the errors, the structs' layout).  Skips (77)
# without python3 and numpy.
if(TARGET swgl_shared AND NOT IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(SWGL_PYTHON_TEST_ENV OMP_WAIT_POLICY=PASSIVE SWGL_DATA=${PROJECT_SOURCE_DIR}/../shared/data
    SWGL_BIN=$<TARGET_FILE:swgl> CMAKE=${CMAKE_COMMAND} CC=${CMAKE_C_COMPILER}
    SWGL_TEST_LIBDIR=${CMAKE_INSTALL_LIBDIR})
  if(SWGL_SANITIZE)
    list(APPEND SWGL_PYTHON_TEST_ENV
      "SWGL_TEST_CFLAGS=-fsanitize=address,undefined -fno-sanitize-recover=undefined")
    # python3 is not built with ASan: its runtime is preloaded (test_python.sh)
    execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libasan.so
      OUTPUT_VARIABLE SWGL_ASAN_RUNTIME OUTPUT_STRIP_TRAILING_WHITESPACE)
    list(APPEND SWGL_PYTHON_TEST_ENV "SWGL_TEST_PRELOAD=${SWGL_ASAN_RUNTIME}")
  endif()
  add_test(NAME test_python COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/test_python.sh ${PROJECT_BINARY_DIR} ${SWGL_PYTHON_DIR})
  set_tests_properties(test_python PROPERTIES LABELS gl SKIP_RETURN_CODE 77 TIMEOUT 600
    ENVIRONMENT "${SWGL_PYTHON_TEST_ENV}")
endif()
