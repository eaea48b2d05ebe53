# make_archive.cmake — cmake -DAR=ar -DRANLIB=ranlib -DSCRIPT=x.mri -DOUT=libswgl.a -P make_archive.cmake
# Runs GNU ar's MRI script SCRIPT (which creates OUT.tmp from the ADDLIB archives), indexes the
# result and moves it onto OUT: an interrupted build never leaves a half-written libswgl.a.
file(REMOVE ${OUT}.tmp)
execute_process(COMMAND ${AR} -M INPUT_FILE ${SCRIPT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT EXISTS ${OUT}.tmp)
  message(FATAL_ERROR "make_archive: ${AR} -M < ${SCRIPT} failed (${rc})")
endif()
execute_process(COMMAND ${RANLIB} ${OUT}.tmp RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "make_archive: ${RANLIB} ${OUT}.tmp failed (${rc})")
endif()
file(RENAME ${OUT}.tmp ${OUT})
