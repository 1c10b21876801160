# install.cmake — `cmake --install build [--prefix P]`: the public C library for other projects.
#
#   P/include/mech/*.h                 the public API (include/mech/)
#   P/lib/libmech.a                    the public library (only the mech_ functions are global)
#   P/lib/cmake/mech/mechConfig.cmake  find_package(mech) gives the imported target mech::mech
#   P/lib/pkgconfig/mech.pc            pkg-config --cflags --libs mech
#
# libmech.a is a custom command's output (CMakeLists.txt), not a library target, so the package config is
# written here rather than exported.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/mech DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${MECH_PUBLIC_LIB} DESTINATION ${CMAKE_INSTALL_LIBDIR})

set(MECH_CONFIG_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/mech)
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/mechConfig.cmake.in ${CMAKE_BINARY_DIR}/mechConfig.cmake
  INSTALL_DESTINATION ${MECH_CONFIG_DIR} PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/mechConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/mechConfig.cmake ${CMAKE_BINARY_DIR}/mechConfigVersion.cmake
  DESTINATION ${MECH_CONFIG_DIR})

# pkg-config: paths relative to the .pc file's own place (${pcfiledir}), so an installed tree can be moved.
file(RELATIVE_PATH MECH_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
configure_file(${CMAKE_SOURCE_DIR}/cmake/mech.pc.in ${CMAKE_BINARY_DIR}/mech.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/mech.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
