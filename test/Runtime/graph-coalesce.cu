// Coalescing at graph instantiation (issue 23, item 2): independent small
// kernel nodes of one block size, captured from five streams (fork/join
// through events), run as one fused launch. The kernels differ in code,
// arguments and shared memory (none, a static tile with barriers, dynamic
// shared memory on a 2D grid, a warp vote; one kernel twice with other
// arguments). Results are checked against the host after every replay and
// printed; they are bit-identical with HETGPU_COALESCE=0 and =1, and the
// log shows the fusion. A parameter update that keeps the geometry reaches
// the fused launch; one that changes a grid, or a disabled node, makes the
// group replay its nodes one by one; cudaGraphExecUpdate fuses again.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu HETGPU_COALESCE=0 %t > %t.off
// RUN: env HETGPU_DEVICE=cpu HETGPU_COALESCE_MIN=2 HETGPU_LOG=info %t > %t.on 2> %t.log
// RUN: diff %t.off %t.on
// RUN: FileCheck %s < %t.on
// RUN: FileCheck --check-prefix=LOG %s < %t.log
// RUN: env HETGPU_DEVICE=cpu HETGPU_COALESCE=0 HETGPU_LOG=info %t 2>&1 | FileCheck --check-prefix=OFF %s
// The per-device rule (API/GraphCoalesce.h minFusedKernels): on the CPU
// device a fused launch pays from 16 kernels, so these five replay one by
// one (the same output); other devices fuse from two.
// RUN: env HETGPU_DEVICE=cpu HETGPU_LOG=info %t 2> %t.rule.log > %t.rule
// RUN: diff %t.off %t.rule
// RUN: FileCheck --check-prefixes=RULE,RULE-%test_device --allow-unused-prefixes %s < %t.rule.log
// RULE: graph coalescing:
// RULE-cpu-SAME: 5 kernel nodes (addOne(int*, int), tileReverse(int*, int const*), dynGrid(float*, float), vote(unsigned int*), addOne(int*, int)) not coalesced: fewer than the 16 a fused launch pays for on {{.*}} (HETGPU_COALESCE_MIN)
// RULE-cpu-NOT: graph coalescing: fused
// RULE-opencl-SAME: fused 5 kernel nodes
// RULE-tt-sim-SAME: fused 5 kernel nodes
// Devices other than NVIDIA have no graphs of their own: replayed through
// the queue, said at debug level.
// RUN: env HETGPU_DEVICE=cpu HETGPU_LOG=debug %t 2>&1 >/dev/null | FileCheck --check-prefix=NODEVGRAPH %s
// NODEVGRAPH: graph: replayed through the device queue: {{.*}} has no device graphs
// CHECK: replay 0 ok
// CHECK: replay 2 ok
// CHECK: updated args ok
// CHECK: updated grid ok
// CHECK: exec update ok
// CHECK: disabled node ok
// CHECK: PASS
// LOG: graph coalescing: fused 5 kernel nodes (addOne(int*, int), tileReverse(int*, int const*), dynGrid(float*, float), vote(unsigned int*), addOne(int*, int)) into one launch of 11 blocks of 64x1x1 threads
// LOG: graph coalescing: the fused launch of ({{.*}}) replays its nodes one by one: node 'addOne(int*, int)' has another kernel or geometry now
// LOG: graph coalescing: fused 5 kernel nodes
// LOG: graph coalescing: the fused launch of ({{.*}}) replays its nodes one by one: node 'addOne(int*, int)' is disabled
// OFF-NOT: graph coalescing: fused
// OFF: PASS
#include "Inputs/check.h"
#include <cstring>
#include <vector>

__global__ void addOne(int *a, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] += k + (int)gridDim.x;
}

__global__ void tileReverse(int *out, const int *in) {
  __shared__ int tile[64];
  int base = blockIdx.x * 64;
  tile[threadIdx.x] = in[base + threadIdx.x];
  __syncthreads();
  out[base + threadIdx.x] = tile[63 - threadIdx.x] * 2 + blockIdx.x;
}

__global__ void dynGrid(float *out, float s) {
  extern __shared__ float buf[];
  int b = blockIdx.y * gridDim.x + blockIdx.x;
  buf[threadIdx.x] = s * (float)(b + 1) + (float)threadIdx.x;
  __syncthreads();
  out[b * 64 + threadIdx.x] = buf[(threadIdx.x + 1) % 64] + (float)gridDim.y;
}

__global__ void vote(unsigned *out) {
  unsigned m = __ballot_sync(0xffffffffu, (threadIdx.x % 3) == 0);
  if (threadIdx.x % 32 == 0)
    out[blockIdx.x * 2 + threadIdx.x / 32] = m ^ blockIdx.x;
}

struct Bufs {
  int *a, *b, *in, *tout;
  float *d;
  unsigned *v;
};

bool check(const Bufs &B, int reps, int kA, int kB, int gridB, const char *what) {
  std::vector<int> a(64), b(128), t(128);
  std::vector<float> d(4 * 64);
  std::vector<unsigned> v(4);
  CHECK(cudaMemcpy(a.data(), B.a, 64 * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(b.data(), B.b, 128 * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(t.data(), B.tout, 128 * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(d.data(), B.d, 4 * 64 * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(v.data(), B.v, 4 * 4, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < 64; ++i)
    ok &= a[i] == i + reps * (kA + 1);
  for (int i = 0; i < 128; ++i)
    ok &= b[i] == (i < gridB * 64 ? 1000 + i + reps * (kB + gridB) : 1000 + i);
  for (int blk = 0; blk < 2; ++blk)
    for (int x = 0; x < 64; ++x)
      ok &= t[blk * 64 + x] == (blk * 64 + 63 - x) * 2 + blk;
  for (int blk = 0; blk < 4; ++blk)
    for (int x = 0; x < 64; ++x)
      ok &= d[blk * 64 + x] == 0.5f * (blk + 1) + (float)((x + 1) % 64) + 2.0f;
  for (int blk = 0; blk < 2; ++blk)
    for (int w = 0; w < 2; ++w) {
      unsigned m = 0;
      for (int l = 0; l < 32; ++l)
        m |= ((w * 32 + l) % 3 == 0 ? 1u : 0u) << l;
      ok &= v[blk * 2 + w] == (m ^ (unsigned)blk);
    }
  // Every output, so runs with and without coalescing can be compared.
  unsigned long long h = 1469598103934665603ull;
  auto mix = [&](const void *p, size_t n) {
    for (size_t i = 0; i < n; ++i)
      h = (h ^ static_cast<const unsigned char *>(p)[i]) * 1099511628211ull;
  };
  mix(a.data(), 256), mix(b.data(), 512), mix(t.data(), 512);
  mix(d.data(), 1024), mix(v.data(), 16);
  std::printf("%s %s hash %016llx\n", what, ok ? "ok" : "WRONG", h);
  return ok;
}

/// The group, captured from five streams forked from and joined into s[0].
cudaGraph_t capture(cudaStream_t *s, cudaEvent_t fork, cudaEvent_t *joined,
                    const Bufs &B, int kB) {
  CHECK(cudaStreamBeginCapture(s[0], cudaStreamCaptureModeGlobal));
  CHECK(cudaEventRecord(fork, s[0]));
  for (int i = 1; i < 5; ++i)
    CHECK(cudaStreamWaitEvent(s[i], fork, 0));
  addOne<<<1, 64, 0, s[0]>>>(B.a, 1);
  tileReverse<<<2, 64, 0, s[1]>>>(B.tout, B.in);
  dynGrid<<<dim3(2, 2), 64, 64 * sizeof(float), s[2]>>>(B.d, 0.5f);
  vote<<<2, 64, 0, s[3]>>>(B.v);
  addOne<<<2, 64, 0, s[4]>>>(B.b, kB);
  for (int i = 1; i < 5; ++i) {
    CHECK(cudaEventRecord(joined[i - 1], s[i]));
    CHECK(cudaStreamWaitEvent(s[0], joined[i - 1], 0));
  }
  cudaGraph_t g;
  CHECK(cudaStreamEndCapture(s[0], &g));
  return g;
}

std::vector<int> fetch(const int *p, int n) {
  std::vector<int> h(n);
  CHECK(cudaMemcpy(h.data(), p, n * 4, cudaMemcpyDeviceToHost));
  return h;
}

int main() {
  Bufs B;
  CHECK(cudaMalloc(&B.a, 64 * 4));
  CHECK(cudaMalloc(&B.b, 128 * 4));
  CHECK(cudaMalloc(&B.in, 128 * 4));
  CHECK(cudaMalloc(&B.tout, 128 * 4));
  CHECK(cudaMalloc(&B.d, 4 * 64 * 4));
  CHECK(cudaMalloc(&B.v, 4 * 4));
  std::vector<int> init(128);
  for (int i = 0; i < 128; ++i)
    init[i] = i;
  CHECK(cudaMemcpy(B.a, init.data(), 64 * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(B.in, init.data(), 128 * 4, cudaMemcpyHostToDevice));
  for (int i = 0; i < 128; ++i)
    init[i] = 1000 + i;
  CHECK(cudaMemcpy(B.b, init.data(), 128 * 4, cudaMemcpyHostToDevice));

  cudaStream_t s[5];
  cudaEvent_t fork, joined[4];
  for (auto &x : s)
    CHECK(cudaStreamCreateWithFlags(&x, cudaStreamNonBlocking));
  CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  for (auto &e : joined)
    CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  cudaGraph_t g = capture(s, fork, joined, B, 3);
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0));
  bool ok = true;
  int reps = 0;
  for (int r = 0; r < 3; ++r) {
    CHECK(cudaGraphLaunch(x, s[0]));
    CHECK(cudaStreamSynchronize(s[0]));
    ++reps;
    char what[32];
    std::snprintf(what, sizeof what, "replay %d", r);
    ok &= check(B, reps, 1, 3, 2, what);
  }

  // The second addOne node (B.b): new arguments, same geometry.
  size_t n = 0;
  CHECK(cudaGraphGetNodes(g, nullptr, &n));
  std::vector<cudaGraphNode_t> nodes(n);
  CHECK(cudaGraphGetNodes(g, nodes.data(), &n));
  cudaGraphNode_t bNode = nullptr;
  for (cudaGraphNode_t nd : nodes) {
    cudaGraphNodeType t;
    CHECK(cudaGraphNodeGetType(nd, &t));
    if (t != cudaGraphNodeTypeKernel)
      continue;
    cudaKernelNodeParams p;
    CHECK(cudaGraphKernelNodeGetParams(nd, &p));
    if (p.func == (void *)addOne && p.gridDim.x == 2)
      bNode = nd;
  }
  EXPECT_TRUE(bNode);
  // Undo the b and a updates so far, to compare from a known state.
  int kB = 5;
  void *args[] = {&B.b, &kB};
  cudaKernelNodeParams p = {(void *)addOne, dim3(2), dim3(64), 0, args, nullptr};
  CHECK(cudaGraphExecKernelNodeSetParams(x, bNode, &p));
  std::vector<int> before(128);
  CHECK(cudaMemcpy(before.data(), B.b, 128 * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaGraphLaunch(x, s[0]));
  CHECK(cudaStreamSynchronize(s[0]));
  std::vector<int> after(128);
  CHECK(cudaMemcpy(after.data(), B.b, 128 * 4, cudaMemcpyDeviceToHost));
  bool upd = true;
  for (int i = 0; i < 128; ++i)
    upd &= after[i] - before[i] == 5 + 2;
  std::printf("updated args %s\n", upd ? "ok" : "WRONG");
  ok &= upd;

  // A grid of one block now: the group replays its nodes one by one.
  p.gridDim = dim3(1);
  CHECK(cudaGraphExecKernelNodeSetParams(x, bNode, &p));
  CHECK(cudaGraphLaunch(x, s[0]));
  CHECK(cudaStreamSynchronize(s[0]));
  std::vector<int> last(128);
  CHECK(cudaMemcpy(last.data(), B.b, 128 * 4, cudaMemcpyDeviceToHost));
  bool grid = true;
  for (int i = 0; i < 128; ++i)
    grid &= last[i] - after[i] == (i < 64 ? 5 + 1 : 0);
  std::printf("updated grid %s\n", grid ? "ok" : "WRONG");
  ok &= grid;

  // cudaGraphExecUpdate from a new capture (b's grid 2 again, k 9): the
  // group is planned and fused again.
  cudaGraph_t g2 = capture(s, fork, joined, B, 9);
  cudaGraphExecUpdateResultInfo info;
  CHECK(cudaGraphExecUpdate(x, g2, &info));
  std::vector<int> a0 = fetch(B.a, 64), b0 = fetch(B.b, 128);
  CHECK(cudaGraphLaunch(x, s[0]));
  CHECK(cudaStreamSynchronize(s[0]));
  std::vector<int> a1 = fetch(B.a, 64), b1 = fetch(B.b, 128);
  bool up = true;
  for (int i = 0; i < 128; ++i)
    up &= b1[i] - b0[i] == 9 + 2 && (i >= 64 || a1[i] - a0[i] == 2);
  std::printf("exec update %s\n", up ? "ok" : "WRONG");
  ok &= up;

  // A disabled member: the group replays its other nodes one by one.
  cudaGraphNode_t aNode = nullptr;
  for (cudaGraphNode_t nd : nodes) {
    cudaKernelNodeParams q;
    cudaGraphNodeType t;
    CHECK(cudaGraphNodeGetType(nd, &t));
    if (t == cudaGraphNodeTypeKernel &&
        cudaGraphKernelNodeGetParams(nd, &q) == cudaSuccess &&
        q.func == (void *)addOne && q.gridDim.x == 1)
      aNode = nd;
  }
  EXPECT_TRUE(aNode);
  CHECK(cudaGraphNodeSetEnabled(x, aNode, 0));
  CHECK(cudaGraphLaunch(x, s[0]));
  CHECK(cudaStreamSynchronize(s[0]));
  std::vector<int> a2 = fetch(B.a, 64), b2 = fetch(B.b, 128);
  bool dis = true;
  for (int i = 0; i < 128; ++i)
    dis &= b2[i] - b1[i] == 9 + 2 && (i >= 64 || a2[i] == a1[i]);
  std::printf("disabled node %s\n", dis ? "ok" : "WRONG");
  ok &= dis;

  CHECK(cudaGraphExecDestroy(x));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaGraphDestroy(g2));
  std::printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
