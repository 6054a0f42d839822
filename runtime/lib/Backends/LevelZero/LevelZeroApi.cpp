//===- LevelZeroApi.cpp - Load the Level Zero loader with dlopen ----------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Resolves the entry points of LevelZeroApi.h from libze_loader.so.1.
///
//===----------------------------------------------------------------------===//

#include "LevelZeroApi.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

namespace hetgpu {
namespace rt {
namespace ze {

const API *loadAPI(std::string &Error) {
  static API Api;
  static std::string LoadError;
  static bool Ok = false;
  static std::once_flag Once;
  std::call_once(Once, [] {
    const char *Lib = getenv("HETGPU_LEVEL_ZERO_LIBRARY");
    const char *Name = Lib && *Lib ? Lib : "libze_loader.so.1";
    void *H = dlopen(Name, RTLD_NOW | RTLD_LOCAL);
    if (!H) {
      const char *E = dlerror();
      LoadError = std::string(Name) + " not found (" + (E ? E : "dlopen") + ")";
      return;
    }
#define HETGPU_ZE_LOAD(Fn, Params)                                             \
  Api.Fn = reinterpret_cast<ze_result_t(*) Params>(dlsym(H, #Fn));             \
  if (!Api.Fn) {                                                               \
    LoadError = std::string(Name) + " lacks " #Fn;                             \
    return;                                                                    \
  }
    HETGPU_ZE_FUNCTIONS(HETGPU_ZE_LOAD)
#undef HETGPU_ZE_LOAD
    Ok = true;
  });
  if (!Ok) {
    Error = LoadError;
    return nullptr;
  }
  return &Api;
}

const char *resultName(ze_result_t R) {
  switch (R) {
  case ZE_RESULT_SUCCESS: return "ZE_RESULT_SUCCESS";
  case ZE_RESULT_NOT_READY: return "ZE_RESULT_NOT_READY";
  case ZE_RESULT_ERROR_DEVICE_LOST: return "ZE_RESULT_ERROR_DEVICE_LOST";
  case ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY:
    return "ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY";
  case ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY:
    return "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY";
  case ZE_RESULT_ERROR_MODULE_BUILD_FAILURE:
    return "ZE_RESULT_ERROR_MODULE_BUILD_FAILURE";
  case ZE_RESULT_ERROR_UNINITIALIZED: return "ZE_RESULT_ERROR_UNINITIALIZED";
  case ZE_RESULT_ERROR_UNSUPPORTED_FEATURE:
    return "ZE_RESULT_ERROR_UNSUPPORTED_FEATURE";
  case ZE_RESULT_ERROR_INVALID_ARGUMENT:
    return "ZE_RESULT_ERROR_INVALID_ARGUMENT";
  case ZE_RESULT_ERROR_INVALID_KERNEL_NAME:
    return "ZE_RESULT_ERROR_INVALID_KERNEL_NAME";
  case ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION:
    return "ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION";
  default: return "ZE_RESULT_ERROR";
  }
}

} // namespace ze
} // namespace rt
} // namespace hetgpu
