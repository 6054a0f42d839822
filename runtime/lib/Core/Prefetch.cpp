//===- Prefetch.cpp - Translate modules before their first launch ---------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Implements Core/Prefetch.h: a queue of (container, module) jobs, one
/// worker thread, and a table of finished or running translations that
/// Runtime::loadModule consults.
///
//===----------------------------------------------------------------------===//

#include "Core/Prefetch.h"

#include "Core/Log.h"
#include "Core/KernelMemCheck.h"
#include "Core/MigrationService.h"
#include "Core/Runtime.h"
#include "Core/Translator.h"

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>

using namespace hetgpu;
using namespace hetgpu::rt;

namespace {

/// (container, module, kernel group or -1 for the whole module).
using JobKey = std::tuple<const BinaryRecord *, int, int>;

struct Entry {
  enum { Queued, Running, Done } State = Queued;
  unsigned Flags = 0;
  Status Result;
  std::vector<char> Binary;
};

void stopPrefetchAtExit();

struct Prefetcher {
  std::mutex M;
  std::condition_variable CV;
  Device *Dev = nullptr; ///< the device every job translates for
  std::deque<JobKey> Queue;
  std::map<JobKey, Entry> Entries;
  bool Started = false;
  bool Stopping = false;
  bool Busy = false; ///< the worker is running a job

  void enqueue(BinaryRecord &B) {
    // Caller holds M.
    if (!B.Valid || Stopping)
      return;
    for (int I = 0; I < int(B.C.Modules.size()); ++I) {
      const container::ModuleInfo &MI = B.C.Modules[I];
      // A module with an image for the device is one job (the image).
      unsigned Size = chooseImage(MI, *Dev, moduleTranslateFlags(), false)
                          ? 0
                          : kernelGroupSize(MI);
      int Groups = Size ? int((MI.Kernels.size() + Size - 1) / Size) : 0;
      for (int G = Size ? 0 : -1; G < Groups; ++G) {
        JobKey K{&B, I, G};
        if (Entries.count(K))
          continue;
        Entries[K];
        Queue.push_back(K);
      }
    }
    CV.notify_all();
  }

  void run() {
    std::unique_lock<std::mutex> L(M);
    for (;;) {
      CV.wait(L, [&] { return Stopping || !Queue.empty(); });
      if (Stopping)
        return;
      JobKey K = Queue.front();
      Queue.pop_front();
      auto It = Entries.find(K);
      if (It == Entries.end() || It->second.State != Entry::Queued)
        continue;
      Entry &E = It->second;
      E.State = Entry::Running;
      E.Flags = moduleTranslateFlags();
      unsigned Flags = E.Flags;
      Busy = true;
      L.unlock();
      std::vector<char> Bin;
      const auto &[B, I, G] = K;
      const container::ModuleInfo &MI = B->C.Modules[I];
      Status S = getTranslation(MI, *Dev, Flags, Bin,
                                G < 0 ? std::vector<std::string>()
                                      : kernelGroup(MI, G));
      L.lock();
      Busy = false;
      // The entry stays in the table (std::map nodes are stable).
      E.Result = S;
      E.Binary = std::move(Bin);
      E.State = Entry::Done;
      CV.notify_all();
      // Stop before whatever this job built is destroyed at exit (the
      // translator's gate, lib/Translate/Translate.cpp, says why).
      L.unlock();
      std::atexit(stopPrefetchAtExit);
      L.lock();
    }
  }

  /// At exit: no new jobs; wait for the one running.
  void stop() {
    std::unique_lock<std::mutex> L(M);
    Stopping = true;
    Queue.clear();
    CV.notify_all();
    CV.wait(L, [&] { return !Busy; });
  }
};

Prefetcher &prefetcher() {
  // Never destroyed: the worker may still hold it while the process exits.
  static Prefetcher *P = new Prefetcher();
  return *P;
}

void stopPrefetchAtExit() { prefetcher().stop(); }

/// Off unless HETGPU_PREFETCH=1. With it on, Thrust programs on the CPU
/// device crashed or hung now and then (test/Libraries/thrust-algorithms.cu
/// with a cold cache: 2 of 10 runs on 2026-12-02, after the program had
/// printed everything): the program exited while this worker translated,
/// and LLVM's function-local statics built by earlier translations were
/// destroyed under it. The exit handlers registered after every
/// translation (lib/Translate/Translate.cpp's gate, stopPrefetchAtExit)
/// fixed it: 8 of 8 cold runs passed, test/Runtime/prefetch-exit.cu. Still
/// off by default until the suite and the corpus have run with it on.
bool prefetchEnabled() {
  const char *E = std::getenv("HETGPU_PREFETCH");
  return E && std::strcmp(E, "1") == 0;
}

} // namespace

void hetgpu::rt::startPrefetch(Device &Dev,
                               const std::vector<BinaryRecord *> &Binaries) {
  if (!prefetchEnabled())
    return;
  Prefetcher &P = prefetcher();
  {
    std::lock_guard<std::mutex> L(P.M);
    if (P.Started)
      return;
    P.Started = true;
    P.Dev = &Dev;
    for (BinaryRecord *B : Binaries)
      P.enqueue(*B);
  }
  // Registered after the backends' libraries were loaded, so it runs before
  // their destructors.
  std::atexit(stopPrefetchAtExit);
  std::thread([] { prefetcher().run(); }).detach();
  log(LogLevel::Debug, "prefetching translations for " +
                           Dev.properties().Name);
}

void hetgpu::rt::prefetchBinary(BinaryRecord &B) {
  Prefetcher &P = prefetcher();
  std::lock_guard<std::mutex> L(P.M);
  if (P.Started)
    P.enqueue(B);
}

unsigned hetgpu::rt::kernelGroupSize(const container::ModuleInfo &MI) {
  static const unsigned Size = container::kernelGroupSizeSetting();
  if (!container::translatedInGroups(MI, Size) || activeMigrationService() ||
      memCheckEnabled())
    return 0;
  return Size;
}

int hetgpu::rt::kernelGroupOf(const container::ModuleInfo &MI,
                              const std::string &Name) {
  unsigned Size = kernelGroupSize(MI);
  if (!Size)
    return -1;
  for (size_t I = 0; I < MI.Kernels.size(); ++I)
    if (MI.Kernels[I].Name == Name)
      return int(I / Size);
  return -1;
}

std::vector<std::string> hetgpu::rt::kernelGroup(const container::ModuleInfo &MI,
                                                 int Group) {
  unsigned Size = kernelGroupSize(MI);
  std::vector<std::string> Names;
  for (size_t I = size_t(Group) * Size;
       Size && Group >= 0 && I < MI.Kernels.size() && I < size_t(Group + 1) * Size;
       ++I)
    Names.push_back(MI.Kernels[I].Name);
  return Names;
}

bool hetgpu::rt::takePrefetched(const BinaryRecord &B, int ModuleIndex,
                                int Group, const Device &Dev, unsigned Flags,
                                std::vector<char> &Binary, Status &Result) {
  Prefetcher &P = prefetcher();
  std::unique_lock<std::mutex> L(P.M);
  // Another device's translations are of no use to this caller.
  if (!P.Started || P.Dev != &Dev)
    return false;
  JobKey K{&B, ModuleIndex, Group};
  auto It = P.Entries.find(K);
  if (It == P.Entries.end())
    return false;
  if (It->second.State == Entry::Queued) {
    // Not started: the caller translates now; the worker skips it.
    P.Entries.erase(It);
    return false;
  }
  // Several threads may wait for one entry; the first takes it (erases it),
  // so look it up again after every wake-up.
  P.CV.wait(L, [&] {
    It = P.Entries.find(K);
    return It == P.Entries.end() || It->second.State == Entry::Done;
  });
  if (It == P.Entries.end() || It->second.Flags != Flags)
    return false;
  Binary = std::move(It->second.Binary);
  Result = It->second.Result;
  P.Entries.erase(It);
  return true;
}

Prefetched hetgpu::rt::takeOrPromotePrefetched(const BinaryRecord &B,
                                               int ModuleIndex, int Group,
                                               const Device &Dev,
                                               unsigned Flags,
                                               std::vector<char> &Binary,
                                               Status &Result) {
  Prefetcher &P = prefetcher();
  {
    std::lock_guard<std::mutex> L(P.M);
    if (!P.Started || P.Stopping)
      return Prefetched::None;
    JobKey K{&B, ModuleIndex, Group};
    auto It = P.Entries.find(K);
    if (It == P.Entries.end())
      return Prefetched::None;
    if (It->second.State == Entry::Queued) {
      auto Q = std::find(P.Queue.begin(), P.Queue.end(), K);
      if (Q != P.Queue.end()) {
        P.Queue.erase(Q);
        P.Queue.push_front(K);
      }
      return Prefetched::Queued;
    }
  }
  return takePrefetched(B, ModuleIndex, Group, Dev, Flags, Binary, Result)
             ? Prefetched::Taken
             : Prefetched::None;
}
