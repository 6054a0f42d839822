//===- TTSimQueue.cpp - tt-sim in-order queues and events -----------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// A queue is a worker thread running its work in order; copies touch
/// device DRAM directly (it is mapped in the host process). Events record
/// the time their queue reached them.
///
//===----------------------------------------------------------------------===//
#include "Backends/TTSim/TTSimDevice.h"

#include <cstring>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::ttsim;

TTSimQueue::~TTSimQueue() {
  Dev.removeQueue(this);
  stop();
}

Status TTSimQueue::synchronize() {
  std::unique_lock<std::mutex> L(M);
  Done.wait(L, [&] { return Work.empty() && !Busy; });
  Status S = std::move(Error);
  Error = Status::ok();
  L.unlock();
  return S ? S : Dev.fault();
}

Status TTSimQueue::query() {
  std::unique_lock<std::mutex> L(M);
  if (!Work.empty() || Busy)
    return Status(ErrorCode::NotReady, "tt-sim: queue busy");
  Status S = std::move(Error);
  Error = Status::ok();
  L.unlock();
  return S ? S : Dev.fault();
}

Status TTSimQueue::memcpy(void *Dst, const void *Src, size_t Bytes,
                          CopyKind Kind) {
  Dram &D = Dev.dram();
  bool DstDev =
      Kind == CopyKind::HostToDevice || Kind == CopyKind::DeviceToDevice;
  bool SrcDev =
      Kind == CopyKind::DeviceToHost || Kind == CopyKind::DeviceToDevice;
  if ((DstDev && !D.contains(Dst, Bytes)) ||
      (SrcDev && !D.contains(Src, Bytes)))
    return Status(ErrorCode::InvalidValue,
                  "tt-sim: memcpy of " + std::to_string(Bytes) +
                      " bytes touches memory outside device DRAM");
  return enqueue([Dst, Src, Bytes] {
    std::memcpy(Dst, Src, Bytes);
    return Status::ok();
  });
}

Status TTSimQueue::memset(void *Dst, int Value, size_t Bytes) {
  if (!Dev.dram().contains(Dst, Bytes))
    return Status(ErrorCode::InvalidValue, "tt-sim: memset of " +
                                               std::to_string(Bytes) +
                                               " bytes outside device DRAM");
  return enqueue([Dst, Value, Bytes] {
    std::memset(Dst, Value, Bytes);
    return Status::ok();
  });
}

Status TTSimQueue::launch(Kernel &K, const LaunchParams &P) {
  auto &TK = static_cast<TTSimKernel &>(K);
  const container::KernelInfo &KI = TK.Info;
  LaunchLayout Lay;
  if (Status S = Dev.checkLaunch(TK, P, Lay))
    return S;
  // Capture the argument values now, as cudaLaunchKernel does.
  std::vector<char> Bytes(KI.ParamBufferSize);
  for (size_t I = 0; I < KI.Params.size(); ++I) {
    const container::ParamInfo &PI = KI.Params[I];
    if (!P.Args || !P.Args[I] || PI.Offset + PI.Size > Bytes.size())
      return Status(ErrorCode::InvalidValue,
                    "tt-sim: missing or bad argument " + std::to_string(I) +
                        " of '" + KI.Name + "'");
    std::memcpy(Bytes.data() + PI.Offset, P.Args[I], PI.Size);
  }
  LaunchParams Copy = P;
  Copy.Args = nullptr;
  TTSimDevice &D = Dev;
  return enqueue([&D, &TK, Copy, Bytes = std::move(Bytes)] {
    if (Status F = D.fault())
      return F; // a faulted device runs nothing until reset
    Status S = D.runLaunch(TK, Copy, Bytes);
    if (S.Code == ErrorCode::Assert || S.Code == ErrorCode::LaunchFailure ||
        S.Code == ErrorCode::IllegalAddress)
      D.setFault(S);
    return S;
  });
}

Status TTSimEvent::synchronize() {
  waitFor(latest());
  return Status::ok();
}

Status TTSimEvent::query() {
  std::lock_guard<std::mutex> G(M);
  return pendingLocked() ? Status(ErrorCode::NotReady, "tt-sim: event pending")
                         : Status::ok();
}

Status TTSimEvent::elapsedSince(Event &StartE, float &Ms) {
  auto &S = static_cast<TTSimEvent &>(StartE);
  Clock::time_point T0, T1;
  {
    std::lock_guard<std::mutex> G(S.M);
    if (!S.Recorded || S.pendingLocked())
      return Status(S.pendingLocked() ? ErrorCode::NotReady
                                      : ErrorCode::InvalidValue,
                    "tt-sim: start event not complete");
    T0 = S.Time;
  }
  {
    std::lock_guard<std::mutex> G(M);
    if (!Recorded || pendingLocked())
      return Status(pendingLocked() ? ErrorCode::NotReady
                                    : ErrorCode::InvalidValue,
                    "tt-sim: end event not complete");
    T1 = Time;
  }
  Ms = std::chrono::duration<float, std::milli>(T1 - T0).count();
  return Status::ok();
}

void TTSimQueue::stop() {
  {
    std::lock_guard<std::mutex> G(M);
    Stop = true;
    CV.notify_all();
  }
  Worker.join();
}

Status TTSimQueue::hostFunc(std::function<void()> Fn) {
  return enqueue([Fn] {
    Fn();
    return Status::ok();
  });
}

Status TTSimQueue::record(Event &E) {
  auto &TE = static_cast<TTSimEvent &>(E);
  uint64_t Ticket = TE.markPending();
  return enqueue([&TE, Ticket] {
    TE.complete(Ticket);
    return Status::ok();
  });
}

Status TTSimQueue::wait(Event &E) {
  // The record made before this call, not a later one (Ticket now). An
  // event of another backend is waited for as a whole.
  auto *TE = dynamic_cast<TTSimEvent *>(&E);
  if (!TE)
    return enqueue([&E] { return E.synchronize(); });
  uint64_t Ticket = TE->latest();
  return enqueue([TE, Ticket] {
    TE->waitFor(Ticket);
    return Status::ok();
  });
}

Status TTSimQueue::enqueue(std::function<Status()> Fn) {
  std::lock_guard<std::mutex> G(M);
  Work.push_back(std::move(Fn));
  CV.notify_all();
  return Status::ok();
}

void TTSimQueue::run() {
  std::unique_lock<std::mutex> L(M);
  for (;;) {
    CV.wait(L, [&] { return Stop || !Work.empty(); });
    if (Work.empty() && Stop)
      return;
    auto Fn = std::move(Work.front());
    Work.pop_front();
    Busy = true;
    L.unlock();
    Status S = Fn();
    L.lock();
    Busy = false;
    if (S && !Error)
      Error = std::move(S);
    if (Work.empty())
      Done.notify_all();
  }
}

Status TTSimDevice::createQueue(std::unique_ptr<Queue> &Out) {
  auto Q = std::make_unique<TTSimQueue>(*this);
  std::lock_guard<std::mutex> G(M);
  Queues.insert(Q.get());
  Out = std::move(Q);
  return Status::ok();
}

Status TTSimDevice::createEvent(std::unique_ptr<Event> &Out) {
  Out = std::make_unique<TTSimEvent>();
  return Status::ok();
}

Status TTSimDevice::synchronize() {
  std::vector<TTSimQueue *> Qs;
  {
    std::lock_guard<std::mutex> G(M);
    Qs.assign(Queues.begin(), Queues.end());
  }
  Status First;
  for (TTSimQueue *Q : Qs)
    if (Status S = Q->synchronize(); S && First.isOk())
      First = S;
  return First.isOk() ? fault() : First;
}

Status TTSimDevice::reset() {
  synchronize();
  std::lock_guard<std::mutex> G(FaultM);
  Fault = Status();
  return Status::ok();
}
