//===- LevelZeroQueue.cpp - Level Zero in-order queues and events ---------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// A stream is an in-order immediate command list; host sources of copies
/// are copied before the call returns; a launch sets the kernel's arguments
/// (values, the dynamic shared memory and the globals block) and appends
/// it. Events are host-visible events with a global timestamp each.
///
//===----------------------------------------------------------------------===//

#include "Backends/LevelZero/LevelZeroDevice.h"

#include <cstring>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::ze;

Status ZEEvent::synchronize() {
  if (!Recorded)
    return Status::ok();
  return zeStatus(A.zeEventHostSynchronize(E, Forever),
                  "zeEventHostSynchronize");
}

Status ZEEvent::query() {
  if (!Recorded)
    return Status::ok();
  ze_result_t R = A.zeEventQueryStatus(E);
  if (R == ZE_RESULT_NOT_READY)
    return Status(ErrorCode::NotReady, "event not ready");
  return zeStatus(R, "zeEventQueryStatus");
}

Status ZEEvent::elapsedSince(Event &Start, float &Ms) {
  auto &S = static_cast<ZEEvent &>(Start);
  if (!Recorded || !S.Recorded)
    return Status(ErrorCode::InvalidValue,
                  "level-zero: elapsed time of an event never recorded");
  if (Status St = S.query())
    return St;
  if (Status St = query())
    return St;
  Ms = float(double(int64_t(*Stamp - *S.Stamp)) * NsPerTick / 1e6);
  return Status::ok();
}

ZEQueue::~ZEQueue() {
  A.zeCommandListHostSynchronize(L, Forever);
  {
    std::lock_guard<std::mutex> G(D.M);
    D.Queues.erase(this);
  }
  A.zeCommandListDestroy(L);
}

Status ZEQueue::memcpy(void *Dst, const void *Src, size_t Bytes,
                       CopyKind Kind) {
  if (Bytes == 0)
    return Status::ok();
  if (Status S = zeStatus(A.zeCommandListAppendMemoryCopy(L, Dst, Src, Bytes,
                                                          nullptr, 0, nullptr),
                          "zeCommandListAppendMemoryCopy"))
    return S;
  // Pageable host sources may change once we return.
  if (Kind == CopyKind::HostToDevice || Kind == CopyKind::HostToHost)
    return zeStatus(A.zeCommandListHostSynchronize(L, Forever),
                    "zeCommandListHostSynchronize");
  return Status::ok();
}

Status ZEQueue::memset(void *Dst, int Value, size_t Bytes) {
  if (Bytes == 0)
    return Status::ok();
  unsigned char P = static_cast<unsigned char>(Value);
  return zeStatus(A.zeCommandListAppendMemoryFill(L, Dst, &P, 1, Bytes, nullptr,
                                                  0, nullptr),
                  "zeCommandListAppendMemoryFill");
}

Status ZEQueue::launch(Kernel &Kn, const LaunchParams &P) {
  auto &K = static_cast<ZEKernel &>(Kn);
  const container::KernelInfo &I = K.Info;
  std::lock_guard<std::mutex> G(K.M);
  uint32_t N = 0;
  for (const container::ParamInfo &PI : I.Params) {
    if (Status S =
            zeStatus(A.zeKernelSetArgumentValue(K.K, N, PI.Size, P.Args[N]),
                     "zeKernelSetArgumentValue(" + I.Name + ", " +
                         std::to_string(N) + ")"))
      return S;
    ++N;
  }
  if (Status S =
          zeStatus(A.zeKernelSetArgumentValue(
                       K.K, N, std::max<uint64_t>(P.DynamicShared, 1), nullptr),
                   "zeKernelSetArgumentValue(" + I.Name + ", dynamic shared)"))
    return S;
  if (Status S = zeStatus(
          A.zeKernelSetArgumentValue(K.K, N + 1, sizeof(void *), &K.Globals),
          "zeKernelSetArgumentValue(" + I.Name + ", globals)"))
    return S;
  if (Status S = zeStatus(
          A.zeKernelSetGroupSize(K.K, P.Block[0], P.Block[1], P.Block[2]),
          "zeKernelSetGroupSize(" + I.Name + ")"))
    return S;
  ze_group_count_t GC;
  GC.groupCountX = P.Grid[0];
  GC.groupCountY = P.Grid[1];
  GC.groupCountZ = P.Grid[2];
  return zeStatus(
      A.zeCommandListAppendLaunchKernel(L, K.K, &GC, nullptr, 0, nullptr),
      "zeCommandListAppendLaunchKernel(" + I.Name + ")");
}

Status ZEQueue::hostFunc(std::function<void()> Fn) {
  if (Status S = synchronize())
    return S;
  Fn();
  return Status::ok();
}

Status ZEQueue::record(Event &Ev) {
  auto &E = static_cast<ZEEvent &>(Ev);
  A.zeEventHostReset(E.E);
  E.Recorded = true;
  return zeStatus(
      A.zeCommandListAppendWriteGlobalTimestamp(L, E.Stamp, E.E, 0, nullptr),
      "zeCommandListAppendWriteGlobalTimestamp");
}

Status ZEQueue::wait(Event &Ev) {
  auto &E = static_cast<ZEEvent &>(Ev);
  if (!E.Recorded)
    return Status::ok();
  return zeStatus(A.zeCommandListAppendWaitOnEvents(L, 1, &E.E),
                  "zeCommandListAppendWaitOnEvents");
}

Status ZEQueue::synchronize() {
  if (Status S = zeStatus(A.zeCommandListHostSynchronize(L, Forever),
                          "zeCommandListHostSynchronize"))
    return S;
  D.drainPrintf();
  return D.deviceFailure();
}

Status ZEQueue::query() {
  ze_result_t R = A.zeCommandListHostSynchronize(L, 0);
  if (R == ZE_RESULT_NOT_READY)
    return Status(ErrorCode::NotReady, "queue busy");
  if (Status S = zeStatus(R, "zeCommandListHostSynchronize"))
    return S;
  return D.deviceFailure();
}
