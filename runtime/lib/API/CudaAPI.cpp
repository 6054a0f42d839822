//===- CudaAPI.cpp - Shared helpers of the CUDA API layer -----------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The helpers of API/CudaAPI.h that every group of entry points uses: the
/// current device and stream with their sticky errors, error absorption, and
/// the ordering and synchronisation rules of copies.
///
//===----------------------------------------------------------------------===//

#include "API/CudaAPI.h"
#include "API/EagerCoalesce.h"

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::api;

namespace {

/// Whether \p P is pageable host memory (not from cudaMalloc*, cudaHostAlloc
/// or cudaHostRegister). As in CUDA, an "asynchronous" copy from or to
/// pageable memory returns only once the host buffer has been read or
/// written, so the caller may reuse it at once.
bool isPageable(const void *P) {
  Allocation A;
  return !RT().findAlloc(P, A);
}

} // namespace

/// The current device, or the error of initialisation / a sticky error.
cudaError_t api::currentCtx(DeviceContext *&Ctx, bool CheckSticky) {
  if (cudaError_t E = RT().current(Ctx))
    return E;
  eagerFlushContext(*Ctx); // every call through here may observe work
  if (CheckSticky && Ctx->Sticky.load())
    return static_cast<cudaError_t>(Ctx->Sticky.load());
  return cudaSuccess;
}

cudaError_t api::resolve(cudaStream_t S, StreamObj *&Out) {
  if (cudaError_t E = RT().resolveStream(S, Out))
    return E;
  eagerFlushStream(*Out); // work on it, or on the legacy stream, orders
  if (int St = Out->Ctx->Sticky.load())
    return static_cast<cudaError_t>(St);
  return cudaSuccess;
}

cudaError_t api::mapStatus(DeviceContext &Ctx, const Status &S) {
  return S.isOk() ? cudaSuccess : RT().absorb(Ctx, S);
}

bool api::isDevicePtr(const void *P, int *Dev) {
  Allocation A;
  if (!RT().findAlloc(P, A))
    return false;
  if (Dev)
    *Dev = A.Device;
  return A.Kind == AllocKind::Device || A.Kind == AllocKind::Managed;
}

bool api::copyNeedsSync(const void *Dst, const void *Src, CopyKind K) {
  switch (K) {
  case CopyKind::HostToDevice:
    return isPageable(Src);
  case CopyKind::DeviceToHost:
    return isPageable(Dst);
  case CopyKind::HostToHost:
    return isPageable(Src) || isPageable(Dst);
  case CopyKind::DeviceToDevice:
    return false;
  }
  return true;
}

/// Queues a copy on \p S with the legacy stream's ordering.
cudaError_t api::enqueueCopy(StreamObj &S, void *Dst, const void *Src,
                             size_t N, CopyKind K) {
  std::lock_guard<std::recursive_mutex> Lock(S.Ctx->M);
  RT().orderLegacy(S);
  return mapStatus(*S.Ctx, S.Q->memcpy(Dst, Src, N, K));
}

cudaError_t api::syncStream(StreamObj &S) {
  return mapStatus(*S.Ctx, S.Q->synchronize());
}
