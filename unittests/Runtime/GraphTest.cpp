//===- GraphTest.cpp - Unit tests of the CUDA graph model -----------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Core/Graph.h without devices: the replay order (dependencies first,
/// creation order on ties, child graphs expanded, empty nodes dropped,
/// cycles refused), deep clones and the live-handle registry.
///
//===----------------------------------------------------------------------===//

#include "Core/Graph.h"

#include <gtest/gtest.h>

using namespace hetgpu::rt;

namespace {

std::vector<int> hostIds(const std::vector<GraphNode *> &Order) {
  std::vector<int> Out;
  for (GraphNode *N : Order)
    Out.push_back(int(reinterpret_cast<intptr_t>(N->Host.userData)));
  return Out;
}

GraphNode *hostNode(GraphObj &G, int Id, std::vector<GraphNode *> Deps = {}) {
  GraphNode *N = G.add(NodeKind::Host, Deps);
  N->Host.userData = reinterpret_cast<void *>(intptr_t(Id));
  return N;
}

TEST(Graph, OrderFollowsEdgesThenCreation) {
  GraphObj G;
  GraphNode *A = hostNode(G, 0);
  GraphNode *B = hostNode(G, 1);
  // 2 depends on 1 only; 3 on 0 and 2; 4 is a root created last.
  GraphNode *C = hostNode(G, 2, {B});
  hostNode(G, 3, {A, C});
  hostNode(G, 4);
  std::vector<GraphNode *> Order;
  ASSERT_TRUE(G.flatten(Order));
  EXPECT_EQ(hostIds(Order), (std::vector<int>{0, 1, 2, 3, 4}));
  // A dependency on a later node moves the earlier one after it.
  GraphObj H;
  GraphNode *X = hostNode(H, 10);
  GraphNode *Y = hostNode(H, 11);
  ASSERT_TRUE(H.addEdge(Y, X));
  EXPECT_FALSE(H.addEdge(Y, X)); // exists
  Order.clear();
  ASSERT_TRUE(H.flatten(Order));
  EXPECT_EQ(hostIds(Order), (std::vector<int>{11, 10}));
}

TEST(Graph, ChildGraphsExpandInPlaceAndEmptyNodesDrop) {
  GraphObj G;
  GraphNode *A = hostNode(G, 1);
  GraphNode *C = G.add(NodeKind::Child, {A});
  C->Child = std::make_unique<GraphObj>();
  GraphNode *In = hostNode(*C->Child, 2);
  hostNode(*C->Child, 3, {In});
  GraphNode *E = G.add(NodeKind::Empty, {C});
  hostNode(G, 4, {E});
  std::vector<GraphNode *> Order;
  ASSERT_TRUE(G.flatten(Order));
  EXPECT_EQ(hostIds(Order), (std::vector<int>{1, 2, 3, 4}));
}

TEST(Graph, CyclesAreRefused) {
  GraphObj G;
  GraphNode *A = hostNode(G, 0);
  GraphNode *B = hostNode(G, 1, {A});
  G.addEdge(B, A);
  std::vector<GraphNode *> Order;
  EXPECT_FALSE(G.flatten(Order));
}

TEST(Graph, ClonesAreDeepAndKeepEdgeOrder) {
  GraphObj G;
  GraphNode *A = hostNode(G, 0);
  GraphNode *B = hostNode(G, 1);
  GraphNode *C = hostNode(G, 2, {B, A});
  GraphNode *Ch = G.add(NodeKind::Child, {C});
  Ch->Child = std::make_unique<GraphObj>();
  Ch->Child->Embedded = true;
  hostNode(*Ch->Child, 5);
  std::unique_ptr<GraphObj> K = G.clone();
  ASSERT_EQ(K->Nodes.size(), 4u);
  GraphNode *KC = K->findClone(C);
  ASSERT_NE(KC, nullptr);
  EXPECT_NE(KC, C);
  ASSERT_EQ(KC->Deps.size(), 2u);
  EXPECT_EQ(KC->Deps[0], K->findClone(B));
  EXPECT_EQ(KC->Deps[1], K->findClone(A));
  GraphNode *KCh = K->findClone(Ch);
  ASSERT_TRUE(KCh->Child);
  EXPECT_NE(KCh->Child.get(), Ch->Child.get());
  EXPECT_TRUE(KCh->Child->Embedded);
  // Changing the clone leaves the original alone.
  KC->Host.userData = reinterpret_cast<void *>(intptr_t(99));
  EXPECT_EQ(C->Host.userData, reinterpret_cast<void *>(intptr_t(2)));
}

TEST(Graph, LiveHandlesAndRemoval) {
  GraphNode *Dead;
  {
    GraphObj G;
    GraphNode *A = hostNode(G, 0);
    GraphNode *B = hostNode(G, 1, {A});
    EXPECT_TRUE(isLiveGraph(&G));
    EXPECT_TRUE(isLiveNode(A));
    G.remove(A);
    EXPECT_FALSE(isLiveNode(A));
    EXPECT_TRUE(B->Deps.empty());
    EXPECT_EQ(G.indexOf(B), 0);
    Dead = B;
  }
  EXPECT_FALSE(isLiveNode(Dead));
  int NotAGraph = 0;
  EXPECT_FALSE(isLiveGraph(&NotAGraph));
  EXPECT_FALSE(isLiveNode(nullptr));
}

} // namespace
