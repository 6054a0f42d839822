//===- CPUQueue.cpp - In-order streams of the CPU backend -----------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// A queue is a host thread running its tasks in order, asynchronous to
/// the caller (its stack is a pool worker's: single-block grids run on it).
/// A failed launch poisons the queue until the next synchronize() and marks
/// the device's fault. Events are in CPUDevice.h.
///
//===----------------------------------------------------------------------===//

#include "Backends/CPU/CPUDevice.h"

#include <stdexcept>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::cpu;

CPUQueue::CPUQueue(CPUDevice &Dev) : Dev(Dev) {
  // The queue thread runs single-block grids itself: same stack as the
  // pool's workers.
  pthread_attr_t Attr;
  pthread_attr_init(&Attr);
  setWorkerStack(Attr, workerStackBytes());
  int RC = pthread_create(
      &Thread, &Attr,
      [](void *Self) -> void * {
        static_cast<CPUQueue *>(Self)->loop();
        return nullptr;
      },
      this);
  pthread_attr_destroy(&Attr);
  if (RC != 0)
    throw std::runtime_error("cannot start a stream thread");
}

CPUQueue::~CPUQueue() {
  {
    std::unique_lock<std::mutex> Lock(M);
    IdleCV.wait(Lock, [&] { return Tasks.empty() && !Running; });
    Stop = true;
  }
  WorkCV.notify_all();
  pthread_join(Thread, nullptr);
  Dev.removeQueue(this);
}

void CPUQueue::loop() {
  for (;;) {
    Task T;
    {
      std::unique_lock<std::mutex> Lock(M);
      WorkCV.wait(Lock, [&] { return Stop || !Tasks.empty(); });
      if (Stop && Tasks.empty())
        return;
      T = std::move(Tasks.front());
      Tasks.pop_front();
      Running = true;
      if (Poisoned && !T.Always)
        T.Fn = nullptr;
    }
    Status S = T.Fn ? T.Fn() : Status();
    {
      std::lock_guard<std::mutex> Lock(M);
      Running = false;
      if (S) {
        if (Error.isOk())
          Error = S;
        if (S.Code == ErrorCode::LaunchFailure || S.Code == ErrorCode::Assert ||
            S.Code == ErrorCode::IllegalAddress) {
          Poisoned = true;
          Dev.setFault(S);
        }
      }
      if (Tasks.empty())
        IdleCV.notify_all();
    }
  }
}

Status CPUQueue::synchronize() {
  std::unique_lock<std::mutex> Lock(M);
  IdleCV.wait(Lock, [&] { return Tasks.empty() && !Running; });
  Status S = Error;
  Error = Status();
  Poisoned = false;
  Lock.unlock();
  return S ? S : Dev.fault();
}

Status CPUQueue::query() {
  std::unique_lock<std::mutex> Lock(M);
  if (!Tasks.empty() || Running)
    return Status(ErrorCode::NotReady, "stream busy");
  Status S = Error;
  Error = Status();
  Lock.unlock();
  return S ? S : Dev.fault();
}

Status CPUQueue::launch(Kernel &K, const LaunchParams &P) {
  auto &CK = static_cast<CPUKernel &>(K);
  auto Args = std::make_shared<ArgPack>(CK.info(), P.Args);
  LaunchParams Copy = P;
  Copy.Args = nullptr;
  push([this, &CK, Copy, Args] { return Dev.runGrid(CK, Copy, *Args); });
  return Status::ok();
}
