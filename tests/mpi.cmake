# Issue 14: runs over MPI ranks (test_mpi.sh: 2, 3 and 4 ranks on the CPU backends, and on
# the GPU backends over llvmpipe, against one rank, file for file).  Registered where swgl was built with MPI; skips (77) without
# mpirun.
if(TARGET swgl AND MPI_C_FOUND)
  find_program(SWGL_MPIRUN NAMES mpirun mpiexec)
  if(NOT SWGL_MPIRUN)
    set(SWGL_MPIRUN mpirun)
  endif()
  # the public API over ranks (test_api_mpi.c), run by test_mpi.sh under mpirun
  add_executable(test_api_mpi ${CMAKE_CURRENT_LIST_DIR}/test_api_mpi.c)
  target_include_directories(test_api_mpi PRIVATE ${CMAKE_CURRENT_LIST_DIR})
  target_link_libraries(test_api_mpi PRIVATE swgl_engine ${MATH_LIBRARY})
  add_test(NAME test_mpi COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/test_mpi.sh $<TARGET_FILE:swgl> ${SWGL_MPIRUN} cpu
           $<TARGET_FILE:test_api_mpi>)
  set_tests_properties(test_mpi PROPERTIES LABELS cpu SKIP_RETURN_CODE 77 TIMEOUT 600)
  # the GPU backends (fragment and compute) over ranks sharing llvmpipe
  add_test(NAME test_mpi_gl COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/test_mpi.sh $<TARGET_FILE:swgl> ${SWGL_MPIRUN} gl)
  set_tests_properties(test_mpi_gl PROPERTIES LABELS gl SKIP_RETURN_CODE 77 TIMEOUT 600)
endif()
