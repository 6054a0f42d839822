//===- NVIDIAPeers.cpp - Peer access and GPU-to-GPU migration -------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Two NVIDIA devices: peer access (cuCtxEnablePeerAccess for ordinary
/// allocations, cuMemSetAccess for arena pages), copies between them, and
/// live migration of an arena range straight from one GPU to the other.
///
//===----------------------------------------------------------------------===//

#include "Backends/NVIDIA/NVIDIADevice.h"
#include "Core/Log.h"
#include "Core/UnifiedMemory.h"

#include <cstring>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::cu;

Status NVIDIAQueue::copyPeer(void *Dst, Device &DstDev, const void *Src,
                             Device &SrcDev, size_t Bytes) {
  auto *To = dynamic_cast<NVIDIADevice *>(&DstDev);
  auto *From = dynamic_cast<NVIDIADevice *>(&SrcDev);
  if (!To || !From || (To->context() != Ctx && From->context() != Ctx))
    return Queue::copyPeer(Dst, DstDev, Src, SrcDev, Bytes);
  if (Bytes == 0)
    return Status::ok();
  // Memory at unified addresses (VMM) is reachable by the GPU running the
  // copy only with peer access (cuMemSetAccess); without it the caller
  // stages the bytes through the host.
  NVIDIADevice &Runner = From->context() == Ctx ? *From : *To;
  if (!Runner.reaches(*To, Dst) || !Runner.reaches(*From, Src))
    return Status(ErrorCode::NotSupported,
                  "GPU " + std::to_string(Runner.ordinal()) +
                      " has no peer access to the other GPU's memory at "
                      "unified addresses");
  ContextScope S(D, Ctx);
  return check(D,
               D.MemcpyPeerAsync(dptr(Dst), To->context(), dptr(Src),
                                 From->context(), Bytes, Stream),
               "cuMemcpyPeerAsync");
}

bool NVIDIADevice::canAccessPeer(Device &PeerDev) {
  auto *P = dynamic_cast<NVIDIADevice *>(&PeerDev);
  if (!P || P == this)
    return false;
  int Can = 0;
  return D.DeviceCanAccessPeer(&Can, Dev, P->Dev) == CUDA_SUCCESS && Can;
}

Status NVIDIADevice::enablePeerAccess(Device &PeerDev) {
  auto *P = dynamic_cast<NVIDIADevice *>(&PeerDev);
  if (!P || P == this)
    return Device::enablePeerAccess(PeerDev);
  {
    ContextScope S(D, Ctx);
    CUresult R = D.CtxEnablePeerAccess(P->Ctx, 0);
    if (R == CUDA_ERROR_PEER_ACCESS_UNSUPPORTED)
      return Status(ErrorCode::NotSupported,
                    "cuCtxEnablePeerAccess: " + D.describe(R));
    if (R != CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED)
      if (Status St = check(D, R, "cuCtxEnablePeerAccess"))
        return St;
  }
  return grantArenaAccess(*P, /*On=*/true);
}

Status NVIDIADevice::disablePeerAccess(Device &PeerDev) {
  auto *P = dynamic_cast<NVIDIADevice *>(&PeerDev);
  if (!P || P == this)
    return Device::disablePeerAccess(PeerDev);
  ContextScope S(D, Ctx);
  // Kernels of this GPU may still read the peer's memory.
  if (Status St = check(D, D.CtxSynchronize(), "cuCtxSynchronize"))
    return St;
  CUresult R = D.CtxDisablePeerAccess(P->Ctx);
  if (R != CUDA_ERROR_PEER_ACCESS_NOT_ENABLED)
    if (Status St = check(D, R, "cuCtxDisablePeerAccess"))
      return St;
  return grantArenaAccess(*P, /*On=*/false);
}

Status NVIDIADevice::grantArenaAccess(NVIDIADevice &P, bool On) {
  if (!P.useArena())
    return Status::ok();
  std::lock_guard<std::mutex> L(VM);
  if (On)
    P.AccessFrom.insert(Ordinal);
  else
    P.AccessFrom.erase(Ordinal);
  return P.setPeerAccess(Ordinal, /*ReadWrite=*/On);
}

bool NVIDIADevice::reaches(NVIDIADevice &Owner, const void *Ptr) {
  if (&Owner == this || !Arena::get().contains(Ptr))
    return true;
  std::lock_guard<std::mutex> L(VM);
  return Owner.AccessFrom.count(Ordinal) != 0;
}

Status NVIDIADevice::transferArenaRange(Device &ToDev, void *Ptr,
                                        size_t Bytes) {
  auto *To = dynamic_cast<NVIDIADevice *>(&ToDev);
  if (!To || To == this)
    return Device::transferArenaRange(ToDev, Ptr, Bytes);
  if (!useArena() || !To->useArena())
    return Status(ErrorCode::NotSupported,
                  Props.Name + " -> " + To->Props.Name +
                      ": GPU memory is not at unified addresses (" +
                      (ArenaWhy.empty() ? To->ArenaWhy : ArenaWhy) + ")");
  if (!canAccessPeer(*To))
    return Status(ErrorCode::NotSupported,
                  "GPU " + std::to_string(Ordinal) +
                      " cannot write the "
                      "memory of GPU " +
                      std::to_string(To->Ordinal) +
                      " (cuDeviceCanAccessPeer says 0)");
  if (!Ptr)
    return Status::ok(); // the capability query
  auto T0 = std::chrono::steady_clock::now();
  ContextScope S(D, Ctx);
  if (Status St = check(D, D.CtxSynchronize(), "cuCtxSynchronize"))
    return St;
  std::lock_guard<std::mutex> L(VM);
  uint64_t A = reinterpret_cast<uint64_t>(Ptr);
  auto It = Attached.find(A);
  if (It == Attached.end())
    return Status(ErrorCode::InvalidDevicePointer,
                  "nvidia: " + hexAddr(A) + " is not memory of GPU " +
                      std::to_string(Ordinal));
  uint64_t Len = It->second;
  // Spans this GPU maps under the allocation. A granule it shares with
  // another allocation moves with the first of them (a context moves all
  // of its allocations); a granule already on the target has moved so.
  const uint64_t End = (A + Len + Gran - 1) / Gran * Gran;
  std::vector<std::pair<uint64_t, Span>> Move;
  for (uint64_t Pg = A / Gran * Gran; Pg < End;) {
    auto It = spanAt(Pg);
    if (It != Spans.end()) {
      Move.push_back(*It);
      Pg = It->first + It->second.Bytes;
      continue;
    }
    auto Th = To->spanAt(Pg);
    if (Th == To->Spans.end())
      return Status(ErrorCode::InvalidDevicePointer,
                    "nvidia: page " + hexAddr(Pg) + " of " + hexAddr(A) +
                        " is mapped by neither GPU");
    Pg = Th->first + Th->second.Bytes;
  }
  // The target's spans are made at a staging range (both GPUs may access
  // it), one after the other.
  std::vector<unsigned long long> New(Move.size(), 0);
  std::vector<uint64_t> At(Move.size());
  size_t Mapped = 0;
  CUdeviceptr Tmp = 0;
  size_t TmpLen = 0;
  for (size_t I = 0; I < Move.size(); ++I)
    At[I] = TmpLen, TmpLen += Move[I].second.Bytes;
  auto Undo = [&] {
    for (size_t I = 0; I < Mapped; ++I)
      Vmm->Unmap(Tmp + At[I], Move[I].second.Bytes);
    for (unsigned long long H : New)
      if (H)
        Vmm->Release(H);
    if (Tmp)
      Vmm->AddressFree(Tmp, TmpLen);
  };
  if (!Move.empty()) {
    if (Status St = check(D, Vmm->AddressReserve(&Tmp, TmpLen, Gran, 0, 0),
                          "cuMemAddressReserve (staging the move)"))
      return St;
    VmmProp P{};
    P.Type = 1;
    P.Location = {1, To->Ordinal};
    VmmAccess Both[2] = {{{1, To->Ordinal}, 3}, {{1, Ordinal}, 3}};
    Status St;
    for (size_t I = 0; I < Move.size() && St.isOk(); ++I) {
      uint64_t N = Move[I].second.Bytes;
      St = check(D, Vmm->Create(&New[I], N, &P, 0), "cuMemCreate");
      if (St.isOk())
        St = check(D, Vmm->Map(Tmp + At[I], N, 0, New[I], 0),
                   "cuMemMap (staging the move)");
      if (St.isOk())
        ++Mapped;
    }
    if (St.isOk())
      St = check(D, Vmm->SetAccess(Tmp, TmpLen, Both, 2),
                 "cuMemSetAccess (staging the move)");
    // Runs of consecutive spans, one copy each, on the legacy stream of
    // this GPU's context (idle: synchronised above).
    for (size_t I = 0; I < Move.size() && St.isOk();) {
      size_t J = I + 1;
      while (J < Move.size() &&
             Move[J].first == Move[J - 1].first + Move[J - 1].second.Bytes)
        ++J;
      uint64_t N = Move[J - 1].first + Move[J - 1].second.Bytes - Move[I].first;
      St = check(D, D.MemcpyDtoDAsync(Tmp + At[I], Move[I].first, N, nullptr),
                 "cuMemcpyDtoDAsync (GPU to GPU)");
      I = J;
    }
    if (St.isOk())
      St = check(D, D.CtxSynchronize(), "cuCtxSynchronize (GPU to GPU)");
    if (St) {
      Undo();
      return St;
    }
  }
  // From here on the range changes GPU.
  std::vector<VmmAccess> Acc = To->accessList();
  Status St;
  for (size_t I = 0; I < Move.size(); ++I) {
    auto [S, Sp] = Move[I];
    Vmm->Unmap(S, Sp.Bytes);
    Vmm->Release(Sp.Handle);
    Spans.erase(S);
    CUresult R = Vmm->Map(S, Sp.Bytes, 0, New[I], 0);
    if (R == CUDA_SUCCESS)
      R = Vmm->SetAccess(S, Sp.Bytes, Acc.data(), Acc.size());
    if (R != CUDA_SUCCESS && St.isOk())
      St = check(D, R, "cuMemMap/cuMemSetAccess (GPU to GPU)");
    if (R == CUDA_SUCCESS) {
      To->Spans[S] = {Sp.Bytes, New[I]};
      New[I] = 0; // owned by the target now
    }
  }
  Undo(); // the staging mapping (and handles of pages that failed)
  Attached.erase(It);
  To->Attached[A] = Len;
  if (logEnabled(LogLevel::Info)) {
    double Ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - T0)
                    .count();
    log(LogLevel::Info, "nvidia: " + std::to_string(Len) + " bytes at " +
                            hexAddr(A) + " moved GPU " +
                            std::to_string(Ordinal) + " -> GPU " +
                            std::to_string(To->Ordinal) + " peer-to-peer (" +
                            std::to_string(Move.size()) + " mappings, " +
                            std::to_string(Ms) + " ms)");
  }
  return St;
}

std::vector<VmmAccess> NVIDIADevice::accessList() const {
  std::vector<VmmAccess> Acc{{{1, Ordinal}, 3}};
  for (int O : AccessFrom)
    Acc.push_back({{1, O}, 3});
  return Acc;
}

Status NVIDIADevice::setPeerAccess(int Peer, bool ReadWrite) {
  ContextScope S(D, Ctx);
  VmmAccess Acc{{1, Peer}, ReadWrite ? 3 : 0};
  for (auto &[S, Sp] : Spans)
    if (Status St = check(D, Vmm->SetAccess(S, Sp.Bytes, &Acc, 1),
                          "cuMemSetAccess (peer access)"))
      return St;
  return Status::ok();
}
