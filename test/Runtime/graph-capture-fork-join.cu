// Stream capture with fork/join across three streams: s0 forks to s1 and s2
// through events, each runs kernels, memsets, copies and a host function,
// and joins back; the captured graph has the expected shape and replays
// many times with results checked against a host computation. Also: the
// CUDA 13 form of cudaStreamGetCaptureInfo, a graph launched into a
// capturing stream (a child node), and capture in thread-local and relaxed
// modes.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// RUN: hetgpu-cc -D__CUDART_API_VERSION=13000 %s -o %t13
// RUN: env HETGPU_DEVICE=cpu %t13 | FileCheck %s
// CHECK: capturing: s0 1 s1 1 s2 1, deps of s0 1
// CHECK-NEXT: captured 7 nodes, 1 roots
// CHECK-NEXT: after capture: s0 0 s1 0 s2 0
// CHECK-NEXT: 50 replays ok, host function ran 50 times
// CHECK-NEXT: nested: 2 replays ok
// CHECK-NEXT: 2D: 2 nodes (memset, memcpy), replay ok
// CHECK-NEXT: modes ok
// CHECK-NEXT: PASS
#include "Inputs/check.h"
#include <vector>

__global__ void axpb(float *y, const float *x, float a, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + b;
}

__global__ void combine(float *out, const float *p, const float *q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] += p[i] * q[i];
}

static int hostCalls = 0;
static void hostFn(void *p) { ++*(int *)p; }

static int isCap(cudaStream_t s) {
  cudaStreamCaptureStatus st;
  CHECK(cudaStreamIsCapturing(s, &st));
  return st == cudaStreamCaptureStatusActive;
}

int main() {
  const int n = 4096, tb = 256, nb = n / tb;
  float *x, *p, *q, *out;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&p, n * sizeof(float)));
  CHECK(cudaMalloc(&q, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  float *hx, *hout;
  CHECK(cudaMallocHost(&hx, n * sizeof(float)));
  CHECK(cudaMallocHost(&hout, n * sizeof(float)));
  cudaStream_t s0, s1, s2;
  CHECK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  cudaEvent_t fork, j1, j2;
  CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&j1, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&j2, cudaEventDisableTiming));

  CHECK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal));
  CHECK(cudaMemcpyAsync(x, hx, n * sizeof(float), cudaMemcpyHostToDevice, s0));
  CHECK(cudaEventRecord(fork, s0));
  CHECK(cudaStreamWaitEvent(s1, fork, 0)); // fork s1
  CHECK(cudaStreamWaitEvent(s2, fork, 0)); // fork s2
  axpb<<<nb, tb, 0, s1>>>(p, x, 2.0f, 1.0f, n); // p = 2x + 1
  CHECK(cudaLaunchHostFunc(s1, hostFn, &hostCalls));
  axpb<<<nb, tb, 0, s2>>>(q, x, -1.0f, 3.0f, n); // q = 3 - x
  CHECK(cudaMemsetAsync(out, 0, n * sizeof(float), s0));
  {
    cudaStreamCaptureStatus st;
    unsigned long long id = 0;
    cudaGraph_t cg = nullptr;
    const cudaGraphNode_t *deps = nullptr;
    size_t nd = 0;
#if __CUDART_API_VERSION >= 13000
    const cudaGraphEdgeData *ed = nullptr;
    CHECK(cudaStreamGetCaptureInfo(s0, &st, &id, &cg, &deps, &ed, &nd));
    EXPECT_TRUE(ed != nullptr && ed[0].type == cudaGraphDependencyTypeDefault);
#else
    CHECK(cudaStreamGetCaptureInfo(s0, &st, &id, &cg, &deps, &nd));
#endif
    EXPECT_TRUE(st == cudaStreamCaptureStatusActive && id != 0 && cg);
    cudaGraphNodeType t;
    CHECK(cudaGraphNodeGetType(deps[0], &t));
    EXPECT_TRUE(t == cudaGraphNodeTypeMemset);
    std::printf("capturing: s0 %d s1 %d s2 %d, deps of s0 %zu\n", isCap(s0),
                isCap(s1), isCap(s2), nd);
  }
  CHECK(cudaEventRecord(j1, s1));
  CHECK(cudaEventRecord(j2, s2));
  CHECK(cudaStreamWaitEvent(s0, j1, 0)); // join
  CHECK(cudaStreamWaitEvent(s0, j2, 0));
  combine<<<nb, tb, 0, s0>>>(out, p, q, n); // out = p * q
  CHECK(cudaMemcpyAsync(hout, out, n * sizeof(float), cudaMemcpyDeviceToHost,
                        s0));
  cudaGraph_t g;
  CHECK(cudaStreamEndCapture(s0, &g));

  size_t num, roots;
  CHECK(cudaGraphGetNodes(g, nullptr, &num));
  CHECK(cudaGraphGetRootNodes(g, nullptr, &roots));
  std::printf("captured %zu nodes, %zu roots\n", num, roots);
  // The combine kernel depends on the memset and both branches.
  std::vector<cudaGraphNode_t> nodes(num);
  CHECK(cudaGraphGetNodes(g, nodes.data(), &num));
  size_t ndeps = 0;
#if __CUDART_API_VERSION >= 13000
  CHECK(cudaGraphNodeGetDependencies(nodes[5], nullptr, nullptr, &ndeps));
#else
  CHECK(cudaGraphNodeGetDependencies(nodes[5], nullptr, &ndeps));
#endif
  EXPECT_TRUE(ndeps == 3);
  std::printf("after capture: s0 %d s1 %d s2 %d\n", isCap(s0), isCap(s1),
              isCap(s2));

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  const int reps = 50;
  for (int r = 0; r < reps; ++r) {
    for (int i = 0; i < n; ++i)
      hx[i] = float((i * 7 + r) % 101) * 0.25f;
    CHECK(cudaGraphLaunch(exec, s0));
    CHECK(cudaStreamSynchronize(s0));
    for (int i = 0; i < n; ++i) {
      float xv = hx[i];
      float want = (2.0f * xv + 1.0f) * (-1.0f * xv + 3.0f);
      if (hout[i] != want) {
        std::printf("FAIL replay %d: out[%d] = %f, want %f\n", r, i, hout[i],
                    want);
        return 1;
      }
    }
  }
  std::printf("%d replays ok, host function ran %d times\n", reps, hostCalls);

  // A graph launched into a capturing stream becomes a child-graph node.
  cudaGraph_t outer;
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeThreadLocal));
  CHECK(cudaGraphLaunch(exec, s1));
  CHECK(cudaGraphLaunch(exec, s1));
  CHECK(cudaStreamEndCapture(s1, &outer));
  CHECK(cudaGraphGetNodes(outer, nullptr, &num));
  EXPECT_TRUE(num == 2);
  CHECK(cudaGraphGetNodes(outer, nodes.data(), &num));
  cudaGraphNodeType t;
  CHECK(cudaGraphNodeGetType(nodes[1], &t));
  EXPECT_TRUE(t == cudaGraphNodeTypeGraph);
  cudaGraphExec_t outerExec;
  CHECK(cudaGraphInstantiate(&outerExec, outer, 0));
  for (int r = 0; r < 2; ++r) {
    for (int i = 0; i < n; ++i)
      hx[i] = float(i % 13 + r);
    CHECK(cudaGraphLaunch(outerExec, s2));
    CHECK(cudaStreamSynchronize(s2));
    for (int i = 0; i < n; ++i)
      EXPECT_TRUE(hout[i] == (2.0f * hx[i] + 1.0f) * (3.0f - hx[i]));
  }
  std::printf("nested: 2 replays ok\n");

  // A 2D memset and a 2D copy are one node each, as in CUDA.
  {
    size_t pitch;
    char *img;
    CHECK(cudaMallocPitch((void **)&img, &pitch, 40, 6));
    std::vector<char> host(40 * 6, 0);
    cudaGraph_t g2;
    CHECK(cudaStreamBeginCapture(s2, cudaStreamCaptureModeGlobal));
    CHECK(cudaMemset2DAsync(img, pitch, 0x5a, 30, 6, s2));
    CHECK(cudaMemcpy2DAsync(host.data(), 40, img, pitch, 40, 6,
                            cudaMemcpyDeviceToHost, s2));
    CHECK(cudaStreamEndCapture(s2, &g2));
    size_t n2;
    CHECK(cudaGraphGetNodes(g2, nullptr, &n2));
    EXPECT_TRUE(n2 == 2);
    cudaGraphNode_t two[2];
    CHECK(cudaGraphGetNodes(g2, two, &n2));
    cudaGraphNodeType t0, t1;
    CHECK(cudaGraphNodeGetType(two[0], &t0));
    CHECK(cudaGraphNodeGetType(two[1], &t1));
    EXPECT_TRUE(t0 == cudaGraphNodeTypeMemset && t1 == cudaGraphNodeTypeMemcpy);
    cudaMemsetParams mp;
    CHECK(cudaGraphMemsetNodeGetParams(two[0], &mp));
    EXPECT_TRUE(mp.pitch == pitch && mp.width == 30 && mp.height == 6);
    CHECK(cudaMemset(img, 1, pitch * 6));
    cudaGraphExec_t x2;
    CHECK(cudaGraphInstantiate(&x2, g2, 0));
    CHECK(cudaGraphLaunch(x2, s2));
    CHECK(cudaStreamSynchronize(s2));
    for (int r = 0; r < 6; ++r)
      for (int c = 0; c < 40; ++c)
        EXPECT_TRUE(host[r * 40 + c] == (c < 30 ? 0x5a : 1));
    std::printf("2D: %zu nodes (memset, memcpy), replay ok\n", n2);
    CHECK(cudaGraphExecDestroy(x2));
    CHECK(cudaGraphDestroy(g2));
    CHECK(cudaFree(img));
  }

  // Relaxed mode permits cudaMalloc during capture; thread-local forbids it.
  float *tmp;
  CHECK(cudaStreamBeginCapture(s2, cudaStreamCaptureModeRelaxed));
  CHECK(cudaMalloc(&tmp, 64));
  cudaGraph_t empty;
  CHECK(cudaStreamEndCapture(s2, &empty));
  CHECK(cudaGraphGetNodes(empty, nullptr, &num));
  EXPECT_TRUE(num == 0);
  CHECK(cudaStreamBeginCapture(s2, cudaStreamCaptureModeThreadLocal));
  EXPECT_ERR(cudaFree(tmp), cudaErrorStreamCaptureUnsupported);
  cudaGraph_t none = (cudaGraph_t)1;
  EXPECT_ERR(cudaStreamEndCapture(s2, &none), cudaErrorStreamCaptureInvalidated);
  EXPECT_TRUE(none == nullptr);
  // cudaThreadExchangeStreamCaptureMode(relaxed) lifts the prohibition.
  CHECK(cudaStreamBeginCapture(s2, cudaStreamCaptureModeGlobal));
  cudaStreamCaptureMode m = cudaStreamCaptureModeRelaxed;
  CHECK(cudaThreadExchangeStreamCaptureMode(&m));
  EXPECT_TRUE(m == cudaStreamCaptureModeGlobal);
  CHECK(cudaFree(tmp));
  CHECK(cudaThreadExchangeStreamCaptureMode(&m));
  CHECK(cudaStreamEndCapture(s2, &none));
  std::printf("modes ok\n");

  CHECK(cudaGraphExecDestroy(outerExec));
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(outer));
  CHECK(cudaGraphDestroy(empty));
  CHECK(cudaGraphDestroy(none));
  CHECK(cudaGraphDestroy(g));
  std::printf("PASS\n");
  return 0;
}
