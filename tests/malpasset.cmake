# Issue 12: the Malpasset case on a coarse grid (skips with 77 when the shared data or,
# for the gl variant, an EGL device is absent).
add_test(NAME validation_malpasset COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/validation_malpasset.sh $<TARGET_FILE:swgl> cpu)
set_tests_properties(validation_malpasset PROPERTIES LABELS cpu TIMEOUT 300 SKIP_RETURN_CODE 77
  ENVIRONMENT "OMP_WAIT_POLICY=PASSIVE;SWGL_DATA=${PROJECT_SOURCE_DIR}/../shared/data")
add_test(NAME validation_malpasset_gl COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/validation_malpasset.sh $<TARGET_FILE:swgl> gl)
set_tests_properties(validation_malpasset_gl PROPERTIES LABELS gl TIMEOUT 300 SKIP_RETURN_CODE 77
  ENVIRONMENT "OMP_WAIT_POLICY=PASSIVE;SWGL_DATA=${PROJECT_SOURCE_DIR}/../shared/data")
