# HLLC scheme through the program (the swgl binary): built-in cases on the CPU backends,
# --compare, the scenario keys, and the GPU backends against cpu-scalar (tests/test_hllc_cli.sh).
add_test(NAME test_hllc_cli COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/test_hllc_cli.sh $<TARGET_FILE:swgl>)
set_tests_properties(test_hllc_cli PROPERTIES LABELS cpu TIMEOUT 300 ENVIRONMENT "OMP_WAIT_POLICY=PASSIVE")
