# write_pc.cmake — run by cmake --install (include/CMakeLists.txt): swgl.pc for the prefix
# being installed to, from SWGL_PC_IN (@prefix@, @libdir@, @includedir@, @SWGL_PC_VERSION@,
# @SWGL_PC_LIBS_PRIVATE@), written straight into DESTDIR + LIBDIR/pkgconfig (nothing in the
# build tree: two installs to two prefixes at once, as the tests make, stay apart).  The
# directories are ${prefix}/... unless given absolute.
set(prefix "${CMAKE_INSTALL_PREFIX}")
set(libdir "${SWGL_PC_LIBDIR}")
set(includedir "${SWGL_PC_INCLUDEDIR}")
if(IS_ABSOLUTE "${libdir}")
  set(dest "$ENV{DESTDIR}${libdir}/pkgconfig")
else()
  set(dest "$ENV{DESTDIR}${prefix}/${libdir}/pkgconfig")
  set(libdir "\${prefix}/${libdir}")
endif()
if(NOT IS_ABSOLUTE "${includedir}")
  set(includedir "\${prefix}/${includedir}")
endif()
message(STATUS "Installing: ${dest}/swgl.pc")
file(MAKE_DIRECTORY "${dest}")
configure_file("${SWGL_PC_IN}" "${dest}/swgl.pc" @ONLY)
list(APPEND CMAKE_INSTALL_MANIFEST_FILES "${dest}/swgl.pc")
