//===- Functions.cpp - CUDA function attributes ---------------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// cudaFuncGetAttributes, cudaFuncSetAttribute, cudaFuncSetCacheConfig and
/// cudaFuncSetSharedMemConfig, for `__global__` functions registered by their
/// host stubs; the attributes come from the container's KernelInfo and the
/// current device's properties.
///
//===----------------------------------------------------------------------===//

#include "API/CudaAPI.h"
#include "hetgpu/ABI/Profile.h"

#include <algorithm>
#include <cstring>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::api;

HETGPU_API cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *Attr,
                                             const void *Func) {
  if (!Attr)
    return ret(cudaErrorInvalidValue);
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  KernelRecord *K = RT().findKernel(Func);
  if (!K) // CUDA 13 (H200); CUDA 12: cudaErrorInvalidDeviceFunction
    return ret(cudaErrorInvalidResourceHandle);
  if (!K->Bin || !K->Bin->Valid)
    return ret(cudaErrorInvalidKernelImage);
  const DeviceProperties &P = Ctx->Dev->properties();
  memset(Attr, 0, sizeof(*Attr));
  uint64_t Static = K->Info ? K->Info->StaticShared : 0;
  Attr->sharedSizeBytes = Static;
  Attr->constSizeBytes = 0;
  Attr->localSizeBytes = 0;
  Attr->maxThreadsPerBlock =
      K->Info && K->Info->MaxThreads
          ? static_cast<int>(std::min(K->Info->MaxThreads, P.MaxThreadsPerBlock))
          : static_cast<int>(P.MaxThreadsPerBlock);
  Attr->numRegs = 32;
  // Every kernel was compiled for the portable profile (ABI/Profile.h):
  // libraries match their host-side policy choice against it.
  Attr->ptxVersion = abi::ProfilePTXVersion;
  Attr->binaryVersion = abi::ProfilePTXVersion;
  Attr->maxDynamicSharedSizeBytes =
      K->MaxDynamicShared >= 0
          ? K->MaxDynamicShared
          : static_cast<int>(P.SharedMemPerBlock > Static
                                 ? P.SharedMemPerBlock - Static
                                 : 0);
  Attr->preferredShmemCarveout = -1;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaFuncSetAttribute(const void *Func,
                                            enum cudaFuncAttribute Attr,
                                            int Value) {
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  KernelRecord *K = RT().findKernel(Func);
  if (!K)
    return ret(cudaErrorInvalidDeviceFunction);
  const DeviceProperties &P = Ctx->Dev->properties();
  uint64_t Static = K->Info ? K->Info->StaticShared : 0;
  switch (Attr) {
  case cudaFuncAttributeMaxDynamicSharedMemorySize:
    if (Value < 0 || uint64_t(Value) + Static > P.SharedMemPerBlockOptin)
      return ret(cudaErrorInvalidValue);
    K->MaxDynamicShared = Value;
    return cudaSuccess;
  case cudaFuncAttributePreferredSharedMemoryCarveout:
    if (Value < -1 || Value > 100)
      return ret(cudaErrorInvalidValue);
    return cudaSuccess;
  default:
    return ret(cudaErrorInvalidValue);
  }
}

HETGPU_API cudaError_t cudaFuncSetCacheConfig(const void *Func,
                                              enum cudaFuncCache) {
  return RT().findKernel(Func) ? cudaSuccess
                               : ret(cudaErrorInvalidDeviceFunction);
}

HETGPU_API cudaError_t cudaFuncSetSharedMemConfig(const void *Func,
                                                  enum cudaSharedMemConfig) {
  return RT().findKernel(Func) ? cudaSuccess
                               : ret(cudaErrorInvalidDeviceFunction);
}
