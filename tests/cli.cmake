# The program itself (CPU backend only: no EGL device needed).
add_test(NAME test_cli COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/test_cli.sh $<TARGET_FILE:swgl>)
set_tests_properties(test_cli PROPERTIES LABELS cpu TIMEOUT 180 ENVIRONMENT "OMP_WAIT_POLICY=PASSIVE")
# Issue 10: boundaries with values, hydrographs, rain, sources, the mass balance.
add_test(NAME test_boundaries COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/test_boundaries.sh $<TARGET_FILE:swgl>)
set_tests_properties(test_boundaries PROPERTIES LABELS cpu TIMEOUT 300)
# Issue 26: the held time step ([run] step_hold): on the device against the host clock, its
# accuracy and stability (the GPU part skips without an EGL device).
# (600 s: under AddressSanitizer on CI's two cores it ran past 300 s)
add_test(NAME test_held COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/test_held.sh $<TARGET_FILE:swgl>)
set_tests_properties(test_held PROPERTIES LABELS gl TIMEOUT 600 ENVIRONMENT "OMP_WAIT_POLICY=PASSIVE")
