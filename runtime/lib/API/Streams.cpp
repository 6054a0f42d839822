//===- Streams.cpp - CUDA streams -----------------------------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Stream creation, destruction, synchronisation and queries, waits on
/// events, and host functions queued on streams (cudaStreamAddCallback,
/// cudaLaunchHostFunc). The legacy default stream's ordering is
/// Runtime::orderLegacy.
///
//===----------------------------------------------------------------------===//

#include "API/CudaAPI.h"
#include "API/EagerCoalesce.h"

#include <functional>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::api;

namespace {

cudaError_t hostFunc(cudaStream_t Stream, std::function<void()> Fn,
                     cudaHostFn_t Plain = nullptr, void *Data = nullptr) {
  StreamObj *S;
  if (cudaError_t E = resolve(Stream, S))
    return E;
  // Stream capture (Capture.cpp): cudaLaunchHostFunc becomes a host node;
  // cudaStreamAddCallback is not capturable, as in CUDA.
  if (!Plain) {
    if (cudaError_t E = captureRefuse(*S, "cudaStreamAddCallback"))
      return E;
  } else {
    bool Captured;
    if (cudaError_t E = captureWork(
            *S, "cudaLaunchHostFunc",
            [&](GraphNode &N) {
              N.Kind = NodeKind::Host;
              N.Host = {Plain, Data};
              return cudaSuccess;
            },
            Captured))
      return E;
    if (Captured)
      return cudaSuccess;
  }
  std::lock_guard<std::recursive_mutex> Lock(S->Ctx->M);
  RT().orderLegacy(*S);
  return mapStatus(*S->Ctx, S->Q->hostFunc(std::move(Fn)));
}

} // namespace

HETGPU_API cudaError_t cudaStreamCreateWithPriority(cudaStream_t *Out,
                                                    unsigned int Flags,
                                                    int Priority) {
  if (!Out || (Flags & ~1u))
    return ret(cudaErrorInvalidValue);
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  StreamObj *S;
  if (cudaError_t E = RT().createStream(*Ctx, Flags, Priority, S))
    return ret(E);
  {
    std::lock_guard<std::recursive_mutex> Lock(Ctx->M);
    Ctx->Streams.insert(S);
  }
  *Out = reinterpret_cast<cudaStream_t>(S);
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaStreamCreateWithFlags(cudaStream_t *Out,
                                                 unsigned int Flags) {
  return cudaStreamCreateWithPriority(Out, Flags, 0);
}

HETGPU_API cudaError_t cudaStreamCreate(cudaStream_t *Out) {
  return cudaStreamCreateWithPriority(Out, cudaStreamDefault, 0);
}

HETGPU_API cudaError_t cudaStreamDestroy(cudaStream_t S) {
  if (!S || S == cudaStreamLegacy || S == cudaStreamPerThread)
    return ret(cudaErrorInvalidResourceHandle);
  auto *Obj = reinterpret_cast<StreamObj *>(S);
  if (!RT().isLiveStream(Obj))
    return ret(cudaErrorInvalidResourceHandle);
  eagerFlushStream(*Obj); // its held launch runs first
  captureForgetStream(*Obj);
  graphsForgetStream(*Obj);
  return ret(RT().destroyStream(Obj));
}

HETGPU_API cudaError_t cudaStreamSynchronize(cudaStream_t Stream) {
  StreamObj *S;
  if (cudaError_t E = resolve(Stream, S))
    return ret(E);
  if (cudaError_t E = captureRefuse(*S, "cudaStreamSynchronize"))
    return ret(E);
  if (S->IsNull) {
    // The legacy stream waits for the blocking streams too.
    std::lock_guard<std::recursive_mutex> Lock(S->Ctx->M);
    RT().orderLegacy(*S);
  }
  return ret(syncStream(*S));
}

HETGPU_API cudaError_t cudaStreamQuery(cudaStream_t Stream) {
  StreamObj *S;
  if (cudaError_t E = resolve(Stream, S))
    return ret(E);
  if (cudaError_t E = captureRefuse(*S, "cudaStreamQuery"))
    return ret(E);
  Status St = S->Q->query();
  if (St.Code == ErrorCode::NotReady)
    return cudaErrorNotReady; // not recorded as the last error
  return ret(mapStatus(*S->Ctx, St));
}

HETGPU_API cudaError_t cudaStreamWaitEvent(cudaStream_t Stream,
                                           cudaEvent_t Event,
                                           unsigned int Flags) {
  StreamObj *S;
  if (cudaError_t E = resolve(Stream, S))
    return ret(E);
  auto *Ev = reinterpret_cast<EventObj *>(Event);
  // A null or dead event is an invalid handle (CUDA 13 returns 400 for
  // null; a dangling handle crashes it); bad flags are an invalid value.
  if (!Ev || !RT().isLiveEvent(Ev))
    return ret(cudaErrorInvalidResourceHandle);
  if (Flags & ~1u)
    return ret(cudaErrorInvalidValue);
  bool Captured; // fork/join of a capture, or a wait node (Capture.cpp)
  if (cudaError_t E = captureWait(*S, *Ev, Flags, Captured))
    return ret(E);
  if (Captured)
    return cudaSuccess;
  if (!Ev->Recorded)
    return cudaSuccess; // nothing to wait for
  std::lock_guard<std::recursive_mutex> Lock(S->Ctx->M);
  RT().orderLegacy(*S);
  return ret(mapStatus(*S->Ctx, S->Q->wait(*Ev->E)));
}

HETGPU_API cudaError_t cudaStreamAddCallback(cudaStream_t Stream,
                                             cudaStreamCallback_t Callback,
                                             void *UserData,
                                             unsigned int Flags) {
  if (!Callback || Flags)
    return ret(cudaErrorInvalidValue);
  return ret(hostFunc(Stream, [=] { Callback(Stream, cudaSuccess, UserData); }));
}

HETGPU_API cudaError_t cudaLaunchHostFunc(cudaStream_t Stream, cudaHostFn_t Fn,
                                          void *UserData) {
  if (!Fn)
    return ret(cudaErrorInvalidValue);
  return ret(hostFunc(Stream, [=] { Fn(UserData); }, Fn, UserData));
}

HETGPU_API cudaError_t cudaStreamGetFlags(cudaStream_t Stream,
                                          unsigned int *Flags) {
  StreamObj *S;
  if (!Flags)
    return ret(cudaErrorInvalidValue);
  if (cudaError_t E = resolve(Stream, S))
    return ret(E);
  *Flags = S->Flags;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaStreamGetPriority(cudaStream_t Stream,
                                             int *Priority) {
  StreamObj *S;
  if (!Priority)
    return ret(cudaErrorInvalidValue);
  if (cudaError_t E = resolve(Stream, S))
    return ret(E);
  *Priority = 0;
  return cudaSuccess;
}
