//===- MoveContext.cpp - Moving a CUDA device between devices -------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// moveContext as a sequence of steps (ContextMove): plan and check, save
/// the module variables, stage the bytes that must go through the host,
/// move the memory, rebind streams and events, restore the bytes and
/// reload the modules; and the moves of a migratable launch
/// (Migration/MoveContext.h).
///
//===----------------------------------------------------------------------===//

#include "Migration/MoveContext.h"
#include "Core/CudaErrors.h"
#include "Core/Log.h"
#include "Core/Runtime.h"
#include "Core/UnifiedMemory.h"
#include "Migration/Migration.h"
#include "Migration/Trigger.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <set>
#include <utility>
#include <vector>

using namespace hetgpu;
using namespace hetgpu::rt;

namespace {

/// Adds the time since the last step to a step's total (StepTimes).
class StepClock {
public:
  void into(double &Ms) {
    auto Now = std::chrono::steady_clock::now();
    Ms += std::chrono::duration<double, std::milli>(Now - Last).count();
    Last = Now;
  }

private:
  std::chrono::steady_clock::time_point Last = std::chrono::steady_clock::now();
};

/// The `__device__` variables of one loaded module, saved on the source.
struct SavedModule {
  BinaryRecord *Bin;
  int Index;
  std::vector<std::pair<std::string, std::vector<char>>> Vars;
};

/// One moveContext call. The steps run in the order of run(); the context
/// changes device only after every check passed (plan()) and the source's
/// data were saved.
class ContextMove {
public:
  ContextMove(DeviceContext &Ctx, DeviceContext &To, bool CopyData)
      : RT(Runtime::get()), Ctx(Ctx), To(To), CopyData(CopyData),
        Src(Ctx.Dev), Dst(To.Home) {}

  Status run(std::string *Summary, uint64_t *BytesCopied);

private:
  Status refuse(const std::string &Why) const {
    return Status(ErrorCode::NotSupported,
                  "cannot migrate device " + std::to_string(Ctx.Index) +
                      " from " + SrcName + " to " + DstName + ": " + Why);
  }
  Status plan();
  Status checkChunks(const std::set<uint64_t> &Moving);
  Status planPeers();
  Status grantPeers();
  Status saveModules();
  Status stageData();
  Status moveMemory();
  Status moveAllocation(const Allocation &A);
  void ageEvents();
  Status rebindStreams();
  Status reloadModules();
  std::string summary() const;

  Runtime &RT;
  DeviceContext &Ctx, &To;
  bool CopyData;
  std::shared_ptr<Device> Src, Dst;
  std::string SrcName, DstName;
  std::vector<Allocation> All, Allocs, Managed;
  bool SrcShares = false, DstShares = false;
  /// Bytes move at all (not both devices in the shared arena); Direct:
  /// between device and arena file; Peer: by the backend, device to device.
  bool Copy = false, Direct = false, Peer = false;
  std::unique_ptr<Queue> SQ, DQ;
  std::vector<SavedModule> Mods;
  std::vector<std::vector<char>> Data; ///< staged bytes of Allocs
  /// Milliseconds per step (HETGPU_LOG=info prints them): where a move's
  /// downtime goes. Steps of moveAllocation add up over the allocations.
  struct StepTimes {
    double Plan = 0, Save = 0, Stage = 0, Lend = 0, Copy = 0, Memory = 0,
           Rebind = 0, Restore = 0, Modules = 0, Sync = 0;
  } Ms;
  /// Peer access that must hold on the target (planPeers): the first
  /// device's kernels reach the second's memory.
  std::vector<std::pair<Device *, Device *>> Grants;
  uint64_t Bytes = 0;
  /// Some memory has changed device (moveMemory): a failure from here on
  /// cannot be undone by resuming on the source.
  bool Partial = false;
};

/// The plan, checked before anything changes.
Status ContextMove::plan() {
  // The target loads the modules at addresses of its own: a variable's
  // address the program holds would point into the source's module.
  {
    std::lock_guard<std::recursive_mutex> L(Ctx.M);
    if (!Ctx.SymbolAddressesTaken.empty())
      return refuse("the program holds the address of the __device__ "
                    "variable " +
                    *Ctx.SymbolAddressesTaken.begin() +
                    " (cudaGetSymbolAddress), which is not the same on the "
                    "target");
    if (!Ctx.HeapKernel.empty())
      return refuse("kernel " + Ctx.HeapKernel +
                    " calls device malloc/free: memory of the device heap "
                    "(blocks may hold it, or keep it between launches) is "
                    "not known to the target's heap");
  }
  All = contextAllocations(Ctx.Index);
  for (const Allocation &A : All)
    (A.Kind == AllocKind::Managed ? Managed : Allocs).push_back(A);
  Arena &AR = Arena::get();
  SrcShares = Src->sharesArena();
  DstShares = Dst->sharesArena();
  Copy = !(SrcShares && DstShares);
  if (Copy && !DstShares)
    if (Status S = Dst->attachArenaRange(nullptr, 0))
      return refuse(S.Message);
  if (Copy && !SrcShares)
    if (Status S = Src->detachArenaRange(nullptr, 0))
      return refuse(S.Message);
  if (!Managed.empty())
    if (Status S = Dst->attachHostRange(nullptr, 0))
      return refuse(S.Message);
  std::set<uint64_t> Moving;
  for (const Allocation &A : All) {
    if (!AR.contains(reinterpret_cast<void *>(A.Base)) ||
        AR.allocationSize(A.Base) == 0)
      return refuse("the allocation at " + hexAddr(A.Base) + " (" +
                    std::to_string(A.Size) +
                    " bytes) is not in the unified address space (" +
                    std::string("the device did not allocate it from "
                                "the arena") +
                    ")");
    Moving.insert(A.Base);
  }
  if (Status S = checkChunks(Moving))
    return S;
  return planPeers();
}

/// Peer access follows the context (cudaDeviceEnablePeerAccess granted
/// by it or to it): on the target, its kernels must still reach the
/// memory of every device it enabled, and every device that enabled it
/// must reach its memory, now on the target. A pair needs nothing when
/// both sit on one physical device or share the arena; otherwise the
/// backend must connect them, or the move is refused (kernels would fault
/// on the peer's memory).
Status ContextMove::planPeers() {
  for (int I = 0; I < RT.contextCount(); ++I) {
    DeviceContext *B = RT.context(I);
    if (!B || B == &Ctx)
      continue;
    bool Out = Ctx.Peers.count(I) != 0, In;
    {
      std::lock_guard<std::recursive_mutex> L(B->M);
      In = B->Peers.count(Ctx.Index) != 0;
    }
    Device *BDev = B->Dev.get();
    if ((!Out && !In) || BDev == Dst.get() ||
        (DstShares && BDev->sharesArena()))
      continue;
    auto Need = [&](Device *From, Device *To, int FromIdx, int ToIdx) {
      if (!From->canAccessPeer(*To))
        return refuse("device " + std::to_string(FromIdx) +
                      " has peer access to device " + std::to_string(ToIdx) +
                      ", which " + From->properties().Name + " and " +
                      To->properties().Name + " cannot have");
      Grants.push_back({From, To});
      return Status::ok();
    };
    if (Out)
      if (Status S = Need(Dst.get(), BDev, Ctx.Index, I))
        return S;
    if (In)
      if (Status S = Need(BDev, Dst.get(), I, Ctx.Index))
        return S;
  }
  return Status::ok();
}

/// The grants of planPeers(), made before the memory moves, so that the
/// target's mappings include the peers' access. Grants on the source stay
/// (harmless; they serve a move back).
Status ContextMove::grantPeers() {
  for (auto [From, To] : Grants) {
    if (Status S = From->enablePeerAccess(*To))
      return refuse("peer access of " + From->properties().Name + " to " +
                    To->properties().Name + ": " + S.Message);
    log(LogLevel::Debug, "migration: peer access of " +
                             From->properties().Name + " to " +
                             To->properties().Name + " granted");
  }
  return Status::ok();
}

/// Chunks lent to a device with memory of its own must hold nothing else.
Status ContextMove::checkChunks(const std::set<uint64_t> &Moving) {
  if (!Copy || DstShares)
    return Status::ok();
  Arena &AR = Arena::get();
  for (const Allocation &A : Allocs) {
    uint64_t Off = A.Base - AR.base(), First, Last;
    Arena::chunkRange(Off, A.Size, First, Last);
    for (uint64_t Ch = First; Ch <= Last; ++Ch)
      for (auto &[B, N] : AR.overlapping(AR.base() + Ch * Arena::ChunkBytes,
                                         Arena::ChunkBytes))
        if (!Moving.count(B))
          return refuse("the arena chunk of the allocation at " +
                        hexAddr(A.Base) + " also holds " + hexAddr(B) + " (" +
                        std::to_string(N) + " bytes) of another device");
  }
  return Status::ok();
}

/// `__device__` variables of the loaded modules, read on the source.
Status ContextMove::saveModules() {
  for (auto &[Key, LM] : Ctx.Modules) {
    if (!LM.M)
      continue;
    SavedModule SM{const_cast<BinaryRecord *>(Key.first), Key.second, {}};
    for (const container::GlobalInfo &G :
         Key.first->C.Modules[Key.second].Globals) {
      void *Addr = nullptr;
      size_t Size = 0;
      if (LM.M->getGlobal(G.Name, Addr, Size) || !Addr)
        continue;
      std::vector<char> Bytes(Size);
      if (Status S = copyOut(*SQ, Bytes.data(), Addr, Size))
        return S;
      SM.Vars.push_back({G.Name, std::move(Bytes)});
    }
    Mods.push_back(std::move(SM));
  }
  return Status::ok();
}

/// Between host memory and a device with its own memory the bytes go
/// straight between the device and the arena file, through a second host
/// mapping of it (Arena::alias): one copy at link speed. Between two
/// devices with memory of their own (GPU -> GPU) the backend may move each
/// allocation itself, device to device (peer-to-peer). Otherwise the bytes
/// are read into host buffers here.
Status ContextMove::stageData() {
  Direct = Copy && CopyData && SrcShares != DstShares;
  Peer = Copy && CopyData && !SrcShares && !DstShares &&
         Src->transferArenaRange(*Dst, nullptr, 0).isOk();
  if (Copy && CopyData && !Direct && !Peer)
    for (const Allocation &A : Allocs) {
      Data.emplace_back(A.Size);
      if (Status S = copyOut(*SQ, Data.back().data(),
                             reinterpret_cast<void *>(A.Base), A.Size))
        return S;
      Bytes += A.Size;
    }
  return Status::ok();
}

/// One device allocation onto the target (Copy).
Status ContextMove::moveAllocation(const Allocation &A) {
  Arena &AR = Arena::get();
  void *P = reinterpret_cast<void *>(A.Base);
  if (Peer) {
    if (Status S = Src->transferArenaRange(*Dst, P, A.Size))
      return S;
    Bytes += A.Size;
    return Status::ok();
  }
  void *MapBase = nullptr;
  size_t MapLen = 0;
  void *Alias = nullptr;
  if (Direct) {
    Alias = AR.alias(A.Base, A.Size, MapBase, MapLen);
    if (!Alias)
      return Status(ErrorCode::OutOfMemory,
                    "migration: cannot map the arena bytes of " +
                        hexAddr(A.Base));
  }
  Status S;
  StepClock Step;
  if (!SrcShares) {
    if (Direct) // device -> file bytes, then the host maps them there
      S = SQ->copyOutBulk(Alias, P, A.Size);
    Step.into(Ms.Copy);
    if (S.isOk())
      S = Src->detachArenaRange(P, A.Size);
    Partial |= S.isOk();
    if (S.isOk() && DstShares)
      AR.dropShadow(A.Base);
    Step.into(Ms.Lend);
  }
  if (S.isOk() && !DstShares) {
    S = Dst->attachArenaRange(P, A.Size);
    Step.into(Ms.Lend);
    if (S.isOk() && Direct) { // file bytes -> device; the pages stay
      S = DQ->copyInBulk(P, Alias, A.Size);
      AR.keepShadow(A.Base, A.Size);
    }
    Step.into(Ms.Copy);
  }
  Arena::unalias(MapBase, MapLen);
  if (S)
    return S;
  if (Direct)
    Bytes += A.Size;
  return Status::ok();
}

/// Managed memory is host memory of the arena everywhere: it only changes
/// which device's kernels may reach it. Device memory moves (Copy).
Status ContextMove::moveMemory() {
  Arena &AR = Arena::get();
  for (const Allocation &A : Managed) {
    void *P = reinterpret_cast<void *>(A.Base);
    if (Status S = Src->detachHostRange(P))
      return S;
    Partial = true;
    if (Status S = Dst->attachHostRange(P, AR.allocationSize(A.Base)))
      return S;
  }
  if (Copy)
    for (const Allocation &A : Allocs) {
      if (Status S = moveAllocation(A))
        return S;
      Partial = true;
    }
  return Status::ok();
}

/// How long ago each recorded event of the context completed, measured on
/// the source against a marker recorded now: the replacements recorded in
/// rebindStreams() are that much later (EventObj::AgeMs). An event the
/// source cannot time keeps its age.
void ContextMove::ageEvents() {
  std::unique_ptr<Event> Now;
  if (Src->createEvent(Now) || SQ->record(*Now) || Now->synchronize())
    return;
  std::lock_guard<std::mutex> L(RT.HandleM);
  for (EventObj *E : RT.LiveEvents) {
    float Ms = 0;
    if (E->Ctx == &Ctx && E->Recorded && !(E->Flags & cudaEventDisableTiming) &&
        Now->elapsedSince(*E->E, Ms).isOk() && Ms >= 0)
      E->AgeMs += Ms;
  }
}

/// Every stream gets a queue of the target, every event an event there.
Status ContextMove::rebindStreams() {
  std::vector<StreamObj *> Streams(Ctx.Streams.begin(), Ctx.Streams.end());
  if (Ctx.NullStream)
    Streams.push_back(Ctx.NullStream.get());
  for (StreamObj *S : Streams) {
    S->Q.reset();
    S->Marker.reset();
    if (Status St = Dst->createQueue(S->Q))
      return St;
    if (Status St = Dst->createEvent(S->Marker))
      return St;
  }
  std::lock_guard<std::mutex> L(RT.HandleM);
  for (EventObj *E : RT.LiveEvents) {
    if (E->Ctx != &Ctx)
      continue;
    E->E.reset();
    if (Status S = Dst->createEvent(E->E))
      return S;
    // A recorded event is complete (the source drained); so is its
    // replacement, recorded on an idle queue.
    if (E->Recorded)
      if (Status S = DQ->record(*E->E))
        return S;
  }
  return Status::ok();
}

/// The modules, loaded again on the target, get their variables back.
Status ContextMove::reloadModules() {
  for (SavedModule &SM : Mods) {
    LoadedModule *LM = nullptr;
    if (cudaError_t E = RT.loadModuleOf(Ctx, *SM.Bin, SM.Index, LM))
      return Status(ErrorCode::NoBinaryForGpu,
                    "migration to " + DstName + ": cannot load a module (" +
                        std::string(cudaErrorNameOrNull(E)) + ")");
    for (auto &[Name, V] : SM.Vars) {
      void *Addr = nullptr;
      size_t Size = 0;
      if (LM->M->getGlobal(Name, Addr, Size) || !Addr)
        continue;
      if (Status S = copyIn(*DQ, Addr, V.data(), std::min(Size, V.size())))
        return S;
      Bytes += V.size();
    }
  }
  return Status::ok();
}

std::string ContextMove::summary() const {
  return "device " + std::to_string(Ctx.Index) + " moved from " + SrcName +
         " to " + DstName + " (" + To.HomeBackend + "), " +
         std::to_string(Allocs.size()) + " allocations " +
         (Peer   ? "moved device to device"
          : Copy ? "copied"
                 : "kept in place (shared arena)") +
         ", " + std::to_string(Managed.size()) +
         " managed allocations kept in host memory, " +
         std::to_string(Mods.size()) + " modules reloaded";
}

Status ContextMove::run(std::string *Summary, uint64_t *BytesCopied) {
  std::lock_guard<std::recursive_mutex> Lock(Ctx.M);
  if (Src == Dst)
    return Status::ok();
  SrcName = Src->properties().Name;
  DstName = Dst->properties().Name;
  StepClock Step;
  // Work queued before the move finishes on the source; its results move
  // with the memory.
  if (Status S = Src->synchronize())
    return S;
  if (Status S = plan())
    return S;
  Step.into(Ms.Plan);
  if (Status S = Src->createQueue(SQ))
    return S;
  if (Status S = saveModules())
    return S;
  Step.into(Ms.Save);
  if (Status S = stageData())
    return S;
  if (Status S = Dst->createQueue(DQ))
    return S;
  if (Status S = grantPeers())
    return S;
  Step.into(Ms.Stage);

  // From here on the context changes device. A move that fails before
  // any memory changed device leaves the context as it was (the source's
  // modules stay loaded: a refused move resumes the launch there, with its
  // kernel). One that fails later makes the context fail with CUDA's
  // sticky launch failure: neither device holds all its memory.
  if (Status S = moveMemory()) {
    if (Partial) {
      Ctx.Sticky = cudaErrorLaunchFailure;
      log(LogLevel::Error, "migration: the move of device " +
                               std::to_string(Ctx.Index) + " from " + SrcName +
                               " to " + DstName + " failed midway (" +
                               S.Message + "): the context has failed");
    }
    return S;
  }
  Ctx.Modules.clear();
  ageEvents();
  SQ.reset();
  Ctx.Dev = Dst;
  Ctx.Backend = To.HomeBackend;
  Step.into(Ms.Memory);
  if (Status S = rebindStreams())
    return S;
  Step.into(Ms.Rebind);
  for (size_t I = 0; I < Data.size(); ++I)
    if (Status S = copyIn(*DQ, reinterpret_cast<void *>(Allocs[I].Base),
                          Data[I].data(), Data[I].size()))
      return S;
  Step.into(Ms.Restore);
  if (Status S = reloadModules())
    return S;
  Step.into(Ms.Modules);
  if (Status S = DQ->synchronize())
    return S;
  Step.into(Ms.Sync);
  if (BytesCopied)
    *BytesCopied = Bytes;
  if (Summary)
    *Summary = summary();
  if (logEnabled(LogLevel::Info)) {
    char Line[320];
    std::snprintf(Line, sizeof Line,
                  "migration: move of device %d, ms: plan %.2f, save "
                  "variables %.2f, stage %.2f, memory %.2f (of which lend/"
                  "attach %.2f, bulk copies %.2f), streams %.2f, restore "
                  "%.2f, modules %.2f, sync %.2f",
                  Ctx.Index, Ms.Plan, Ms.Save, Ms.Stage, Ms.Memory, Ms.Lend,
                  Ms.Copy, Ms.Rebind, Ms.Restore, Ms.Modules, Ms.Sync);
    log(LogLevel::Info, Line);
  }
  return Status::ok();
}

} // namespace

Status hetgpu::rt::moveContext(DeviceContext &Ctx, DeviceContext &To,
                               bool CopyData, std::string *Summary,
                               uint64_t *BytesCopied) {
  return ContextMove(Ctx, To, CopyData).run(Summary, BytesCopied);
}

//===--- The moves of a migratable launch ---------------------------------===//

Status hetgpu::rt::moveForLaunch(DeviceContext &Ctx, DeviceContext &TC,
                                 KernelRecord &KR, Kernel *&K, bool CopyData,
                                 std::string &Moved, uint64_t &Bytes,
                                 Status &Refusal) {
  Runtime &RT = Runtime::get();
  Kernel *Probe = nullptr;
  if (TC.Home == TC.Dev && RT.getKernel(TC, KR, Probe) != cudaSuccess) {
    Refusal = Status(ErrorCode::NotSupported,
                     "cannot migrate device " + std::to_string(Ctx.Index) +
                         " to " + TC.Home->properties().Name + ": " + KR.Name +
                         " cannot be loaded there (see the error above)");
    return Status::ok();
  }
  std::shared_ptr<Device> Before = Ctx.Dev;
  if (Status St = moveContext(Ctx, TC, CopyData, &Moved, &Bytes)) {
    // Moved, or failed midway (ContextMove::run made the context fail):
    // not a refusal to resume from.
    if (Ctx.Dev != Before || Ctx.Sticky.load())
      return St;
    Refusal = St;
    return Status::ok();
  }
  if (RT.getKernel(Ctx, KR, K) != cudaSuccess)
    return Status(ErrorCode::NoBinaryForGpu, "migration: " + KR.Name +
                                                 " cannot be loaded on " +
                                                 Ctx.Dev->properties().Name);
  return Status::ok();
}

Status hetgpu::rt::moveBetweenLaunches(DeviceContext &Ctx, KernelRecord &KR,
                                       Kernel *&K) {
  Runtime &RT = Runtime::get();
  int MoveTo;
  if (Status St = nextTarget(MoveTo))
    return St;
  DeviceContext &TC = *RT.context(MoveTo);
  if (TC.Home == Ctx.Dev)
    return Status::ok();
  auto T0 = std::chrono::steady_clock::now();
  std::string Moved;
  uint64_t Bytes = 0;
  Status Refusal;
  if (Status St = moveForLaunch(Ctx, TC, KR, K, /*CopyData=*/true, Moved, Bytes,
                                Refusal))
    return St;
  if (Refusal) {
    log(LogLevel::Error, Refusal.Message + "; launching " + KR.Name +
                             " on device " + std::to_string(Ctx.Index) + " (" +
                             Ctx.Backend + ")");
    return Status::ok();
  }
  double Ms = msSince(T0);
  countMigration(Bytes, /*CheckpointMs=*/0, /*RestoreMs=*/Ms);
  if (migrationConfig().Verbose)
    fprintf(stderr,
            "hetgpu-migrate: before launching %s (between launches), %llu "
            "bytes in %.3f ms: %s\n",
            KR.Name.c_str(), (unsigned long long)Bytes, Ms, Moved.c_str());
  return Status::ok();
}
