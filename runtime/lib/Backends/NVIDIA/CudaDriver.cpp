//===- CudaDriver.cpp - The CUDA driver API, loaded with dlopen -----------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Opens libcuda.so.1 once per process and resolves the entry points listed
/// in CudaDriver.h.
///
//===----------------------------------------------------------------------===//

#include "CudaDriver.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

namespace hetgpu {
namespace rt {
namespace cu {

std::string Driver::describe(CUresult E) const {
  const char *Name = nullptr;
  const char *Desc = nullptr;
  if (GetErrorName)
    GetErrorName(E, &Name);
  if (GetErrorString)
    GetErrorString(E, &Desc);
  std::string S = Name ? Name : "CUresult " + std::to_string(E);
  if (Desc)
    S += std::string(" (") + Desc + ")";
  return S;
}

unsigned maxPTXVersionForDriver(int Version) {
  int Major = Version / 1000, Minor = (Version % 1000) / 10;
  unsigned PTX;
  if (Major >= 13)
    PTX = 90;
  else if (Major == 12)
    // 12.0..12.5 -> 8.0..8.5, 12.6 -> 8.5, 12.7 -> 8.6, 12.8 -> 8.7, 12.9 -> 8.8
    PTX = Minor <= 5 ? 80 + Minor : Minor == 6 ? 85 : 80 + Minor - 1;
  else if (Major == 11)
    PTX = 70 + (Minor > 8 ? 8 : Minor);
  else if (Major == 10)
    PTX = Minor >= 2 ? 65 : Minor == 1 ? 64 : 63;
  else
    PTX = 60;
  // LLVM 22's NVPTX back end emits at most PTX ISA 9.0.
  return PTX > 90 ? 90 : PTX;
}

void *loadedDriverLibrary() {
  const char *Path = std::getenv("HETGPU_LIBCUDA");
  return dlopen(Path && *Path ? Path : "libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
}

static const Driver *openDriver(std::string &Error) {
  const char *Path = std::getenv("HETGPU_LIBCUDA");
  if (!Path || !*Path)
    Path = "libcuda.so.1";
  void *H = dlopen(Path, RTLD_NOW | RTLD_LOCAL);
  if (!H) {
    const char *Why = dlerror();
    Error = std::string(Path) + " not found (" + (Why ? Why : "dlopen failed") + ")";
    return nullptr;
  }
  static Driver D;
#define HETGPU_CU_RESOLVE(Name, Symbol, Params)                                \
  D.Name = reinterpret_cast<decltype(D.Name)>(dlsym(H, Symbol));               \
  if (!D.Name) {                                                               \
    Error = std::string(Path) + " lacks " Symbol " (driver too old?)";         \
    return nullptr;                                                            \
  }
  HETGPU_CUDA_DRIVER_FUNCTIONS(HETGPU_CU_RESOLVE)
#undef HETGPU_CU_RESOLVE
  // The library stays open for the life of the process: streams and
  // modules may outlive any one backend object.
  return &D;
}

const Driver *loadDriver(std::string &Error) {
  static std::once_flag Once;
  static const Driver *D = nullptr;
  static std::string LoadError;
  std::call_once(Once, [] { D = openDriver(LoadError); });
  if (!D)
    Error = LoadError;
  return D;
}

} // namespace cu
} // namespace rt
} // namespace hetgpu
