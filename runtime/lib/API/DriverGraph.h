//===- DriverGraph.h - Executable graphs as device graphs -------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// An executable CUDA graph built as the device's own graph (DeviceGraph in
/// Core/Device.h; NVIDIA: the driver's cuGraph*), so that cudaGraphLaunch is
/// one submission instead of one per node. Built at instantiation from the
/// replay plan (child graphs flattened between empty nodes, each fused group
/// of GraphCoalesce.h one kernel node, a disabled node an empty one) and
/// again after an update that cuGraphExecKernelNodeSetParams cannot carry.
/// What cannot be mapped (a node kind or memory the device graph does not
/// take, live migration, memcheck, HETGPU_DRIVER_GRAPHS=0, a device without
/// graphs, a context moved by migration) makes the graph replay through the
/// device queue as before (API/GraphExec.cpp), logged with the reason
/// (docs/Graphs.md).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_API_DRIVERGRAPH_H
#define HETGPU_RUNTIME_API_DRIVERGRAPH_H

#include "API/GraphCoalesce.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace hetgpu {
namespace rt {
namespace api {

class DriverGraph {
public:
  /// The device graph of executable graph \p Copy with replay plan
  /// \p Order / \p Groups on \p Ctx, instantiated; null with the reason in
  /// \p Why when it cannot be; \p NodeFault: because of a node (which an
  /// update may change), not of the device or the process.
  static std::unique_ptr<DriverGraph>
  build(const GraphObj &Copy, const std::vector<GraphNode *> &Order,
        const std::vector<std::unique_ptr<FusedGroup>> &Groups,
        DeviceContext &Ctx, std::string &Why, bool &NodeFault);

  /// Queues one run on \p S. \p Why non-empty (nothing queued): the graph
  /// must be replayed through the queue instead.
  cudaError_t launch(StreamObj &S, std::string &Why);

  /// After new parameters of kernel node \p N: updates the device graph in
  /// place (cuGraphExecKernelNodeSetParams); false when it must be built
  /// again.
  bool updateKernel(const GraphNode &N, DeviceContext &Ctx);

  size_t nodes() const { return Count; }
  size_t kernels() const { return Kernels; }

private:
  std::unique_ptr<DeviceGraph> G;
  std::shared_ptr<Device> Dev;
  /// Kernel nodes as device graph nodes of their own, and the members of
  /// fused groups (their group's node).
  std::map<const GraphNode *, DeviceGraph::NodeId> Plain;
  std::map<const GraphNode *, std::pair<FusedGroup *, DeviceGraph::NodeId>>
      Fused;
  /// Event-record nodes: their events count as recorded after a launch.
  std::vector<EventObj *> Records;
  std::vector<EventObj *> Events; ///< of every event node
  size_t Count = 0, Kernels = 0;
  friend class DriverGraphBuilder;
};

/// Why executable graphs on \p Ctx do not become device graphs
/// (HETGPU_DRIVER_GRAPHS=0, live migration, memcheck), or "".
std::string driverGraphsOff();

} // namespace api
} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_API_DRIVERGRAPH_H
