# The program itself (CPU backend only: no EGL device needed).
add_test(NAME test_cli COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/test_cli.sh $<TARGET_FILE:swgl>)
set_tests_properties(test_cli PROPERTIES LABELS cpu TIMEOUT 120)
