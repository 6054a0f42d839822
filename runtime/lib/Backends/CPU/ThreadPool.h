//===- ThreadPool.h - Worker threads that run a grid's blocks ---*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// A fixed set of worker threads (large stacks: translated blocks keep
/// per-thread state on the stack) that run one parallel loop at a time.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_BACKENDS_CPU_THREADPOOL_H
#define HETGPU_RUNTIME_BACKENDS_CPU_THREADPOOL_H

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <pthread.h>
#include <vector>

namespace hetgpu {
namespace rt {

class ThreadPool {
public:
  /// \p Workers threads (may be 0) with \p StackBytes of stack each.
  ThreadPool(unsigned Workers, size_t StackBytes);
  ~ThreadPool();
  unsigned size() const { return static_cast<unsigned>(Threads.size()); }

  /// Calls Fn(I, Worker) for every I in [0, Count), spread over the
  /// workers (ids 0..size()-1) and the calling thread (id size()); returns
  /// when all calls returned. Calls from several host threads run one after
  /// the other.
  void parallelFor(uint64_t Count,
                   const std::function<void(uint64_t, unsigned)> &Fn);

private:
  static void *threadMain(void *Arg);
  void workerLoop(unsigned Id);
  /// Thread \p Id's part of the loop: runs of indices until none is left.
  void runShare(const std::function<void(uint64_t, unsigned)> &Fn, uint64_t N,
                unsigned Id);

  std::vector<pthread_t> Threads;
  std::mutex RunM; ///< one loop at a time
  std::mutex M;
  std::condition_variable WorkCV, DoneCV;
  uint64_t Generation = 0;
  bool Stop = false;
  const std::function<void(uint64_t, unsigned)> *Job = nullptr;
  uint64_t Count = 0;
  std::atomic<uint64_t> Next{0};
  unsigned Busy = 0;
};

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_BACKENDS_CPU_THREADPOOL_H
