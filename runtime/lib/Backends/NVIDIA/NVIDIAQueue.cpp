//===- NVIDIAQueue.cpp - NVIDIA streams and events ------------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// A stream is a CUstream of the device's primary context (non-blocking);
/// host sources of copies are copied before the call returns; launches use
/// cuLaunchKernel with the kernel's parameter pointers. Events are
/// CUevents.
///
//===----------------------------------------------------------------------===//

#include "Backends/NVIDIA/NVIDIADevice.h"
#include "Core/Log.h"

#include <cstring>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::cu;

NVIDIAEvent::~NVIDIAEvent() {
  ContextScope S(D, Ctx);
  D.EventDestroy(Ev);
}

Status NVIDIAEvent::synchronize() {
  ContextScope S(D, Ctx);
  return check(D, D.EventSynchronize(Ev), "cuEventSynchronize");
}

Status NVIDIAEvent::query() {
  ContextScope S(D, Ctx);
  return check(D, D.EventQuery(Ev), "cuEventQuery");
}

Status NVIDIAEvent::elapsedSince(Event &Start, float &Ms) {
  ContextScope S(D, Ctx);
  auto &From = static_cast<NVIDIAEvent &>(Start);
  return check(D, D.EventElapsedTime(&Ms, From.Ev, Ev), "cuEventElapsedTime");
}

NVIDIAQueue::~NVIDIAQueue() {
  ContextScope S(D, Ctx);
  D.StreamSynchronize(Stream);
  D.StreamDestroy(Stream);
}

Status NVIDIAQueue::memcpy(void *Dst, const void *Src, size_t Bytes,
                           CopyKind Kind) {
  if (Bytes == 0)
    return Status::ok();
  ContextScope S(D, Ctx);
  switch (Kind) {
  case CopyKind::HostToDevice:
    return check(D, D.MemcpyHtoDAsync(dptr(Dst), Src, Bytes, Stream),
                 "cuMemcpyHtoDAsync");
  case CopyKind::DeviceToHost:
    return check(D, D.MemcpyDtoHAsync(Dst, dptr(Src), Bytes, Stream),
                 "cuMemcpyDtoHAsync");
  case CopyKind::DeviceToDevice:
    return check(D, D.MemcpyDtoDAsync(dptr(Dst), dptr(Src), Bytes, Stream),
                 "cuMemcpyDtoDAsync");
  case CopyKind::HostToHost:
    if (Status St = synchronize())
      return St;
    std::memmove(Dst, Src, Bytes);
    return Status::ok();
  }
  return Status(ErrorCode::InvalidValue, "memcpy: unknown copy kind");
}

Status NVIDIAQueue::memset(void *Dst, int Value, size_t Bytes) {
  if (Bytes == 0)
    return Status::ok();
  ContextScope S(D, Ctx);
  return check(D,
               D.MemsetD8Async(dptr(Dst), static_cast<unsigned char>(Value),
                               Bytes, Stream),
               "cuMemsetD8Async");
}

Status cu::allowDynamicShared(const Driver &D, NVIDIAKernel &NK,
                              uint64_t Shared, uint64_t OptinShared) {
  if (Shared <= 48 * 1024)
    return Status::ok();
  std::lock_guard<std::mutex> L(NK.Mu);
  if (Shared <= NK.DynamicSharedLimit)
    return Status::ok();
  if (Shared + NK.info().StaticShared > OptinShared)
    return Status(ErrorCode::InvalidValue,
                  "launch of '" + NK.info().Name +
                      "': " + std::to_string(Shared) +
                      " bytes of dynamic shared memory exceed the device's "
                      "limit of " +
                      std::to_string(OptinShared));
  if (Status St =
          check(D,
                D.FuncSetAttribute(
                    NK.Fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    static_cast<int>(Shared)),
                "cuFuncSetAttribute"))
    return St;
  NK.DynamicSharedLimit = Shared;
  return Status::ok();
}

Status NVIDIAQueue::launch(Kernel &K, const LaunchParams &P) {
  auto &NK = static_cast<NVIDIAKernel &>(K);
  if (P.State)
    return Status(ErrorCode::NotSupported,
                  "launch of '" + NK.info().Name +
                      "': live migration (state buffer) is not implemented "
                      "on the nvidia backend");
  ContextScope S(D, Ctx);
  if (Status St = allowDynamicShared(D, NK, P.DynamicShared, OptinShared))
    return St;
  CUresult R = D.LaunchKernel(NK.Fn, P.Grid[0], P.Grid[1], P.Grid[2],
                              P.Block[0], P.Block[1], P.Block[2],
                              static_cast<unsigned>(P.DynamicShared), Stream,
                              P.Args, nullptr);
  if (R == CUDA_ERROR_INVALID_VALUE)
    return Status(ErrorCode::InvalidConfiguration,
                  "cuLaunchKernel(" + NK.info().Name + "): " + D.describe(R));
  return check(D, R, ("cuLaunchKernel(" + NK.info().Name + ")").c_str());
}

Status NVIDIAQueue::hostFunc(std::function<void()> Fn) {
  ContextScope S(D, Ctx);
  auto *Heap = new std::function<void()>(std::move(Fn));
  CUresult R = D.LaunchHostFunc(
      Stream,
      [](void *U) {
        auto *F = static_cast<std::function<void()> *>(U);
        (*F)();
        delete F;
      },
      Heap);
  if (R != CUDA_SUCCESS)
    delete Heap;
  return check(D, R, "cuLaunchHostFunc");
}

Status NVIDIAQueue::record(Event &E) {
  ContextScope S(D, Ctx);
  return check(D, D.EventRecord(static_cast<NVIDIAEvent &>(E).Ev, Stream),
               "cuEventRecord");
}

Status NVIDIAQueue::wait(Event &E) {
  ContextScope S(D, Ctx);
  return check(D,
               D.StreamWaitEvent(Stream, static_cast<NVIDIAEvent &>(E).Ev, 0),
               "cuStreamWaitEvent");
}

Status NVIDIAQueue::synchronize() {
  ContextScope S(D, Ctx);
  return check(D, D.StreamSynchronize(Stream), "cuStreamSynchronize");
}

Status NVIDIAQueue::query() {
  ContextScope S(D, Ctx);
  return check(D, D.StreamQuery(Stream), "cuStreamQuery");
}

Status NVIDIADevice::createQueue(std::unique_ptr<Queue> &Out) {
  ContextScope S(D, Ctx);
  CUstream St = nullptr;
  // CUDA streams other than the legacy default stream do not synchronise
  // with each other; Core orders the default stream itself.
  if (Status E = check(D, D.StreamCreate(&St, CU_STREAM_NON_BLOCKING),
                       "cuStreamCreate"))
    return E;
  Out = std::make_unique<NVIDIAQueue>(D, Ctx, St, Props.SharedMemPerBlockOptin);
  return Status::ok();
}

Status NVIDIADevice::createEvent(std::unique_ptr<Event> &Out) {
  ContextScope S(D, Ctx);
  CUevent E = nullptr;
  if (Status St =
          check(D, D.EventCreate(&E, CU_EVENT_DEFAULT), "cuEventCreate"))
    return St;
  Out = std::make_unique<NVIDIAEvent>(D, Ctx, E);
  return Status::ok();
}

Status NVIDIADevice::synchronize() {
  ContextScope S(D, Ctx);
  return check(D, D.CtxSynchronize(), "cuCtxSynchronize");
}
