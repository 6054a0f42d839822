//===- Peer.cpp - CUDA peer access and peer copies ------------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// cudaDeviceCanAccessPeer / EnablePeerAccess / DisablePeerAccess and the
/// copies between the memory of two devices (cudaMemcpyPeer*, and cudaMemcpy*
/// when both pointers are device memory of different devices): one physical
/// device, one memory (devices sharing the arena, Core/UnifiedMemory.h), a
/// backend peer copy (Queue::copyPeer), or staged through host memory.
///
//===----------------------------------------------------------------------===//

#include "API/CudaAPI.h"
#include "Core/CudaErrors.h"
#include "Core/Log.h"

#include <cstring>
#include <vector>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::api;

namespace {

/// Two devices reach each other's memory directly when both keep it in the
/// process-wide arena (Core/UnifiedMemory.h: the CPU device, tt-sim and
/// OpenCL CPU devices of a process with HETGPU_MIGRATE or HETGPU_ARENA=1):
/// one address space, one physical memory.
bool sharesMemory(DeviceContext *A, DeviceContext *B) {
  return A && B && A != B && A->Dev->sharesArena() && B->Dev->sharesArena();
}

/// Two devices with memory of their own whose backend connects them (two
/// NVIDIA GPUs with peer-to-peer: Device::canAccessPeer).
bool peerCapable(DeviceContext *A, DeviceContext *B) {
  return A && B && A->Dev != B->Dev && A->Dev->canAccessPeer(*B->Dev);
}

/// The default stream of context \p Ctx.
cudaError_t nullStreamOf(DeviceContext *Ctx, StreamObj *&Out) {
  Runtime &R = RT();
  int Saved = R.currentIndex();
  R.setCurrentIndex(Ctx->Index);
  cudaError_t E = resolve(nullptr, Out);
  R.setCurrentIndex(Saved);
  return E;
}

/// The two CUDA devices of a peer copy (devices the program can name).
cudaError_t peerDevices(int DstDevice, int SrcDevice, DeviceContext *&D,
                        DeviceContext *&S) {
  Runtime &R = RT();
  if (cudaError_t E = R.init())
    return E;
  D = R.context(DstDevice);
  S = R.context(SrcDevice);
  if (!D || !S || DstDevice >= R.deviceCount() || SrcDevice >= R.deviceCount())
    return cudaErrorInvalidDevice;
  return cudaSuccess;
}

} // namespace

HETGPU_API cudaError_t cudaDeviceCanAccessPeer(int *Can, int Device, int Peer) {
  if (!Can)
    return ret(cudaErrorInvalidValue);
  if (cudaError_t E = RT().init())
    return ret(E);
  DeviceContext *D = RT().context(Device), *P = RT().context(Peer);
  if (!D || !P || Device == Peer)
    return ret(cudaErrorInvalidDevice);
  *Can = sharesMemory(D, P) || samePhysical(D, P) || peerCapable(D, P);
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaDeviceEnablePeerAccess(int Peer, unsigned int Flags) {
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  if (Flags)
    return ret(cudaErrorInvalidValue);
  DeviceContext *P = RT().context(Peer);
  if (!P || Peer >= RT().deviceCount())
    return ret(cudaErrorInvalidDevice);
  if (P == Ctx) // CUDA 13: a device is no peer of itself
    return ret(cudaErrorPeerAccessUnsupported);
  // One memory or one device: nothing to map (also after a migration made
  // it so; MoveContext.cpp grants what a later move needs).
  bool Shared = sharesMemory(Ctx, P) || samePhysical(Ctx, P);
  if (!Shared && !peerCapable(Ctx, P))
    return ret(cudaErrorPeerAccessUnsupported);
  std::lock_guard<std::recursive_mutex> Lock(Ctx->M);
  if (Ctx->Peers.count(Peer))
    return ret(cudaErrorPeerAccessAlreadyEnabled);
  // Memory of its own: the backend maps the peer's memory for this device.
  if (!Shared)
    if (Status St = Ctx->Dev->enablePeerAccess(*P->Dev)) {
      log(LogLevel::Error, "cudaDeviceEnablePeerAccess: " + St.Message);
      return ret(St.Code == ErrorCode::NotSupported
                     ? cudaErrorPeerAccessUnsupported
                     : toCudaError(St.Code));
    }
  Ctx->Peers.insert(Peer);
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaDeviceDisablePeerAccess(int Peer) {
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  DeviceContext *P = RT().context(Peer);
  if (!P)
    return ret(cudaErrorInvalidDevice);
  std::lock_guard<std::recursive_mutex> Lock(Ctx->M);
  if (!Ctx->Peers.count(Peer))
    return ret(cudaErrorPeerAccessNotEnabled);
  if (!sharesMemory(Ctx, P) && Ctx->Dev != P->Dev)
    if (Status St = Ctx->Dev->disablePeerAccess(*P->Dev)) {
      log(LogLevel::Error, "cudaDeviceDisablePeerAccess: " + St.Message);
      return ret(toCudaError(St.Code));
    }
  Ctx->Peers.erase(Peer);
  return cudaSuccess;
}

/// Copies \p N bytes of device memory from \p Src (context \p S) to
/// \p Dst (context \p D). \p Q null: cudaMemcpyPeer, ordered after all
/// work of both devices and finished on return; else queued on \p Q (and
/// waited for when \p Sync). In order of preference: one physical device
/// (a device-to-device copy), one memory (devices sharing the arena),
/// straight between two devices with memory of their own (Queue::copyPeer,
/// e.g. cuMemcpyPeerAsync between two GPUs), else staged through a host
/// buffer.
cudaError_t api::peerCopy(DeviceContext *D, void *Dst, DeviceContext *S,
                          const void *Src, size_t N, StreamObj *Q,
                          bool Sync) {
  Runtime &R = RT();
  if (N == 0)
    return cudaSuccess;
  // Device memory on both sides, inside its allocation (MemCheck.cpp);
  // freed memory: CUDA 13's silent success.
  CheckedCopy C;
  if (cudaError_t E = checkCopy(Dst, N, Src, N,
                                CopyKind::DeviceToDevice, "cudaMemcpyPeer",
                                /*FreedIsNoop=*/true, C))
    return E;
  if (C.Skip)
    return cudaSuccess;
  if (int St = S->Sticky.load())
    return static_cast<cudaError_t>(St);
  if (int St = D->Sticky.load())
    return static_cast<cudaError_t>(St);
  bool Whole = !Q; // cudaMemcpyPeer: both devices' work first, then wait
  if (Whole) {
    if (Status St = S->Dev->synchronize())
      return mapStatus(*S, St);
    if (D->Dev != S->Dev)
      if (Status St = D->Dev->synchronize())
        return mapStatus(*D, St);
    if (cudaError_t E = nullStreamOf(S, Q))
      return E;
    Sync = true;
  } else if (Sync) {
    // A blocking cudaMemcpy between two devices also waits for the work
    // queued on the device whose stream it is not.
    DeviceContext *Other = Q->Ctx->Dev == S->Dev ? D : S;
    if (Other->Dev != Q->Ctx->Dev)
      if (Status St = Other->Dev->synchronize())
        return mapStatus(*Other, St);
  }
  auto Done = [&]() { return Sync ? syncStream(*Q) : cudaSuccess; };
  // Inside one allocation each, as CUDA requires of peer copies.
  auto Within = [&R, N](const void *P) {
    Allocation A;
    return R.findAlloc(P, A) &&
           reinterpret_cast<uintptr_t>(P) + N <= A.Base + A.Size;
  };
  if (D->Dev == S->Dev && Q->Ctx->Dev == S->Dev) {
    if (cudaError_t E = enqueueCopy(*Q, Dst, Src, N, CopyKind::DeviceToDevice))
      return E;
    return Done();
  }
  if (sharesMemory(D, S) && Within(Src) && Within(Dst)) {
    // One memory: wait for the work before the copy, then copy directly.
    if (cudaError_t E = syncStream(*Q))
      return E;
    std::memmove(Dst, Src, N);
    return cudaSuccess;
  }
  if (Q->Ctx->Dev == S->Dev || Q->Ctx->Dev == D->Dev) {
    Status St;
    {
      std::lock_guard<std::recursive_mutex> Lock(Q->Ctx->M);
      R.orderLegacy(*Q);
      St = Q->Q->copyPeer(Dst, *D->Dev, Src, *S->Dev, N);
    }
    if (St.isOk())
      return Done();
    if (St.Code != ErrorCode::NotSupported)
      return mapStatus(*Q->Ctx, St);
    log(LogLevel::Debug, "peer copy staged through host memory: " + St.Message);
  }
  // Staged through host memory: device-to-host on the source, then
  // host-to-device on the destination, after the work before the copy.
  if (cudaError_t E = syncStream(*Q))
    return E;
  std::vector<char> Tmp(N);
  int Saved = R.currentIndex();
  R.setCurrentIndex(S->Index);
  cudaError_t E = memcpyImpl(Tmp.data(), Src, N, cudaMemcpyDeviceToHost,
                             nullptr, true);
  R.setCurrentIndex(D->Index);
  if (!E)
    E = memcpyImpl(Dst, Tmp.data(), N, cudaMemcpyHostToDevice, nullptr, true);
  R.setCurrentIndex(Saved);
  return E;
}

HETGPU_API cudaError_t cudaMemcpyPeer(void *Dst, int DstDevice,
                                      const void *Src, int SrcDevice,
                                      size_t N) {
  DeviceContext *D, *S;
  if (cudaError_t E = peerDevices(DstDevice, SrcDevice, D, S))
    return ret(E);
  return ret(peerCopy(D, Dst, S, Src, N, nullptr, true));
}

HETGPU_API cudaError_t cudaMemcpyPeerAsync(void *Dst, int DstDevice,
                                           const void *Src, int SrcDevice,
                                           size_t N, cudaStream_t Stream) {
  DeviceContext *D, *S;
  if (cudaError_t E = peerDevices(DstDevice, SrcDevice, D, S))
    return ret(E);
  StreamObj *Q;
  if (cudaError_t E = resolve(Stream, Q))
    return ret(E);
  if (cudaError_t E = captureRefuse(*Q, "cudaMemcpyPeerAsync"))
    return ret(E);
  return ret(peerCopy(D, Dst, S, Src, N, Q, false));
}

bool hetgpu::rt::api::samePhysical(const DeviceContext *A,
                                   const DeviceContext *B) {
  return A && B && A != B && A->Dev == B->Dev;
}
