// CUDA graphs built node by node: kernel, 1D and 3D memcpy, memset (1- and
// 4-byte elements, 2D), host, event record, event wait, empty and child-graph
// nodes; the node/edge queries; replay many times, results checked against a
// host computation each time.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: rm -f %t.dot
// RUN: env HETGPU_DEVICE=cpu %t %t.dot | FileCheck %s
// RUN: FileCheck --check-prefix=DOT %s < %t.dot
// DOT: digraph hetgpu_graph {
// DOT: n2 [label="2: kernel\nscale(float*, float, int) <<<8,128>>>"];
// DOT: subgraph cluster_n3 {
// DOT: n3_0 [label="0: kernel\naddInto(float*, float const*, int) <<<8,128>>>"];
// DOT: n9 [label="9: memset\n48 bytes"];
// DOT: n1 -> n3;
// CHECK: nodes 10 roots 2 edges 10
// CHECK-NEXT: types ok
// CHECK-NEXT: replays 20 ok, host node ran 20 times
// CHECK-NEXT: event recorded by the graph: cudaSuccess
// CHECK-NEXT: cycle refused: cudaErrorInvalidValue, edge removed: cudaSuccess
// CHECK-NEXT: PASS
#include "Inputs/check.h"
#include <vector>

__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] * a + 1.0f;
}

__global__ void addInto(float *dst, const float *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dst[i] += src[i];
}

static int hostRuns = 0;
static void countRun(void *p) { ++*(int *)p; }

int main(int argc, char **argv) {
  const int n = 1000;
  float *a, *b, *c;
  unsigned *pat;
  CHECK(cudaMalloc(&a, n * sizeof(float)));
  CHECK(cudaMalloc(&b, n * sizeof(float)));
  CHECK(cudaMalloc(&c, n * sizeof(float)));
  CHECK(cudaMalloc(&pat, 4 * 8 * sizeof(unsigned)));
  std::vector<float> hin(n), hout(n), hc(n);
  for (int i = 0; i < n; ++i)
    hin[i] = float(i % 17);
  cudaEvent_t ev;
  CHECK(cudaEventCreate(&ev));

  cudaGraph_t g, child;
  CHECK(cudaGraphCreate(&g, 0));
  CHECK(cudaGraphCreate(&child, 0));
  // Child graph: b += a (a kernel node alone).
  cudaGraphNode_t childAdd;
  int threads = 128, blocks = (n + threads - 1) / threads;
  void *addArgs[] = {&b, &a, (void *)&n};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)addInto;
  kp.gridDim = dim3(blocks);
  kp.blockDim = dim3(threads);
  kp.kernelParams = addArgs;
  CHECK(cudaGraphAddKernelNode(&childAdd, child, nullptr, 0, &kp));

  // Roots: copy hin -> a (1D), memset b to 0 (1-byte elements).
  cudaGraphNode_t h2d, zeroB, scaleA, childNode, emptyN, recordN, waitN,
      hostN, d2h, setPat;
  CHECK(cudaGraphAddMemcpyNode1D(&h2d, g, nullptr, 0, a, hin.data(),
                                 n * sizeof(float), cudaMemcpyHostToDevice));
  cudaMemsetParams ms = {};
  ms.dst = b;
  ms.value = 0;
  ms.elementSize = 1;
  ms.width = n * sizeof(float);
  ms.height = 1;
  CHECK(cudaGraphAddMemsetNode(&zeroB, g, nullptr, 0, &ms));
  // a = a * 2 + 1 (the argument values are copied now: change them after).
  float factor = 2.0f;
  void *scaleArgs[] = {&a, &factor, (void *)&n};
  kp.func = (void *)scale;
  kp.kernelParams = scaleArgs;
  cudaGraphNode_t deps1[] = {h2d};
  CHECK(cudaGraphAddKernelNode(&scaleA, g, deps1, 1, &kp));
  factor = 100.0f; // must not reach the node
  // b += a through the child graph, after both.
  cudaGraphNode_t deps2[] = {scaleA, zeroB};
  CHECK(cudaGraphAddChildGraphNode(&childNode, g, deps2, 2, child));
  cudaGraphNode_t deps3[] = {childNode};
  CHECK(cudaGraphAddEmptyNode(&emptyN, g, deps3, 1));
  cudaGraphNode_t deps4[] = {emptyN};
  CHECK(cudaGraphAddEventRecordNode(&recordN, g, deps4, 1, ev));
  cudaGraphNode_t deps5[] = {recordN};
  CHECK(cudaGraphAddEventWaitNode(&waitN, g, deps5, 1, ev));
  cudaHostNodeParams hp = {countRun, &hostRuns};
  cudaGraphNode_t deps6[] = {waitN};
  CHECK(cudaGraphAddHostNode(&hostN, g, deps6, 1, &hp));
  // 3D copy of b into c (a pitched view of 10 rows of 100 floats).
  cudaMemcpy3DParms cp = {};
  cp.srcPtr = make_cudaPitchedPtr(b, 100 * sizeof(float), 100 * sizeof(float), 10);
  cp.dstPtr = make_cudaPitchedPtr(c, 100 * sizeof(float), 100 * sizeof(float), 10);
  cp.extent = make_cudaExtent(100 * sizeof(float), 10, 1);
  cp.kind = cudaMemcpyDeviceToDevice;
  CHECK(cudaGraphAddMemcpyNode(&d2h, g, deps6, 1, &cp));
  // 4-byte pattern memset, 2D: 4 rows of 3 elements, pitch 8 elements.
  CHECK(cudaMemset(pat, 0, 4 * 8 * sizeof(unsigned)));
  cudaMemsetParams ms4 = {};
  ms4.dst = pat;
  ms4.value = 0xdeadbeefu;
  ms4.elementSize = 4;
  ms4.width = 3;
  ms4.height = 4;
  ms4.pitch = 8 * sizeof(unsigned);
  cudaGraphNode_t deps7[] = {d2h, hostN};
  CHECK(cudaGraphAddMemsetNode(&setPat, g, deps7, 2, &ms4));

  size_t num = 0, roots = 0, edges = 0;
  CHECK(cudaGraphGetNodes(g, nullptr, &num));
  CHECK(cudaGraphGetRootNodes(g, nullptr, &roots));
  CHECK(cudaGraphGetEdges(g, nullptr, nullptr, &edges));
  std::printf("nodes %zu roots %zu edges %zu\n", num, roots, edges);
  std::vector<cudaGraphNode_t> from(edges), to(edges), all(num + 2);
  size_t got = num + 2;
  CHECK(cudaGraphGetNodes(g, all.data(), &got));
  EXPECT_TRUE(got == num && all[num] == nullptr && all[0] == h2d);
  CHECK(cudaGraphGetEdges(g, from.data(), to.data(), &edges));
  bool sawJoin = false;
  for (size_t i = 0; i < edges; ++i)
    sawJoin |= from[i] == zeroB && to[i] == childNode;
  EXPECT_TRUE(sawJoin);
  cudaGraphNodeType t;
  struct {
    cudaGraphNode_t n;
    cudaGraphNodeType want;
  } types[] = {{h2d, cudaGraphNodeTypeMemcpy},  {zeroB, cudaGraphNodeTypeMemset},
               {scaleA, cudaGraphNodeTypeKernel}, {childNode, cudaGraphNodeTypeGraph},
               {emptyN, cudaGraphNodeTypeEmpty},  {recordN, cudaGraphNodeTypeEventRecord},
               {waitN, cudaGraphNodeTypeWaitEvent}, {hostN, cudaGraphNodeTypeHost}};
  for (auto &x : types) {
    CHECK(cudaGraphNodeGetType(x.n, &t));
    EXPECT_TRUE(t == x.want);
  }
  cudaKernelNodeParams back;
  CHECK(cudaGraphKernelNodeGetParams(scaleA, &back));
  EXPECT_TRUE(back.func == (void *)scale && back.gridDim.x == unsigned(blocks) &&
              *(float *)back.kernelParams[1] == 2.0f);
  std::printf("types ok\n");

  if (argc > 1)
    CHECK(cudaGraphDebugDotPrint(g, argv[1], cudaGraphDebugDotFlagsVerbose));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  const int reps = 20;
  for (int r = 0; r < reps; ++r) {
    for (int i = 0; i < n; ++i)
      hin[i] = float((i + r) % 23);
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(hc.data(), c, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      float want = float((i + r) % 23) * 2.0f + 1.0f; // b = 0 + scaled a
      if (hc[i] != want) {
        std::printf("FAIL replay %d: c[%d] = %f, want %f\n", r, i, hc[i], want);
        return 1;
      }
    }
    unsigned hp4[32];
    CHECK(cudaMemcpy(hp4, pat, sizeof(hp4), cudaMemcpyDeviceToHost));
    for (int row = 0; row < 4; ++row)
      for (int col = 0; col < 8; ++col)
        EXPECT_TRUE(hp4[row * 8 + col] == (col < 3 ? 0xdeadbeefu : 0u));
  }
  std::printf("replays %d ok, host node ran %d times\n", reps, hostRuns);
  std::printf("event recorded by the graph: %s\n",
              cudaGetErrorName(cudaEventQuery(ev)));

  // A cycle (scaleA -> ... -> hostN -> scaleA) is refused at instantiation.
  cudaGraphNode_t f[] = {hostN}, tt[] = {scaleA};
  CHECK(cudaGraphAddDependencies(g, f, tt, 1));
  cudaGraphExec_t bad;
  std::printf("cycle refused: %s",
              cudaGetErrorName(cudaGraphInstantiate(&bad, g, 0)));
  cudaGetLastError();
  CHECK(cudaGraphRemoveDependencies(g, f, tt, 1));
  EXPECT_ERR(cudaGraphRemoveDependencies(g, f, tt, 1), cudaErrorInvalidValue);
  cudaError_t okAgain = cudaGraphInstantiate(&bad, g, 0);
  std::printf(", edge removed: %s\n", cudaGetErrorName(okAgain));
  if (okAgain == cudaSuccess)
    CHECK(cudaGraphExecDestroy(bad));
  // Bad handles are errors, not crashes.
  EXPECT_ERR(cudaGraphNodeGetType((cudaGraphNode_t)&f, &t), cudaErrorInvalidValue);
  EXPECT_ERR(cudaGraphAddEmptyNode(&emptyN, (cudaGraph_t)&f, nullptr, 0),
             cudaErrorInvalidValue);
  EXPECT_ERR(cudaGraphAddKernelNode(&emptyN, g, nullptr, 0, nullptr),
             cudaErrorInvalidValue);
  kp.func = (void *)&hostRuns; // not a kernel
  EXPECT_ERR(cudaGraphAddKernelNode(&emptyN, g, nullptr, 0, &kp),
             cudaErrorInvalidDeviceFunction);
  EXPECT_ERR(cudaGraphDestroy((cudaGraph_t)&f), cudaErrorInvalidValue);
  // A child node's graph is a fixed copy: no nodes added, not destroyed.
  cudaGraph_t embedded;
  CHECK(cudaGraphChildGraphNodeGetGraph(childNode, &embedded));
  EXPECT_TRUE(embedded != child);
  size_t inChild = 0;
  CHECK(cudaGraphGetNodes(embedded, nullptr, &inChild));
  EXPECT_TRUE(inChild == 1);
  EXPECT_ERR(cudaGraphAddEmptyNode(&emptyN, embedded, nullptr, 0),
             cudaErrorInvalidValue);
  EXPECT_ERR(cudaGraphDestroy(embedded), cudaErrorInvalidValue);

  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaGraphDestroy(child));
  CHECK(cudaStreamDestroy(s));
  std::printf("PASS\n");
  return 0;
}
