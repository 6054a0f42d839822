//===- cuda-driver-probe.h - libcuda for the stand-alone probes -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// What the stand-alone driver probes under bench/ (vmm-probe,
/// vmm-arena-probe, staging-cost, vmm-cost) share, declared here because no
/// CUDA SDK is used: the driver API types they pass, the entry points they
/// call (each probe looks up those it uses with PROBE_LOAD), and libcuda
/// loaded with dlopen.
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
#define PROBE_FN(Name, ...)                                                    \
  [[maybe_unused]] static CUresult (*Name)(__VA_ARGS__);
// The entry points the probes call; each looks up those it uses.
PROBE_FN(cuInit, unsigned)
PROBE_FN(cuDeviceGet, int *, int)
PROBE_FN(cuDevicePrimaryCtxRetain, void **, int)
PROBE_FN(cuCtxSetCurrent, void *)
PROBE_FN(cuCtxSynchronize)
PROBE_FN(cuMemAddressReserve, CUdeviceptr *, size_t, size_t, CUdeviceptr,
         unsigned long long)
PROBE_FN(cuMemAddressFree, CUdeviceptr, size_t)
PROBE_FN(cuMemCreate, CUmemHandle *, size_t, const Prop *, unsigned long long)
PROBE_FN(cuMemRelease, CUmemHandle)
PROBE_FN(cuMemMap, CUdeviceptr, size_t, size_t, CUmemHandle, unsigned long long)
PROBE_FN(cuMemUnmap, CUdeviceptr, size_t)
PROBE_FN(cuMemSetAccess, CUdeviceptr, size_t, const Access *, size_t)
PROBE_FN(cuMemcpyDtoH_v2, void *, CUdeviceptr, size_t)
PROBE_FN(cuMemHostRegister_v2, void *, size_t, unsigned)
PROBE_FN(cuMemHostUnregister, void *)
PROBE_FN(cuMemHostGetDevicePointer_v2, CUdeviceptr *, void *, unsigned)
PROBE_FN(cuModuleLoadData, void **, const void *)
PROBE_FN(cuModuleGetFunction, void **, void *, const char *)
PROBE_FN(cuLaunchKernel, void *, unsigned, unsigned, unsigned, unsigned,
         unsigned, unsigned, unsigned, void *, void **, void **)
PROBE_FN(cuMemGetAllocationGranularity, size_t *, const Prop *, int)
PROBE_FN(cuMemcpyDtoD_v2, CUdeviceptr, CUdeviceptr, size_t)
PROBE_FN(cuMemcpyHtoD_v2, CUdeviceptr, const void *, size_t)
PROBE_FN(cuMemHostAlloc, void **, size_t, unsigned)
PROBE_FN(cuMemAlloc_v2, CUdeviceptr *, size_t)
PROBE_FN(cuMemsetD8_v2, CUdeviceptr, unsigned char, size_t)
PROBE_FN(cuMemcpyHtoDAsync_v2, CUdeviceptr, const void *, size_t, void *)
PROBE_FN(cuMemcpyDtoHAsync_v2, void *, CUdeviceptr, size_t, void *)
PROBE_FN(cuStreamCreate, void **, unsigned)
PROBE_FN(cuEventCreate, void **, unsigned)
PROBE_FN(cuEventRecord, void *, void *)
PROBE_FN(cuEventSynchronize, void *)
PROBE_FN(cuStreamWaitEvent, void *, void *, unsigned)
PROBE_FN(cuStreamSynchronize, void *)
#undef PROBE_FN

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
