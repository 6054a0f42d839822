//===- NVIDIAMemory.cpp - NVIDIA device memory at unified addresses -------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Device, host and managed memory of an NVIDIA device, and the driver's
/// virtual-memory API that places device memory inside the process-wide
/// arena (Core/UnifiedMemory.h), so an allocation keeps its address when a
/// context migrates between this GPU and host-memory devices.
///
//===----------------------------------------------------------------------===//

#include "Backends/NVIDIA/NVIDIADevice.h"
#include "Core/Log.h"
#include "Core/UnifiedMemory.h"
#include "hetgpu/ABI/RVManycore.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <iterator>
#include <type_traits>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::cu;

const VmmApi *cu::loadVmm(std::string &Why) {
  static VmmApi Api;
  static std::string Missing;
  static bool Ok = [] {
    void *H = loadedDriverLibrary();
    if (!H) {
      Missing = "the driver library is not loaded";
      return false;
    }
    auto Get = [&](auto &Fn, const char *Name) {
      Fn = reinterpret_cast<std::remove_reference_t<decltype(Fn)>>(
          dlsym(H, Name));
      if (!Fn)
        Missing += std::string(Missing.empty() ? "" : ", ") + Name;
    };
    Get(Api.AddressReserve, "cuMemAddressReserve");
    Get(Api.AddressFree, "cuMemAddressFree");
    Get(Api.Create, "cuMemCreate");
    Get(Api.Release, "cuMemRelease");
    Get(Api.Map, "cuMemMap");
    Get(Api.Unmap, "cuMemUnmap");
    Get(Api.SetAccess, "cuMemSetAccess");
    Get(Api.Granularity, "cuMemGetAllocationGranularity");
    Get(Api.HostRegister, "cuMemHostRegister_v2");
    Get(Api.HostUnregister, "cuMemHostUnregister");
    Get(Api.HostGetDevicePointer, "cuMemHostGetDevicePointer_v2");
    if (!Missing.empty())
      Missing = "the driver lacks " + Missing;
    return Missing.empty();
  }();
  Why = Missing;
  return Ok ? &Api : nullptr;
}

std::string cu::hexAddr(uint64_t V) {
  char B[32];
  std::snprintf(B, sizeof B, "0x%llx", (unsigned long long)V);
  return B;
}

SharedVA &cu::sharedVA() {
  static SharedVA V;
  return V;
}

void cu::reserveArenaRange(const Driver &D, CUcontext Ctx) {
  std::string Why;
  const VmmApi *Vmm = arenaWanted() ? loadVmm(Why) : nullptr;
  const uint64_t Bytes = Arena::configuredBytes();
  if (!Vmm || !Bytes || Arena::get().mapped())
    return;
  ContextScope S(D, Ctx);
  CUdeviceptr Got = 0;
  CUresult R =
      Vmm->AddressReserve(&Got, Bytes, Arena::ChunkBytes, RVMC_DRAM_BASE, 0);
  if (R == CUDA_SUCCESS && Got == RVMC_DRAM_BASE) {
    std::lock_guard<std::mutex> L(sharedVA().M);
    sharedVA().Whole = true;
    Arena::get().mapOverReservation();
    log(LogLevel::Debug, "nvidia: the arena range " + hexAddr(Got) + " +" +
                             std::to_string(Bytes >> 20) +
                             " MiB is reserved for the NVIDIA GPUs");
    return;
  }
  if (R == CUDA_SUCCESS)
    Vmm->AddressFree(Got, Bytes);
  log(LogLevel::Info,
      "nvidia: cuMemAddressReserve of the arena range at " +
          hexAddr(RVMC_DRAM_BASE) + ": " +
          (R ? D.describe(R)
             : "the driver chose " + hexAddr(Got) + " instead") +
          "; chunks are reserved one by one as the GPUs map them");
}

std::string NVIDIADevice::arenaRefusal() {
  std::lock_guard<std::mutex> L(VM);
  return sharedVA().Refused;
}

Status NVIDIADevice::allocate(size_t Bytes, void *&Ptr) {
  if (useArena() && arenaRefusal().empty()) {
    // At unified addresses: an arena range, backed by this GPU's memory.
    uint64_t A = 0, N = (std::max<uint64_t>(Bytes, 1) + Gran - 1) / Gran * Gran;
    if (Status St = Arena::get().allocate(N, Gran, ArenaTag, A))
      return St;
    Status St = attachArenaRange(reinterpret_cast<void *>(A), N);
    if (St.isOk()) {
      Ptr = reinterpret_cast<void *>(A);
      return Status::ok();
    }
    Arena::get().release(A);
    // The driver no longer places memory at the arena's addresses: the
    // allocation is an ordinary one, and the context keeps its memory
    // where it is (a move finds it outside the unified address space).
    if (arenaRefusal().empty())
      return St;
  }
  ContextScope S(D, Ctx);
  CUdeviceptr P = 0;
  if (Status St = check(D, D.MemAlloc(&P, Bytes ? Bytes : 1), "cuMemAlloc"))
    return St;
  Ptr = reinterpret_cast<void *>(static_cast<uintptr_t>(P));
  return Status::ok();
}

Status NVIDIADevice::release(void *Ptr) {
  if (!Ptr)
    return Status::ok();
  if (Arena::get().contains(Ptr)) {
    bool Host;
    {
      std::lock_guard<std::mutex> L(VM);
      Host = Registered.count(reinterpret_cast<uint64_t>(Ptr)) != 0;
    }
    if (Status St = Host ? detachHostRange(Ptr) : detachArenaRange(Ptr, 0))
      return St;
    return Arena::get().release(reinterpret_cast<uint64_t>(Ptr));
  }
  ContextScope S(D, Ctx);
  CUresult R = D.MemFree(dptr(Ptr));
  if (R == CUDA_ERROR_INVALID_VALUE)
    return Status(ErrorCode::InvalidDevicePointer,
                  "cuMemFree: " + D.describe(R));
  return check(D, R, "cuMemFree");
}

Status NVIDIADevice::allocateManaged(size_t Bytes, void *&Ptr) {
  if (useArena()) {
    // Managed memory at unified addresses: host memory of the arena the
    // GPU reaches through cuMemHostRegister, so the host can read it and
    // it needs no copy when the context migrates.
    uint64_t A = 0, N = (std::max<uint64_t>(Bytes, 1) + 4095) & ~uint64_t(4095);
    if (Status St =
            Arena::get().allocate(N, 4096, Arena::get().managedTag(), A))
      return St;
    if (Status St = attachHostRange(reinterpret_cast<void *>(A), N)) {
      Arena::get().release(A);
      return St;
    }
    Ptr = reinterpret_cast<void *>(A);
    return Status::ok();
  }
  if (!Props.ManagedMemory)
    return Status(ErrorCode::NotSupported,
                  "cuMemAllocManaged: the device has no managed memory");
  ContextScope S(D, Ctx);
  CUdeviceptr P = 0;
  if (Status St = check(
          D, D.MemAllocManaged(&P, Bytes ? Bytes : 1, CU_MEM_ATTACH_GLOBAL),
          "cuMemAllocManaged"))
    return St;
  Ptr = reinterpret_cast<void *>(static_cast<uintptr_t>(P));
  return Status::ok();
}

Status NVIDIADevice::reset() {
  {
    ContextScope S(D, Ctx);
    D.CtxSynchronize(); // reports the sticky error; nothing to do with it
  }
  // Our retain is dropped first, so the reset tears the context down and
  // the retain below initialises a fresh one.
  D.DevicePrimaryCtxRelease(Dev);
  if (Status St =
          check(D, D.DevicePrimaryCtxReset(Dev), "cuDevicePrimaryCtxReset")) {
    log(LogLevel::Warn, "nvidia: device reset: " + St.Message);
    return St;
  }
  CUcontext NewCtx = nullptr;
  if (Status St = check(D, D.DevicePrimaryCtxRetain(&NewCtx, Dev),
                        "cuDevicePrimaryCtxRetain")) {
    log(LogLevel::Warn, "nvidia: device reset: " + St.Message);
    return St;
  }
  Ctx = NewCtx;
  ContextScope S(D, Ctx);
  if (Status St =
          check(D, D.CtxSynchronize(), "cuCtxSynchronize after reset")) {
    log(LogLevel::Warn, "nvidia: device reset: " + St.Message);
    return St;
  }
  return Status::ok();
}

Status NVIDIADevice::forgetFault() {
  ContextScope S(D, Ctx);
  return check(D, D.CtxSynchronize(), "cuCtxSynchronize (shared context)");
}

Status NVIDIADevice::allocateHost(size_t Bytes, void *&Ptr) {
  ContextScope S(D, Ctx);
  return check(D, D.MemHostAlloc(&Ptr, Bytes ? Bytes : 1, 0), "cuMemHostAlloc");
}

Status NVIDIADevice::releaseHost(void *Ptr) {
  if (!Ptr)
    return Status::ok();
  ContextScope S(D, Ctx);
  return check(D, D.MemFreeHost(Ptr), "cuMemFreeHost");
}

Status NVIDIADevice::memoryInfo(size_t &Free, size_t &Total) {
  ContextScope S(D, Ctx);
  return check(D, D.MemGetInfo(&Free, &Total), "cuMemGetInfo");
}

Status NVIDIADevice::attachArenaRange(void *Ptr, size_t Bytes) {
  if (!useArena())
    return Status(ErrorCode::NotSupported,
                  Props.Name + " cannot map memory at unified addresses (" +
                      ArenaWhy + ")");
  if (!Ptr) { // the capability query
    std::string Refused = arenaRefusal();
    if (!Refused.empty())
      return Status(ErrorCode::NotSupported,
                    Props.Name + " cannot map memory at unified addresses (" +
                        Refused + ")");
    return Status::ok();
  }
  uint64_t A = reinterpret_cast<uint64_t>(Ptr);
  std::lock_guard<std::mutex> L(VM);
  ContextScope S(D, Ctx);
  const uint64_t Chunk = Arena::ChunkBytes;
  std::map<uint64_t, unsigned> &Reserved = sharedVA().Chunks;
  for (uint64_t C = A / Chunk * Chunk; C < A + Bytes; C += Chunk) {
    if (Reserved.count(C))
      continue;
    if (Status St = Arena::get().lend(C))
      return St;
    if (sharedVA().Whole) {
      Reserved[C] = 0;
      continue;
    }
    CUdeviceptr Got = 0;
    CUresult R = Vmm->AddressReserve(&Got, Chunk, Chunk, C, 0);
    if (R != CUDA_SUCCESS || Got != C) {
      if (R == CUDA_SUCCESS)
        Vmm->AddressFree(Got, Chunk);
      std::string Why =
          "cuMemAddressReserve at " + hexAddr(C) + ": " +
          (R ? D.describe(R) : "the driver chose " + hexAddr(Got) + " instead");
      // A driver that chose another address grants none later (the
      // H200's, once a module with device printf or malloc is loaded,
      // docs/Migration.md): no further allocation asks again.
      if (R == CUDA_SUCCESS && sharedVA().Refused.empty()) {
        sharedVA().Refused = Why;
        log(LogLevel::Warn,
            "nvidia: " + Why +
                "; device memory of the NVIDIA GPUs is allocated where the "
                "driver places it from now on, and contexts holding it are "
                "not moved to other devices");
      }
      // The host mapping comes back, or the error says that it did not
      // (the bytes stay in the arena file; host access there would fault).
      if (Status Back = Arena::get().reclaim(C)) {
        log(LogLevel::Error, "nvidia: " + Why + "; " + Back.Message);
        return Status(ErrorCode::DriverFailure, Why + "; " + Back.Message);
      }
      return Status(ErrorCode::OutOfMemory, Why);
    }
    Reserved[C] = 0;
  }
  VmmProp P{};
  P.Type = 1;
  P.Location = {1, Ordinal};
  // This GPU, and the GPUs given peer access to its memory.
  std::vector<VmmAccess> Acc = accessList();
  std::vector<uint64_t> Made; // undone if a later span fails
  Status St;
  for (auto [S, N] : unmappedRuns(A, Bytes)) {
    unsigned long long H = 0;
    if ((St = check(D, Vmm->Create(&H, N, &P, 0), "cuMemCreate")))
      break;
    CUresult R = Vmm->Map(S, N, 0, H, 0);
    if (R == CUDA_SUCCESS) {
      R = Vmm->SetAccess(S, N, Acc.data(), Acc.size());
      if (R != CUDA_SUCCESS)
        Vmm->Unmap(S, N);
    }
    if (R != CUDA_SUCCESS) {
      Vmm->Release(H);
      St = check(D, R, "cuMemMap/cuMemSetAccess");
      break;
    }
    Spans[S] = {N, H};
    Made.push_back(S);
    Reserved[S / Chunk * Chunk] += N / Gran;
  }
  if (St) {
    for (uint64_t S : Made) {
      Span Sp = Spans[S];
      Vmm->Unmap(S, Sp.Bytes);
      Vmm->Release(Sp.Handle);
      Reserved[S / Chunk * Chunk] -= Sp.Bytes / Gran;
      Spans.erase(S);
    }
    return St;
  }
  Attached[A] = Bytes;
  return Status::ok();
}

Status NVIDIADevice::detachArenaRange(void *Ptr, size_t) {
  if (!useArena())
    return Status(ErrorCode::NotSupported,
                  Props.Name + " cannot map memory at unified addresses (" +
                      ArenaWhy + ")");
  if (!Ptr)
    return Status::ok();
  ContextScope S(D, Ctx);
  // Kernels may still use the memory (waited for outside the lock that
  // every GPU's allocations take).
  if (Status St = check(D, D.CtxSynchronize(), "cuCtxSynchronize"))
    return St;
  std::lock_guard<std::mutex> L(VM);
  uint64_t A = reinterpret_cast<uint64_t>(Ptr);
  auto It = Attached.find(A);
  if (It == Attached.end())
    return Status(ErrorCode::InvalidDevicePointer,
                  "nvidia: " + hexAddr(A) + " is not memory of " + Props.Name);
  uint64_t Bytes = It->second;
  Attached.erase(It);
  auto InUse = [&](uint64_t Lo, uint64_t Hi) {
    auto J = Attached.upper_bound(Hi - 1);
    while (J != Attached.begin()) {
      --J;
      if (J->first + J->second > Lo)
        return true;
      if (J->first + (uint64_t(1) << 40) < Lo)
        break;
    }
    return false;
  };
  const uint64_t Chunk = Arena::ChunkBytes;
  std::map<uint64_t, unsigned> &Reserved = sharedVA().Chunks;
  const uint64_t End = (A + Bytes + Gran - 1) / Gran * Gran;
  for (auto P = firstSpanFrom(A / Gran * Gran);
       P != Spans.end() && P->first < End;) {
    uint64_t S = P->first, N = P->second.Bytes;
    if (InUse(S, S + N)) {
      ++P;
      continue;
    }
    Vmm->Unmap(S, N);
    Vmm->Release(P->second.Handle);
    P = Spans.erase(P);
    auto C = Reserved.find(S / Chunk * Chunk);
    if (C != Reserved.end() && C->second)
      C->second -= std::min<uint64_t>(C->second, N / Gran);
  }
  for (uint64_t C = A / Chunk * Chunk; C < A + Bytes; C += Chunk) {
    // Pages of another GPU (a context in the middle of a move) keep the
    // chunk reserved.
    auto R = Reserved.find(C);
    if (R == Reserved.end() || R->second)
      continue;
    if (!sharedVA().Whole)
      Vmm->AddressFree(C, Chunk);
    Reserved.erase(R);
    if (Status St = Arena::get().reclaim(C))
      return St;
  }
  return Status::ok();
}

Status NVIDIADevice::attachHostRange(void *Ptr, size_t Bytes) {
  if (!useArena())
    return Status(ErrorCode::NotSupported,
                  Props.Name +
                      " cannot use host memory at unified "
                      "addresses (" +
                      ArenaWhy + ")");
  if (!Ptr)
    return Status::ok(); // the capability query
  std::lock_guard<std::mutex> L(VM);
  ContextScope S(D, Ctx);
  // CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP
  if (Status St =
          check(D, Vmm->HostRegister(Ptr, Bytes, 3), "cuMemHostRegister"))
    return St;
  CUdeviceptr DP = 0;
  if (Vmm->HostGetDevicePointer(&DP, Ptr, 0) != CUDA_SUCCESS ||
      DP != dptr(Ptr)) {
    Vmm->HostUnregister(Ptr);
    return Status(ErrorCode::NotSupported,
                  Props.Name +
                      " maps registered host memory at another "
                      "address (" +
                      hexAddr(DP) + ")");
  }
  Registered.insert(reinterpret_cast<uint64_t>(Ptr));
  return Status::ok();
}

Status NVIDIADevice::detachHostRange(void *Ptr) {
  std::lock_guard<std::mutex> L(VM);
  if (!Registered.erase(reinterpret_cast<uint64_t>(Ptr)))
    return Status::ok();
  ContextScope S(D, Ctx);
  D.CtxSynchronize();
  return check(D, Vmm->HostUnregister(Ptr), "cuMemHostUnregister");
}

std::map<uint64_t, NVIDIADevice::Span>::const_iterator
NVIDIADevice::spanAt(uint64_t Pg) const {
  auto It = Spans.upper_bound(Pg);
  if (It == Spans.begin())
    return Spans.end();
  --It;
  return Pg < It->first + It->second.Bytes ? It : Spans.end();
}

std::map<uint64_t, NVIDIADevice::Span>::iterator
NVIDIADevice::firstSpanFrom(uint64_t Pg) {
  auto It = Spans.upper_bound(Pg);
  if (It != Spans.begin() &&
      std::prev(It)->first + std::prev(It)->second.Bytes > Pg)
    --It;
  return It;
}

std::vector<std::pair<uint64_t, uint64_t>>
NVIDIADevice::unmappedRuns(uint64_t A, uint64_t Bytes) const {
  std::vector<std::pair<uint64_t, uint64_t>> Runs;
  bool Joinable = false; // the last run may grow by the next granule
  for (uint64_t Pg = A / Gran * Gran; Pg < A + Bytes; Pg += Gran) {
    if (spanAt(Pg) != Spans.end()) {
      Joinable = false;
      continue;
    }
    bool Whole = Pg >= A && Pg + Gran <= A + Bytes;
    if (Joinable && Whole && Pg % Arena::ChunkBytes != 0)
      Runs.back().second += Gran;
    else
      Runs.push_back({Pg, Gran});
    Joinable = Whole;
  }
  return Runs;
}

bool NVIDIADevice::useArena() {
  std::call_once(ArenaOnce, [this] {
    if (!arenaWanted()) {
      ArenaWhy =
          "no unified address space: HETGPU_MIGRATE unset or HETGPU_ARENA=0";
      return;
    }
    Vmm = loadVmm(ArenaWhy);
    if (!Vmm)
      return;
    VmmProp P{};
    P.Type = 1;
    P.Location = {1, Ordinal};
    ContextScope S(D, Ctx);
    size_t G = 0;
    if (Vmm->Granularity(&G, &P, 0) != CUDA_SUCCESS || !G ||
        Arena::ChunkBytes % G) {
      ArenaWhy = "unusable allocation granularity " + std::to_string(G);
      return;
    }
    if (Status St = Arena::get().ensureMapped()) {
      ArenaWhy = St.Message;
      return;
    }
    Gran = G;
    ArenaTag = Arena::get().newTag();
    InArena = true;
  });
  return InArena;
}
