//===- Graph.h - CUDA graphs: nodes, edges, clones, replay order -*- C++
//-*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The graph model behind cudaGraph_t / cudaGraphNode_t: a graph owns its
/// nodes in creation order; a node holds its kind's parameters (a kernel
/// node its own copy of the argument bytes, made with ArgPack as the launch
/// path does), its incoming and outgoing edges, and, for a child-graph node,
/// the embedded graph. Every GraphObj and GraphNode registers itself while
/// alive, so the API layer can refuse a dead or bogus handle by name instead
/// of crashing. flatten() gives the order an executable graph replays in:
/// a topological order of the dependencies with child graphs expanded in
/// place, computed once at instantiation (docs/Graphs.md).
///
/// Graphs, like CUDA's, are not thread-safe objects: the caller serialises
/// the calls on one graph (stream capture does, under its own lock).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_CORE_GRAPH_H
#define HETGPU_RUNTIME_CORE_GRAPH_H

#include "Core/ArgPack.h"
#include "driver_types.h"

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

namespace hetgpu {
namespace rt {

struct KernelRecord;
class GraphObj;

/// The node kinds hetGPU implements; values are cudaGraphNodeType's.
enum class NodeKind : int {
  Kernel = cudaGraphNodeTypeKernel,
  Memcpy = cudaGraphNodeTypeMemcpy,
  Memset = cudaGraphNodeTypeMemset,
  Host = cudaGraphNodeTypeHost,
  Child = cudaGraphNodeTypeGraph,
  Empty = cudaGraphNodeTypeEmpty,
  WaitEvent = cudaGraphNodeTypeWaitEvent,
  EventRecord = cudaGraphNodeTypeEventRecord,
};

/// A kernel node's launch: the registered kernel, its geometry and a copy
/// of its argument bytes (shared by clones: never changed in place, a new
/// pack replaces it).
struct KernelLaunch {
  const void *Func = nullptr;
  KernelRecord *K = nullptr;
  dim3 Grid, Block;
  unsigned Shared = 0;
  std::shared_ptr<ArgPack> Args;
};

class GraphNode {
public:
  static constexpr uint32_t MagicValue = 0x474e4f44; // "GNOD"
  uint32_t Magic = MagicValue;
  GraphObj *Owner = nullptr;
  NodeKind Kind = NodeKind::Empty;
  /// Edges: the nodes this one depends on, and those depending on it, in
  /// the order the edges were added.
  std::vector<GraphNode *> Deps, Dependents;

  KernelLaunch Kernel;             ///< Kernel
  cudaMemcpy3DParms Copy = {};     ///< Memcpy (1D copies: one row)
  cudaMemsetParams Set = {};       ///< Memset
  cudaHostNodeParams Host = {};    ///< Host
  cudaEvent_t Event = nullptr;     ///< EventRecord, WaitEvent
  std::unique_ptr<GraphObj> Child; ///< Child (the embedded copy)
  /// The node of the graph this one's graph was cloned from.
  const GraphNode *ClonedFrom = nullptr;
  /// In an executable graph: replayed (cudaGraphNodeSetEnabled). Not a
  /// parameter: copyParams keeps it.
  bool Enabled = true;

  GraphNode();
  ~GraphNode();
  GraphNode(const GraphNode &) = delete;
  GraphNode &operator=(const GraphNode &) = delete;
  /// Copies \p From's kind and parameters (a child graph deeply), no edges.
  void copyParams(const GraphNode &From);
};

class GraphObj {
public:
  static constexpr uint32_t MagicValue = 0x47524150; // "GRAP"
  uint32_t Magic = MagicValue;
  /// The nodes, in creation order (cudaGraphGetNodes's order).
  std::vector<std::unique_ptr<GraphNode>> Nodes;
  /// Embedded in a child-graph node: destroyed only with its parent.
  bool Embedded = false;
  /// Being captured into (stream capture owns it until EndCapture).
  bool Capturing = false;

  GraphObj();
  ~GraphObj();
  GraphObj(const GraphObj &) = delete;
  GraphObj &operator=(const GraphObj &) = delete;

  /// A new node of kind \p K after \p Deps (nodes of this graph).
  GraphNode *add(NodeKind K, const std::vector<GraphNode *> &Deps);
  /// An edge From -> To; false when it exists already.
  bool addEdge(GraphNode *From, GraphNode *To);
  /// Removes the edge From -> To; false when there is none.
  bool removeEdge(GraphNode *From, GraphNode *To);
  /// Removes \p N and its edges.
  void remove(GraphNode *N);
  /// A deep copy whose nodes name the originals in ClonedFrom.
  std::unique_ptr<GraphObj> clone() const;
  /// The node of this graph cloned from \p Original, or null.
  GraphNode *findClone(const GraphNode *Original) const;
  /// Index of \p N in Nodes, or -1.
  int indexOf(const GraphNode *N) const;
  /// Appends the replay order to \p Out: every node after its dependencies
  /// (ties in creation order), a child-graph node replaced by its graph's
  /// order, empty nodes left out. False when the edges form a cycle.
  bool flatten(std::vector<GraphNode *> &Out) const;
};

/// Whether \p G / \p N is a live graph / node (any graph, child graphs and
/// the copies inside executable graphs included).
bool isLiveGraph(const void *G);
bool isLiveNode(const void *N);

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_CORE_GRAPH_H
