# The benches (swgl bench gpgpu|roe|kp|sediment|scaling) on tiny sizes with --min-time 0.01:
# each runs, states its rule (median of 3 x >= S s) and quotes bench gpgpu's copy ceiling
# (test_bench.sh).  Skips (77) without an EGL device.
add_test(NAME test_bench COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/test_bench.sh $<TARGET_FILE:swgl>)
set_tests_properties(test_bench PROPERTIES LABELS gl SKIP_RETURN_CODE 77 TIMEOUT 300
  ENVIRONMENT "OMP_WAIT_POLICY=PASSIVE")
