//===- HipRuntime.cpp - The HIP runtime API, loaded with dlopen -----------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Opens libamdhip64 once per process and resolves the entry points listed
/// in HipRuntime.h.
///
//===----------------------------------------------------------------------===//

#include "HipRuntime.h"

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <mutex>

namespace hetgpu {
namespace rt {
namespace hip {

std::string Runtime::describe(hipError_t E) const {
  const char *Name = GetErrorName ? GetErrorName(E) : nullptr;
  const char *Desc = GetErrorString ? GetErrorString(E) : nullptr;
  std::string S = Name ? Name : "hipError_t " + std::to_string(E);
  if (Desc)
    S += std::string(" (") + Desc + ")";
  return S;
}

std::string findArchName(const unsigned char *Props, size_t Size) {
  for (size_t I = 0; I + 4 < Size; ++I) {
    if (std::memcmp(Props + I, "gfx", 3) != 0 || (I && Props[I - 1] != 0))
      continue;
    size_t J = I + 3;
    while (J < Size && std::isxdigit(Props[J]))
      ++J;
    if (J == I + 3 || J >= Size || (Props[J] != 0 && Props[J] != ':'))
      continue;
    return std::string(reinterpret_cast<const char *>(Props + I), J - I);
  }
  return "";
}

static const Runtime *openRuntime(std::string &Error) {
  const char *Env = std::getenv("HETGPU_LIBAMDHIP");
  const char *Candidates[] = {"libamdhip64.so", "libamdhip64.so.7",
                              "libamdhip64.so.6", "libamdhip64.so.5"};
  void *H = nullptr;
  std::string Path, Why;
  if (Env && *Env) {
    Path = Env;
    H = dlopen(Env, RTLD_NOW | RTLD_LOCAL);
    if (!H) {
      const char *E = dlerror();
      Why = E ? E : "dlopen failed";
    }
  } else {
    for (const char *C : Candidates) {
      H = dlopen(C, RTLD_NOW | RTLD_LOCAL);
      if (H) {
        Path = C;
        break;
      }
      if (Why.empty()) {
        const char *E = dlerror();
        Why = E ? E : "dlopen failed";
      }
    }
    if (!H)
      Path = "libamdhip64.so";
  }
  if (!H) {
    Error = Path + " not found (" + Why + ")";
    return nullptr;
  }
  static Runtime R;
  R.Path = Path;
#define HETGPU_HIP_RESOLVE(Name, Symbol, Params)                               \
  R.Name = reinterpret_cast<decltype(R.Name)>(dlsym(H, Symbol));               \
  if (!R.Name) {                                                               \
    Error = Path + " lacks " Symbol " (HIP runtime too old?)";                 \
    return nullptr;                                                            \
  }
  HETGPU_HIP_FUNCTIONS(HETGPU_HIP_RESOLVE, HETGPU_HIP_RESOLVE)
#undef HETGPU_HIP_RESOLVE
  R.GetDeviceProperties = reinterpret_cast<decltype(R.GetDeviceProperties)>(
      dlsym(H, "hipGetDevicePropertiesR0600"));
  if (!R.GetDeviceProperties)
    R.GetDeviceProperties = reinterpret_cast<decltype(R.GetDeviceProperties)>(
        dlsym(H, "hipGetDeviceProperties"));
  if (!R.GetDeviceProperties) {
    Error = Path + " lacks hipGetDeviceProperties";
    return nullptr;
  }
  // The library stays open for the life of the process.
  return &R;
}

const Runtime *loadRuntime(std::string &Error) {
  static std::once_flag Once;
  static const Runtime *R = nullptr;
  static std::string LoadError;
  std::call_once(Once, [] { R = openRuntime(LoadError); });
  if (!R)
    Error = LoadError;
  return R;
}

} // namespace hip
} // namespace rt
} // namespace hetgpu
