//===- Memcpy.cpp - CUDA memory copies and memsets ------------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// cudaMemcpy, cudaMemcpyAsync, cudaMemcpy2D* and cudaMemset* (2D, 3D).
/// Each checks what it touches first (MemCheck.cpp). Copies between the
/// device memory of two devices go to peerCopy (Peer.cpp); copies and
/// memsets of another device's memory run on that device (unified
/// addressing); symbol copies are in Symbols.cpp.
///
//===----------------------------------------------------------------------===//

#include "API/CudaAPI.h"

#include <cstring>
#include <vector>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::api;

namespace {

/// The contexts of \p Dst and \p Src when both are device memory of two
/// contexts on different physical devices (a copy between devices).
bool crossDevice(const CheckedCopy &C, DeviceContext *&DC,
                 DeviceContext *&SC) {
  if (C.Dst.State != Runtime::RangeState::Inside ||
      C.Src.State != Runtime::RangeState::Inside ||
      C.Dst.A.Kind != AllocKind::Device || C.Src.A.Kind != AllocKind::Device ||
      C.Dst.A.Device == C.Src.A.Device)
    return false;
  DC = C.Dst.Owner;
  SC = C.Src.Owner;
  return DC && SC && DC->Dev != SC->Dev;
}

/// The context of device memory \p R when it is on another physical device
/// than \p S's (unified addressing: the operation runs on the memory's
/// device), else null.
DeviceContext *foreignOwner(const CheckedRange &R, const StreamObj &S) {
  if (R.State != Runtime::RangeState::Inside ||
      (R.A.Kind != AllocKind::Device && R.A.Kind != AllocKind::Managed) ||
      !R.Owner || R.Owner->Dev == S.Ctx->Dev)
    return nullptr;
  return R.Owner;
}

/// Runs \p Op on the legacy stream of \p Owner, after the work queued on
/// \p S, and waits for it.
template <typename Fn>
cudaError_t onOwner(StreamObj &S, DeviceContext *Owner, Fn Op) {
  if (cudaError_t E = syncStream(S))
    return E;
  Runtime &R = RT();
  int Saved = R.currentIndex();
  R.setCurrentIndex(Owner->Index);
  cudaError_t E = Op();
  R.setCurrentIndex(Saved);
  return E;
}

cudaError_t memsetImpl(void *Dst, int Value, size_t N, cudaStream_t Stream,
                       bool Sync, const char *Who = "cudaMemset") {
  StreamObj *S;
  if (cudaError_t E = resolve(Stream, S))
    return E;
  if (N == 0)
    return cudaSuccess;
  CheckedRange C;
  if (cudaError_t E = checkRange(Dst, N, MemSide::Device, Who, C))
    return E;
  bool Captured; // stream capture: a memset node (Capture.cpp)
  if (cudaError_t E = captureWork(
          *S, Who,
          [&](GraphNode &Nd) {
            Nd.Kind = NodeKind::Memset;
            Nd.Set = {Dst, 0, unsigned(Value) & 0xffu, 1, N, 1};
            return cudaSuccess;
          },
          Captured))
    return E;
  if (Captured)
    return cudaSuccess;
  if (C.AsHost) { // page-locked memory the device cannot reach
    if (cudaError_t E = syncStream(*S))
      return E;
    std::memset(Dst, Value, N);
    return cudaSuccess;
  }
  if (DeviceContext *Owner = foreignOwner(C, *S))
    return onOwner(*S, Owner, [&] {
      return memsetImpl(Dst, Value, N, nullptr, true, Who);
    });
  {
    std::lock_guard<std::recursive_mutex> Lock(S->Ctx->M);
    RT().orderLegacy(*S);
    if (cudaError_t E = mapStatus(*S->Ctx, S->Q->memset(Dst, Value, N)))
      return E;
  }
  return Sync ? syncStream(*S) : cudaSuccess;
}

cudaError_t memset2D(void *Dst, size_t Pitch, int Value, size_t Width,
                     size_t Height, size_t Depth, size_t SlicePitch,
                     cudaStream_t Stream, bool Sync, const char *Who) {
  StreamObj *S;
  if (cudaError_t E = resolve(Stream, S))
    return E;
  if (Width > Pitch)
    return cudaErrorInvalidValue; // CUDA 13: not cudaErrorInvalidPitchValue
  if (!Width || !Height || !Depth)
    return cudaSuccess;
  size_t Slice, Bytes;
  if (!regionBytes(Pitch, Width, Height, Slice) ||
      !regionBytes(SlicePitch, Slice, Depth, Bytes))
    return cudaErrorInvalidValue;
  CheckedRange C;
  if (cudaError_t E = checkRange(Dst, Bytes, MemSide::Device, Who, C))
    return E;
  // Stream capture (Capture.cpp): one 2D memset node per slice, as CUDA.
  bool Captured = false;
  for (size_t Z = 0; Z < Depth; ++Z) {
    if (cudaError_t E = captureWork(
            *S, Who,
            [&](GraphNode &N) {
              N.Kind = NodeKind::Memset;
              N.Set = {static_cast<char *>(Dst) + Z * SlicePitch,
                       Pitch,
                       unsigned(Value) & 0xffu,
                       1,
                       Width,
                       Height};
              return cudaSuccess;
            },
            Captured))
      return E;
    if (!Captured)
      break;
  }
  if (Captured)
    return cudaSuccess;
  for (size_t Z = 0; Z < Depth; ++Z)
    for (size_t Row = 0; Row < Height; ++Row)
      if (cudaError_t E = memsetImpl(static_cast<char *>(Dst) +
                                         Z * SlicePitch + Row * Pitch,
                                     Value, Width, Stream, false, Who))
        return E;
  return Sync ? syncStream(*S) : cudaSuccess;
}

cudaError_t memcpy2D(void *Dst, size_t DPitch, const void *Src,
                     size_t SPitch, size_t Width, size_t Height,
                     cudaMemcpyKind Kind, cudaStream_t Stream,
                     bool Sync) {
  StreamObj *S;
  if (cudaError_t E = resolve(Stream, S))
    return E;
  CopyKind K;
  if (cudaError_t E = copyKind(Dst, Src, Kind, K))
    return E;
  if (Width > DPitch || Width > SPitch)
    return cudaErrorInvalidPitchValue;
  if (!Width || !Height)
    return cudaSuccess;
  size_t DB, SB;
  if (!regionBytes(DPitch, Width, Height, DB) ||
      !regionBytes(SPitch, Width, Height, SB))
    return cudaErrorInvalidValue;
  // Freed memory in a device-to-device copy: CUDA 13's silent success, as
  // for 1D copies (array copies check their linear side first and refuse
  // it, as CUDA 13 does).
  CheckedCopy C;
  if (cudaError_t E = checkCopy(Dst, DB, Src, SB, K, "cudaMemcpy2D",
                                /*FreedIsNoop=*/true, C))
    return E;
  if (C.Skip)
    return cudaSuccess;
  bool Captured; // stream capture: one memcpy node (Capture.cpp), as CUDA
  if (cudaError_t E = captureWork(
          *S, Sync ? "cudaMemcpy2D" : "cudaMemcpy2DAsync",
          [&](GraphNode &N) {
            N.Kind = NodeKind::Memcpy;
            N.Copy = cudaMemcpy3DParms{};
            N.Copy.srcPtr = {const_cast<void *>(Src), SPitch, Width, Height};
            N.Copy.dstPtr = {Dst, DPitch, Width, Height};
            N.Copy.extent = {Width, Height, 1};
            N.Copy.kind = Kind;
            return cudaSuccess;
          },
          Captured))
    return E;
  if (Captured)
    return cudaSuccess;
  for (size_t Row = 0; Row < Height; ++Row)
    if (cudaError_t E = memcpyImpl(static_cast<char *>(Dst) + Row * DPitch,
                                   static_cast<const char *>(Src) + Row * SPitch,
                                   Width, Kind, Stream, false))
      return E;
  return Sync ? syncStream(*S) : cudaSuccess;
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
  CheckedCopy C;
  if (cudaError_t E = checkCopy(Dst, N, Src, N, K, "cudaMemcpy",
                                /*FreedIsNoop=*/true, C))
    return E;
  if (C.Skip)
    return cudaSuccess;
  bool Captured; // stream capture: a memcpy node (Capture.cpp)
  if (cudaError_t E = captureCopy(*S, Sync ? "cudaMemcpy" : "cudaMemcpyAsync",
                                  Dst, Src, N, Kind, Captured))
    return E;
  if (Captured)
    return cudaSuccess;
  if (C.Dst.AsHost || C.Src.AsHost) {
    // Page-locked memory the device cannot reach is host memory here.
    bool DstDev = !C.Dst.AsHost && (K == CopyKind::HostToDevice ||
                                    K == CopyKind::DeviceToDevice);
    bool SrcDev = !C.Src.AsHost && (K == CopyKind::DeviceToHost ||
                                    K == CopyKind::DeviceToDevice);
    K = DstDev ? (SrcDev ? CopyKind::DeviceToDevice : CopyKind::HostToDevice)
               : (SrcDev ? CopyKind::DeviceToHost : CopyKind::HostToHost);
  }
  // Device memory of two devices (unified addressing: cudaMemcpyDefault or
  // DeviceToDevice): a peer copy, as CUDA does.
  DeviceContext *DC, *SC;
  if (K == CopyKind::DeviceToDevice && crossDevice(C, DC, SC))
    return peerCopy(DC, Dst, SC, Src, N, S, Sync);
  // Host memory and the memory of another device: a copy on that device.
  DeviceContext *Owner = nullptr;
  if (K == CopyKind::HostToDevice)
    Owner = foreignOwner(C.Dst, *S);
  else if (K == CopyKind::DeviceToHost)
    Owner = foreignOwner(C.Src, *S);
  if (Owner)
    return onOwner(*S, Owner, [&] {
      return memcpyImpl(Dst, Src, N, Kind, nullptr, true);
    });
  if (cudaError_t E = enqueueCopy(*S, Dst, Src, N, K))
    return E;
  return Sync || copyNeedsSync(Dst, Src, K) ? syncStream(*S) : cudaSuccess;
}

HETGPU_API cudaError_t cudaMemcpy(void *Dst, const void *Src, size_t N,
                                  enum cudaMemcpyKind Kind) {
  if (cudaError_t E = captureUnsafe("cudaMemcpy"))
    return ret(E);
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
  if (cudaError_t E = captureUnsafe("cudaMemcpy2D"))
    return ret(E);
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
  if (cudaError_t E = captureUnsafe("cudaMemset"))
    return ret(E);
  return ret(memsetImpl(Dst, Value, N, nullptr, true));
}

HETGPU_API cudaError_t cudaMemsetAsync(void *Dst, int Value, size_t N,
                                       cudaStream_t S) {
  return ret(memsetImpl(Dst, Value, N, S, false));
}

HETGPU_API cudaError_t cudaMemset2D(void *Dst, size_t Pitch, int Value,
                                    size_t Width, size_t Height) {
  if (cudaError_t E = captureUnsafe("cudaMemset2D"))
    return ret(E);
  return ret(memset2D(Dst, Pitch, Value, Width, Height, 1, 0, nullptr, true,
                      "cudaMemset2D"));
}

HETGPU_API cudaError_t cudaMemset2DAsync(void *Dst, size_t Pitch, int Value,
                                         size_t Width, size_t Height,
                                         cudaStream_t S) {
  return ret(memset2D(Dst, Pitch, Value, Width, Height, 1, 0, S, false,
                      "cudaMemset2DAsync"));
}

namespace {
cudaError_t memset3D(cudaPitchedPtr P, int Value, cudaExtent E,
                     cudaStream_t S, bool Sync) {
  size_t Rows = P.ysize ? P.ysize : E.height;
  size_t SlicePitch;
  if (__builtin_mul_overflow(P.pitch, Rows, &SlicePitch))
    return cudaErrorInvalidValue;
  return memset2D(P.ptr, P.pitch, Value, E.width, E.height, E.depth,
                  SlicePitch, S, Sync,
                  Sync ? "cudaMemset3D" : "cudaMemset3DAsync");
}
} // namespace

HETGPU_API cudaError_t cudaMemset3D(cudaPitchedPtr P, int Value,
                                    cudaExtent E) {
  if (cudaError_t Err = captureUnsafe("cudaMemset3D"))
    return ret(Err);
  return ret(memset3D(P, Value, E, nullptr, true));
}

HETGPU_API cudaError_t cudaMemset3DAsync(cudaPitchedPtr P, int Value,
                                         cudaExtent E, cudaStream_t S) {
  return ret(memset3D(P, Value, E, S, false));
}
