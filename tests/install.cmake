# Issue 24: swgl as a library.
#   test_exports  libswgl.so exports exactly the SWGL_API functions of include/swgl.h and
#                 swgl_status.h (tests/test_exports.sh)
#   test_install  the build installed into a fresh prefix; the example and a program of the
#                 test's own built against the installed files only (pkg-config, CMake's
#                 find_package, libswgl.a) and run against swgl run (tests/test_install.sh).
#                 Registered where CMAKE_INSTALL_LIBDIR is relative (else the library would
#                 not go into the test's prefix).
if(TARGET swgl_shared)
  add_test(NAME test_exports COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/test_exports.sh
    $<TARGET_FILE:swgl_shared> ${CMAKE_NM}
    ${PROJECT_SOURCE_DIR}/include/swgl.h ${PROJECT_SOURCE_DIR}/include/swgl_status.h)
  set_tests_properties(test_exports PROPERTIES LABELS cpu TIMEOUT 60)
endif()
if(TARGET swgl_shared AND NOT IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  # the programs the test builds get the sanitizers too in a sanitized build (the library's
  # runtime is the program's)
  set(SWGL_TEST_CFLAGS "")
  if(SWGL_SANITIZE)
    set(SWGL_TEST_CFLAGS "-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer")
  endif()
  add_test(NAME test_install COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/test_install.sh ${PROJECT_BINARY_DIR})
  set_tests_properties(test_install PROPERTIES LABELS gl SKIP_RETURN_CODE 77 TIMEOUT 600
    ENVIRONMENT "OMP_WAIT_POLICY=PASSIVE;SWGL_DATA=${PROJECT_SOURCE_DIR}/../shared/data;SWGL_BIN=$<TARGET_FILE:swgl>;CMAKE=${CMAKE_COMMAND};CC=${CMAKE_C_COMPILER};SWGL_TEST_CFLAGS=${SWGL_TEST_CFLAGS};SWGL_TEST_LIBDIR=${CMAKE_INSTALL_LIBDIR}")
endif()
