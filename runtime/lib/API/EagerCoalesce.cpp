//===- EagerCoalesce.cpp - Small eager launches as one launch -------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Implements API/EagerCoalesce.h: the per-context window of held launches,
/// the timer that flushes a window whose time ran out, and the flush (the
/// fused launches ordered after, and before, every member's stream).
///
//===----------------------------------------------------------------------===//

#include "API/EagerCoalesce.h"

#include "API/GraphCoalesce.h"
#include "Core/Log.h"

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <map>
#include <thread>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::api;

std::atomic<int> api::EagerWindowsHeld{0};

namespace {

using Clock = std::chrono::steady_clock;

/// At most this many launches a window (the fused launch's limit).
constexpr size_t WindowCapacity = 32;
/// At most this many fusions (and refusals) kept per process.
constexpr size_t FusedCacheCapacity = 256;

/// A launch in a window: its stream, loaded kernel, geometry and a copy of
/// its arguments.
struct HeldLaunch {
  StreamObj *S = nullptr;
  Kernel *Kn = nullptr;
  KernelLaunch L;
};

/// A fusion of one composition of launches, or its refusal: the positions
/// of the fused members in the chunk and those launched alone.
struct CachedFusion {
  std::unique_ptr<FusedGroup> G;
  std::vector<size_t> Alone;
};

struct Window {
  std::vector<HeldLaunch> Launches;
  Clock::time_point Deadline;
};

/// The state, never destroyed (the timer thread waits on it until the
/// process ends, and atexit-time calls may flush).
struct State {
  /// The windows, by context. The map is guarded by WinM, a window's
  /// contents by its context's lock (taken before WinM, never after).
  std::mutex WinM;
  std::map<DeviceContext *, Window> Windows;
  /// Compositions of launches already fused or refused (under WinM).
  std::map<std::string, std::unique_ptr<CachedFusion>> Fusions;
  /// The timer: wakes at the earliest deadline of an armed window.
  std::mutex TimerM;
  std::condition_variable TimerCV;
  std::map<DeviceContext *, Clock::time_point> Armed;
  bool TimerStarted = false;
};
State &TheState = *new State;
std::mutex &WinM = TheState.WinM;
std::map<DeviceContext *, Window> &Windows = TheState.Windows;
std::map<std::string, std::unique_ptr<CachedFusion>> &Fusions =
    TheState.Fusions;
std::mutex &TimerM = TheState.TimerM;
std::condition_variable &TimerCV = TheState.TimerCV;
std::map<DeviceContext *, Clock::time_point> &Armed = TheState.Armed;
bool &TimerStarted = TheState.TimerStarted;

bool envIs(const char *Name, const char *Value) {
  const char *E = getenv(Name);
  return E && !strcmp(E, Value);
}

/// HETGPU_COALESCE_WINDOW_US, read once: how long the first launch of a
/// window waits for others at most.
std::chrono::microseconds windowLength() {
  static const long Us = [] {
    long V = 20;
    if (const char *E = getenv("HETGPU_COALESCE_WINDOW_US")) {
      char *End;
      long N = strtol(E, &End, 10);
      if (*E && !*End && N >= 0 && N <= 1000000)
        V = N;
      else
        log(LogLevel::Warn, std::string("HETGPU_COALESCE_WINDOW_US='") + E +
                                "' ignored: not a number of microseconds "
                                "from 0 to 1000000 (using 20)");
    }
    return V;
  }();
  return std::chrono::microseconds(Us);
}

Window &windowOf(DeviceContext &Ctx) {
  std::lock_guard<std::mutex> Lock(WinM);
  return Windows[&Ctx];
}

void flush(DeviceContext &Ctx, Window &W);

void timerLoop() {
  std::unique_lock<std::mutex> Lock(TimerM);
  for (;;) {
    if (Armed.empty()) {
      TimerCV.wait(Lock);
      continue;
    }
    Clock::time_point First = Clock::time_point::max();
    for (auto &[Ctx, T] : Armed)
      First = std::min(First, T);
    if (Clock::now() < First) {
      TimerCV.wait_until(Lock, First);
      continue;
    }
    std::vector<DeviceContext *> Due;
    for (auto &[Ctx, T] : Armed)
      if (T <= Clock::now())
        Due.push_back(Ctx);
    Lock.unlock();
    for (DeviceContext *Ctx : Due) {
      std::lock_guard<std::recursive_mutex> CtxLock(Ctx->M);
      Window &W = windowOf(*Ctx);
      if (!W.Launches.empty() && W.Deadline <= Clock::now())
        flush(*Ctx, W);
    }
    Lock.lock();
  }
}

void flushAllAtExit() {
  std::vector<DeviceContext *> Ctxs;
  {
    std::lock_guard<std::mutex> Lock(WinM);
    for (auto &[Ctx, W] : Windows)
      Ctxs.push_back(Ctx);
  }
  for (DeviceContext *Ctx : Ctxs)
    eagerFlushContext(*Ctx);
}

void arm(DeviceContext &Ctx, Clock::time_point Deadline) {
  std::lock_guard<std::mutex> Lock(TimerM);
  if (!TimerStarted) {
    TimerStarted = true;
    std::thread(timerLoop).detach();
    atexit(flushAllAtExit);
  }
  Armed[&Ctx] = Deadline;
  TimerCV.notify_one();
}

void disarm(DeviceContext &Ctx) {
  std::lock_guard<std::mutex> Lock(TimerM);
  Armed.erase(&Ctx);
}

/// Whether work is pending on a queue of \p Ctx. An error a query reports
/// is absorbed as a launch's would be (sticky errors stay sticky).
bool deviceBusy(DeviceContext &Ctx) {
  auto Busy = [&](StreamObj *T) {
    Status St = T->Q->query();
    if (St.Code == ErrorCode::NotReady)
      return true;
    if (St)
      setLastError(mapStatus(Ctx, St));
    return false;
  };
  if (Ctx.NullStream && Busy(Ctx.NullStream.get()))
    return true;
  for (StreamObj *T : Ctx.Streams)
    if (Busy(T))
      return true;
  return false;
}

/// Queues held launch \p H on its own stream.
void launchAlone(DeviceContext &Ctx, HeldLaunch &H) {
  LaunchParams LP;
  LP.Grid[0] = H.L.Grid.x, LP.Grid[1] = H.L.Grid.y, LP.Grid[2] = H.L.Grid.z;
  LP.Block[0] = H.L.Block.x, LP.Block[1] = H.L.Block.y,
  LP.Block[2] = H.L.Block.z;
  LP.DynamicShared = H.L.Shared;
  LP.Args = H.L.Args->args();
  RT().orderLegacy(*H.S);
  if (cudaError_t E = mapStatus(Ctx, H.S->Q->launch(*H.Kn, LP)))
    setLastError(E);
}

/// The fusion of \p Ls (one chunk) on \p Ctx's device, built at first use.
/// Entries are never dropped (queued launches use their kernels); past
/// FusedCacheCapacity compositions a new one is launched one by one.
const CachedFusion &fusionOf(DeviceContext &Ctx,
                             const std::vector<const KernelLaunch *> &Ls) {
  static const CachedFusion Full = [] {
    CachedFusion F;
    for (size_t I = 0; I < WindowCapacity; ++I)
      F.Alone.push_back(I);
    return F;
  }();
  std::string Key = std::to_string(uintptr_t(Ctx.Dev.get()));
  for (const KernelLaunch *L : Ls) {
    const dim3 &G = L->Grid, &B = L->Block;
    Key += ";" + std::to_string(uintptr_t(L->Func)) + ":" +
           std::to_string(G.x) + "," + std::to_string(G.y) + "," +
           std::to_string(G.z) + ":" + std::to_string(B.x) + "," +
           std::to_string(B.y) + "," + std::to_string(B.z);
  }
  {
    std::lock_guard<std::mutex> Lock(WinM);
    auto It = Fusions.find(Key);
    if (It != Fusions.end())
      return *It->second;
    if (Fusions.size() >= FusedCacheCapacity) {
      static bool Said = false;
      if (!Said)
        log(LogLevel::Info,
            "eager coalescing: " + std::to_string(FusedCacheCapacity) +
                " compositions fused; new ones are launched "
                "one by one");
      Said = true;
      return Full;
    }
  }
  auto F = std::make_unique<CachedFusion>();
  std::vector<size_t> All;
  for (size_t I = 0; I < Ls.size(); ++I)
    All.push_back(I);
  const CoalesceWords W = {"eager coalescing", "launch", "launches"};
  F->G = fuseChunk(All, Ls, Ctx, W, F->Alone);
  std::lock_guard<std::mutex> Lock(WinM);
  std::unique_ptr<CachedFusion> &Slot = Fusions[Key];
  if (!Slot)
    Slot = std::move(F);
  return *Slot;
}

/// Queues the launches \p Hs of one chunk as \p G's fused launch on the
/// first member's stream, after every member stream's earlier work; every
/// other member stream then waits for it.
void launchGroup(DeviceContext &Ctx, FusedGroup &G,
                 std::vector<HeldLaunch *> &Hs) {
  uint64_t Shared = 0;
  std::vector<const KernelLaunch *> Ls;
  for (HeldLaunch *H : Hs) {
    Shared = std::max<uint64_t>(Shared, H->L.Shared);
    Ls.push_back(&H->L);
  }
  if (G.Info.Kernels[0].StaticShared + Shared >
      Ctx.Dev->properties().SharedMemPerBlock) {
    log(LogLevel::Debug, "eager coalescing: (" + G.Names +
                             ") launched one by one: their dynamic shared "
                             "memory does not fit the fused kernel");
    for (HeldLaunch *H : Hs)
      launchAlone(Ctx, *H);
    return;
  }
  StreamObj &First = *Hs[0]->S;
  for (size_t I = 1; I < Hs.size(); ++I) {
    StreamObj &T = *Hs[I]->S;
    RT().orderLegacy(T);
    if (T.Q->query().Code != ErrorCode::NotReady)
      continue; // idle: nothing to order after
    T.Q->record(*T.Marker);
    First.Q->wait(*T.Marker);
  }
  if (cudaError_t E = launchFusedKernel(G, First, Ls, Shared))
    setLastError(E);
  First.Q->record(*First.Marker);
  for (size_t I = 1; I < Hs.size(); ++I)
    Hs[I]->S->Q->wait(*First.Marker);
  log(LogLevel::Debug, "eager coalescing: one launch of (" + G.Names + ")");
}

void flush(DeviceContext &Ctx, Window &W) {
  std::vector<HeldLaunch> Hs = std::move(W.Launches);
  W.Launches.clear();
  EagerWindowsHeld.fetch_sub(1, std::memory_order_acq_rel);
  disarm(Ctx);
  if (Hs.size() == 1) {
    launchAlone(Ctx, Hs[0]);
    return;
  }
  std::vector<const KernelLaunch *> Ls;
  for (HeldLaunch &H : Hs)
    Ls.push_back(&H.L);
  for (const std::vector<size_t> &Chunk : planChunks(Ls)) {
    std::vector<const KernelLaunch *> CLs;
    std::vector<HeldLaunch *> CHs;
    for (size_t I : Chunk) {
      CLs.push_back(Ls[I]);
      CHs.push_back(&Hs[I]);
    }
    if (Chunk.size() < 2) {
      launchAlone(Ctx, *CHs[0]);
      continue;
    }
    const CachedFusion &F = fusionOf(Ctx, CLs);
    for (size_t I : F.Alone)
      if (I < CHs.size())
        launchAlone(Ctx, *CHs[I]);
    if (!F.G)
      continue;
    std::vector<HeldLaunch *> Members;
    for (size_t I : F.G->Parts)
      Members.push_back(CHs[I]);
    launchGroup(Ctx, *F.G, Members);
  }
}

} // namespace

void api::eagerOffer(StreamObj &S, KernelRecord &K, Kernel &Kn,
                     const void *Func, dim3 Grid, dim3 Block, void **Args,
                     size_t Shared, bool &Held) {
  Held = false;
  if (!envIs("HETGPU_COALESCE_EAGER", "1") || !coalescingOff().empty())
    return;
  DeviceContext &Ctx = *S.Ctx;
  Window &W = windowOf(Ctx);
  if (!W.Launches.empty()) {
    bool Flush = S.IsNull || Clock::now() >= W.Deadline;
    for (HeldLaunch &H : W.Launches)
      Flush |= H.S == &S; // one stream's launches are ordered
    if (Flush)
      flush(Ctx, W);
  }
  if (S.IsNull)
    return; // the legacy stream orders with every blocking stream
  HeldLaunch H;
  H.S = &S;
  H.Kn = &Kn;
  H.L.Func = Func;
  H.L.K = &K;
  H.L.Grid = Grid;
  H.L.Block = Block;
  H.L.Shared = unsigned(Shared);
  if (!K.Info || !notCandidate(H.L, Ctx.Dev->properties()).empty())
    return;
  if (W.Launches.empty()) {
    if (!deviceBusy(Ctx))
      return; // never delay work on an idle device
    W.Deadline = Clock::now() + windowLength();
    EagerWindowsHeld.fetch_add(1, std::memory_order_acq_rel);
    arm(Ctx, W.Deadline);
  }
  H.L.Args = std::make_shared<ArgPack>(*K.Info, Args);
  W.Launches.push_back(std::move(H));
  Held = true;
  if (W.Launches.size() >= WindowCapacity)
    flush(Ctx, W);
}

void api::eagerFlushContextSlow(DeviceContext &Ctx) {
  std::lock_guard<std::recursive_mutex> Lock(Ctx.M);
  Window &W = windowOf(Ctx);
  if (!W.Launches.empty())
    flush(Ctx, W);
}

void api::eagerFlushStreamSlow(StreamObj &S) {
  DeviceContext &Ctx = *S.Ctx;
  std::lock_guard<std::recursive_mutex> Lock(Ctx.M);
  Window &W = windowOf(Ctx);
  if (W.Launches.empty())
    return;
  bool Flush = S.IsNull;
  for (HeldLaunch &H : W.Launches)
    Flush |= H.S == &S;
  if (Flush)
    flush(Ctx, W);
}
