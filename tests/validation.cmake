# Validation cases against measured data (issue 12; docs/validation.md), through the program.
# SWGL_DATA: the shared data folder with the measurements (a test that needs them exits 77
# without them).  The UCL dam break against a building, on a coarse grid:
#   validation_ucl       (cpu) the case on cpu-scalar and cpu: geometry, volume, gauges
#   validation_ucl_check (cpu) swgl validate ucl on a short run: its numbers recomputed, its files
#                              and its errors
#   validation_ucl_shift (cpu) swgl validate ucl on synthetic files with known answers (the record
#                              the model delayed by 0.5 s): the shift, arrivals, bias, leading zeros
#   validation_ucl_gl    (gl)  the gpu backend against cpu-scalar (77 without an EGL device)
set(SWGL_VALIDATION_ENV "OMP_WAIT_POLICY=PASSIVE;SWGL_DATA=${PROJECT_SOURCE_DIR}/../shared/data")
foreach(mode_label IN ITEMS "case;cpu;validation_ucl" "validate;cpu;validation_ucl_check"
       "shift;cpu;validation_ucl_shift" "gl;gl;validation_ucl_gl")
  list(GET mode_label 0 mode)
  list(GET mode_label 1 label)
  list(GET mode_label 2 name)
  add_test(NAME ${name} COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/validation_ucl.sh $<TARGET_FILE:swgl> ${mode})
  set_tests_properties(${name} PROPERTIES LABELS ${label} TIMEOUT 120 SKIP_RETURN_CODE 77
    ENVIRONMENT "${SWGL_VALIDATION_ENV}")
endforeach()
