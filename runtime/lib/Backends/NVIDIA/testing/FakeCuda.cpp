//===- FakeCuda.cpp - A stand-in libcuda for testing without a GPU --------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// libhetgpu-fake-cuda.so exports the driver entry points the NVIDIA
/// backend resolves (CudaDriver.h) and pretends to be one sm_90 GPU behind
/// a CUDA 12.8 driver, so the backend's discovery, memory, module loading
/// and launch paths run on machines without a GPU (HETGPU_LIBCUDA=<this>).
/// Memory is host memory; kernels do not run. What the backend hands the
/// driver is logged to $FAKE_CUDA_LOG: each loaded PTX module in full, and
/// one line per launch. A module whose PTX contains "FAKE_JIT_ERROR" fails
/// to load with CUDA_ERROR_INVALID_PTX and a JIT error log, as ptxas would.
///
//===----------------------------------------------------------------------===//

#include "../CudaDriver.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace hetgpu::rt::cu;

namespace {
void logLine(const std::string &Line) {
  const char *Path = std::getenv("FAKE_CUDA_LOG");
  if (!Path)
    return;
  if (FILE *F = std::fopen(Path, "a")) {
    std::fputs(Line.c_str(), F);
    std::fclose(F);
  }
}
int Dummy[8];
} // namespace

#define API extern "C" __attribute__((visibility("default"))) CUresult

API cuInit(unsigned) { return CUDA_SUCCESS; }
API cuDriverGetVersion(int *V) { *V = 12080; return CUDA_SUCCESS; }
API cuGetErrorName(CUresult E, const char **S) {
  *S = E == CUDA_ERROR_INVALID_PTX ? "CUDA_ERROR_INVALID_PTX" : "CUDA_ERROR_FAKE";
  return CUDA_SUCCESS;
}
API cuGetErrorString(CUresult, const char **S) { *S = "fake driver error"; return CUDA_SUCCESS; }
API cuDeviceGetCount(int *C) { *C = 1; return CUDA_SUCCESS; }
API cuDeviceGet(CUdevice *D, int) { *D = 0; return CUDA_SUCCESS; }
API cuDeviceGetName(char *N, int L, CUdevice) {
  std::snprintf(N, L, "Fake NVIDIA GPU");
  return CUDA_SUCCESS;
}
API cuDeviceGetAttribute(int *V, CUdevice_attribute A, CUdevice) {
  switch (A) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *V = 9; break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *V = 0; break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *V = 132; break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *V = 232448; break;
  case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY: *V = 1; break;
  default: return CUDA_ERROR_INVALID_VALUE; // the backend keeps its default
  }
  return CUDA_SUCCESS;
}
API cuDeviceTotalMem_v2(size_t *B, CUdevice) { *B = size_t(80) << 30; return CUDA_SUCCESS; }
API cuDevicePrimaryCtxRetain(CUcontext *C, CUdevice) {
  *C = reinterpret_cast<CUcontext>(&Dummy[0]);
  return CUDA_SUCCESS;
}
API cuDevicePrimaryCtxRelease_v2(CUdevice) { return CUDA_SUCCESS; }
API cuDevicePrimaryCtxReset_v2(CUdevice) { logLine("reset\n"); return CUDA_SUCCESS; }
API cuCtxSetCurrent(CUcontext) { return CUDA_SUCCESS; }
API cuCtxSynchronize() { return CUDA_SUCCESS; }
API cuMemAlloc_v2(CUdeviceptr *P, size_t B) {
  *P = reinterpret_cast<uintptr_t>(std::calloc(1, B));
  return *P ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
API cuMemFree_v2(CUdeviceptr P) { std::free(reinterpret_cast<void *>(P)); return CUDA_SUCCESS; }
API cuMemAllocManaged(CUdeviceptr *P, size_t B, unsigned) { return cuMemAlloc_v2(P, B); }
API cuMemHostAlloc(void **P, size_t B, unsigned) {
  *P = std::calloc(1, B);
  return CUDA_SUCCESS;
}
API cuMemFreeHost(void *P) { std::free(P); return CUDA_SUCCESS; }
API cuMemGetInfo_v2(size_t *F, size_t *T) {
  *T = size_t(80) << 30;
  *F = *T / 2;
  return CUDA_SUCCESS;
}
API cuMemcpyHtoDAsync_v2(CUdeviceptr D, const void *S, size_t B, CUstream) {
  std::memcpy(reinterpret_cast<void *>(D), S, B);
  return CUDA_SUCCESS;
}
API cuMemcpyDtoHAsync_v2(void *D, CUdeviceptr S, size_t B, CUstream) {
  std::memcpy(D, reinterpret_cast<void *>(S), B);
  return CUDA_SUCCESS;
}
API cuMemcpyDtoDAsync_v2(CUdeviceptr D, CUdeviceptr S, size_t B, CUstream) {
  std::memmove(reinterpret_cast<void *>(D), reinterpret_cast<void *>(S), B);
  return CUDA_SUCCESS;
}
API cuMemsetD8Async(CUdeviceptr D, unsigned char V, size_t N, CUstream) {
  std::memset(reinterpret_cast<void *>(D), V, N);
  return CUDA_SUCCESS;
}
API cuModuleLoadDataEx(CUmodule *M, const void *Image, unsigned N,
                       CUjit_option *Opts, void **Vals) {
  const char *PTX = static_cast<const char *>(Image);
  logLine(std::string("module-load ") + PTX + "\n");
  if (std::strstr(PTX, "FAKE_JIT_ERROR")) {
    for (unsigned I = 0; I < N; ++I)
      if (Opts[I] == CU_JIT_ERROR_LOG_BUFFER)
        std::snprintf(static_cast<char *>(Vals[I]), 64,
                      "ptxas fatal: fake error at FAKE_JIT_ERROR");
    return CUDA_ERROR_INVALID_PTX;
  }
  for (unsigned I = 0; I < N; ++I)
    if (Opts[I] == CU_JIT_WALL_TIME) {
      float Ms = 1.5f;
      std::memcpy(&Vals[I], &Ms, sizeof(float));
    }
  *M = reinterpret_cast<CUmodule>(new std::string(PTX));
  return CUDA_SUCCESS;
}
API cuModuleUnload(CUmodule M) {
  delete reinterpret_cast<std::string *>(M);
  return CUDA_SUCCESS;
}
API cuModuleGetFunction(CUfunction *F, CUmodule M, const char *Name) {
  const std::string &PTX = *reinterpret_cast<std::string *>(M);
  if (PTX.find(std::string(".entry ") + Name + "(") == std::string::npos)
    return CUDA_ERROR_NOT_FOUND;
  *F = reinterpret_cast<CUfunction>(strdup(Name));
  return CUDA_SUCCESS;
}
API cuModuleGetGlobal_v2(CUdeviceptr *P, size_t *B, CUmodule, const char *) {
  static char Storage[4096];
  *P = reinterpret_cast<uintptr_t>(Storage);
  *B = sizeof(Storage);
  return CUDA_SUCCESS;
}
API cuFuncSetAttribute(CUfunction, CUfunction_attribute, int) { return CUDA_SUCCESS; }
API cuFuncGetAttribute(int *V, CUfunction_attribute, CUfunction) { *V = 0; return CUDA_SUCCESS; }
API cuLaunchKernel(CUfunction F, unsigned GX, unsigned GY, unsigned GZ, unsigned BX,
                   unsigned BY, unsigned BZ, unsigned Shared, CUstream, void **Params,
                   void **) {
  char Buf[256];
  std::snprintf(Buf, sizeof(Buf), "launch %s grid %u %u %u block %u %u %u shared %u\n",
                reinterpret_cast<const char *>(F), GX, GY, GZ, BX, BY, BZ, Shared);
  logLine(Buf);
  (void)Params;
  return CUDA_SUCCESS;
}
API cuLaunchHostFunc(CUstream, CUhostFn Fn, void *U) { Fn(U); return CUDA_SUCCESS; }
API cuStreamCreate(CUstream *S, unsigned) {
  *S = reinterpret_cast<CUstream>(&Dummy[1]);
  return CUDA_SUCCESS;
}
API cuStreamDestroy_v2(CUstream) { return CUDA_SUCCESS; }
API cuStreamSynchronize(CUstream) { return CUDA_SUCCESS; }
API cuStreamQuery(CUstream) { return CUDA_SUCCESS; }
API cuStreamWaitEvent(CUstream, CUevent, unsigned) { return CUDA_SUCCESS; }
API cuEventCreate(CUevent *E, unsigned) {
  *E = reinterpret_cast<CUevent>(&Dummy[2]);
  return CUDA_SUCCESS;
}
API cuEventDestroy_v2(CUevent) { return CUDA_SUCCESS; }
API cuEventRecord(CUevent, CUstream) { return CUDA_SUCCESS; }
API cuEventSynchronize(CUevent) { return CUDA_SUCCESS; }
API cuEventQuery(CUevent) { return CUDA_SUCCESS; }
API cuEventElapsedTime(float *Ms, CUevent, CUevent) { *Ms = 0.25f; return CUDA_SUCCESS; }

// The virtual-memory API (the NVIDIA backend's unified addresses, live
// migration). Like driver 580 on an H200 (bench/migration/vmm-probe.cpp),
// a fixed address is honoured only for reservations of 32 MiB and more.
// Physical memory is a memfd per handle, mapped where cuMemMap says, so
// the host can read what the backend copied.
#include <sys/mman.h>
#include <unistd.h>
API cuMemGetAllocationGranularity(size_t *G, const void *, int) {
  *G = size_t(2) << 20;
  return CUDA_SUCCESS;
}
API cuMemAddressReserve(CUdeviceptr *P, size_t Size, size_t, CUdeviceptr Addr,
                        unsigned long long) {
  void *Want = Size >= (size_t(32) << 20) ? reinterpret_cast<void *>(Addr) : nullptr;
  void *R = mmap(Want, Size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
                                            (Want ? MAP_FIXED_NOREPLACE : 0),
                 -1, 0);
  if (R == MAP_FAILED && Want)
    R = mmap(nullptr, Size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (R == MAP_FAILED)
    return CUDA_ERROR_OUT_OF_MEMORY;
  *P = reinterpret_cast<uintptr_t>(R);
  logLine("vmm-reserve " + std::to_string(Size >> 20) + " MiB " +
          (R == Want ? "at the asked address\n" : "elsewhere\n"));
  return CUDA_SUCCESS;
}
API cuMemAddressFree(CUdeviceptr P, size_t Size) {
  munmap(reinterpret_cast<void *>(P), Size);
  return CUDA_SUCCESS;
}
API cuMemCreate(unsigned long long *H, size_t Size, const void *, unsigned long long) {
  int Fd = memfd_create("fake-cuda-vmm", MFD_CLOEXEC);
  if (Fd < 0 || ftruncate(Fd, off_t(Size)) != 0)
    return CUDA_ERROR_OUT_OF_MEMORY;
  *H = static_cast<unsigned long long>(Fd);
  return CUDA_SUCCESS;
}
API cuMemRelease(unsigned long long H) {
  close(int(H));
  return CUDA_SUCCESS;
}
API cuMemMap(CUdeviceptr P, size_t Size, size_t Off, unsigned long long H,
             unsigned long long) {
  void *R = mmap(reinterpret_cast<void *>(P), Size, PROT_READ | PROT_WRITE,
                 MAP_SHARED | MAP_FIXED, int(H), off_t(Off));
  return R == MAP_FAILED ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}
API cuMemUnmap(CUdeviceptr P, size_t Size) {
  void *R = mmap(reinterpret_cast<void *>(P), Size, PROT_NONE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
  return R == MAP_FAILED ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}
API cuMemSetAccess(CUdeviceptr, size_t, const void *, size_t) { return CUDA_SUCCESS; }
API cuMemHostRegister_v2(void *, size_t, unsigned) { return CUDA_SUCCESS; }
API cuMemHostUnregister(void *) { return CUDA_SUCCESS; }
API cuMemHostGetDevicePointer_v2(CUdeviceptr *D, void *P, unsigned) {
  *D = reinterpret_cast<uintptr_t>(P);
  return CUDA_SUCCESS;
}
