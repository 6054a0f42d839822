# utils/cmake/HetGPUInstall.cmake - what `cmake --install` puts into a prefix
# and how CPack packages it (docs/Install.md). The tree is relocatable:
# executables find lib/ through $ORIGIN/../lib, libraries their neighbours
# through $ORIGIN, hetgpu-cc its plugins, headers and runtime through its
# own location; libLLVM.so.22.1 comes from the system (libllvm22).
include(CMakePackageConfigHelpers)

set(HETGPU_INSTALL_CMAKEDIR share/cmake/HetGPU)
set(HETGPU_INSTALL_INCLUDEDIR include/hetgpu/cuda)

set(hetgpu_installed_tools hetgpu-cc hetgpu-info hetgpu-objdump hetgpu-opt
  hetgpu-precompile
  hetgpu-translate-tool)
foreach(t ${hetgpu_installed_tools})
  if(TARGET ${t})
    set_target_properties(${t} PROPERTIES INSTALL_RPATH "$ORIGIN/../lib")
    install(TARGETS ${t} RUNTIME DESTINATION bin COMPONENT hetgpu)
  endif()
endforeach()

# The CUDA toolkit folder for stock clang (tools/hetgpu-cc/CMakeLists.txt).
install(FILES ${PROJECT_BINARY_DIR}/share/hetgpu/lib64/libcudart_static.a
  ${PROJECT_BINARY_DIR}/share/hetgpu/lib64/libcudadevrt.a
  DESTINATION share/hetgpu/lib64 COMPONENT hetgpu)
install(DIRECTORY DESTINATION share/hetgpu/nvvm/libdevice COMPONENT hetgpu)
install(CODE "set(tk \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/share/hetgpu\")
  file(MAKE_DIRECTORY \"\${tk}/bin\")
  foreach(tool ptxas fatbinary nvcc)
    file(CREATE_LINK ../../../bin/hetgpu-cc \"\${tk}/bin/\${tool}\" SYMBOLIC)
  endforeach()
  file(CREATE_LINK ../../${HETGPU_INSTALL_INCLUDEDIR} \"\${tk}/include\" SYMBOLIC)
  file(CREATE_LINK ../../../lib/libhetgpu-rt.so \"\${tk}/lib64/libcudart.so\" SYMBOLIC)"
  COMPONENT hetgpu)

if(TARGET hetgpu-rt)
  set_target_properties(hetgpu-rt PROPERTIES INSTALL_RPATH "$ORIGIN")
  install(TARGETS hetgpu-rt EXPORT HetGPUTargets
    LIBRARY DESTINATION lib COMPONENT hetgpu)
  # Makefiles link -lcudart; hetgpu-cc drops it, a plain host linker finds
  # hetGPU's runtime under CUDA's name.
  install(CODE "file(CREATE_LINK libhetgpu-rt.so
    \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/lib/libcudart.so\" SYMBOLIC)"
    COMPONENT hetgpu)
  # CMake's CUDA support (as nvcc's default) links cudart_static and
  # cudadevrt; hetgpu-cc and the implicit link line bring libhetgpu-rt, so
  # these are empty archives.
  foreach(stub cudart_static cudadevrt)
    file(WRITE ${PROJECT_BINARY_DIR}/lib/lib${stub}.a "!<arch>\n")
    install(FILES ${PROJECT_BINARY_DIR}/lib/lib${stub}.a DESTINATION lib
      COMPONENT hetgpu)
  endforeach()
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/
    DESTINATION ${HETGPU_INSTALL_INCLUDEDIR} COMPONENT hetgpu)
  target_include_directories(hetgpu-rt INTERFACE
    $<INSTALL_INTERFACE:${HETGPU_INSTALL_INCLUDEDIR}>)
  install(EXPORT HetGPUTargets NAMESPACE HetGPU::
    DESTINATION ${HETGPU_INSTALL_CMAKEDIR} COMPONENT hetgpu)
endif()
foreach(t hetgpu-translate HetGPUPasses HetGPUClang)
  if(TARGET ${t})
    set_target_properties(${t} PROPERTIES INSTALL_RPATH "$ORIGIN")
    install(TARGETS ${t} LIBRARY DESTINATION lib COMPONENT hetgpu)
  endif()
endforeach()
# The device math libraries the translator links (next to it).
# They are built, so the list is known when installing, not configuring.
install(CODE "file(GLOB hetgpu_math \"${PROJECT_BINARY_DIR}/lib/hetgpu-math-*.bc\")
  file(INSTALL \${hetgpu_math}
    DESTINATION \"\${CMAKE_INSTALL_PREFIX}/lib\")" COMPONENT hetgpu)

configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/utils/cmake/install/HetGPUConfig.cmake.in
  ${PROJECT_BINARY_DIR}/HetGPUConfig.cmake
  INSTALL_DESTINATION ${HETGPU_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/HetGPUConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/HetGPUConfig.cmake
  ${PROJECT_BINARY_DIR}/HetGPUConfigVersion.cmake
  DESTINATION ${HETGPU_INSTALL_CMAKEDIR} COMPONENT hetgpu)

# pkg-config: prefix relative to the .pc file, so the tree can move.
configure_file(${PROJECT_SOURCE_DIR}/utils/cmake/install/hetgpu.pc.in
  ${PROJECT_BINARY_DIR}/hetgpu.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/hetgpu.pc DESTINATION lib/pkgconfig
  COMPONENT hetgpu)
install(FILES ${PROJECT_SOURCE_DIR}/docs/man/hetgpu-cc.1
  DESTINATION share/man/man1 COMPONENT hetgpu)

# CPack: a .deb whose dependencies are Debian packages.
set(CPACK_PACKAGE_NAME hetgpu)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "hetGPU developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "CUDA compiler and runtime producing portable binaries (hetIR)")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr/lib/hetgpu)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "libllvm${HETGPU_LLVM_MAJOR}, clang-${HETGPU_LLVM_MAJOR}, lld-${HETGPU_LLVM_MAJOR}, libc6, libstdc++6, libgcc-s1")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "pocl-opencl-icd, ocl-icd-libopencl1, g++")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "qemu-user")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
include(CPack)
