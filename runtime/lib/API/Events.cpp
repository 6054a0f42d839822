//===- Events.cpp - CUDA events -------------------------------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Event creation, recording, synchronisation, queries, elapsed time and
/// destruction. A cudaEvent_t is a Core EventObj holding a backend Event.
///
//===----------------------------------------------------------------------===//

#include "API/CudaAPI.h"
#include "API/EagerCoalesce.h"
#include "Core/CudaErrors.h"

#include <memory>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::api;

namespace {

/// \p Event as a live event; \p Waits: the caller waits on or queries it,
/// which an event recorded in a capture under way refuses
/// (cudaErrorCapturedEvent).
cudaError_t liveEvent(cudaEvent_t Event, EventObj *&Out, bool Waits = true) {
  Out = reinterpret_cast<EventObj *>(Event);
  if (!Out || !RT().isLiveEvent(Out))
    return cudaErrorInvalidResourceHandle;
  if (cudaError_t E = Waits ? capturedEventCheck(*Out) : cudaSuccess)
    return E;
  if (int St = Out->Ctx->Sticky.load())
    return static_cast<cudaError_t>(St);
  return cudaSuccess;
}

} // namespace

HETGPU_API cudaError_t cudaEventCreateWithFlags(cudaEvent_t *Out,
                                                unsigned int Flags) {
  if (!Out || (Flags & ~0x7u))
    return ret(cudaErrorInvalidValue);
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  auto Ev = std::make_unique<EventObj>();
  Ev->Ctx = Ctx;
  Ev->Flags = Flags;
  if (Status S = Ctx->Dev->createEvent(Ev->E))
    return ret(toCudaError(S.Code));
  EventObj *P = Ev.release();
  {
    std::lock_guard<std::mutex> Lock(RT().HandleM);
    RT().LiveEvents.insert(P);
  }
  *Out = reinterpret_cast<cudaEvent_t>(P);
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaEventCreate(cudaEvent_t *Out) {
  return cudaEventCreateWithFlags(Out, cudaEventDefault);
}

HETGPU_API cudaError_t cudaEventRecordWithFlags(cudaEvent_t Event,
                                                cudaStream_t Stream,
                                                unsigned int Flags) {
  EventObj *Ev;
  if (cudaError_t E = liveEvent(Event, Ev, /*Waits=*/false))
    return ret(E);
  StreamObj *S;
  if (cudaError_t E = resolve(Stream, S))
    return ret(E);
  if (S->Ctx != Ev->Ctx)
    return ret(cudaErrorInvalidResourceHandle);
  if (Flags & ~unsigned(cudaEventRecordExternal))
    return ret(cudaErrorInvalidValue);
  bool Captured; // recorded into a capture (Capture.cpp)
  if (cudaError_t E = captureRecord(*S, *Ev, Flags, Captured))
    return ret(E);
  if (Captured)
    return cudaSuccess;
  std::lock_guard<std::recursive_mutex> Lock(S->Ctx->M);
  RT().orderLegacy(*S);
  if (cudaError_t E = mapStatus(*S->Ctx, S->Q->record(*Ev->E)))
    return ret(E);
  Ev->Recorded = true;
  Ev->AgeMs = 0;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaEventRecord(cudaEvent_t Event, cudaStream_t Stream) {
  return cudaEventRecordWithFlags(Event, Stream, 0);
}

HETGPU_API cudaError_t cudaEventSynchronize(cudaEvent_t Event) {
  EventObj *Ev;
  if (cudaError_t E = liveEvent(Event, Ev))
    return ret(E);
  eagerFlushContext(*Ev->Ctx);
  if (!Ev->Recorded)
    return cudaSuccess;
  return ret(mapStatus(*Ev->Ctx, Ev->E->synchronize()));
}

HETGPU_API cudaError_t cudaEventQuery(cudaEvent_t Event) {
  EventObj *Ev;
  if (cudaError_t E = liveEvent(Event, Ev))
    return ret(E);
  eagerFlushContext(*Ev->Ctx);
  if (!Ev->Recorded)
    return cudaSuccess;
  Status S = Ev->E->query();
  if (S.Code == ErrorCode::NotReady)
    return cudaErrorNotReady;
  return ret(mapStatus(*Ev->Ctx, S));
}

HETGPU_API cudaError_t cudaEventElapsedTime(float *Ms, cudaEvent_t Start,
                                            cudaEvent_t End) {
  if (!Ms)
    return ret(cudaErrorInvalidValue);
  EventObj *A, *B;
  if (cudaError_t E = liveEvent(Start, A))
    return ret(E);
  if (cudaError_t E = liveEvent(End, B))
    return ret(E);
  if ((A->Flags | B->Flags) & cudaEventDisableTiming)
    return ret(cudaErrorInvalidResourceHandle);
  if (!A->Recorded || !B->Recorded)
    return ret(cudaErrorInvalidResourceHandle);
  eagerFlushContext(*A->Ctx);
  eagerFlushContext(*B->Ctx);
  if (A->E->query().Code == ErrorCode::NotReady ||
      B->E->query().Code == ErrorCode::NotReady)
    return ret(cudaErrorNotReady);
  if (cudaError_t E = mapStatus(*B->Ctx, B->E->elapsedSince(*A->E, *Ms)))
    return ret(E);
  *Ms += A->AgeMs - B->AgeMs;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaEventDestroy(cudaEvent_t Event) {
  auto *Ev = reinterpret_cast<EventObj *>(Event);
  {
    std::lock_guard<std::mutex> Lock(RT().HandleM);
    if (!Ev || !RT().LiveEvents.erase(Ev))
      return ret(cudaErrorInvalidResourceHandle);
  }
  // Queues may still signal it: wait until it is complete.
  if (Ev->Recorded)
    Ev->E->synchronize();
  delete Ev;
  return cudaSuccess;
}
