//===- Graphs.cpp - CUDA graphs: creation, nodes, edges, clones -----------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// cudaGraphCreate/Destroy/Clone, cudaGraphAdd*Node for kernel, memcpy,
/// memset, host, child-graph, empty, event-record and event-wait nodes,
/// their Get/SetParams, and the queries of nodes and edges. Every handle is
/// checked against the live graphs and nodes (Core/Graph.h) first: a dead
/// or foreign one is cudaErrorInvalidValue, as CUDA returns for a node of
/// another graph. Executable graphs are GraphExec.cpp; capture Capture.cpp.
///
//===----------------------------------------------------------------------===//

#include "API/CudaAPI.h"
#include "Core/Log.h"

#include <algorithm>
#include <cstdio>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::api;

namespace {

GraphObj *asGraph(cudaGraph_t G) {
  return isLiveGraph(G) ? reinterpret_cast<GraphObj *>(G) : nullptr;
}

GraphNode *asNode(cudaGraphNode_t N) {
  return isLiveNode(N) ? reinterpret_cast<GraphNode *>(N) : nullptr;
}

cudaGraphNode_t handle(GraphNode *N) {
  return reinterpret_cast<cudaGraphNode_t>(N);
}

/// The common part of cudaGraphAdd*Node: checks the output pointer, the
/// graph and the dependencies (live nodes of \p G, no repeats), then adds a
/// node of kind \p K whose parameters \p Fill sets (the node is removed
/// again when Fill fails).
cudaError_t addNode(cudaGraphNode_t *Out, cudaGraph_t G,
                    const cudaGraphNode_t *Deps, size_t NumDeps, NodeKind K,
                    const std::function<cudaError_t(GraphNode &)> &Fill) {
  GraphObj *Gr = asGraph(G);
  if (!Out || !Gr || (NumDeps && !Deps))
    return cudaErrorInvalidValue;
  if (Gr->Embedded) {
    log(LogLevel::Info, "cudaGraphAdd*Node: the graph is the child graph of "
                        "a node (its structure is fixed)");
    return cudaErrorInvalidValue;
  }
  std::vector<GraphNode *> D;
  for (size_t I = 0; I < NumDeps; ++I) {
    GraphNode *N = asNode(Deps[I]);
    if (!N || N->Owner != Gr || std::count(D.begin(), D.end(), N)) {
      log(LogLevel::Info, "cudaGraphAdd*Node: dependency " + std::to_string(I) +
                              " is no node of this graph or repeats one");
      return cudaErrorInvalidValue;
    }
    D.push_back(N);
  }
  GraphNode *N = Gr->add(K, D);
  if (cudaError_t E = Fill(*N)) {
    Gr->remove(N);
    return E;
  }
  *Out = handle(N);
  return cudaSuccess;
}

/// \p N when it is a live node of kind \p K, else null.
GraphNode *nodeOf(cudaGraphNode_t H, NodeKind K) {
  GraphNode *N = asNode(H);
  return N && N->Kind == K ? N : nullptr;
}

/// The parameters \p Field of node \p H (of kind \p K) into \p Out: the
/// GetParams calls of the plain node kinds.
template <typename T>
cudaError_t nodeParamsOut(cudaGraphNode_t H, NodeKind K, T GraphNode::*Field,
                          T *Out) {
  GraphNode *N = nodeOf(H, K);
  if (!N || !Out)
    return cudaErrorInvalidValue;
  *Out = N->*Field;
  return cudaSuccess;
}

/// Checks \p H is a node of kind \p K and sets its parameters with \p Set:
/// the SetParams calls of the plain node kinds.
template <typename T>
cudaError_t nodeParamsIn(cudaGraphNode_t H, NodeKind K, const T *P,
                         cudaError_t (*Set)(GraphNode &, const T *)) {
  GraphNode *N = nodeOf(H, K);
  return N ? Set(*N, P) : cudaErrorInvalidValue;
}

cudaError_t liveEvent(cudaEvent_t E) {
  return E && RT().isLiveEvent(reinterpret_cast<EventObj *>(E))
             ? cudaSuccess
             : cudaErrorInvalidResourceHandle;
}

/// Copies up to *Count entries of \p Src to \p Out (null: only the count);
/// entries past the list are nulled, *Count becomes what was written, as
/// CUDA's list queries do.
cudaError_t listOut(const std::vector<GraphNode *> &Src, cudaGraphNode_t *Out,
                    cudaGraphEdgeData *Edges, size_t *Count) {
  if (!Count)
    return cudaErrorInvalidValue;
  if (!Out) {
    if (Edges)
      return cudaErrorInvalidValue;
    *Count = Src.size();
    return cudaSuccess;
  }
  size_t N = std::min(*Count, Src.size());
  for (size_t I = 0; I < *Count; ++I) {
    Out[I] = I < N ? handle(Src[I]) : nullptr;
    if (Edges)
      Edges[I] = cudaGraphEdgeData{};
  }
  *Count = N;
  return cudaSuccess;
}

cudaError_t getEdges(cudaGraph_t G, cudaGraphNode_t *From, cudaGraphNode_t *To,
                     cudaGraphEdgeData *Data, size_t *Num) {
  GraphObj *Gr = asGraph(G);
  if (!Gr || !Num || (!From != !To) || (Data && !From))
    return cudaErrorInvalidValue;
  std::vector<std::pair<GraphNode *, GraphNode *>> Edges;
  for (const auto &N : Gr->Nodes)
    for (GraphNode *D : N->Deps)
      Edges.push_back({D, N.get()});
  if (!From) {
    *Num = Edges.size();
    return cudaSuccess;
  }
  size_t N = std::min(*Num, Edges.size());
  for (size_t I = 0; I < *Num; ++I) {
    From[I] = I < N ? handle(Edges[I].first) : nullptr;
    To[I] = I < N ? handle(Edges[I].second) : nullptr;
    if (Data)
      Data[I] = cudaGraphEdgeData{};
  }
  *Num = N;
  return cudaSuccess;
}

} // namespace

//===--- Parameters, shared with GraphExec.cpp and Capture.cpp -----------===//

cudaError_t api::setKernelParams(GraphNode &N, const cudaKernelNodeParams *P,
                                 const char *Who) {
  if (!P || !P->func)
    return cudaErrorInvalidValue;
  if (P->extra) {
    log(LogLevel::Warn, std::string(Who) +
                            ": kernel arguments through 'extra' are not "
                            "implemented by hetGPU; pass kernelParams");
    return cudaErrorNotSupported;
  }
  KernelRecord *K = RT().findKernel(P->func);
  if (!K || !K->Info) {
    log(LogLevel::Info, std::string(Who) +
                            ": the function is no registered kernel of a "
                            "loaded hetGPU container");
    return cudaErrorInvalidDeviceFunction;
  }
  if (!P->gridDim.x || !P->gridDim.y || !P->gridDim.z || !P->blockDim.x ||
      !P->blockDim.y || !P->blockDim.z)
    return cudaErrorInvalidValue;
  if (!K->Info->Params.empty() && !P->kernelParams) {
    log(LogLevel::Info, std::string(Who) + ": kernel '" + K->Info->Demangled +
                            "' takes parameters but kernelParams is null");
    return cudaErrorInvalidValue;
  }
  N.Kernel.Func = P->func;
  N.Kernel.K = K;
  N.Kernel.Grid = P->gridDim;
  N.Kernel.Block = P->blockDim;
  N.Kernel.Shared = P->sharedMemBytes;
  N.Kernel.Args = std::make_shared<ArgPack>(*K->Info, P->kernelParams);
  return cudaSuccess;
}

cudaError_t api::setMemcpyParams(GraphNode &N, const cudaMemcpy3DParms *P) {
  if (!P || (P->srcArray && P->srcPtr.ptr) || (P->dstArray && P->dstPtr.ptr) ||
      (!P->srcArray && !P->srcPtr.ptr) || (!P->dstArray && !P->dstPtr.ptr))
    return cudaErrorInvalidValue;
  if (P->kind < cudaMemcpyHostToHost || P->kind > cudaMemcpyDefault)
    return cudaErrorInvalidMemcpyDirection;
  N.Copy = *P;
  return cudaSuccess;
}

cudaError_t api::setMemsetParams(GraphNode &N, const cudaMemsetParams *P) {
  if (!P || !P->dst)
    return cudaErrorInvalidValue;
  size_t Elem = P->elementSize;
  if (Elem != 1 && Elem != 2 && Elem != 4) {
    log(LogLevel::Info, "memset node: elementSize must be 1, 2 or 4, not " +
                            std::to_string(Elem));
    return cudaErrorInvalidValue;
  }
  if (reinterpret_cast<uintptr_t>(P->dst) % Elem ||
      (P->height > 1 && (P->pitch % Elem || P->pitch < P->width * Elem)))
    return cudaErrorInvalidValue;
  N.Set = *P;
  if (!N.Set.height)
    N.Set.height = 1;
  return cudaSuccess;
}

cudaError_t api::setHostParams(GraphNode &N, const cudaHostNodeParams *P) {
  if (!P || !P->fn)
    return cudaErrorInvalidValue;
  N.Host = *P;
  return cudaSuccess;
}

cudaMemcpy3DParms api::copy1D(void *Dst, const void *Src, size_t N,
                              cudaMemcpyKind Kind) {
  cudaMemcpy3DParms P = {};
  P.srcPtr = {const_cast<void *>(Src), N, N, 1};
  P.dstPtr = {Dst, N, N, 1};
  P.extent = {N, 1, 1};
  P.kind = Kind;
  return P;
}

//===--- Graphs -----------------------------------------------------------===//

HETGPU_API cudaError_t cudaGraphCreate(cudaGraph_t *Out, unsigned int Flags) {
  if (!Out || Flags)
    return ret(cudaErrorInvalidValue);
  *Out = reinterpret_cast<cudaGraph_t>(new GraphObj());
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaGraphDestroy(cudaGraph_t G) {
  GraphObj *Gr = asGraph(G);
  if (!Gr || Gr->Embedded || Gr->Capturing) {
    if (Gr)
      log(LogLevel::Info, std::string("cudaGraphDestroy: the graph is ") +
                              (Gr->Embedded ? "a child graph of a node"
                                            : "being captured into"));
    return ret(cudaErrorInvalidValue);
  }
  delete Gr;
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaGraphClone(cudaGraph_t *Out, cudaGraph_t G) {
  GraphObj *Gr = asGraph(G);
  if (!Out || !Gr)
    return ret(cudaErrorInvalidValue);
  *Out = reinterpret_cast<cudaGraph_t>(Gr->clone().release());
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *Out,
                                                cudaGraphNode_t Original,
                                                cudaGraph_t Clone) {
  GraphObj *C = asGraph(Clone);
  GraphNode *O = asNode(Original);
  if (!Out || !C || !O)
    return ret(cudaErrorInvalidValue);
  GraphNode *N = C->findClone(O);
  if (!N)
    return ret(cudaErrorInvalidValue);
  *Out = handle(N);
  return cudaSuccess;
}

//===--- Nodes ------------------------------------------------------------===//

HETGPU_API cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *Out,
                                              cudaGraph_t G,
                                              const cudaGraphNode_t *Deps,
                                              size_t NumDeps,
                                              const cudaKernelNodeParams *P) {
  return ret(
      addNode(Out, G, Deps, NumDeps, NodeKind::Kernel, [&](GraphNode &N) {
        return setKernelParams(N, P, "cudaGraphAddKernelNode");
      }));
}

HETGPU_API cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t H,
                                                    cudaKernelNodeParams *P) {
  GraphNode *N = nodeOf(H, NodeKind::Kernel);
  if (!N || !P)
    return ret(cudaErrorInvalidValue);
  P->func = const_cast<void *>(N->Kernel.Func);
  P->gridDim = N->Kernel.Grid;
  P->blockDim = N->Kernel.Block;
  P->sharedMemBytes = N->Kernel.Shared;
  P->kernelParams = N->Kernel.Args->args();
  P->extra = nullptr;
  return cudaSuccess;
}

HETGPU_API cudaError_t
cudaGraphKernelNodeSetParams(cudaGraphNode_t H, const cudaKernelNodeParams *P) {
  GraphNode *N = nodeOf(H, NodeKind::Kernel);
  if (!N)
    return ret(cudaErrorInvalidValue);
  return ret(setKernelParams(*N, P, "cudaGraphKernelNodeSetParams"));
}

HETGPU_API cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *Out,
                                              cudaGraph_t G,
                                              const cudaGraphNode_t *Deps,
                                              size_t NumDeps,
                                              const cudaMemcpy3DParms *P) {
  return ret(addNode(Out, G, Deps, NumDeps, NodeKind::Memcpy,
                     [&](GraphNode &N) { return setMemcpyParams(N, P); }));
}

HETGPU_API cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *Out,
                                                cudaGraph_t G,
                                                const cudaGraphNode_t *Deps,
                                                size_t NumDeps, void *Dst,
                                                const void *Src, size_t Count,
                                                cudaMemcpyKind Kind) {
  return ret(addNode(Out, G, Deps, NumDeps, NodeKind::Memcpy,
                     [&](GraphNode &N) -> cudaError_t {
                       if (!Count)
                         return cudaErrorInvalidValue;
                       cudaMemcpy3DParms P = copy1D(Dst, Src, Count, Kind);
                       return setMemcpyParams(N, &P);
                     }));
}

HETGPU_API cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t H,
                                                    cudaMemcpy3DParms *P) {
  return ret(nodeParamsOut(H, NodeKind::Memcpy, &GraphNode::Copy, P));
}

HETGPU_API cudaError_t
cudaGraphMemcpyNodeSetParams(cudaGraphNode_t H, const cudaMemcpy3DParms *P) {
  return ret(nodeParamsIn(H, NodeKind::Memcpy, P, setMemcpyParams));
}

HETGPU_API cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *Out,
                                              cudaGraph_t G,
                                              const cudaGraphNode_t *Deps,
                                              size_t NumDeps,
                                              const cudaMemsetParams *P) {
  return ret(addNode(Out, G, Deps, NumDeps, NodeKind::Memset,
                     [&](GraphNode &N) { return setMemsetParams(N, P); }));
}

HETGPU_API cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t H,
                                                    cudaMemsetParams *P) {
  return ret(nodeParamsOut(H, NodeKind::Memset, &GraphNode::Set, P));
}

HETGPU_API cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t H,
                                                    const cudaMemsetParams *P) {
  return ret(nodeParamsIn(H, NodeKind::Memset, P, setMemsetParams));
}

HETGPU_API cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *Out, cudaGraph_t G,
                                            const cudaGraphNode_t *Deps,
                                            size_t NumDeps,
                                            const cudaHostNodeParams *P) {
  return ret(addNode(Out, G, Deps, NumDeps, NodeKind::Host,
                     [&](GraphNode &N) { return setHostParams(N, P); }));
}

HETGPU_API cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t H,
                                                  cudaHostNodeParams *P) {
  return ret(nodeParamsOut(H, NodeKind::Host, &GraphNode::Host, P));
}

HETGPU_API cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t H,
                                                  const cudaHostNodeParams *P) {
  return ret(nodeParamsIn(H, NodeKind::Host, P, setHostParams));
}

HETGPU_API cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *Out,
                                                  cudaGraph_t G,
                                                  const cudaGraphNode_t *Deps,
                                                  size_t NumDeps,
                                                  cudaGraph_t Child) {
  GraphObj *C = asGraph(Child);
  if (!C || Child == G)
    return ret(cudaErrorInvalidValue);
  // CUDA embeds a copy: later changes of Child do not reach the node.
  return ret(addNode(Out, G, Deps, NumDeps, NodeKind::Child, [&](GraphNode &N) {
    N.Child = C->clone();
    N.Child->Embedded = true;
    return cudaSuccess;
  }));
}

HETGPU_API cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t H,
                                                       cudaGraph_t *Out) {
  GraphNode *N = nodeOf(H, NodeKind::Child);
  if (!N || !Out)
    return ret(cudaErrorInvalidValue);
  *Out = reinterpret_cast<cudaGraph_t>(N->Child.get());
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *Out,
                                             cudaGraph_t G,
                                             const cudaGraphNode_t *Deps,
                                             size_t NumDeps) {
  return ret(addNode(Out, G, Deps, NumDeps, NodeKind::Empty,
                     [](GraphNode &) { return cudaSuccess; }));
}

namespace {

cudaError_t addEventNode(cudaGraphNode_t *Out, cudaGraph_t G,
                         const cudaGraphNode_t *Deps, size_t NumDeps,
                         cudaEvent_t Ev, NodeKind K) {
  return addNode(Out, G, Deps, NumDeps, K, [&](GraphNode &N) {
    if (cudaError_t E = liveEvent(Ev))
      return E;
    N.Event = Ev;
    return cudaSuccess;
  });
}

cudaError_t eventOf(cudaGraphNode_t H, NodeKind K, cudaEvent_t *Out) {
  GraphNode *N = nodeOf(H, K);
  if (!N || !Out)
    return cudaErrorInvalidValue;
  *Out = N->Event;
  return cudaSuccess;
}

cudaError_t setEventOf(cudaGraphNode_t H, NodeKind K, cudaEvent_t Ev) {
  GraphNode *N = nodeOf(H, K);
  if (!N)
    return cudaErrorInvalidValue;
  if (cudaError_t E = liveEvent(Ev))
    return E;
  N->Event = Ev;
  return cudaSuccess;
}

} // namespace

HETGPU_API cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *Out,
                                                   cudaGraph_t G,
                                                   const cudaGraphNode_t *Deps,
                                                   size_t NumDeps,
                                                   cudaEvent_t Ev) {
  return ret(addEventNode(Out, G, Deps, NumDeps, Ev, NodeKind::EventRecord));
}

HETGPU_API cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t H,
                                                        cudaEvent_t *Out) {
  return ret(eventOf(H, NodeKind::EventRecord, Out));
}

HETGPU_API cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t H,
                                                        cudaEvent_t Ev) {
  return ret(setEventOf(H, NodeKind::EventRecord, Ev));
}

HETGPU_API cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *Out,
                                                 cudaGraph_t G,
                                                 const cudaGraphNode_t *Deps,
                                                 size_t NumDeps,
                                                 cudaEvent_t Ev) {
  return ret(addEventNode(Out, G, Deps, NumDeps, Ev, NodeKind::WaitEvent));
}

HETGPU_API cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t H,
                                                      cudaEvent_t *Out) {
  return ret(eventOf(H, NodeKind::WaitEvent, Out));
}

HETGPU_API cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t H,
                                                      cudaEvent_t Ev) {
  return ret(setEventOf(H, NodeKind::WaitEvent, Ev));
}

HETGPU_API cudaError_t cudaGraphNodeGetType(cudaGraphNode_t H,
                                            cudaGraphNodeType *Out) {
  GraphNode *N = asNode(H);
  if (!N || !Out)
    return ret(cudaErrorInvalidValue);
  *Out = static_cast<cudaGraphNodeType>(N->Kind);
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaGraphDestroyNode(cudaGraphNode_t H) {
  GraphNode *N = asNode(H);
  // Not in a child graph (fixed structure) nor in a graph being captured
  // into (capture holds its nodes), as CUDA.
  if (!N || N->Owner->Embedded || N->Owner->Capturing)
    return ret(cudaErrorInvalidValue);
  N->Owner->remove(N);
  return cudaSuccess;
}

//===--- Queries of nodes and edges ---------------------------------------===//

HETGPU_API cudaError_t cudaGraphGetNodes(cudaGraph_t G, cudaGraphNode_t *Out,
                                         size_t *Num) {
  GraphObj *Gr = asGraph(G);
  if (!Gr)
    return ret(cudaErrorInvalidValue);
  std::vector<GraphNode *> V;
  for (const auto &N : Gr->Nodes)
    V.push_back(N.get());
  return ret(listOut(V, Out, nullptr, Num));
}

HETGPU_API cudaError_t cudaGraphGetRootNodes(cudaGraph_t G,
                                             cudaGraphNode_t *Out,
                                             size_t *Num) {
  GraphObj *Gr = asGraph(G);
  if (!Gr)
    return ret(cudaErrorInvalidValue);
  std::vector<GraphNode *> V;
  for (const auto &N : Gr->Nodes)
    if (N->Deps.empty())
      V.push_back(N.get());
  return ret(listOut(V, Out, nullptr, Num));
}

HETGPU_API cudaError_t cudaGraphGetEdges(cudaGraph_t G, cudaGraphNode_t *From,
                                         cudaGraphNode_t *To, size_t *Num) {
  return ret(getEdges(G, From, To, nullptr, Num));
}

HETGPU_API cudaError_t cudaGraphGetEdges_v2(cudaGraph_t G,
                                            cudaGraphNode_t *From,
                                            cudaGraphNode_t *To,
                                            cudaGraphEdgeData *Data,
                                            size_t *Num) {
  return ret(getEdges(G, From, To, Data, Num));
}

HETGPU_API cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t H,
                                                    cudaGraphNode_t *Out,
                                                    size_t *Num) {
  GraphNode *N = asNode(H);
  if (!N)
    return ret(cudaErrorInvalidValue);
  return ret(listOut(N->Deps, Out, nullptr, Num));
}

HETGPU_API cudaError_t cudaGraphNodeGetDependencies_v2(cudaGraphNode_t H,
                                                       cudaGraphNode_t *Out,
                                                       cudaGraphEdgeData *Data,
                                                       size_t *Num) {
  GraphNode *N = asNode(H);
  if (!N)
    return ret(cudaErrorInvalidValue);
  return ret(listOut(N->Deps, Out, Data, Num));
}

HETGPU_API cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t H,
                                                      cudaGraphNode_t *Out,
                                                      size_t *Num) {
  GraphNode *N = asNode(H);
  if (!N)
    return ret(cudaErrorInvalidValue);
  return ret(listOut(N->Dependents, Out, nullptr, Num));
}

HETGPU_API cudaError_t
cudaGraphNodeGetDependentNodes_v2(cudaGraphNode_t H, cudaGraphNode_t *Out,
                                  cudaGraphEdgeData *Data, size_t *Num) {
  GraphNode *N = asNode(H);
  if (!N)
    return ret(cudaErrorInvalidValue);
  return ret(listOut(N->Dependents, Out, Data, Num));
}

HETGPU_API cudaError_t cudaGraphAddDependencies(cudaGraph_t G,
                                                const cudaGraphNode_t *From,
                                                const cudaGraphNode_t *To,
                                                size_t Num) {
  GraphObj *Gr = asGraph(G);
  if (!Gr || Gr->Embedded || (Num && (!From || !To)))
    return ret(cudaErrorInvalidValue);
  // All checked before any edge is added, so a refused call adds none.
  for (size_t I = 0; I < Num; ++I) {
    GraphNode *F = asNode(From[I]), *T = asNode(To[I]);
    if (!F || !T || F == T || F->Owner != Gr || T->Owner != Gr ||
        std::count(T->Deps.begin(), T->Deps.end(), F))
      return ret(cudaErrorInvalidValue);
  }
  for (size_t I = 0; I < Num; ++I)
    Gr->addEdge(asNode(From[I]), asNode(To[I]));
  return cudaSuccess;
}

HETGPU_API cudaError_t cudaGraphRemoveDependencies(cudaGraph_t G,
                                                   const cudaGraphNode_t *From,
                                                   const cudaGraphNode_t *To,
                                                   size_t Num) {
  GraphObj *Gr = asGraph(G);
  if (!Gr || Gr->Embedded || Gr->Capturing || (Num && (!From || !To)))
    return ret(cudaErrorInvalidValue);
  for (size_t I = 0; I < Num; ++I) {
    GraphNode *F = asNode(From[I]), *T = asNode(To[I]);
    if (!F || !T || F->Owner != Gr || T->Owner != Gr ||
        !std::count(T->Deps.begin(), T->Deps.end(), F))
      return ret(cudaErrorInvalidValue);
  }
  for (size_t I = 0; I < Num; ++I)
    Gr->removeEdge(asNode(From[I]), asNode(To[I]));
  return cudaSuccess;
}

namespace {

const char *kindName(NodeKind K) {
  switch (K) {
  case NodeKind::Kernel:
    return "kernel";
  case NodeKind::Memcpy:
    return "memcpy";
  case NodeKind::Memset:
    return "memset";
  case NodeKind::Host:
    return "host";
  case NodeKind::Child:
    return "graph";
  case NodeKind::Empty:
    return "empty";
  case NodeKind::WaitEvent:
    return "wait event";
  case NodeKind::EventRecord:
    return "record event";
  }
  return "?";
}

/// Writes \p G's nodes (child graphs as clusters) and edges in DOT;
/// \p Prefix makes the names unique.
void dotGraph(FILE *F, const GraphObj &G, const std::string &Prefix) {
  for (size_t I = 0; I < G.Nodes.size(); ++I) {
    const GraphNode &N = *G.Nodes[I];
    std::string Name = Prefix + std::to_string(I);
    std::string Label = std::to_string(I) + ": " + kindName(N.Kind);
    if (N.Kind == NodeKind::Kernel && N.Kernel.K && N.Kernel.K->Info)
      Label += "\\n" + N.Kernel.K->Info->Demangled + " <<<" +
               std::to_string(N.Kernel.Grid.x) + "," +
               std::to_string(N.Kernel.Block.x) + ">>>";
    if (N.Kind == NodeKind::Memcpy || N.Kind == NodeKind::Memset)
      Label +=
          "\\n" +
          std::to_string(N.Kind == NodeKind::Memcpy
                             ? N.Copy.extent.width * N.Copy.extent.height *
                                   N.Copy.extent.depth
                             : N.Set.width * N.Set.elementSize * N.Set.height) +
          " bytes";
    if (N.Kind == NodeKind::Child) {
      std::fprintf(F, "subgraph cluster_%s {\nlabel=\"%s\";\n", Name.c_str(),
                   Label.c_str());
      dotGraph(F, *N.Child, Name + "_");
      std::fprintf(F, "%s [shape=point];\n}\n", Name.c_str());
    } else {
      std::fprintf(F, "%s [label=\"%s\"];\n", Name.c_str(), Label.c_str());
    }
  }
  for (size_t I = 0; I < G.Nodes.size(); ++I)
    for (GraphNode *D : G.Nodes[I]->Deps)
      std::fprintf(F, "%s%d -> %s%zu;\n", Prefix.c_str(), G.indexOf(D),
                   Prefix.c_str(), I);
}

} // namespace

HETGPU_API cudaError_t cudaGraphDebugDotPrint(cudaGraph_t G, const char *Path,
                                              unsigned int) {
  GraphObj *Gr = asGraph(G);
  if (!Gr || !Path)
    return ret(cudaErrorInvalidValue);
  FILE *F = std::fopen(Path, "w");
  if (!F) {
    log(LogLevel::Info,
        std::string("cudaGraphDebugDotPrint: cannot write '") + Path + "'");
    return ret(cudaErrorOperatingSystem);
  }
  std::fprintf(F, "digraph hetgpu_graph {\n");
  dotGraph(F, *Gr, "n");
  std::fprintf(F, "}\n");
  return ret(std::fclose(F) == 0 ? cudaSuccess : cudaErrorOperatingSystem);
}
