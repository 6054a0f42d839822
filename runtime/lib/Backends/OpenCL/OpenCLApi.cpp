//===- OpenCLApi.cpp - Load the OpenCL ICD loader with dlopen -------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Resolves the entry points of OpenCLApi.h from libOpenCL.so.1 (the ICD
/// loader, which dispatches to the installed platforms such as PoCL).
///
//===----------------------------------------------------------------------===//

#include "OpenCLApi.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

namespace hetgpu {
namespace rt {
namespace cl {

const API *loadAPI(std::string &Error) {
  static API Api;
  static std::string LoadError;
  static bool Ok = false;
  static std::once_flag Once;
  std::call_once(Once, [] {
    const char *Lib = getenv("HETGPU_OPENCL_LIBRARY");
    const char *Name = Lib && *Lib ? Lib : "libOpenCL.so.1";
    void *H = dlopen(Name, RTLD_NOW | RTLD_LOCAL);
    if (!H) {
      const char *E = dlerror();
      LoadError = std::string(Name) + " not found (" + (E ? E : "dlopen") + ")";
      return;
    }
#define HETGPU_CL_LOAD(Fn, Ret, Params)                                        \
  Api.Fn = reinterpret_cast<Ret(*) Params>(dlsym(H, #Fn));                     \
  if (!Api.Fn) {                                                               \
    LoadError = std::string(Name) + " lacks " #Fn " (OpenCL 2.0 is needed)";   \
    return;                                                                    \
  }
    HETGPU_CL_FUNCTIONS(HETGPU_CL_LOAD)
#undef HETGPU_CL_LOAD
#define HETGPU_CL_LOAD_OPT(Fn, Ret, Params)                                    \
  Api.Fn = reinterpret_cast<Ret(*) Params>(dlsym(H, #Fn));
    HETGPU_CL_OPTIONAL_FUNCTIONS(HETGPU_CL_LOAD_OPT)
#undef HETGPU_CL_LOAD_OPT
    Ok = true;
  });
  if (!Ok) {
    Error = LoadError;
    return nullptr;
  }
  return &Api;
}

const char *errorName(cl_int E) {
  switch (E) {
  case 0: return "CL_SUCCESS";
  case -1: return "CL_DEVICE_NOT_FOUND";
  case -2: return "CL_DEVICE_NOT_AVAILABLE";
  case -3: return "CL_COMPILER_NOT_AVAILABLE";
  case -4: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
  case -5: return "CL_OUT_OF_RESOURCES";
  case -6: return "CL_OUT_OF_HOST_MEMORY";
  case -11: return "CL_BUILD_PROGRAM_FAILURE";
  case -30: return "CL_INVALID_VALUE";
  case -33: return "CL_INVALID_DEVICE";
  case -34: return "CL_INVALID_CONTEXT";
  case -36: return "CL_INVALID_COMMAND_QUEUE";
  case -38: return "CL_INVALID_MEM_OBJECT";
  case -42: return "CL_INVALID_BINARY";
  case -43: return "CL_INVALID_BUILD_OPTIONS";
  case -44: return "CL_INVALID_PROGRAM";
  case -45: return "CL_INVALID_PROGRAM_EXECUTABLE";
  case -46: return "CL_INVALID_KERNEL_NAME";
  case -48: return "CL_INVALID_KERNEL";
  case -49: return "CL_INVALID_ARG_INDEX";
  case -50: return "CL_INVALID_ARG_VALUE";
  case -51: return "CL_INVALID_ARG_SIZE";
  case -52: return "CL_INVALID_KERNEL_ARGS";
  case -53: return "CL_INVALID_WORK_DIMENSION";
  case -54: return "CL_INVALID_WORK_GROUP_SIZE";
  case -55: return "CL_INVALID_WORK_ITEM_SIZE";
  case -57: return "CL_INVALID_EVENT_WAIT_LIST";
  case -58: return "CL_INVALID_EVENT";
  case -59: return "CL_INVALID_OPERATION";
  case -61: return "CL_INVALID_BUFFER_SIZE";
  case -63: return "CL_INVALID_GLOBAL_WORK_SIZE";
  case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
  default: return "CL_ERROR";
  }
}

} // namespace cl
} // namespace rt
} // namespace hetgpu
