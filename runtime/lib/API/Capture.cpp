//===- Capture.cpp - CUDA stream capture ----------------------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// cudaStreamBeginCapture/EndCapture, cudaStreamIsCapturing,
/// cudaStreamGetCaptureInfo (CUDA 12 and CUDA 13 forms),
/// cudaStreamUpdateCaptureDependencies and
/// cudaThreadExchangeStreamCaptureMode, and the gates every stream
/// operation passes (CudaAPI.h: captureWork, captureRefuse, captureUnsafe,
/// captureRecord, captureWait). A capture sequence owns the graph being
/// built; each stream taking part holds the nodes its next operation
/// depends on. An event recorded in a capturing stream carries that set, so
/// a wait on it from another stream forks that stream into the capture and
/// a wait back joins it. Errors are CUDA's (codes 900-908): a violation
/// invalidates the capture, and cudaStreamEndCapture then returns
/// cudaErrorStreamCaptureInvalidated and no graph. All state is under one
/// lock; with no capture under way every gate is one atomic load.
///
//===----------------------------------------------------------------------===//

#include "API/CudaAPI.h"
#include "API/EagerCoalesce.h"
#include "Core/Log.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <thread>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::api;

namespace hetgpu {
namespace rt {

/// One capture sequence, from cudaStreamBeginCapture to EndCapture.
struct CaptureSeq {
  unsigned long long Id = 0;
  cudaStreamCaptureMode Mode = cudaStreamCaptureModeGlobal;
  std::thread::id Thread;
  StreamObj *Origin = nullptr;
  DeviceContext *Ctx = nullptr;
  std::unique_ptr<GraphObj> Graph;
  bool Invalidated = false;
  std::set<StreamObj *> Streams; ///< the origin and the forked streams
};

} // namespace rt
} // namespace hetgpu

namespace {

struct CaptureState {
  std::mutex M;
  std::map<unsigned long long, std::unique_ptr<CaptureSeq>> Seqs;
  std::atomic<int> Count{0};
  unsigned long long NextId = 1;
};

CaptureState &state() {
  static CaptureState *S = new CaptureState(); // never destroyed
  return *S;
}

/// The calling thread's capture interaction mode.
thread_local cudaStreamCaptureMode ThreadMode = cudaStreamCaptureModeGlobal;

void invalidate(CaptureSeq &Q, const std::string &Why) {
  if (!Q.Invalidated)
    log(LogLevel::Info,
        "stream capture " + std::to_string(Q.Id) + " invalidated: " + Why);
  Q.Invalidated = true;
}

/// The legacy stream's conflict: work on it would depend on (or be waited
/// for by) a capturing blocking stream of its device. Invalidates those
/// captures; true when there was one. Call with the lock held.
bool legacyConflict(StreamObj &S, const char *Who) {
  if (!S.IsNull)
    return false;
  bool Hit = false;
  for (auto &[Id, Q] : state().Seqs)
    for (StreamObj *T : Q->Streams)
      if (T->Ctx == S.Ctx && !(T->Flags & cudaStreamNonBlocking)) {
        invalidate(*Q, std::string(Who) +
                           " on the legacy stream while a blocking stream "
                           "captures");
        Hit = true;
        break;
      }
  return Hit;
}

CaptureSeq *findSeq(unsigned long long Id) {
  auto It = state().Seqs.find(Id);
  return It == state().Seqs.end() ? nullptr : It->second.get();
}

/// Appends a node to \p S's capture after the stream's dependencies; the
/// stream then depends on it alone. \p Fill's error removes it again.
cudaError_t appendNode(StreamObj &S,
                       const std::function<cudaError_t(GraphNode &)> &Fill) {
  CaptureSeq &Q = *S.Capture;
  GraphNode *N = Q.Graph->add(NodeKind::Empty, S.CaptureDeps);
  if (cudaError_t E = Fill(*N)) {
    Q.Graph->remove(N);
    invalidate(Q, std::string("a captured operation failed: ") +
                      cudaGetErrorName(E));
    return E;
  }
  S.CaptureDeps.assign(1, N);
  return cudaSuccess;
}

/// Leaves the capture for every stream of \p Q and forgets the sequence.
std::unique_ptr<CaptureSeq> endSeq(CaptureSeq &Q) {
  for (StreamObj *T : Q.Streams) {
    T->Capture = nullptr;
    T->CaptureDeps.clear();
  }
  auto It = state().Seqs.find(Q.Id);
  std::unique_ptr<CaptureSeq> Own = std::move(It->second);
  state().Seqs.erase(It);
  state().Count.fetch_sub(1);
  return Own;
}

/// Whether every node of \p Tips is \p Roots or reached backwards from them.
bool allJoined(const std::vector<GraphNode *> &Roots,
               const std::vector<GraphNode *> &Tips) {
  std::set<GraphNode *> Seen(Roots.begin(), Roots.end());
  std::vector<GraphNode *> Work(Roots.begin(), Roots.end());
  while (!Work.empty()) {
    GraphNode *N = Work.back();
    Work.pop_back();
    for (GraphNode *D : N->Deps)
      if (Seen.insert(D).second)
        Work.push_back(D);
  }
  return std::all_of(Tips.begin(), Tips.end(),
                     [&](GraphNode *T) { return Seen.count(T) != 0; });
}

} // namespace

//===--- The gates (CudaAPI.h) --------------------------------------------===//

bool api::captureUnderWay() { return state().Count.load() != 0; }

cudaError_t
api::captureWorkSlow(StreamObj &S, const char *Who,
                     const std::function<cudaError_t(GraphNode &)> &Fill,
                     bool &Captured) {
  Captured = false;
  std::lock_guard<std::mutex> L(state().M);
  if (legacyConflict(S, Who))
    return cudaErrorStreamCaptureImplicit;
  if (!S.Capture)
    return cudaSuccess;
  if (S.Capture->Invalidated)
    return cudaErrorStreamCaptureInvalidated;
  Captured = true;
  return appendNode(S, Fill);
}

cudaError_t api::captureRefuse(StreamObj &S, const char *Who) {
  if (!state().Count.load())
    return cudaSuccess;
  std::lock_guard<std::mutex> L(state().M);
  if (legacyConflict(S, Who))
    return cudaErrorStreamCaptureImplicit;
  if (!S.Capture)
    return cudaSuccess;
  invalidate(*S.Capture, std::string(Who) + " on a capturing stream (not "
                                            "permitted, or not captured by "
                                            "hetGPU)");
  return cudaErrorStreamCaptureUnsupported;
}

cudaError_t api::captureUnsafe(const char *Who) {
  if (!state().Count.load() || ThreadMode == cudaStreamCaptureModeRelaxed)
    return cudaSuccess;
  std::lock_guard<std::mutex> L(state().M);
  std::thread::id Me = std::this_thread::get_id();
  bool Hit = false;
  for (auto &[Id, Q] : state().Seqs) {
    bool Own = Q->Thread == Me && Q->Mode != cudaStreamCaptureModeRelaxed;
    bool Other = ThreadMode == cudaStreamCaptureModeGlobal && Q->Thread != Me &&
                 Q->Mode == cudaStreamCaptureModeGlobal;
    if (Own || Other) {
      invalidate(*Q, std::string(Who) + " is not permitted during capture "
                                        "(use cudaStreamCaptureModeRelaxed)");
      Hit = true;
    }
  }
  return Hit ? cudaErrorStreamCaptureUnsupported : cudaSuccess;
}

cudaError_t api::captureRecord(StreamObj &S, EventObj &E, unsigned Flags,
                               bool &Captured) {
  Captured = false;
  if (!state().Count.load()) {
    E.CaptureId = 0;
    return cudaSuccess;
  }
  std::lock_guard<std::mutex> L(state().M);
  if (legacyConflict(S, "cudaEventRecord"))
    return cudaErrorStreamCaptureImplicit;
  E.CaptureId = 0;
  E.CaptureDeps.clear();
  if (!S.Capture)
    return cudaSuccess;
  if (S.Capture->Invalidated)
    return cudaErrorStreamCaptureInvalidated;
  Captured = true;
  if (Flags & cudaEventRecordExternal)
    if (cudaError_t Err = appendNode(S, [&](GraphNode &N) {
          N.Kind = NodeKind::EventRecord;
          N.Event = reinterpret_cast<cudaEvent_t>(&E);
          return cudaSuccess;
        }))
      return Err;
  E.CaptureId = S.Capture->Id;
  E.CaptureDeps = S.CaptureDeps;
  return cudaSuccess;
}

cudaError_t api::captureWait(StreamObj &S, EventObj &E, unsigned Flags,
                             bool &Captured) {
  Captured = false;
  if (!state().Count.load())
    return cudaSuccess;
  std::lock_guard<std::mutex> L(state().M);
  if (legacyConflict(S, "cudaStreamWaitEvent"))
    return cudaErrorStreamCaptureImplicit;
  if (S.Capture && S.Capture->Invalidated)
    return cudaErrorStreamCaptureInvalidated;
  if (S.Capture && (Flags & cudaEventWaitExternal)) {
    Captured = true;
    return appendNode(S, [&](GraphNode &N) {
      N.Kind = NodeKind::WaitEvent;
      N.Event = reinterpret_cast<cudaEvent_t>(&E);
      return cudaSuccess;
    });
  }
  CaptureSeq *From = E.CaptureId ? findSeq(E.CaptureId) : nullptr;
  if (!From) {
    if (!S.Capture)
      return cudaSuccess; // an ordinary wait
    invalidate(*S.Capture, "cudaStreamWaitEvent on an event recorded "
                           "outside the capture");
    return cudaErrorStreamCaptureIsolation;
  }
  if (From->Invalidated)
    return cudaErrorStreamCaptureInvalidated;
  Captured = true;
  if (!S.Capture) { // fork: S joins the capture
    if (S.IsNull || S.Ctx != From->Ctx) {
      invalidate(*From, "the legacy stream or a stream of another device "
                        "waited on a captured event");
      return cudaErrorStreamCaptureUnsupported;
    }
    S.Capture = From;
    S.CaptureDeps = E.CaptureDeps;
    From->Streams.insert(&S);
    return cudaSuccess;
  }
  if (S.Capture != From) {
    invalidate(*S.Capture, "a wait would merge two capture sequences");
    invalidate(*From, "a wait would merge two capture sequences");
    return cudaErrorStreamCaptureMerge;
  }
  for (GraphNode *D : E.CaptureDeps) // join
    if (!std::count(S.CaptureDeps.begin(), S.CaptureDeps.end(), D))
      S.CaptureDeps.push_back(D);
  return cudaSuccess;
}

cudaError_t api::capturedEventCheck(EventObj &E) {
  if (!state().Count.load() || !E.CaptureId)
    return cudaSuccess;
  std::lock_guard<std::mutex> L(state().M);
  return findSeq(E.CaptureId) ? cudaErrorCapturedEvent : cudaSuccess;
}

void api::captureForgetStream(StreamObj &S) {
  if (!state().Count.load())
    return;
  std::lock_guard<std::mutex> L(state().M);
  if (!S.Capture)
    return;
  CaptureSeq &Q = *S.Capture;
  invalidate(Q, "a capturing stream was destroyed");
  if (&S == Q.Origin) {
    endSeq(Q); // nobody can end it any more
    return;
  }
  Q.Streams.erase(&S);
  S.Capture = nullptr;
  S.CaptureDeps.clear();
}

bool api::isCapturing(StreamObj &S) {
  if (!state().Count.load())
    return false;
  std::lock_guard<std::mutex> L(state().M);
  return S.Capture != nullptr;
}

//===--- Entry points -----------------------------------------------------===//

HETGPU_API cudaError_t cudaStreamBeginCapture(cudaStream_t Stream,
                                              cudaStreamCaptureMode Mode) {
  StreamObj *S;
  if (cudaError_t E = resolve(Stream, S))
    return ret(E);
  eagerFlushContext(*S->Ctx); // held launches run before any capture
  if (Mode != cudaStreamCaptureModeGlobal &&
      Mode != cudaStreamCaptureModeThreadLocal &&
      Mode != cudaStreamCaptureModeRelaxed)
    return ret(cudaErrorInvalidValue);
  if (S->IsNull) {
    log(LogLevel::Info, "cudaStreamBeginCapture: the legacy default stream "
                        "(and hetGPU's per-thread default stream, which is "
                        "the legacy stream) cannot capture");
    return ret(cudaErrorStreamCaptureUnsupported);
  }
  CaptureState &St = state();
  std::lock_guard<std::mutex> L(St.M);
  if (S->Capture)
    return ret(cudaErrorIllegalState);
  auto Q = std::make_unique<CaptureSeq>();
  Q->Id = St.NextId++;
  Q->Mode = Mode;
  Q->Thread = std::this_thread::get_id();
  Q->Origin = S;
  Q->Ctx = S->Ctx;
  Q->Graph = std::make_unique<GraphObj>();
  Q->Graph->Capturing = true;
  Q->Streams.insert(S);
  S->Capture = Q.get();
  S->CaptureDeps.clear();
  St.Seqs[Q->Id] = std::move(Q);
  St.Count.fetch_add(1);
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaStreamEndCapture(cudaStream_t Stream,
                                            cudaGraph_t *Out) {
  if (!Out)
    return ret(cudaErrorInvalidValue);
  StreamObj *S;
  if (cudaError_t E = resolve(Stream, S))
    return ret(E);
  std::lock_guard<std::mutex> L(state().M);
  if (!S->Capture)
    return ret(cudaErrorIllegalState);
  CaptureSeq &Q = *S->Capture;
  if (Q.Origin != S) {
    invalidate(Q, "cudaStreamEndCapture on a stream the capture forked to");
    return ret(cudaErrorStreamCaptureUnmatched);
  }
  if (Q.Mode != cudaStreamCaptureModeRelaxed &&
      Q.Thread != std::this_thread::get_id())
    return ret(cudaErrorStreamCaptureWrongThread);
  *Out = nullptr;
  bool Joined = true;
  for (StreamObj *T : Q.Streams)
    if (T != S && !allJoined(S->CaptureDeps, T->CaptureDeps))
      Joined = false;
  std::unique_ptr<CaptureSeq> Own = endSeq(Q);
  if (Own->Invalidated)
    return ret(cudaErrorStreamCaptureInvalidated);
  if (!Joined) {
    log(LogLevel::Info, "cudaStreamEndCapture: a stream forked into the "
                        "capture was not joined back into the origin "
                        "stream");
    return ret(cudaErrorStreamCaptureUnjoined);
  }
  Own->Graph->Capturing = false;
  *Out = reinterpret_cast<cudaGraph_t>(Own->Graph.release());
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaStreamIsCapturing(cudaStream_t Stream,
                                             cudaStreamCaptureStatus *Out) {
  if (!Out)
    return ret(cudaErrorInvalidValue);
  StreamObj *S;
  if (cudaError_t E = resolve(Stream, S))
    return ret(E);
  *Out = cudaStreamCaptureStatusNone;
  if (!state().Count.load())
    return cudaSuccess;
  std::lock_guard<std::mutex> L(state().M);
  if (legacyConflict(*S, "cudaStreamIsCapturing"))
    return ret(cudaErrorStreamCaptureImplicit);
  if (S->Capture)
    *Out = S->Capture->Invalidated ? cudaStreamCaptureStatusInvalidated
                                   : cudaStreamCaptureStatusActive;
  return cudaSuccess;
}

namespace {

cudaError_t captureInfo(cudaStream_t Stream, cudaStreamCaptureStatus *Status,
                        unsigned long long *Id, cudaGraph_t *Graph,
                        const cudaGraphNode_t **Deps,
                        const cudaGraphEdgeData **Edges, size_t *NumDeps) {
  if (!Status || (Edges && !Deps))
    return cudaErrorInvalidValue;
  StreamObj *S;
  if (cudaError_t E = resolve(Stream, S))
    return E;
  std::lock_guard<std::mutex> L(state().M);
  if (legacyConflict(*S, "cudaStreamGetCaptureInfo"))
    return cudaErrorStreamCaptureImplicit;
  CaptureSeq *Q = S->Capture;
  *Status = !Q               ? cudaStreamCaptureStatusNone
            : Q->Invalidated ? cudaStreamCaptureStatusInvalidated
                             : cudaStreamCaptureStatusActive;
  if (*Status != cudaStreamCaptureStatusActive)
    return cudaSuccess;
  if (Id)
    *Id = Q->Id;
  if (Graph)
    *Graph = reinterpret_cast<cudaGraph_t>(Q->Graph.get());
  // Valid until the next operation on the stream, as in CUDA.
  if (Deps)
    *Deps = reinterpret_cast<const cudaGraphNode_t *>(S->CaptureDeps.data());
  if (Edges) {
    static thread_local std::vector<cudaGraphEdgeData> Zero;
    Zero.assign(std::max<size_t>(S->CaptureDeps.size(), 1),
                cudaGraphEdgeData{});
    *Edges = Zero.data();
  }
  if (NumDeps)
    *NumDeps = S->CaptureDeps.size();
  return cudaSuccess;
}

} // namespace

HETGPU_API cudaError_t cudaStreamGetCaptureInfo(cudaStream_t Stream,
                                                cudaStreamCaptureStatus *Status,
                                                unsigned long long *Id,
                                                cudaGraph_t *Graph,
                                                const cudaGraphNode_t **Deps,
                                                size_t *NumDeps) {
  return ret(captureInfo(Stream, Status, Id, Graph, Deps, nullptr, NumDeps));
}

HETGPU_API cudaError_t cudaStreamGetCaptureInfo_v3(
    cudaStream_t Stream, cudaStreamCaptureStatus *Status,
    unsigned long long *Id, cudaGraph_t *Graph, const cudaGraphNode_t **Deps,
    const cudaGraphEdgeData **Edges, size_t *NumDeps) {
  return ret(captureInfo(Stream, Status, Id, Graph, Deps, Edges, NumDeps));
}

HETGPU_API cudaError_t
cudaStreamUpdateCaptureDependencies(cudaStream_t Stream, cudaGraphNode_t *Deps,
                                    size_t Num, unsigned int Flags) {
  if ((Num && !Deps) || Flags > cudaStreamSetCaptureDependencies)
    return ret(cudaErrorInvalidValue);
  StreamObj *S;
  if (cudaError_t E = resolve(Stream, S))
    return ret(E);
  std::lock_guard<std::mutex> L(state().M);
  if (!S->Capture)
    return ret(cudaErrorIllegalState);
  std::vector<GraphNode *> New;
  for (size_t I = 0; I < Num; ++I) {
    auto *N = reinterpret_cast<GraphNode *>(Deps[I]);
    if (!isLiveNode(N) || N->Owner != S->Capture->Graph.get())
      return ret(cudaErrorInvalidValue);
    New.push_back(N);
  }
  if (Flags == cudaStreamSetCaptureDependencies)
    S->CaptureDeps.clear();
  for (GraphNode *N : New)
    if (!std::count(S->CaptureDeps.begin(), S->CaptureDeps.end(), N))
      S->CaptureDeps.push_back(N);
  return cudaSuccess;
}

HETGPU_API cudaError_t
cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode *Mode) {
  if (!Mode || (*Mode != cudaStreamCaptureModeGlobal &&
                *Mode != cudaStreamCaptureModeThreadLocal &&
                *Mode != cudaStreamCaptureModeRelaxed))
    return ret(cudaErrorInvalidValue);
  std::swap(*Mode, ThreadMode);
  return cudaSuccess;
}
