# Triangle meshes (solver/io/mesh.c) and swgl grid-from-mesh: no GL needed.
if(TARGET swgl_io)
  swgl_test(test_mesh LABEL cpu SOURCES test_mesh.c LIBS swgl_io)
endif()
# The command as a user meets it, and a CPU run on the grid it makes (only where the
# program is built: SWGL_WITH_GL=ON).
if(TARGET swgl)
  add_test(NAME test_mesh_cli COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/test_mesh_cli.sh $<TARGET_FILE:swgl>)
  set_tests_properties(test_mesh_cli PROPERTIES LABELS cpu TIMEOUT 120)
endif()
