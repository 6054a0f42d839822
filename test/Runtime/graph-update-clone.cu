// Executable-graph updates: cudaGraphExecKernelNodeSetParams and
// cudaGraphExecHostNodeSetParams change the next replays only, the graph
// itself is unchanged; cudaGraphExecUpdate with a graph of the same topology
// takes its parameters, with another topology or node kind it fails with
// the CUDA result code and leaves the executable graph as it was. Clones
// are deep copies (cudaGraphNodeFindInClone, changes do not cross), and
// cudaGraphKernelNodeSetParams after instantiation does not reach the
// executable graph.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// CHECK: initial: 10 11
// CHECK-NEXT: exec set params: 20 21, graph node still a=10
// CHECK-NEXT: graph set params after instantiate: exec unchanged 20 21
// CHECK-NEXT: exec update: cudaSuccess result 0: 7 8
// CHECK-NEXT: topology changed: cudaErrorGraphExecUpdateFailure result 2, still 7 8
// CHECK-NEXT: node type changed: cudaErrorGraphExecUpdateFailure result 3
// CHECK-NEXT: clone: 3 nodes, found, independent: 5 6
// CHECK-NEXT: host node updated: 2 1
// CHECK-NEXT: disabled kernel node: 0 0 enabled 0, re-enabled: 7 8
// CHECK-NEXT: PASS
#include "Inputs/check.h"
#include <initializer_list>

__global__ void put(int *p, int a) { p[threadIdx.x] = a + int(threadIdx.x); }

static int runsA = 0, runsB = 0;
static void bump(void *p) { ++*(int *)p; }

static cudaKernelNodeParams kparams(void **args) {
  cudaKernelNodeParams kp = {};
  kp.func = (void *)put;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(2);
  kp.kernelParams = args;
  return kp;
}

/// A graph: put(p, a) -> host(bump, counter) -> empty.
static cudaGraph_t build(int *p, int a, int *counter, cudaGraphNode_t *kn,
                         cudaGraphNode_t *hn) {
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  void *args[] = {&p, &a};
  cudaKernelNodeParams kp = kparams(args);
  CHECK(cudaGraphAddKernelNode(kn, g, nullptr, 0, &kp));
  cudaHostNodeParams hp = {bump, counter};
  CHECK(cudaGraphAddHostNode(hn, g, kn, 1, &hp));
  cudaGraphNode_t e;
  CHECK(cudaGraphAddEmptyNode(&e, g, hn, 1));
  return g;
}

static void run(cudaGraphExec_t x, cudaStream_t s, int *d, int out[2]) {
  CHECK(cudaGraphLaunch(x, s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaMemcpy(out, d, 2 * sizeof(int), cudaMemcpyDeviceToHost));
}

int main() {
  int *d, h[2];
  CHECK(cudaMalloc(&d, 2 * sizeof(int)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  cudaGraphNode_t kn, hn;
  cudaGraph_t g = build(d, 10, &runsA, &kn, &hn);
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0));
  run(x, s, d, h);
  std::printf("initial: %d %d\n", h[0], h[1]);

  int a = 20;
  void *args[] = {&d, &a};
  cudaKernelNodeParams kp = kparams(args);
  CHECK(cudaGraphExecKernelNodeSetParams(x, kn, &kp));
  a = 99; // copied: must not matter
  run(x, s, d, h);
  cudaKernelNodeParams back;
  CHECK(cudaGraphKernelNodeGetParams(kn, &back));
  std::printf("exec set params: %d %d, graph node still a=%d\n", h[0], h[1],
              *(int *)back.kernelParams[1]);

  a = 30;
  CHECK(cudaGraphKernelNodeSetParams(kn, &kp));
  run(x, s, d, h);
  std::printf("graph set params after instantiate: exec unchanged %d %d\n",
              h[0], h[1]);

  // Same topology, new values: the update takes them.
  cudaGraphNode_t kn2, hn2;
  cudaGraph_t g2 = build(d, 7, &runsA, &kn2, &hn2);
  cudaGraphExecUpdateResultInfo info;
  cudaError_t e = cudaGraphExecUpdate(x, g2, &info);
  run(x, s, d, h);
  std::printf("exec update: %s result %d: %d %d\n", cudaGetErrorName(e),
              int(info.result), h[0], h[1]);

  // One more node: the topology changed; nothing is updated.
  cudaGraphNode_t kn3, hn3;
  cudaGraph_t g3 = build(d, 1, &runsA, &kn3, &hn3);
  cudaGraphNode_t extra;
  CHECK(cudaGraphAddEmptyNode(&extra, g3, nullptr, 0));
  e = cudaGraphExecUpdate(x, g3, &info);
  run(x, s, d, h);
  std::printf("topology changed: %s result %d, still %d %d\n",
              cudaGetErrorName(e), int(info.result), h[0], h[1]);
  // Same shape, the host node replaced by a memset: the node type changed.
  cudaGraph_t g4;
  CHECK(cudaGraphCreate(&g4, 0));
  void *args4[] = {&d, &a};
  cudaKernelNodeParams kp4 = kparams(args4);
  cudaGraphNode_t n4, m4, e4;
  CHECK(cudaGraphAddKernelNode(&n4, g4, nullptr, 0, &kp4));
  cudaMemsetParams ms = {};
  ms.dst = d;
  ms.elementSize = 1;
  ms.width = 4;
  ms.height = 1;
  CHECK(cudaGraphAddMemsetNode(&m4, g4, &n4, 1, &ms));
  CHECK(cudaGraphAddEmptyNode(&e4, g4, &m4, 1));
  e = cudaGraphExecUpdate(x, g4, &info);
  std::printf("node type changed: %s result %d\n", cudaGetErrorName(e),
              int(info.result));
  EXPECT_TRUE(info.errorNode == m4);
  cudaGetLastError();

  // Clones: a deep copy; changing the clone leaves the original alone.
  cudaGraph_t c;
  CHECK(cudaGraphClone(&c, g2));
  size_t num;
  CHECK(cudaGraphGetNodes(c, nullptr, &num));
  cudaGraphNode_t ckn;
  CHECK(cudaGraphNodeFindInClone(&ckn, kn2, c));
  EXPECT_TRUE(ckn != kn2);
  a = 5;
  CHECK(cudaGraphKernelNodeSetParams(ckn, &kp));
  cudaGraphExec_t xc, x2;
  CHECK(cudaGraphInstantiate(&xc, c, 0));
  CHECK(cudaGraphInstantiate(&x2, g2, 0));
  int hc[2];
  run(xc, s, d, hc);
  run(x2, s, d, h);
  EXPECT_TRUE(h[0] == 7 && h[1] == 8);
  std::printf("clone: %zu nodes, found, independent: %d %d\n", num, hc[0],
              hc[1]);

  // Host node parameters of the executable graph.
  runsA = runsB = 0;
  cudaHostNodeParams hp = {bump, &runsB};
  // hn is a node of g, not of the graph x2 was instantiated from.
  EXPECT_ERR(cudaGraphExecHostNodeSetParams(x2, hn, &hp), cudaErrorInvalidValue);
  CHECK(cudaGraphExecHostNodeSetParams(x, hn, &hp));
  run(x, s, d, h);
  run(x, s, d, h);
  run(x2, s, d, h);
  std::printf("host node updated: %d %d\n", runsB, runsA);

  // A disabled kernel node is skipped by replays until enabled again.
  CHECK(cudaMemset(d, 0, 2 * sizeof(int)));
  CHECK(cudaGraphNodeSetEnabled(x2, kn2, 0));
  unsigned on = 1;
  CHECK(cudaGraphNodeGetEnabled(x2, kn2, &on));
  run(x2, s, d, h);
  std::printf("disabled kernel node: %d %d enabled %u", h[0], h[1], on);
  CHECK(cudaGraphNodeSetEnabled(x2, kn2, 1));
  run(x2, s, d, h);
  std::printf(", re-enabled: %d %d\n", h[0], h[1]);
  EXPECT_ERR(cudaGraphNodeSetEnabled(x2, hn2, 0), cudaErrorInvalidValue);

  for (cudaGraphExec_t e : {x, x2, xc})
    CHECK(cudaGraphExecDestroy(e));
  for (cudaGraph_t gg : {g, g2, g3, g4, c})
    CHECK(cudaGraphDestroy(gg));
  EXPECT_ERR(cudaGraphLaunch(x, s), cudaErrorInvalidValue);
  std::printf("PASS\n");
  return 0;
}
