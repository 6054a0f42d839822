//===- CPUDevice.h - The CPU backend's device, queues and modules -*- C++
//-*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The classes of the CPU backend (private to runtime/lib/Backends/CPU):
/// the device and its memory (CPUBackend.cpp), modules loaded from
/// in-memory shared objects (CPUModule.cpp), in-order queues and events
/// (CPUQueue.cpp) and grid launches with the services of
/// include/hetgpu/ABI/BlockABI.h (CPULaunch.cpp).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_BACKENDS_CPU_CPUDEVICE_H
#define HETGPU_RUNTIME_BACKENDS_CPU_CPUDEVICE_H

#include "Backends/CPU/FaultGuard.h"
#include "Backends/CPU/ThreadPool.h"
#include "Core/ArgPack.h"
#include "Core/Device.h"
#include "hetgpu/ABI/BlockABI.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csetjmp>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <pthread.h>
#include <set>
#include <string>
#include <vector>

namespace hetgpu {
namespace rt {
namespace cpu {

using Clock = std::chrono::steady_clock;

//===----------------------------------------------------------------------===//
// Launch state and the services of ABI/BlockABI.h
//===----------------------------------------------------------------------===//

/// What one launch shares between its workers.
struct LaunchState {
  std::atomic<bool> Failed{false};
  std::mutex M;
  Status Error;
  const std::string *KernelName = nullptr;

  void fail(ErrorCode C, std::string Message) {
    std::lock_guard<std::mutex> Lock(M);
    if (Error.isOk())
      Error = Status(C, std::move(Message));
    Failed = true;
  }
};

/// Per-worker state: its shared memory, the block it runs, the jump buffer
/// the noreturn services leave the block through.
struct Worker {
  char *Shared = nullptr;
  size_t SharedSize = 0;
  jmp_buf Jmp;
  FaultInfo Fault; ///< what left the block, when a fault did (FaultGuard.h)
  hetgpu_host_services Services;
  hetgpu_block_ctx Ctx;
  LaunchState *Launch = nullptr;

  ~Worker() { free(Shared); }
  void ensureShared(size_t Bytes) {
    if (Bytes <= SharedSize)
      return;
    free(Shared);
    SharedSize = (Bytes + 4095) / 4096 * 4096;
    Shared = static_cast<char *>(aligned_alloc(64, SharedSize));
  }
};

//===----------------------------------------------------------------------===//
// Modules and kernels
//===----------------------------------------------------------------------===//

class CPUKernel : public Kernel {
public:
  CPUKernel(container::KernelInfo Info, hetgpu_block_fn Fn)
      : Info(std::move(Info)), Fn(Fn) {}
  const container::KernelInfo &info() const override { return Info; }
  container::KernelInfo Info;
  hetgpu_block_fn Fn;
};

class CPUModule : public Module {
public:
  CPUModule(void *Handle, int FD, const container::ModuleInfo &MI)
      : Handle(Handle), FD(FD), Kernels(MI.Kernels), Globals(MI.Globals) {}
  ~CPUModule() override;

  Status getKernel(const std::string &Name, Kernel *&Out) override;
  Status getGlobal(const std::string &Name, void *&Addr, size_t &Size) override;

private:
  void *Handle;
  int FD;
  std::vector<container::KernelInfo> Kernels;
  std::vector<container::GlobalInfo> Globals;
  std::mutex M;
  std::map<std::string, std::unique_ptr<CPUKernel>> Loaded;
};

//===----------------------------------------------------------------------===//
// Events and queues
//===----------------------------------------------------------------------===//

/// The state of a CPU event, shared with the queue tasks that signal or
/// wait for it, so a task never outlives it (cudaEventDestroy right after
/// cudaStreamWaitEvent is common).
struct EventState {
  std::mutex M;
  std::condition_variable CV;
  uint64_t Recorded = 0;  ///< generation of the latest record
  uint64_t Completed = 0; ///< generation reached by the queue
  Clock::time_point Time;

  uint64_t markRecorded() {
    std::lock_guard<std::mutex> Lock(M);
    return ++Recorded;
  }
  uint64_t recorded() {
    std::lock_guard<std::mutex> Lock(M);
    return Recorded;
  }
  void complete(uint64_t Gen) {
    {
      std::lock_guard<std::mutex> Lock(M);
      if (Gen > Completed) {
        Completed = Gen;
        Time = Clock::now();
      }
    }
    CV.notify_all();
  }
  void waitFor(uint64_t Gen) {
    std::unique_lock<std::mutex> Lock(M);
    CV.wait(Lock, [&] { return Completed >= Gen; });
  }
};

class CPUEvent : public Event {
public:
  std::shared_ptr<EventState> S = std::make_shared<EventState>();

  Status synchronize() override {
    S->waitFor(S->recorded());
    return Status::ok();
  }
  Status query() override {
    std::lock_guard<std::mutex> Lock(S->M);
    return S->Completed >= S->Recorded
               ? Status::ok()
               : Status(ErrorCode::NotReady, "not ready");
  }
  Status elapsedSince(Event &StartE, float &Ms) override {
    EventState &Start = *static_cast<CPUEvent &>(StartE).S;
    Clock::time_point A, B;
    {
      std::lock_guard<std::mutex> Lock(Start.M);
      if (Start.Completed < Start.Recorded || !Start.Completed)
        return Status(ErrorCode::NotReady, "start event not complete");
      A = Start.Time;
    }
    {
      std::lock_guard<std::mutex> Lock(S->M);
      if (S->Completed < S->Recorded || !S->Completed)
        return Status(ErrorCode::NotReady, "event not complete");
      B = S->Time;
    }
    Ms = std::chrono::duration<float, std::milli>(B - A).count();
    return Status::ok();
  }
};

class CPUDevice;

class CPUQueue : public Queue {
public:
  explicit CPUQueue(CPUDevice &Dev);
  ~CPUQueue() override;

  Status memcpy(void *Dst, const void *Src, size_t Bytes, CopyKind) override {
    push([=] {
      ::memmove(Dst, Src, Bytes);
      return Status::ok();
    });
    return Status::ok();
  }
  Status memset(void *Dst, int Value, size_t Bytes) override {
    push([=] {
      ::memset(Dst, Value, Bytes);
      return Status::ok();
    });
    return Status::ok();
  }
  Status launch(Kernel &K, const LaunchParams &P) override;
  Status hostFunc(std::function<void()> Fn) override {
    push(
        [Fn = std::move(Fn)] {
          Fn();
          return Status::ok();
        },
        /*Always=*/true);
    return Status::ok();
  }
  Status record(Event &E) override {
    std::shared_ptr<EventState> Ev = static_cast<CPUEvent &>(E).S;
    uint64_t Gen = Ev->markRecorded();
    push(
        [Ev, Gen] {
          Ev->complete(Gen);
          return Status::ok();
        },
        /*Always=*/true);
    return Status::ok();
  }
  Status wait(Event &E) override {
    std::shared_ptr<EventState> Ev = static_cast<CPUEvent &>(E).S;
    uint64_t Gen = Ev->recorded();
    push(
        [Ev, Gen] {
          Ev->waitFor(Gen);
          return Status::ok();
        },
        /*Always=*/true);
    return Status::ok();
  }
  Status synchronize() override;
  Status query() override;

private:
  struct Task {
    std::function<Status()> Fn;
    bool Always;
  };
  void push(std::function<Status()> Fn, bool Always = false) {
    {
      std::lock_guard<std::mutex> Lock(M);
      Tasks.push_back({std::move(Fn), Always});
    }
    WorkCV.notify_one();
  }
  void loop();

  CPUDevice &Dev;
  std::mutex M;
  std::condition_variable WorkCV, IdleCV;
  std::deque<Task> Tasks;
  bool Running = false;
  bool Stop = false;
  Status Error;          ///< first error not yet reported
  bool Poisoned = false; ///< a launch failed: skip later work
  pthread_t Thread;
};

//===----------------------------------------------------------------------===//
// The device
//===----------------------------------------------------------------------===//

/// Stack bytes of the threads that run blocks (HETGPU_CPU_STACK_MB).
size_t workerStackBytes();

class CPUDevice : public Device {
public:
  CPUDevice();

  const DeviceProperties &properties() const override { return Props; }

  Status allocate(size_t Bytes, void *&Ptr) override {
    return track(Bytes, Ptr, DeviceAllocs);
  }
  Status release(void *Ptr) override;
  bool sharesArena() override { return useArena(); }
  Status allocateHost(size_t Bytes, void *&Ptr) override {
    return track(Bytes, Ptr, HostAllocs);
  }
  Status releaseHost(void *Ptr) override { return untrack(Ptr, HostAllocs); }
  Status allocateManaged(size_t Bytes, void *&Ptr) override;
  Status memoryInfo(size_t &Free, size_t &Total) override;
  Status loadModule(const std::vector<char> &Binary,
                    const container::ModuleInfo &Info,
                    std::unique_ptr<Module> &Out) override;

  Status createQueue(std::unique_ptr<Queue> &Out) override {
    auto Q = std::make_unique<CPUQueue>(*this);
    {
      std::lock_guard<std::mutex> Lock(QM);
      Queues.insert(Q.get());
    }
    Out = std::move(Q);
    return Status::ok();
  }
  Status createEvent(std::unique_ptr<Event> &Out) override {
    Out = std::make_unique<CPUEvent>();
    return Status::ok();
  }
  Status synchronize() override {
    // Queues may be destroyed by other host threads meanwhile: hold QM so
    // none leaves the set (a queue's destructor waits here) while we use it.
    std::lock_guard<std::mutex> Lock(QM);
    Status First;
    for (CPUQueue *Q : Queues) {
      Status S = Q->synchronize();
      if (S && First.isOk())
        First = S;
    }
    return First;
  }

  /// A kernel fault is the device's: every queue reports it (Core makes it
  /// sticky) until reset().
  void setFault(const Status &S) {
    std::lock_guard<std::mutex> Lock(FaultM);
    if (Fault.isOk())
      Fault = S;
  }
  Status fault() {
    std::lock_guard<std::mutex> Lock(FaultM);
    return Fault;
  }
  Status reset() override {
    synchronize();
    std::lock_guard<std::mutex> Lock(FaultM);
    Fault = Status();
    return Status::ok();
  }

  void removeQueue(CPUQueue *Q) {
    std::lock_guard<std::mutex> Lock(QM);
    Queues.erase(Q);
  }

  /// Runs a whole grid on the pool; returns the launch's error.
  Status runGrid(CPUKernel &K, const LaunchParams &P, ArgPack &Args);

private:
  /// Device memory comes from the process-wide arena when the process is
  /// migratable (one address layout with the other devices).
  bool useArena();

  Status track(size_t Bytes, void *&Ptr, std::map<void *, size_t> &Table);
  Status untrack(void *Ptr, std::map<void *, size_t> &Table);

  DeviceProperties Props;
  unsigned Workers;
  std::once_flag ArenaOnce;
  bool InArena = false;
  unsigned ArenaTag = 0;
  std::mutex AllocM;
  std::map<void *, size_t> DeviceAllocs, HostAllocs;
  std::mutex QM;
  std::set<CPUQueue *> Queues;
  std::mutex FaultM;
  Status Fault;
  std::once_flag PoolOnce;
  std::mutex GridM;
  std::unique_ptr<ThreadPool> Pool;
  std::vector<Worker> WorkerStates;
};

} // namespace cpu
} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_BACKENDS_CPU_CPUDEVICE_H
