//===- Memory.cpp - CUDA memory allocation --------------------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// cudaMalloc, cudaMallocPitch, cudaFree, host memory (cudaHostAlloc,
/// cudaMallocHost, cudaFreeHost, cudaHostRegister), managed memory,
/// cudaMemGetInfo, cudaPointerGetAttributes, and the managed-memory hints
/// (one copy of managed memory: nothing to move). Every allocation is
/// recorded in Core's allocation table (Runtime::addAlloc), which copies,
/// pointer queries and live migration read.
///
//===----------------------------------------------------------------------===//

#include "API/CudaAPI.h"
#include "Core/KernelMemCheck.h"
#include "Core/CudaErrors.h"

#include <cstring>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::api;

HETGPU_API cudaError_t cudaMalloc(void **Ptr, size_t Size) {
  if (!Ptr)
    return ret(cudaErrorInvalidValue);
  *Ptr = nullptr;
  if (cudaError_t E = captureUnsafe("cudaMalloc"))
    return ret(E);
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  if (Size == 0)
    return cudaSuccess;
  void *P = nullptr;
  // Memcheck: a red zone after the block, so that an access just past it
  // never lands in the next allocation.
  size_t Pad = memCheckEnabled() && Size < SIZE_MAX - 4096 ? MemCheckRedZone : 0;
  if (Status S = Ctx->Dev->allocate(Size + Pad, P))
    return ret(S.Code == ErrorCode::OutOfMemory ? cudaErrorMemoryAllocation
                                                : toCudaError(S.Code));
  RT().addAlloc({reinterpret_cast<uintptr_t>(P), Size, Ctx->Index,
                 AllocKind::Device, 0});
  *Ptr = P;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaMallocPitch(void **Ptr, size_t *Pitch, size_t Width,
                                       size_t Height) {
  if (!Pitch)
    return ret(cudaErrorInvalidValue);
  size_t P = (Width + 255) / 256 * 256;
  if (cudaError_t E = cudaMalloc(Ptr, P * Height))
    return E;
  *Pitch = P;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaFree(void *Ptr) {
  if (cudaError_t E = captureUnsafe("cudaFree"))
    return ret(E);
  // cudaFree(0): CUDA's idiom to create the context up front.
  if (!Ptr)
    return ret(RT().init());
  Runtime &R = RT();
  if (cudaError_t E = R.init())
    return ret(E);
  Allocation A;
  if (!R.findAlloc(Ptr, A) || A.Base != reinterpret_cast<uintptr_t>(Ptr) ||
      (A.Kind != AllocKind::Device && A.Kind != AllocKind::Managed))
    return ret(cudaErrorInvalidValue);
  DeviceContext *Ctx = R.context(A.Device);
  if (int St = Ctx->Sticky.load())
    return ret(static_cast<cudaError_t>(St));
  // cudaFree waits for the device, like CUDA's.
  if (cudaError_t E = mapStatus(*Ctx, Ctx->Dev->synchronize()))
    return ret(E);
  R.removeAlloc(Ptr, AllocKind::Device, A);
  return ret(toCudaError(R.releaseDevice(A, Ctx->Dev).Code));
}

HETGPU_API cudaError_t cudaHostAlloc(void **Ptr, size_t Size,
                                     unsigned int Flags) {
  if (!Ptr)
    return ret(cudaErrorInvalidValue);
  *Ptr = nullptr;
  if (Flags & ~0x7u)
    return ret(cudaErrorInvalidValue);
  if (cudaError_t E = captureUnsafe("cudaHostAlloc"))
    return ret(E);
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  if (Size == 0)
    return cudaSuccess;
  void *P = nullptr;
  if (Status S = Ctx->Dev->allocateHost(Size, P))
    return ret(cudaErrorMemoryAllocation);
  RT().addAlloc({reinterpret_cast<uintptr_t>(P), Size, Ctx->Index,
                 AllocKind::Host, Flags, Ctx->Dev.get()});
  *Ptr = P;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaMallocHost(void **Ptr, size_t Size) {
  return cudaHostAlloc(Ptr, Size, cudaHostAllocDefault);
}

HETGPU_API cudaError_t cudaFreeHost(void *Ptr) {
  if (!Ptr)
    return cudaSuccess;
  if (cudaError_t E = captureUnsafe("cudaFreeHost"))
    return ret(E);
  Runtime &R = RT();
  if (cudaError_t E = R.init())
    return ret(E);
  Allocation A;
  if (!R.removeAlloc(Ptr, AllocKind::Host, A))
    return ret(cudaErrorInvalidValue);
  DeviceContext *Ctx = R.context(A.Device);
  Ctx->Dev->synchronize();
  // The allocating device frees it, also after a migration (Migration.h).
  Device *Owner = A.Owner ? A.Owner : Ctx->Dev.get();
  return ret(toCudaError(Owner->releaseHost(Ptr).Code));
}

HETGPU_API cudaError_t cudaMallocManaged(void **Ptr, size_t Size,
                                         unsigned int Flags) {
  if (!Ptr)
    return ret(cudaErrorInvalidValue);
  *Ptr = nullptr;
  if (Flags != cudaMemAttachGlobal && Flags != cudaMemAttachHost)
    return ret(cudaErrorInvalidValue);
  if (cudaError_t E = captureUnsafe("cudaMallocManaged"))
    return ret(E);
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  if (Size == 0)
    return cudaSuccess; // CUDA 13: success and a null pointer
  void *P = nullptr;
  Status S = Ctx->Dev->allocateManaged(Size, P);
  if (S.Code == ErrorCode::NotSupported && Ctx->Dev->properties().Integrated)
    S = Ctx->Dev->allocate(Size, P);
  if (S)
    return ret(S.Code == ErrorCode::NotSupported ? cudaErrorNotSupported
                                                 : cudaErrorMemoryAllocation);
  RT().addAlloc({reinterpret_cast<uintptr_t>(P), Size, Ctx->Index,
                 AllocKind::Managed, Flags});
  *Ptr = P;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaHostGetDevicePointer(void **PDevice, void *PHost,
                                                unsigned int Flags) {
  if (!PDevice || Flags)
    return ret(cudaErrorInvalidValue);
  Allocation A;
  if (!RT().findAlloc(PHost, A) ||
      (A.Kind != AllocKind::Host && A.Kind != AllocKind::Registered &&
       A.Kind != AllocKind::Managed))
    return ret(cudaErrorInvalidValue);
  DeviceContext *Ctx = RT().context(A.Device);
  if (!Ctx->Dev->properties().Integrated)
    return ret(cudaErrorNotSupported);
  *PDevice = PHost;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaHostGetFlags(unsigned int *Flags, void *PHost) {
  Allocation A;
  if (!Flags || !RT().findAlloc(PHost, A) || A.Kind != AllocKind::Host)
    return ret(cudaErrorInvalidValue);
  *Flags = A.Flags;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaHostRegister(void *Ptr, size_t Size,
                                        unsigned int Flags) {
  if (!Ptr || !Size)
    return ret(cudaErrorInvalidValue);
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  Allocation A;
  if (RT().findAlloc(Ptr, A))
    return ret(cudaErrorHostMemoryAlreadyRegistered);
  RT().addAlloc({reinterpret_cast<uintptr_t>(Ptr), Size, Ctx->Index,
                 AllocKind::Registered, Flags});
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaHostUnregister(void *Ptr) {
  Allocation A;
  if (!RT().removeAlloc(Ptr, AllocKind::Registered, A))
    return ret(cudaErrorHostMemoryNotRegistered);
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaMemGetInfo(size_t *Free, size_t *Total) {
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  // CUDA 13 accepts null outputs (and fills the others).
  size_t F = 0, T = 0;
  cudaError_t E = toCudaError(Ctx->Dev->memoryInfo(F, T).Code);
  if (Free)
    *Free = F;
  if (Total)
    *Total = T;
  return ret(E);
}

HETGPU_API cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *At,
                                                const void *Ptr) {
  if (!At)
    return ret(cudaErrorInvalidValue);
  if (cudaError_t E = RT().init())
    return ret(E);
  memset(At, 0, sizeof(*At));
  Allocation A;
  void *P = const_cast<void *>(Ptr);
  if (!RT().findAlloc(Ptr, A)) {
    At->type = cudaMemoryTypeUnregistered;
    At->device = cudaInvalidDeviceId;
    return cudaSuccess;
  }
  bool Integrated = RT().context(A.Device)->Dev->properties().Integrated;
  At->device = A.Device;
  switch (A.Kind) {
  case AllocKind::Device:
    At->type = cudaMemoryTypeDevice;
    At->devicePointer = P;
    At->hostPointer = Integrated ? P : nullptr;
    break;
  case AllocKind::Managed:
    At->type = cudaMemoryTypeManaged;
    At->devicePointer = P;
    At->hostPointer = P;
    break;
  case AllocKind::Host:
  case AllocKind::Registered:
    At->type = cudaMemoryTypeHost;
    At->hostPointer = P;
    At->devicePointer = Integrated ? P : nullptr;
    break;
  }
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaMemPrefetchAsync(const void *Ptr, size_t, int,
                                            cudaStream_t S) {
  StreamObj *Obj;
  if (cudaError_t E = resolve(S, Obj))
    return ret(E);
  Allocation A;
  if (!RT().findAlloc(Ptr, A) || A.Kind != AllocKind::Managed)
    return ret(cudaErrorInvalidValue);
  return cudaSuccess; // one copy of managed memory: nothing to move
}

HETGPU_API cudaError_t cudaMemAdvise(const void *Ptr, size_t, int, int) {
  Allocation A;
  if (!RT().findAlloc(Ptr, A) || A.Kind != AllocKind::Managed)
    return ret(cudaErrorInvalidValue);
  return cudaSuccess;
}
