# install_pc.cmake — run by `cmake --install` (CMakeLists.txt, "install"):
# writes croupier.pc for the prefix being installed to straight into
# LIBDIR/pkgconfig (under $DESTDIR when set), and lists it in the install
# manifest.  It is not written into the build tree first: a `sudo cmake
# --install` would leave there a file other users could not replace.  The
# CODE before it sets CR_PC_VERSION, CR_PC_LIBDIR and CR_PC_INCLUDEDIR
# (relative to the prefix, or absolute) and CR_PC_IN (cmake/croupier.pc.in).
set(CR_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
set(CR_PC_LIBDIR_ABS "${CR_PC_LIBDIR}")
if(NOT IS_ABSOLUTE "${CR_PC_LIBDIR_ABS}")
  set(CR_PC_LIBDIR_ABS "${CMAKE_INSTALL_PREFIX}/${CR_PC_LIBDIR_ABS}")
endif()
foreach(dir CR_PC_LIBDIR CR_PC_INCLUDEDIR)
  if(NOT IS_ABSOLUTE "${${dir}}")
    set(${dir} "\${prefix}/${${dir}}")
  endif()
endforeach()
set(CR_PC_DEST "$ENV{DESTDIR}${CR_PC_LIBDIR_ABS}/pkgconfig/croupier.pc")
message(STATUS "Installing: ${CR_PC_DEST}")
configure_file("${CR_PC_IN}" "${CR_PC_DEST}" @ONLY)
list(APPEND CMAKE_INSTALL_MANIFEST_FILES "${CR_PC_DEST}")
