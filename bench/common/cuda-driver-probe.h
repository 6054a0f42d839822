//===- cuda-driver-probe.h - libcuda for the stand-alone probes -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// What the stand-alone driver probes under bench/ (vmm-probe,
/// vmm-arena-probe, staging-cost, vmm-cost) share: the few driver API types
/// they pass, declared here because no CUDA SDK is used, and libcuda loaded
/// with dlopen. Each probe declares the entry points it calls with
/// PROBE_FN and looks them up with PROBE_LOAD.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_BENCH_CUDA_DRIVER_PROBE_H
#define HETGPU_BENCH_CUDA_DRIVER_PROBE_H

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
typedef unsigned long long CUmemHandle;
/// CUmemLocation.
struct Loc {
  int Type, Id;
};
/// CUmemAllocationProp.
struct Prop {
  int Type, HandleTypes;
  Loc Location;
  void *Win32;
  unsigned char Comp, Rdma;
  unsigned short Usage;
  unsigned char Reserved[4];
};
/// CUmemAccessDesc.
struct Access {
  Loc Location;
  int Flags;
};

/// Declares driver entry point \p Name (looked up by PROBE_LOAD).
#define PROBE_FN(Name, ...) static CUresult (*Name)(__VA_ARGS__);

/// libcuda.so.1, or the library HETGPU_LIBCUDA names (the stand-in driver of
/// test/Doubles); null after saying why, prefixed with \p Tool.
static inline void *openDriver(const char *Tool) {
  const char *Lib = std::getenv("HETGPU_LIBCUDA");
  void *H = dlopen(Lib && *Lib ? Lib : "libcuda.so.1", RTLD_NOW);
  if (!H)
    std::printf("%s: no libcuda: %s\n", Tool, dlerror());
  return H;
}

/// Looks up \p Name in the library \p H; when it is missing, says so and
/// returns 2 from the calling function.
#define PROBE_LOAD(H, Tool, Name)                                              \
  *reinterpret_cast<void **>(&Name) = dlsym(H, #Name);                         \
  if (!Name) {                                                                 \
    std::printf("%s: libcuda lacks " #Name "\n", Tool);                        \
    return 2;                                                                  \
  }

#endif // HETGPU_BENCH_CUDA_DRIVER_PROBE_H
