//===- ThreadPool.cpp - Worker threads that run a grid's blocks -----------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Workers take loop indices from a shared atomic counter (dynamic
/// scheduling: blocks of a grid may take very different times).
///
//===----------------------------------------------------------------------===//

#include "Backends/CPU/ThreadPool.h"

#include <algorithm>

#include <stdexcept>
#include <string>

using namespace hetgpu::rt;

namespace {
struct StartArg {
  ThreadPool *Pool;
  unsigned Id;
};
} // namespace

ThreadPool::ThreadPool(unsigned Workers, size_t StackBytes) {
  for (unsigned I = 0; I < Workers; ++I) {
    pthread_attr_t Attr;
    pthread_attr_init(&Attr);
    pthread_attr_setstacksize(&Attr, StackBytes);
    // Guard region: a block's stack overflow faults there (FaultGuard.h).
    pthread_attr_setguardsize(&Attr, size_t(64) << 10);
    pthread_t T;
    auto *A = new StartArg{this, I};
    if (pthread_create(&T, &Attr, &ThreadPool::threadMain, A) != 0) {
      delete A;
      pthread_attr_destroy(&Attr);
      break; // the calling thread still runs every index
    }
    pthread_attr_destroy(&Attr);
    Threads.push_back(T);
  }
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> Lock(M);
    Stop = true;
  }
  WorkCV.notify_all();
  for (pthread_t T : Threads)
    pthread_join(T, nullptr);
}

void *ThreadPool::threadMain(void *Arg) {
  StartArg A = *static_cast<StartArg *>(Arg);
  delete static_cast<StartArg *>(Arg);
  A.Pool->workerLoop(A.Id);
  return nullptr;
}

void ThreadPool::workerLoop(unsigned Id) {
  uint64_t Seen = 0;
  for (;;) {
    const std::function<void(uint64_t, unsigned)> *Fn;
    uint64_t N;
    {
      std::unique_lock<std::mutex> Lock(M);
      WorkCV.wait(Lock, [&] { return Stop || Generation != Seen; });
      if (Stop)
        return;
      Seen = Generation;
      Fn = Job;
      N = Count;
    }
    runShare(*Fn, N, Id);
    {
      std::lock_guard<std::mutex> Lock(M);
      if (--Busy == 0)
        DoneCV.notify_all();
    }
  }
}

/// Guided scheduling: each thread takes a run of consecutive indices, a
/// share of what is left (at least one), so threads work on distant
/// indices (blocks) until the end. One index at a time made every block
/// a contended atomic on Next, and neighbouring blocks, which run at once
/// on different cores, wrote neighbouring words: bench/cpu's warp_vote
/// (one atomicAdd per warp into counts[blockIdx & 255]) spent most of its
/// time moving that cache line between cores.
void ThreadPool::runShare(const std::function<void(uint64_t, unsigned)> &Fn,
                          uint64_t N, unsigned Id) {
  uint64_t Parts = 2 * uint64_t(size() + 1);
  for (;;) {
    uint64_t Seen = Next.load(std::memory_order_relaxed);
    if (Seen >= N)
      return;
    uint64_t Take = std::max<uint64_t>(1, (N - Seen) / Parts);
    uint64_t I = Next.fetch_add(Take);
    if (I >= N)
      return;
    for (uint64_t E = std::min(N, I + Take); I < E; ++I)
      Fn(I, Id);
  }
}

void ThreadPool::parallelFor(
    uint64_t N, const std::function<void(uint64_t, unsigned)> &Fn) {
  if (N == 0)
    return;
  std::lock_guard<std::mutex> Run(RunM);
  unsigned Caller = size();
  if (N == 1 || Threads.empty()) {
    for (uint64_t I = 0; I < N; ++I)
      Fn(I, Caller);
    return;
  }
  {
    std::lock_guard<std::mutex> Lock(M);
    Job = &Fn;
    Count = N;
    Next = 0;
    Busy = size();
    ++Generation;
  }
  WorkCV.notify_all();
  // The calling thread takes indices too.
  runShare(Fn, N, Caller);
  std::unique_lock<std::mutex> Lock(M);
  DoneCV.wait(Lock, [&] { return Busy == 0; });
  Job = nullptr;
}
