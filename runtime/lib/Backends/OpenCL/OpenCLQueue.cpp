//===- OpenCLQueue.cpp - OpenCL in-order queues and events ----------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// A stream is an in-order command queue with profiling; host sources of
/// copies are copied before the call returns; a launch sets the kernel's
/// arguments (SVM pointers, the warp-loop block size, the dynamic shared
/// memory and the globals block) and enqueues it. Events are markers.
///
//===----------------------------------------------------------------------===//

#include "Backends/OpenCL/OpenCLDevice.h"

#include <algorithm>
#include <cstring>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::cl;

Status CLEvent::synchronize() {
  std::lock_guard<std::mutex> L(M);
  if (!E)
    return Status::ok();
  return clStatus(A.clWaitForEvents(1, &E), "clWaitForEvents");
}

Status CLEvent::query() {
  std::lock_guard<std::mutex> L(M);
  if (!E)
    return Status::ok();
  cl_int S = CL_COMPLETE;
  if (cl_int R = A.clGetEventInfo(E, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                  sizeof S, &S, nullptr))
    return clStatus(R, "clGetEventInfo");
  if (S < 0)
    return clStatus(S, "the work before the event");
  return S == CL_COMPLETE ? Status::ok()
                          : Status(ErrorCode::NotReady, "event not ready");
}

Status CLEvent::elapsedSince(Event &Start, float &Ms) {
  auto &S = static_cast<CLEvent &>(Start);
  cl_ulong T0 = 0, T1 = 0;
  if (!E || !S.E)
    return Status(ErrorCode::InvalidValue,
                  "opencl: elapsed time of an event never recorded");
  if (Status St = S.query())
    return St;
  if (Status St = query())
    return St;
  if (cl_int R = A.clGetEventProfilingInfo(S.E, CL_PROFILING_COMMAND_END,
                                           sizeof T0, &T0, nullptr))
    return clStatus(R, "clGetEventProfilingInfo");
  if (cl_int R = A.clGetEventProfilingInfo(E, CL_PROFILING_COMMAND_END,
                                           sizeof T1, &T1, nullptr))
    return clStatus(R, "clGetEventProfilingInfo");
  Ms = float(double(int64_t(T1 - T0)) / 1e6);
  return Status::ok();
}

CLQueue::~CLQueue() {
  A.clFinish(Q);
  setLast(nullptr);
  if (Scratch)
    D.release(Scratch);
  {
    std::lock_guard<std::mutex> L(D.M);
    D.Queues.erase(this);
  }
  A.clReleaseCommandQueue(Q);
}

Status CLQueue::memcpy(void *Dst, const void *Src, size_t Bytes,
                       CopyKind Kind) {
  if (Bytes == 0)
    return Status::ok();
  // Host sources may change as soon as we return: copy them now.
  cl_bool Blocking =
      Kind == CopyKind::HostToDevice || Kind == CopyKind::HostToHost ? CL_TRUE
                                                                     : CL_FALSE;
  cl_event Ev = nullptr;
  Status S = clStatus(
      A.clEnqueueSVMMemcpy(Q, Blocking, Dst, Src, Bytes, 0, nullptr, &Ev),
      "clEnqueueSVMMemcpy");
  setLast(Ev);
  return S;
}

Status CLQueue::memset(void *Dst, int Value, size_t Bytes) {
  if (Bytes == 0)
    return Status::ok();
  unsigned char Pattern = static_cast<unsigned char>(Value);
  cl_event Ev = nullptr;
  Status S = clStatus(
      A.clEnqueueSVMMemFill(Q, Dst, &Pattern, 1, Bytes, 0, nullptr, &Ev),
      "clEnqueueSVMMemFill");
  setLast(Ev);
  return S;
}

Status CLQueue::launch(Kernel &Kn, const LaunchParams &P) {
  auto &K = static_cast<CLKernel &>(Kn);
  const container::KernelInfo &I = K.Info;
  std::lock_guard<std::mutex> L(K.M);
  cl_uint N = 0;
  for (const container::ParamInfo &PI : I.Params) {
    cl_int R;
    if (PI.Kind == container::ParamKind::Pointer) {
      void *Ptr = nullptr;
      std::memcpy(&Ptr, P.Args[N], sizeof Ptr);
      R = A.clSetKernelArgSVMPointer(K.K, N, Ptr);
    } else {
      R = A.clSetKernelArg(K.K, N, PI.Size, P.Args[N]);
    }
    if (R)
      return clStatus(R, "clSetKernelArg(" + I.Name + ", " + std::to_string(N) +
                             ")");
    ++N;
  }
  uint64_t Warps = (uint64_t(P.Block[0]) * P.Block[1] * P.Block[2] + 31) / 32;
  uint64_t Shared = P.DynamicShared + (K.WarpLoop ? K.StaticShared : 0);
  uint64_t Record = K.WarpLoop ? Warps * K.WarpBytes : 0;
  uint64_t Limit = D.Props.SharedMemPerBlockOptin;
  // The device's local memory must hold it all (some OpenCL runtimes abort
  // instead of failing the enqueue: PoCL 3.1 asserts). A warp-loop
  // kernel's warp states go to a scratch area in device memory when they
  // do not fit.
  uint64_t Need = Shared + (K.WarpLoop ? 0 : I.StaticShared);
  if (Need > Limit)
    return Status(ErrorCode::LaunchOutOfResources,
                  "opencl: " + I.Name + " needs " + std::to_string(Need) +
                      " bytes of local memory (" +
                      std::to_string(P.DynamicShared) + " dynamic shared, " +
                      std::to_string(I.StaticShared) +
                      " static); the device has " + std::to_string(Limit));
  uint64_t Slots = 0;
  void *ScratchPtr = nullptr;
  if (K.WarpLoop && Need + Record > Limit) {
    // Enough slots for the work-groups the device runs at once; more
    // groups wait for a free one.
    uint64_t Groups = uint64_t(P.Grid[0]) * P.Grid[1] * P.Grid[2];
    Slots = std::min<uint64_t>(
        Groups, std::max<uint64_t>(16, 4 * D.Props.MultiProcessorCount));
    if (Status S = scratch(spirv_abi::scratchFlagBytes(Slots) + Slots * Record,
                           Slots, ScratchPtr))
      return Status(S.Code, "opencl: " + I.Name + ": warp states of " +
                                  std::to_string(Record) +
                                  " bytes per block: " + S.Message);
    Record = 0;
  }
  if (K.WarpLoop) {
    for (int D = 0; D < 3; ++D, ++N)
      if (cl_int R = A.clSetKernelArg(K.K, N, sizeof(cl_uint), &P.Block[D]))
        return clStatus(R, "clSetKernelArg(" + I.Name + ", block size)");
    cl_int R = ScratchPtr ? A.clSetKernelArgSVMPointer(K.K, N, ScratchPtr)
                          : A.clSetKernelArg(K.K, N, sizeof(void *), nullptr);
    if (R)
      return clStatus(R, "clSetKernelArg(" + I.Name + ", scratch)");
    cl_uint SlotArg = cl_uint(Slots);
    if (cl_int R = A.clSetKernelArg(K.K, N + 1, sizeof SlotArg, &SlotArg))
      return clStatus(R, "clSetKernelArg(" + I.Name + ", scratch slots)");
    N += 2;
  }
  uint64_t Dyn = Shared + Record;
  if (cl_int R = A.clSetKernelArg(K.K, N, std::max<uint64_t>(Dyn, 1), nullptr))
    return clStatus(R, "clSetKernelArg(" + I.Name +
                           ", dynamic shared memory of " + std::to_string(Dyn) +
                           " bytes)");
  if (cl_int R = A.clSetKernelArgSVMPointer(K.K, N + 1, K.Globals))
    return clStatus(R, "clSetKernelArgSVMPointer(" + I.Name + ", globals)");
  size_t Local[3], Global[3];
  for (int D = 0; D < 3; ++D) {
    if (P.Grid[D] == 0 || P.Block[D] == 0)
      return Status(ErrorCode::InvalidConfiguration,
                    "opencl: empty grid or block");
    Local[D] = P.Block[D];
    Global[D] = size_t(P.Grid[D]) * P.Block[D];
  }
  if (K.WarpLoop) {
    // One work-item per warp of 32 threads.
    Local[0] = (size_t(P.Block[0]) * P.Block[1] * P.Block[2] + 31) / 32;
    Local[1] = Local[2] = 1;
    for (int D = 0; D < 3; ++D)
      Global[D] = size_t(P.Grid[D]) * Local[D];
  }
  cl_event Ev = nullptr;
  Status S = clStatus(A.clEnqueueNDRangeKernel(Q, K.K, 3, nullptr, Global,
                                               Local, 0, nullptr, &Ev),
                      "clEnqueueNDRangeKernel(" + I.Name + ")");
  setLast(Ev);
  return S;
}

Status CLQueue::scratch(uint64_t Bytes, uint64_t Slots, void *&Out) {
  std::lock_guard<std::mutex> L(ScratchM);
  if (ScratchBytes < Bytes) {
    // Commands already enqueued may still use the old area.
    if (Scratch) {
      if (Status S = clStatus(A.clFinish(Q), "clFinish"))
        return S;
      D.release(Scratch);
      Scratch = nullptr;
      ScratchBytes = 0;
    }
    if (Status S = D.allocate(Bytes, Scratch))
      return S;
    ScratchBytes = Bytes;
  }
  // Flags left set by a launch that failed are cleared for this one.
  uint8_t Zero = 0;
  cl_event Ev = nullptr;
  if (Status S = clStatus(
          A.clEnqueueSVMMemFill(Q, Scratch, &Zero, 1,
                                spirv_abi::scratchFlagBytes(Slots), 0,
                                nullptr, &Ev),
          "clEnqueueSVMMemFill(scratch flags)"))
    return S;
  setLast(Ev);
  Out = Scratch;
  return Status::ok();
}

Status CLQueue::hostFunc(std::function<void()> Fn) {
  if (Status S = synchronize())
    return S;
  Fn();
  return Status::ok();
}

Status CLQueue::record(Event &E) {
  cl_event Ev = nullptr;
  if (cl_int R = A.clEnqueueMarkerWithWaitList(Q, 0, nullptr, &Ev))
    return clStatus(R, "clEnqueueMarkerWithWaitList");
  A.clFlush(Q);
  A.clRetainEvent(Ev);
  setLast(Ev);
  static_cast<CLEvent &>(E).set(Ev);
  return Status::ok();
}

Status CLQueue::wait(Event &E) {
  cl_event Ev = static_cast<CLEvent &>(E).get();
  if (!Ev)
    return Status::ok();
  cl_event B = nullptr;
  Status S = clStatus(A.clEnqueueBarrierWithWaitList(Q, 1, &Ev, &B),
                      "clEnqueueBarrierWithWaitList");
  setLast(B);
  return S;
}

Status CLQueue::synchronize() {
  if (Status S = clStatus(A.clFinish(Q), "clFinish"))
    return S;
  D.drainPrintf();
  return D.deviceFailure();
}

Status CLQueue::query() {
  cl_event Ev;
  {
    std::lock_guard<std::mutex> L(LastM);
    Ev = Last;
    if (Ev)
      A.clRetainEvent(Ev);
  }
  if (!Ev)
    return D.deviceFailure();
  A.clFlush(Q);
  cl_int S = CL_COMPLETE;
  cl_int R = A.clGetEventInfo(Ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof S,
                              &S, nullptr);
  A.clReleaseEvent(Ev);
  if (R)
    return clStatus(R, "clGetEventInfo");
  if (S < 0)
    return clStatus(S, "queued work");
  if (S != CL_COMPLETE)
    return Status(ErrorCode::NotReady, "queue busy");
  return D.deviceFailure();
}
