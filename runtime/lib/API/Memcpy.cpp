//===- Memcpy.cpp - CUDA memory copies and memsets ------------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// cudaMemcpy, cudaMemcpyAsync, cudaMemcpy2D* and cudaMemset*. Copies
/// between the device memory of two devices go to peerCopy (Peer.cpp);
/// symbol copies are in Symbols.cpp.
///
//===----------------------------------------------------------------------===//

#include "API/CudaAPI.h"

#include <vector>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::api;

namespace {

cudaError_t copyKind(const void *Dst, const void *Src, cudaMemcpyKind Kind,
                     CopyKind &Out) {
  switch (Kind) {
  case cudaMemcpyHostToHost:
    Out = CopyKind::HostToHost;
    return cudaSuccess;
  case cudaMemcpyHostToDevice:
    Out = CopyKind::HostToDevice;
    return cudaSuccess;
  case cudaMemcpyDeviceToHost:
    Out = CopyKind::DeviceToHost;
    return cudaSuccess;
  case cudaMemcpyDeviceToDevice:
    Out = CopyKind::DeviceToDevice;
    return cudaSuccess;
  case cudaMemcpyDefault: {
    bool D = isDevicePtr(Dst), S = isDevicePtr(Src);
    Out = D ? (S ? CopyKind::DeviceToDevice : CopyKind::HostToDevice)
            : (S ? CopyKind::DeviceToHost : CopyKind::HostToHost);
    return cudaSuccess;
  }
  }
  return cudaErrorInvalidMemcpyDirection;
}

/// The contexts of \p Dst and \p Src when both are device memory of two
/// contexts on different physical devices (a copy between devices).
bool crossDevice(const void *Dst, const void *Src, DeviceContext *&DC,
                 DeviceContext *&SC) {
  Allocation AD, AS;
  if (!RT().findAlloc(Dst, AD) || !RT().findAlloc(Src, AS) ||
      AD.Kind != AllocKind::Device || AS.Kind != AllocKind::Device ||
      AD.Device == AS.Device)
    return false;
  DC = RT().context(AD.Device);
  SC = RT().context(AS.Device);
  return DC && SC && DC->Dev != SC->Dev;
}

cudaError_t memsetImpl(void *Dst, int Value, size_t N, cudaStream_t Stream,
                       bool Sync) {
  StreamObj *S;
  if (cudaError_t E = resolve(Stream, S))
    return E;
  if (N == 0)
    return cudaSuccess;
  if (!Dst)
    return cudaErrorInvalidValue;
  {
    std::lock_guard<std::recursive_mutex> Lock(S->Ctx->M);
    RT().orderLegacy(*S);
    if (cudaError_t E = mapStatus(*S->Ctx, S->Q->memset(Dst, Value, N)))
      return E;
  }
  return Sync ? syncStream(*S) : cudaSuccess;
}

cudaError_t memcpy2D(void *Dst, size_t DPitch, const void *Src,
                     size_t SPitch, size_t Width, size_t Height,
                     cudaMemcpyKind Kind, cudaStream_t Stream,
                     bool Sync) {
  if (Width > DPitch || Width > SPitch)
    return cudaErrorInvalidPitchValue;
  for (size_t Row = 0; Row < Height; ++Row)
    if (cudaError_t E = memcpyImpl(static_cast<char *>(Dst) + Row * DPitch,
                                   static_cast<const char *>(Src) + Row * SPitch,
                                   Width, Kind, Stream, false))
      return E;
  if (!Sync)
    return cudaSuccess;
  StreamObj *S;
  if (cudaError_t E = resolve(Stream, S))
    return E;
  return syncStream(*S);
}

} // namespace

cudaError_t api::memcpyImpl(void *Dst, const void *Src, size_t N,
                            cudaMemcpyKind Kind, cudaStream_t Stream,
                            bool Sync) {
  StreamObj *S;
  if (cudaError_t E = resolve(Stream, S))
    return E;
  CopyKind K;
  if (cudaError_t E = copyKind(Dst, Src, Kind, K))
    return E;
  if (N == 0)
    return cudaSuccess;
  if (!Dst || !Src)
    return cudaErrorInvalidValue;
  // Device memory of two devices (unified addressing: cudaMemcpyDefault or
  // DeviceToDevice): a peer copy, as CUDA does.
  DeviceContext *DC, *SC;
  if (K == CopyKind::DeviceToDevice && crossDevice(Dst, Src, DC, SC))
    return peerCopy(DC, Dst, SC, Src, N, S, Sync);
  if (cudaError_t E = enqueueCopy(*S, Dst, Src, N, K))
    return E;
  return Sync || copyNeedsSync(Dst, Src, K) ? syncStream(*S) : cudaSuccess;
}

HETGPU_API cudaError_t cudaMemcpy(void *Dst, const void *Src, size_t N,
                                  enum cudaMemcpyKind Kind) {
  return ret(memcpyImpl(Dst, Src, N, Kind, nullptr, true));
}

HETGPU_API cudaError_t cudaMemcpyAsync(void *Dst, const void *Src, size_t N,
                                       enum cudaMemcpyKind Kind,
                                       cudaStream_t S) {
  return ret(memcpyImpl(Dst, Src, N, Kind, S, false));
}

HETGPU_API cudaError_t cudaMemcpy2D(void *Dst, size_t DPitch, const void *Src,
                                    size_t SPitch, size_t Width, size_t Height,
                                    enum cudaMemcpyKind Kind) {
  return ret(memcpy2D(Dst, DPitch, Src, SPitch, Width, Height, Kind, nullptr,
                      true));
}

HETGPU_API cudaError_t cudaMemcpy2DAsync(void *Dst, size_t DPitch,
                                         const void *Src, size_t SPitch,
                                         size_t Width, size_t Height,
                                         enum cudaMemcpyKind Kind,
                                         cudaStream_t S) {
  return ret(memcpy2D(Dst, DPitch, Src, SPitch, Width, Height, Kind, S, false));
}

HETGPU_API cudaError_t cudaMemset(void *Dst, int Value, size_t N) {
  return ret(memsetImpl(Dst, Value, N, nullptr, true));
}

HETGPU_API cudaError_t cudaMemsetAsync(void *Dst, int Value, size_t N,
                                       cudaStream_t S) {
  return ret(memsetImpl(Dst, Value, N, S, false));
}

HETGPU_API cudaError_t cudaMemset2D(void *Dst, size_t Pitch, int Value,
                                    size_t Width, size_t Height) {
  if (Width > Pitch)
    return ret(cudaErrorInvalidPitchValue);
  for (size_t Row = 0; Row < Height; ++Row)
    if (cudaError_t E = memsetImpl(static_cast<char *>(Dst) + Row * Pitch,
                                   Value, Width, nullptr, false))
      return ret(E);
  StreamObj *S;
  if (cudaError_t E = resolve(nullptr, S))
    return ret(E);
  return ret(syncStream(*S));
}
