# utils/cmake/HetGPU.cmake - find LLVM/Clang 22 and define hetGPU's helpers.
# The one place that pins the LLVM version.
set(HETGPU_LLVM_MAJOR 22)

if(NOT LLVM_DIR AND EXISTS /usr/lib/llvm-${HETGPU_LLVM_MAJOR}/lib/cmake/llvm)
  set(LLVM_DIR /usr/lib/llvm-${HETGPU_LLVM_MAJOR}/lib/cmake/llvm)
endif()
if(NOT Clang_DIR AND EXISTS /usr/lib/llvm-${HETGPU_LLVM_MAJOR}/lib/cmake/clang)
  set(Clang_DIR /usr/lib/llvm-${HETGPU_LLVM_MAJOR}/lib/cmake/clang)
endif()

find_package(LLVM REQUIRED CONFIG)
if(NOT LLVM_VERSION_MAJOR EQUAL HETGPU_LLVM_MAJOR)
  message(FATAL_ERROR "hetGPU needs LLVM ${HETGPU_LLVM_MAJOR}, found ${LLVM_PACKAGE_VERSION} at ${LLVM_DIR}")
endif()
find_package(Clang REQUIRED CONFIG)
message(STATUS "hetGPU: LLVM ${LLVM_PACKAGE_VERSION} (${LLVM_DIR})")

list(APPEND CMAKE_MODULE_PATH ${LLVM_CMAKE_DIR})
include(AddLLVM)
include(HandleLLVMOptions)

include_directories(SYSTEM ${LLVM_INCLUDE_DIRS} ${CLANG_INCLUDE_DIRS})
separate_arguments(HETGPU_LLVM_DEFS NATIVE_COMMAND "${LLVM_DEFINITIONS}")
add_definitions(${HETGPU_LLVM_DEFS})

set(HETGPU_LLVM_BINDIR ${LLVM_TOOLS_BINARY_DIR})
find_program(HETGPU_CLANGXX NAMES clang++-${HETGPU_LLVM_MAJOR} clang++ HINTS ${LLVM_TOOLS_BINARY_DIR} REQUIRED)
find_program(HETGPU_LLD NAMES ld.lld-${HETGPU_LLVM_MAJOR} ld.lld HINTS ${LLVM_TOOLS_BINARY_DIR})

# hetgpu_add_library(NAME SOURCES...): a static library compiled against LLVM,
# position independent so it can go into the pass plugin and shared objects.
function(hetgpu_add_library name)
  add_library(${name} STATIC ${ARGN})
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR}/include)
endfunction()

# add_hetgpu_target(NAME <Class> SOURCES ...): one lowering target.
function(add_hetgpu_target)
  cmake_parse_arguments(T "" "NAME" "SOURCES;LINK" ${ARGN})
  hetgpu_add_library(HetGPUTarget${T_NAME} ${T_SOURCES})
  target_link_libraries(HetGPUTarget${T_NAME} PUBLIC HetGPUIR ${T_LINK})
  set_property(GLOBAL APPEND PROPERTY HETGPU_TARGET_LIBS HetGPUTarget${T_NAME})
endfunction()
