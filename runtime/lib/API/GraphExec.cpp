//===- GraphExec.cpp - CUDA executable graphs: instantiate, replay --------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// cudaGraphInstantiate (CUDA 12/13 forms, WithFlags, WithParams),
/// cudaGraphLaunch, cudaGraphExec*NodeSetParams, cudaGraphExecUpdate,
/// cudaGraphUpload and cudaGraphExecDestroy.
///
/// Instantiation copies the graph (later changes of it do not reach the
/// executable graph, as in CUDA), resolves the dependencies once into a
/// replay order (Core/Graph.h: topological, child graphs expanded) and
/// translates every kernel for the current device. A launch replays that
/// order on the launch stream through the same paths eager calls take
/// (launchKernel, memcpyImpl, ...), so it works on every device the runtime
/// supports; the in-order stream satisfies every edge. Launches of one
/// executable graph on different streams are ordered after each other by
/// an event, as CUDA orders them. Where the device has graphs of its own
/// (NVIDIA: cuGraph*), instantiation also builds one (API/DriverGraph.h) and
/// a launch is one submission of it; what it cannot take replays as above
/// (docs/Graphs.md).
///
//===----------------------------------------------------------------------===//

#include "API/CudaAPI.h"
#include "API/DriverGraph.h"
#include "API/EagerCoalesce.h"
#include "API/GraphCoalesce.h"
#include "Core/CudaErrors.h"
#include "Core/Log.h"

#include <cstring>
#include <initializer_list>
#include <mutex>
#include <set>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::api;

namespace {

struct GraphExecObj {
  static constexpr uint32_t MagicValue = 0x47455845; // "GEXE"
  uint32_t Magic = MagicValue;
  std::unique_ptr<GraphObj> Copy;
  /// Nodes of the graphs it was instantiated or updated from -> the nodes
  /// of Copy (cudaGraphExec*NodeSetParams take the former).
  std::map<const GraphNode *, GraphNode *> Map;
  std::vector<GraphNode *> Order; ///< the replay order
  /// Kernel nodes of Order replayed as one fused launch (GraphCoalesce.h),
  /// in order.
  std::vector<std::unique_ptr<FusedGroup>> Groups;
  unsigned long long Flags = 0;
  /// Memset nodes whose element pattern is no byte pattern: a page-locked
  /// row of the pattern, copied to every row.
  std::map<const GraphNode *, void *> Patterns;
  /// Serialises launches. Done marks the end of the last one on stream
  /// Last: recorded only when something waits for it (DonePending until
  /// then, see recordDone): on NVIDIA a record per launch would be one more
  /// driver call beside cuGraphLaunch (the saving is not yet measured).
  std::mutex M;
  std::unique_ptr<Event> Done;
  bool DonePending = false;
  DeviceContext *DoneCtx = nullptr;
  /// The device Done was made on: live migration moves DoneCtx to another
  /// one (Migration/MoveContext.cpp), whose queues cannot record it.
  std::shared_ptr<Device> DoneDev;
  StreamObj *Last = nullptr;
  /// The device's own graph of this one (null: replayed through the
  /// queue, for the reason DrvWhy). Stale: parameters changed that it does
  /// not carry; built again at the next launch. Retry: the last build
  /// failed on a node, which an update may change.
  std::unique_ptr<DriverGraph> Drv;
  bool DrvStale = false, DrvRetry = false;
  std::string DrvWhy;
};

/// (Re)builds \p X's device graph on \p Ctx, logging a fallback's reason
/// when it changes. Call with X.M held (or before X is shared).
void buildDriver(GraphExecObj &X, DeviceContext &Ctx) {
  std::string Why;
  X.Drv.reset();
  X.Drv = DriverGraph::build(*X.Copy, X.Order, X.Groups, Ctx, Why, X.DrvRetry);
  X.DrvStale = false;
  if (X.Drv)
    log(LogLevel::Info,
        "graph: a driver graph of " + std::to_string(X.Drv->nodes()) +
            " nodes (" + std::to_string(X.Drv->kernels()) + " kernel nodes)");
  else if (Why != X.DrvWhy)
    log(Ctx.Dev->properties().Kind == BackendKind::NVIDIA ? LogLevel::Info
                                                          : LogLevel::Debug,
        "graph: replayed through the device queue: " + Why);
  X.DrvWhy = Why;
}

/// After a change of \p X's parameters that its device graph does not
/// carry in place.
void driverStale(GraphExecObj &X) {
  if (X.Drv || X.DrvRetry)
    X.DrvStale = true;
}

std::mutex ExecM;
std::set<GraphExecObj *> &liveExecs() {
  static auto *S = new std::set<GraphExecObj *>(); // never destroyed
  return *S;
}

GraphExecObj *asExec(cudaGraphExec_t H) {
  auto *X = reinterpret_cast<GraphExecObj *>(H);
  std::lock_guard<std::mutex> L(ExecM);
  return X && liveExecs().count(X) ? X : nullptr;
}

/// Whether memset node \p N's element is one byte repeated.
bool bytePattern(const cudaMemsetParams &P) {
  unsigned char B[4];
  std::memcpy(B, &P.value, 4);
  for (unsigned I = 1; I < P.elementSize; ++I)
    if (B[I] != B[0])
      return false;
  return true;
}

void dropPattern(GraphExecObj &X, const GraphNode *N) {
  auto It = X.Patterns.find(N);
  if (It == X.Patterns.end())
    return;
  cudaFreeHost(It->second);
  X.Patterns.erase(It);
}

/// Prepares the row pattern of memset node \p N, where it needs one.
cudaError_t preparePattern(GraphExecObj &X, const GraphNode &N) {
  dropPattern(X, &N);
  const cudaMemsetParams &P = N.Set;
  if (P.elementSize == 1 || bytePattern(P) || !P.width)
    return cudaSuccess;
  void *Buf;
  size_t Bytes = P.width * P.elementSize;
  if (cudaError_t E = cudaHostAlloc(&Buf, Bytes, 0))
    return E;
  for (size_t I = 0; I < P.width; ++I)
    std::memcpy(static_cast<char *>(Buf) + I * P.elementSize, &P.value,
                P.elementSize);
  X.Patterns[&N] = Buf;
  return cudaSuccess;
}

cudaError_t replayMemset(GraphExecObj &X, const GraphNode &N, cudaStream_t S) {
  const cudaMemsetParams &P = N.Set;
  size_t Row = P.width * P.elementSize;
  auto It = X.Patterns.find(&N);
  if (It == X.Patterns.end()) {
    int V = int(P.value & 0xff);
    if (P.height <= 1)
      return cudaMemsetAsync(P.dst, V, Row, S);
    return cudaMemset2DAsync(P.dst, P.pitch, V, Row, P.height, S);
  }
  for (size_t R = 0; R < P.height; ++R)
    if (cudaError_t E =
            memcpyImpl(static_cast<char *>(P.dst) + R * P.pitch, It->second,
                       Row, cudaMemcpyDefault, S, false))
      return E;
  return cudaSuccess;
}

cudaError_t replayNode(GraphExecObj &X, const GraphNode &N, cudaStream_t S) {
  if (!N.Enabled)
    return cudaSuccess; // cudaGraphNodeSetEnabled(..., 0)
  switch (N.Kind) {
  case NodeKind::Kernel: {
    const KernelLaunch &K = N.Kernel;
    return launchKernel(K.Func, K.Grid, K.Block, K.Args->args(), K.Shared, S);
  }
  case NodeKind::Memcpy: {
    const cudaMemcpy3DParms &P = N.Copy;
    bool Linear = !P.srcArray && !P.dstArray && P.extent.height == 1 &&
                  P.extent.depth == 1 && !P.srcPos.x && !P.srcPos.y &&
                  !P.srcPos.z && !P.dstPos.x && !P.dstPos.y && !P.dstPos.z;
    if (Linear)
      return memcpyImpl(P.dstPtr.ptr, P.srcPtr.ptr, P.extent.width, P.kind, S,
                        false);
    return cudaMemcpy3DAsync(&P, S);
  }
  case NodeKind::Memset:
    return replayMemset(X, N, S);
  case NodeKind::Host:
    return cudaLaunchHostFunc(S, N.Host.fn, N.Host.userData);
  case NodeKind::EventRecord:
    return cudaEventRecord(N.Event, S);
  case NodeKind::WaitEvent:
    return cudaStreamWaitEvent(S, N.Event, 0);
  case NodeKind::Child: // expanded by flatten()
  case NodeKind::Empty:
    return cudaSuccess;
  }
  return cudaErrorInvalidValue;
}

/// Checks what replay will need of \p N on \p Ctx: live events, and the
/// kernel translated and loaded (so that the first launch runs no JIT).
cudaError_t prepareNode(GraphExecObj &X, DeviceContext &Ctx, GraphNode &N) {
  switch (N.Kind) {
  case NodeKind::Kernel: {
    Kernel *K;
    return RT().getKernel(Ctx, *N.Kernel.K, K);
  }
  case NodeKind::EventRecord:
  case NodeKind::WaitEvent:
    return RT().isLiveEvent(reinterpret_cast<EventObj *>(N.Event))
               ? cudaSuccess
               : cudaErrorInvalidResourceHandle;
  case NodeKind::Memset:
    return preparePattern(X, N);
  default:
    return cudaSuccess;
  }
}

cudaError_t instantiate(cudaGraphExec_t *Out, cudaGraph_t G,
                        unsigned long long Flags,
                        cudaGraphInstantiateParams *Params) {
  auto Result = [&](cudaGraphInstantiateResult R, GraphNode *N) {
    if (Params) {
      Params->result_out = R;
      Params->errNode_out = reinterpret_cast<cudaGraphNode_t>(N);
    }
  };
  Result(cudaGraphInstantiateError, nullptr);
  auto *Gr = reinterpret_cast<GraphObj *>(G);
  if (!Out || !isLiveGraph(Gr))
    return cudaErrorInvalidValue;
  const unsigned long long Known = cudaGraphInstantiateFlagAutoFreeOnLaunch |
                                   cudaGraphInstantiateFlagUpload |
                                   cudaGraphInstantiateFlagDeviceLaunch |
                                   cudaGraphInstantiateFlagUseNodePriority;
  if (Flags & ~Known)
    return cudaErrorInvalidValue;
  if (Flags & cudaGraphInstantiateFlagDeviceLaunch) {
    log(LogLevel::Warn, "cudaGraphInstantiate: graphs launched from the "
                        "device (cudaGraphInstantiateFlagDeviceLaunch) are "
                        "not implemented by hetGPU");
    Result(cudaGraphInstantiateNodeOperationNotSupported, nullptr);
    return cudaErrorNotSupported;
  }
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return E;
  auto X = std::make_unique<GraphExecObj>();
  X->Flags = Flags;
  X->Copy = Gr->clone();
  for (const auto &N : X->Copy->Nodes)
    X->Map[N->ClonedFrom] = N.get();
  if (!planReplay(*X->Copy, *Ctx, X->Order, X->Groups)) {
    log(LogLevel::Info, "cudaGraphInstantiate: the graph's dependencies "
                        "form a cycle");
    Result(cudaGraphInstantiateInvalidStructure, nullptr);
    return cudaErrorInvalidValue;
  }
  for (GraphNode *N : X->Order)
    if (cudaError_t E = prepareNode(*X, *Ctx, *N)) {
      // Report the node of the caller's graph.
      GraphNode *Orig = nullptr;
      for (auto &[From, To] : X->Map)
        if (To == N)
          Orig = const_cast<GraphNode *>(From);
      Result(cudaGraphInstantiateError, Orig);
      for (auto &[Node, Buf] : X->Patterns)
        cudaFreeHost(Buf);
      return E;
    }
  if (Status S = Ctx->Dev->createEvent(X->Done))
    return toCudaError(S.Code);
  buildDriver(*X, *Ctx);
  X->DoneCtx = Ctx;
  X->DoneDev = Ctx->Dev;
  Result(cudaGraphInstantiateSuccess, nullptr);
  GraphExecObj *P = X.release();
  {
    std::lock_guard<std::mutex> L(ExecM);
    liveExecs().insert(P);
  }
  *Out = reinterpret_cast<cudaGraphExec_t>(P);
  return cudaSuccess;
}

/// The node of \p X's copy that \p H (a node of a graph \p X came from)
/// maps to, when it is of kind \p K.
GraphNode *execNode(GraphExecObj *X, cudaGraphNode_t H, NodeKind K) {
  if (!X)
    return nullptr;
  auto It = X->Map.find(reinterpret_cast<GraphNode *>(H));
  return It == X->Map.end() || It->second->Kind != K ? nullptr : It->second;
}

/// Compares the structure of \p New with \p Old (cudaGraphExecUpdate's
/// rules: nodes paired in creation order, same kinds, same edges, child
/// graphs alike); fills \p Info and returns false on a difference.
bool sameShape(const GraphObj &Old, const GraphObj &New,
               cudaGraphExecUpdateResultInfo &Info) {
  if (Old.Nodes.size() != New.Nodes.size()) {
    Info.result = cudaGraphExecUpdateErrorTopologyChanged;
    return false;
  }
  for (size_t I = 0; I < New.Nodes.size(); ++I) {
    const GraphNode &A = *Old.Nodes[I], &B = *New.Nodes[I];
    Info.errorNode = reinterpret_cast<cudaGraphNode_t>(New.Nodes[I].get());
    if (A.Kind != B.Kind) {
      Info.result = cudaGraphExecUpdateErrorNodeTypeChanged;
      return false;
    }
    if (A.Deps.size() != B.Deps.size()) {
      Info.result = cudaGraphExecUpdateErrorTopologyChanged;
      return false;
    }
    for (size_t D = 0; D < B.Deps.size(); ++D)
      if (Old.indexOf(A.Deps[D]) != New.indexOf(B.Deps[D])) {
        Info.result = cudaGraphExecUpdateErrorTopologyChanged;
        Info.errorFromNode = reinterpret_cast<cudaGraphNode_t>(B.Deps[D]);
        return false;
      }
    if (A.Kind == NodeKind::Child && !sameShape(*A.Child, *B.Child, Info))
      return false;
  }
  Info.errorNode = nullptr;
  return true;
}

/// Queues \p X's replay order on \p S, each fused group as one launch.
cudaError_t replayOrder(GraphExecObj &X, StreamObj &S, cudaStream_t Stream) {
  size_t NextGroup = 0;
  for (size_t I = 0; I < X.Order.size(); ++I) {
    if (NextGroup < X.Groups.size() && X.Groups[NextGroup]->At == I) {
      FusedGroup &G = *X.Groups[NextGroup++];
      bool Launched;
      if (cudaError_t E = launchFused(G, S, Launched))
        return E;
      if (Launched) {
        I += G.Members.size() - 1;
        continue;
      }
    }
    if (cudaError_t E = replayNode(X, *X.Order[I], Stream))
      return E;
  }
  return cudaSuccess;
}

/// Records \p X's Done on its last launch's stream if that was put off:
/// everything queued there now, a superset of that launch. Caller holds
/// X.M.
Status recordDone(GraphExecObj &X) {
  if (!X.DonePending)
    return Status::ok();
  X.DonePending = false;
  std::lock_guard<std::recursive_mutex> Lock(X.DoneCtx->M);
  // Moved since (followMove not yet run): the move drained that launch,
  // and the new device's queues cannot record the old device's event.
  if (X.DoneCtx->Dev != X.DoneDev)
    return Status::ok();
  return X.Last->Q->record(*X.Done);
}

/// Waits for the last launch of \p X to finish. Caller holds X.M.
void waitDone(GraphExecObj &X) {
  if (!X.Last)
    return;
  if (Status S = recordDone(X))
    log(LogLevel::Warn, "graph: " + S.Message);
  X.Done->synchronize();
}

} // namespace

void api::graphsForgetStream(StreamObj &S) {
  std::lock_guard<std::mutex> L(ExecM);
  for (GraphExecObj *X : liveExecs()) {
    std::lock_guard<std::mutex> XL(X->M);
    if (X->Last != &S)
      continue;
    if (Status St = recordDone(*X))
      log(LogLevel::Warn, "graph: " + St.Message);
  }
}

namespace {

/// After a move of its context (the source drained: the old Done is
/// complete), Done is made again on the context's device.
cudaError_t followMove(GraphExecObj &X) {
  std::lock_guard<std::recursive_mutex> Lock(X.DoneCtx->M);
  if (X.DoneCtx->Dev == X.DoneDev)
    return cudaSuccess;
  std::unique_ptr<Event> Done;
  if (Status S = X.DoneCtx->Dev->createEvent(Done))
    return toCudaError(S.Code);
  X.Done = std::move(Done);
  X.DoneDev = X.DoneCtx->Dev;
  X.Last = nullptr;
  X.DonePending = false;
  return cudaSuccess;
}

} // namespace

HETGPU_API cudaError_t cudaGraphInstantiate(cudaGraphExec_t *Out, cudaGraph_t G,
                                            unsigned long long Flags) {
  return ret(instantiate(Out, G, Flags, nullptr));
}

HETGPU_API cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *Out,
                                                     cudaGraph_t G,
                                                     unsigned long long Flags) {
  return ret(instantiate(Out, G, Flags, nullptr));
}

HETGPU_API cudaError_t cudaGraphInstantiateWithParams(
    cudaGraphExec_t *Out, cudaGraph_t G, cudaGraphInstantiateParams *P) {
  if (!P)
    return ret(cudaErrorInvalidValue);
  cudaError_t E = instantiate(Out, G, P->flags, P);
  if (!E && (P->flags & cudaGraphInstantiateFlagUpload))
    E = cudaGraphUpload(*Out, P->uploadStream);
  return ret(E);
}

HETGPU_API cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t H,
                                             unsigned long long *Flags) {
  GraphExecObj *X = asExec(H);
  if (!X || !Flags)
    return ret(cudaErrorInvalidValue);
  *Flags = X->Flags;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaGraphLaunch(cudaGraphExec_t H, cudaStream_t Stream) {
  GraphExecObj *X = asExec(H);
  if (!X)
    return ret(cudaErrorInvalidValue);
  StreamObj *S;
  if (cudaError_t E = resolve(Stream, S))
    return ret(E);
  eagerFlushContext(*S->Ctx); // a graph launch is a flush point
  // Launched into a capturing stream: the graph becomes a child node.
  bool Captured;
  if (cudaError_t E = captureWork(
          *S, "cudaGraphLaunch",
          [&](GraphNode &N) {
            N.Kind = NodeKind::Child;
            N.Child = X->Copy->clone();
            N.Child->Embedded = true;
            return cudaSuccess;
          },
          Captured))
    return ret(E);
  if (Captured)
    return cudaSuccess;
  std::lock_guard<std::mutex> L(X->M);
  if (cudaError_t E = followMove(*X))
    return ret(E);
  if (X->Last && X->Last != S) {
    // After the previous launch of this graph, which ran on another stream.
    Status St = recordDone(*X);
    if (!St)
      St = X->DoneCtx == S->Ctx ? S->Q->wait(*X->Done) : X->Done->synchronize();
    if (cudaError_t E = mapStatus(*S->Ctx, St))
      return ret(E);
  }
  bool Replay = true;
  if (S->Ctx == X->DoneCtx) {
    if (X->DrvStale)
      buildDriver(*X, *S->Ctx);
    if (X->Drv) {
      std::string Why;
      if (cudaError_t E = X->Drv->launch(*S, Why))
        return ret(E);
      Replay = !Why.empty();
      if (Replay) {
        log(LogLevel::Info, "graph: replayed through the device queue: " + Why);
        X->Drv.reset();
        X->DrvWhy = Why;
      }
    }
  }
  if (Replay)
    if (cudaError_t E = replayOrder(*X, *S, Stream))
      return ret(E);
  // A kernel of this launch may have moved the context (a watched launch).
  if (cudaError_t E = followMove(*X))
    return ret(E);
  if (X->DoneCtx == S->Ctx) {
    X->Last = S;
    X->DonePending = true;
  } else {
    X->Last = nullptr; // another device's stream: the next launch syncs it
    X->DonePending = false;
    if (cudaError_t E = syncStream(*S))
      return ret(E);
  }
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaGraphUpload(cudaGraphExec_t H, cudaStream_t Stream) {
  // Instantiation already translated and loaded every kernel: nothing is
  // left to upload; the handles are checked.
  StreamObj *S;
  if (!asExec(H))
    return ret(cudaErrorInvalidValue);
  return ret(resolve(Stream, S));
}

HETGPU_API cudaError_t cudaGraphExecDestroy(cudaGraphExec_t H) {
  GraphExecObj *X = asExec(H);
  if (!X)
    return ret(cudaErrorInvalidValue);
  {
    std::lock_guard<std::mutex> L(ExecM);
    liveExecs().erase(X);
  }
  // CUDA lets a launched graph finish; its pattern buffers live until then.
  {
    std::lock_guard<std::mutex> L(X->M);
    waitDone(*X);
  }
  for (auto &[Node, Buf] : X->Patterns)
    cudaFreeHost(Buf);
  delete X;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaGraphExecKernelNodeSetParams(
    cudaGraphExec_t H, cudaGraphNode_t Node, const cudaKernelNodeParams *P) {
  GraphExecObj *X = asExec(H);
  GraphNode *N = execNode(X, Node, NodeKind::Kernel);
  if (!N)
    return ret(cudaErrorInvalidValue);
  if (cudaError_t E =
          setKernelParams(*N, P, "cudaGraphExecKernelNodeSetParams"))
    return ret(E);
  std::lock_guard<std::mutex> L(X->M);
  if (!X->Drv || !X->DoneCtx || !X->Drv->updateKernel(*N, *X->DoneCtx))
    driverStale(*X);
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaGraphExecMemcpyNodeSetParams(
    cudaGraphExec_t H, cudaGraphNode_t Node, const cudaMemcpy3DParms *P) {
  GraphExecObj *X = asExec(H);
  GraphNode *N = execNode(X, Node, NodeKind::Memcpy);
  if (!N)
    return ret(cudaErrorInvalidValue);
  if (cudaError_t E = setMemcpyParams(*N, P))
    return ret(E);
  std::lock_guard<std::mutex> L(X->M);
  driverStale(*X);
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaGraphExecMemsetNodeSetParams(
    cudaGraphExec_t H, cudaGraphNode_t Node, const cudaMemsetParams *P) {
  GraphExecObj *X = asExec(H);
  GraphNode *N = execNode(X, Node, NodeKind::Memset);
  if (!N)
    return ret(cudaErrorInvalidValue);
  if (cudaError_t E = setMemsetParams(*N, P))
    return ret(E);
  std::lock_guard<std::mutex> L(X->M);
  waitDone(*X); // the old pattern may still be read
  driverStale(*X);
  return ret(preparePattern(*X, *N));
}

HETGPU_API cudaError_t cudaGraphExecHostNodeSetParams(
    cudaGraphExec_t H, cudaGraphNode_t Node, const cudaHostNodeParams *P) {
  GraphExecObj *X = asExec(H);
  GraphNode *N = execNode(X, Node, NodeKind::Host);
  if (!N)
    return ret(cudaErrorInvalidValue);
  if (cudaError_t E = setHostParams(*N, P))
    return ret(E);
  std::lock_guard<std::mutex> L(X->M);
  driverStale(*X);
  return cudaSuccess;
}

namespace {

/// The node of \p X that \p Node maps to when it is of a kind that can be
/// disabled (kernel, memcpy, memset, as in CUDA).
GraphNode *enableable(cudaGraphExec_t H, cudaGraphNode_t Node) {
  for (NodeKind K : {NodeKind::Kernel, NodeKind::Memcpy, NodeKind::Memset})
    if (GraphNode *N = execNode(asExec(H), Node, K))
      return N;
  return nullptr;
}

} // namespace

HETGPU_API cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t H,
                                               cudaGraphNode_t Node,
                                               unsigned int On) {
  GraphNode *N = enableable(H, Node);
  if (!N)
    return ret(cudaErrorInvalidValue);
  GraphExecObj *X = asExec(H);
  std::lock_guard<std::mutex> L(X->M);
  if (N->Enabled != (On != 0))
    driverStale(*X);
  N->Enabled = On != 0;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t H,
                                               cudaGraphNode_t Node,
                                               unsigned int *On) {
  GraphNode *N = enableable(H, Node);
  if (!N || !On)
    return ret(cudaErrorInvalidValue);
  *On = N->Enabled;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaGraphExecUpdate(
    cudaGraphExec_t H, cudaGraph_t G, cudaGraphExecUpdateResultInfo *Info) {
  GraphExecObj *X = asExec(H);
  auto *Gr = reinterpret_cast<GraphObj *>(G);
  if (!X || !isLiveGraph(Gr) || !Info)
    return ret(cudaErrorInvalidValue);
  *Info = cudaGraphExecUpdateResultInfo{};
  Info->result = cudaGraphExecUpdateSuccess;
  if (!sameShape(*X->Copy, *Gr, *Info)) {
    log(LogLevel::Info, "cudaGraphExecUpdate: the graph's topology or node "
                        "kinds differ from the executable graph's");
    return ret(cudaErrorGraphExecUpdateFailure);
  }
  DeviceContext *Ctx;
  if (cudaError_t E = currentCtx(Ctx))
    return ret(E);
  std::lock_guard<std::mutex> L(X->M);
  waitDone(*X); // pattern buffers of the last launch
  // Child graphs are copied anew: every pattern is made again below.
  for (auto &[Node, Buf] : X->Patterns)
    cudaFreeHost(Buf);
  X->Patterns.clear();
  for (size_t I = 0; I < Gr->Nodes.size(); ++I) {
    GraphNode &To = *X->Copy->Nodes[I];
    To.copyParams(*Gr->Nodes[I]);
    X->Map[Gr->Nodes[I].get()] = &To;
  }
  X->Order.clear();
  // Same shape: acyclic as before. Groups are planned again (their fused
  // kernels come from the JIT cache when unchanged).
  planReplay(*X->Copy, *Ctx, X->Order, X->Groups);
  for (GraphNode *N : X->Order)
    if (cudaError_t E = prepareNode(*X, *Ctx, *N)) {
      Info->result = cudaGraphExecUpdateError;
      return ret(E);
    }
  driverStale(*X);
  return cudaSuccess;
}
