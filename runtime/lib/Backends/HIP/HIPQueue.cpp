//===- HIPQueue.cpp - HIP streams and events ------------------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// A stream is a hipStream_t; launches use hipModuleLaunchKernel with one
/// packed argument buffer (Core/ArgPack.h). Events are hipEvent_t.
///
//===----------------------------------------------------------------------===//

#include "Backends/HIP/HIPDevice.h"
#include "Core/ArgPack.h"
#include "Core/Log.h"

#include <cstring>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::hip;

Status HIPDevice::createQueue(std::unique_ptr<Queue> &Out) {
  DeviceScope S(R, Index);
  hipStream_t St = nullptr;
  if (Status E = check(R, R.StreamCreateWithFlags(&St, hipStreamNonBlocking),
                       "hipStreamCreateWithFlags"))
    return E;
  Out = std::make_unique<HIPQueue>(*this, St);
  return Status::ok();
}

Status HIPDevice::createEvent(std::unique_ptr<Event> &Out) {
  DeviceScope S(R, Index);
  hipEvent_t E = nullptr;
  if (Status St = check(R, R.EventCreateWithFlags(&E, hipEventDefault),
                        "hipEventCreateWithFlags"))
    return St;
  Out = std::make_unique<HIPEvent>(*this, E);
  return Status::ok();
}

Status HIPDevice::synchronize() {
  DeviceScope S(R, Index);
  if (Status St = check(R, R.DeviceSynchronize(), "hipDeviceSynchronize"))
    return St;
  return drainAll();
}

HIPEvent::~HIPEvent() {
  DeviceScope S(Dev.R, Dev.Index);
  Dev.R.EventDestroy(Ev);
}

Status HIPEvent::synchronize() {
  DeviceScope S(Dev.R, Dev.Index);
  if (Status St =
          check(Dev.R, Dev.R.EventSynchronize(Ev), "hipEventSynchronize"))
    return St;
  return Dev.drainAll();
}

Status HIPEvent::query() {
  DeviceScope S(Dev.R, Dev.Index);
  return check(Dev.R, Dev.R.EventQuery(Ev), "hipEventQuery");
}

Status HIPEvent::elapsedSince(Event &Start, float &Ms) {
  DeviceScope S(Dev.R, Dev.Index);
  auto &From = static_cast<HIPEvent &>(Start);
  return check(Dev.R, Dev.R.EventElapsedTime(&Ms, From.Ev, Ev),
               "hipEventElapsedTime");
}

HIPQueue::~HIPQueue() {
  DeviceScope S(R, Dev.Index);
  R.StreamSynchronize(Stream);
  R.StreamDestroy(Stream);
}

Status HIPQueue::memcpy(void *Dst, const void *Src, size_t Bytes,
                        CopyKind Kind) {
  if (Bytes == 0)
    return Status::ok();
  DeviceScope S(R, Dev.Index);
  hipMemcpyKind K = Kind == CopyKind::HostToDevice     ? hipMemcpyHostToDevice
                    : Kind == CopyKind::DeviceToHost   ? hipMemcpyDeviceToHost
                    : Kind == CopyKind::DeviceToDevice ? hipMemcpyDeviceToDevice
                                                       : hipMemcpyHostToHost;
  return check(R, R.MemcpyAsync(Dst, Src, Bytes, K, Stream), "hipMemcpyAsync");
}

Status HIPQueue::memset(void *Dst, int Value, size_t Bytes) {
  if (Bytes == 0)
    return Status::ok();
  DeviceScope S(R, Dev.Index);
  return check(R, R.MemsetAsync(Dst, Value, Bytes, Stream), "hipMemsetAsync");
}

Status HIPQueue::launch(Kernel &K, const LaunchParams &P) {
  auto &HK = static_cast<HIPKernel &>(K);
  const container::KernelInfo &Info = HK.info();
  if (P.State)
    return Status(ErrorCode::NotSupported,
                  "launch of '" + Info.Name +
                      "': live migration (state buffer) is not implemented "
                      "on the hip backend");
  const DeviceProperties &DP = Dev.properties();
  if (Info.StaticShared + P.DynamicShared > DP.SharedMemPerBlockOptin)
    return Status(ErrorCode::InvalidValue,
                  "launch of '" + Info.Name + "': " +
                      std::to_string(Info.StaticShared + P.DynamicShared) +
                      " bytes of shared memory exceed the device's LDS "
                      "limit of " +
                      std::to_string(DP.SharedMemPerBlockOptin));
  // One packed buffer with CUDA's parameter layout: the kernarg segment.
  ArgPack Pack(Info, P.Args);
  size_t Size = Pack.size();
  void *Extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER,
                   const_cast<char *>(Pack.buffer()),
                   HIP_LAUNCH_PARAM_BUFFER_SIZE, &Size, HIP_LAUNCH_PARAM_END};
  DeviceScope S(R, Dev.Index);
  hipError_t E = R.ModuleLaunchKernel(HK.Fn, P.Grid[0], P.Grid[1], P.Grid[2],
                                      P.Block[0], P.Block[1], P.Block[2],
                                      static_cast<unsigned>(P.DynamicShared),
                                      Stream, nullptr, Size ? Extra : nullptr);
  if (E == hipErrorInvalidValue || E == hipErrorInvalidConfiguration)
    return Status(ErrorCode::InvalidConfiguration,
                  "hipModuleLaunchKernel(" + Info.Name + "): " + R.describe(E));
  return check(R, E, "hipModuleLaunchKernel(" + Info.Name + ")");
}

Status HIPQueue::hostFunc(std::function<void()> Fn) {
  DeviceScope S(R, Dev.Index);
  auto *Heap = new std::function<void()>(std::move(Fn));
  hipError_t E = R.LaunchHostFunc(
      Stream,
      [](void *U) {
        auto *F = static_cast<std::function<void()> *>(U);
        (*F)();
        delete F;
      },
      Heap);
  if (E != hipSuccess)
    delete Heap;
  return check(R, E, "hipLaunchHostFunc");
}

Status HIPQueue::record(Event &E) {
  DeviceScope S(R, Dev.Index);
  return check(R, R.EventRecord(static_cast<HIPEvent &>(E).Ev, Stream),
               "hipEventRecord");
}

Status HIPQueue::wait(Event &E) {
  DeviceScope S(R, Dev.Index);
  return check(R, R.StreamWaitEvent(Stream, static_cast<HIPEvent &>(E).Ev, 0),
               "hipStreamWaitEvent");
}

Status HIPQueue::synchronize() {
  DeviceScope S(R, Dev.Index);
  if (Status St = check(R, R.StreamSynchronize(Stream), "hipStreamSynchronize"))
    return St;
  return Dev.drainAll();
}

Status HIPQueue::query() {
  DeviceScope S(R, Dev.Index);
  return check(R, R.StreamQuery(Stream), "hipStreamQuery");
}
