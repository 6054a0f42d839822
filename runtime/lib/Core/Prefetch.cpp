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
#include "Core/MigrationService.h"
#include "Core/Runtime.h"
#include "Core/Translator.h"

#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

using namespace hetgpu;
using namespace hetgpu::rt;

namespace {

using JobKey = std::pair<const BinaryRecord *, int>;

struct Entry {
  enum { Queued, Running, Done } State = Queued;
  unsigned Flags = 0;
  Status Result;
  std::vector<char> Binary;
};

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
      JobKey K{&B, I};
      if (Entries.count(K))
        continue;
      Entries[K];
      Queue.push_back(K);
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
      MigrationService *Mig = activeMigrationService();
      E.Flags = Mig ? Mig->translateFlags() : 0;
      unsigned Flags = E.Flags;
      Busy = true;
      L.unlock();
      std::vector<char> Bin;
      Status S =
          getTranslation(K.first->C.Modules[K.second], *Dev, Flags, Bin);
      L.lock();
      Busy = false;
      // The entry stays in the table (std::map nodes are stable).
      E.Result = S;
      E.Binary = std::move(Bin);
      E.State = Entry::Done;
      CV.notify_all();
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

bool prefetchEnabled() {
  const char *E = std::getenv("HETGPU_PREFETCH");
  return !E || std::strcmp(E, "0") != 0;
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
  std::atexit([] { prefetcher().stop(); });
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

bool hetgpu::rt::takePrefetched(const BinaryRecord &B, int ModuleIndex,
                                const Device &Dev, unsigned Flags,
                                std::vector<char> &Binary, Status &Result) {
  Prefetcher &P = prefetcher();
  std::unique_lock<std::mutex> L(P.M);
  if (!P.Started)
    return false;
  auto It = P.Entries.find({&B, ModuleIndex});
  if (It == P.Entries.end())
    return false;
  Entry &E = It->second;
  if (E.State == Entry::Queued) {
    // Not started: the caller translates now; the worker skips it.
    P.Entries.erase(It);
    return false;
  }
  P.CV.wait(L, [&] { return E.State == Entry::Done; });
  bool Match = P.Dev == &Dev && E.Flags == Flags;
  if (Match) {
    Binary = std::move(E.Binary);
    Result = E.Result;
  }
  P.Entries.erase(It);
  return Match;
}
