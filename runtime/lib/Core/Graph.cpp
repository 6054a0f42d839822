//===- Graph.cpp - CUDA graphs: nodes, edges, clones, replay order --------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The graph model of Core/Graph.h: live-handle registry, edges, deep
/// clones and the topological replay order.
///
//===----------------------------------------------------------------------===//

#include "Core/Graph.h"

#include <algorithm>
#include <mutex>
#include <queue>
#include <unordered_set>

using namespace hetgpu;
using namespace hetgpu::rt;

namespace {

/// Live graphs and nodes, so that the API can check a handle before use.
struct Handles {
  std::mutex M;
  std::unordered_set<const void *> Graphs, Nodes;
};

Handles &handles() {
  static Handles *H = new Handles(); // never destroyed (atexit-safe)
  return *H;
}

} // namespace

bool rt::isLiveGraph(const void *G) {
  Handles &H = handles();
  std::lock_guard<std::mutex> L(H.M);
  return G && H.Graphs.count(G);
}

bool rt::isLiveNode(const void *N) {
  Handles &H = handles();
  std::lock_guard<std::mutex> L(H.M);
  return N && H.Nodes.count(N);
}

GraphNode::GraphNode() {
  Handles &H = handles();
  std::lock_guard<std::mutex> L(H.M);
  H.Nodes.insert(this);
}

GraphNode::~GraphNode() {
  Handles &H = handles();
  std::lock_guard<std::mutex> L(H.M);
  H.Nodes.erase(this);
  Magic = 0;
}

void GraphNode::copyParams(const GraphNode &From) {
  Kind = From.Kind;
  Kernel = From.Kernel;
  Copy = From.Copy;
  Set = From.Set;
  Host = From.Host;
  Event = From.Event;
  if (From.Child) {
    Child = From.Child->clone();
    Child->Embedded = true;
  } else {
    Child.reset();
  }
}

GraphObj::GraphObj() {
  Handles &H = handles();
  std::lock_guard<std::mutex> L(H.M);
  H.Graphs.insert(this);
}

GraphObj::~GraphObj() {
  Nodes.clear();
  Handles &H = handles();
  std::lock_guard<std::mutex> L(H.M);
  H.Graphs.erase(this);
  Magic = 0;
}

GraphNode *GraphObj::add(NodeKind K, const std::vector<GraphNode *> &Deps) {
  Nodes.push_back(std::make_unique<GraphNode>());
  GraphNode *N = Nodes.back().get();
  N->Owner = this;
  N->Kind = K;
  for (GraphNode *D : Deps)
    addEdge(D, N);
  return N;
}

bool GraphObj::addEdge(GraphNode *From, GraphNode *To) {
  if (std::find(To->Deps.begin(), To->Deps.end(), From) != To->Deps.end())
    return false;
  To->Deps.push_back(From);
  From->Dependents.push_back(To);
  return true;
}

bool GraphObj::removeEdge(GraphNode *From, GraphNode *To) {
  auto It = std::find(To->Deps.begin(), To->Deps.end(), From);
  if (It == To->Deps.end())
    return false;
  To->Deps.erase(It);
  From->Dependents.erase(
      std::find(From->Dependents.begin(), From->Dependents.end(), To));
  return true;
}

void GraphObj::remove(GraphNode *N) {
  auto Drop = [](std::vector<GraphNode *> &V, GraphNode *X) {
    V.erase(std::remove(V.begin(), V.end(), X), V.end());
  };
  for (GraphNode *D : N->Deps)
    Drop(D->Dependents, N);
  for (GraphNode *D : N->Dependents)
    Drop(D->Deps, N);
  Nodes.erase(std::remove_if(Nodes.begin(), Nodes.end(),
                             [&](const std::unique_ptr<GraphNode> &P) {
                               return P.get() == N;
                             }),
              Nodes.end());
}

std::unique_ptr<GraphObj> GraphObj::clone() const {
  auto C = std::make_unique<GraphObj>();
  std::map<const GraphNode *, GraphNode *> Map;
  for (const auto &N : Nodes) {
    GraphNode *M = C->add(N->Kind, {});
    M->copyParams(*N);
    M->ClonedFrom = N.get();
    Map[N.get()] = M;
  }
  // Edges in each node's own order, so that the copy lists them alike.
  for (const auto &N : Nodes)
    for (GraphNode *D : N->Deps)
      C->addEdge(Map[D], Map[N.get()]);
  return C;
}

GraphNode *GraphObj::findClone(const GraphNode *Original) const {
  for (const auto &N : Nodes)
    if (N->ClonedFrom == Original)
      return N.get();
  return nullptr;
}

int GraphObj::indexOf(const GraphNode *N) const {
  for (size_t I = 0; I < Nodes.size(); ++I)
    if (Nodes[I].get() == N)
      return int(I);
  return -1;
}

bool GraphObj::flatten(std::vector<GraphNode *> &Out) const {
  // Kahn's algorithm; the ready set is ordered by creation index, so the
  // order is deterministic and follows the program's own order where the
  // edges leave a choice.
  std::map<const GraphNode *, size_t> Index, Pending;
  for (size_t I = 0; I < Nodes.size(); ++I) {
    Index[Nodes[I].get()] = I;
    Pending[Nodes[I].get()] = Nodes[I]->Deps.size();
  }
  std::priority_queue<size_t, std::vector<size_t>, std::greater<size_t>> Ready;
  for (size_t I = 0; I < Nodes.size(); ++I)
    if (Nodes[I]->Deps.empty())
      Ready.push(I);
  size_t Done = 0;
  while (!Ready.empty()) {
    GraphNode *N = Nodes[Ready.top()].get();
    Ready.pop();
    ++Done;
    if (N->Kind == NodeKind::Child) {
      if (!N->Child->flatten(Out))
        return false;
    } else if (N->Kind != NodeKind::Empty) {
      Out.push_back(N);
    }
    for (GraphNode *D : N->Dependents)
      if (--Pending[D] == 0)
        Ready.push(Index[D]);
  }
  return Done == Nodes.size();
}
