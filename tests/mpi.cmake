# Issue 14: runs over MPI ranks (test_mpi.sh: 2, 3 and 4 ranks on the CPU backends, and on
# the GPU backends over llvmpipe, against one rank, file for file).  Registered where swgl was built with MPI; skips (77) without
# mpirun.
if(TARGET swgl AND MPI_C_FOUND)
  find_program(SWGL_MPIRUN NAMES mpirun mpiexec)
  if(NOT SWGL_MPIRUN)
    set(SWGL_MPIRUN mpirun)
  endif()
  add_test(NAME test_mpi COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/test_mpi.sh $<TARGET_FILE:swgl> ${SWGL_MPIRUN})
  set_tests_properties(test_mpi PROPERTIES LABELS cpu SKIP_RETURN_CODE 77 TIMEOUT 600)
  # the GPU backends (fragment and compute) over ranks sharing llvmpipe
  add_test(NAME test_mpi_gl COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/test_mpi.sh $<TARGET_FILE:swgl> ${SWGL_MPIRUN} gl)
  set_tests_properties(test_mpi_gl PROPERTIES LABELS gl SKIP_RETURN_CODE 77 TIMEOUT 600)
endif()
