// Graph coalescing must not fuse what is not independent and small, nor
// kernels of other block sizes: a graph built node by node with a chain
// A -> B (dependent: never in one wave), C with another block size, D
// that uses a __device__ variable (refused by the translator; a fused
// module would hold a copy of it), E whose grid fills the device,
// F, independent and small like A, and G after C. Wave 1 (the roots): A
// and F are fused; wave 2: B (after A) and G (after C) are independent of
// each other and fused. The results are checked each replay and identical
// with HETGPU_COALESCE=0.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu HETGPU_COALESCE=0 %t > %t.off
// RUN: rm -rf %t.cache
// RUN: env HETGPU_CACHE_DIR=%t.cache HETGPU_DEVICE=cpu HETGPU_COALESCE_MIN=2 HETGPU_LOG=info %t > %t.on 2> %t.log
// RUN: diff %t.off %t.on
// RUN: FileCheck %s < %t.on
// RUN: FileCheck --check-prefix=LOG %s < %t.log
// A warm start: the fusion and the refusal come from the JIT cache, no
// translator is loaded.
// RUN: env HETGPU_CACHE_DIR=%t.cache HETGPU_DEVICE=cpu HETGPU_COALESCE_MIN=2 HETGPU_LOG=info %t 2>&1 | FileCheck --check-prefix=WARM --implicit-check-not='loaded translator' %s
// WARM: graph coalescing: kernel node 'bump(int*, int)' not coalesced: fusing kernels: component 1 ('bump(int*, int)') is not fused: it uses device variable 'counter', which a fused module would hold a copy of (cached)
// WARM: graph coalescing: fused 2 kernel nodes
// WARM: PASS
// CHECK: replays ok
// CHECK-NEXT: PASS
// LOG: graph coalescing: kernel node 'fill(int*, int)' not coalesced: its grid of {{[0-9]+}} blocks fills the device
// LOG: graph coalescing: kernel node 'bump(int*, int)' not coalesced: fusing kernels: component 1 ('bump(int*, int)') is not fused: it uses device variable 'counter', which a fused module would hold a copy of
// LOG: graph coalescing: fused 2 kernel nodes (add(int*, int), add(int*, int)) into one launch of 2 blocks of 32x1x1 threads
// LOG: graph coalescing: kernel node 'add(int*, int)' not coalesced: no other small kernel node of its block size is independent of it
// LOG: graph coalescing: fused 2 kernel nodes (add(int*, int), add(int*, int)) into one launch of 2 blocks of 32x1x1 threads
// LOG-NOT: graph coalescing
#include "Inputs/check.h"
#include <vector>

__device__ int counter;

__global__ void add(int *a, int k) { a[blockIdx.x * blockDim.x + threadIdx.x] += k; }
__global__ void bump(int *a, int k) {
  atomicAdd(&counter, 1);
  a[threadIdx.x] += k;
}
__global__ void fill(int *a, int k) { a[blockIdx.x * blockDim.x + threadIdx.x] = k + blockIdx.x; }

cudaGraphNode_t addKernel(cudaGraph_t g, std::vector<cudaGraphNode_t> deps,
                          void *fn, dim3 grid, dim3 block, int *p, int k) {
  void *args[] = {&p, &k};
  cudaKernelNodeParams kp = {fn, grid, block, 0, args, nullptr};
  cudaGraphNode_t n;
  CHECK(cudaGraphAddKernelNode(&n, g, deps.data(), deps.size(), &kp));
  return n;
}

int main() {
  int Big;
  CHECK(cudaDeviceGetAttribute(&Big, cudaDevAttrMultiProcessorCount, 0));
  Big = Big * 64 + 64; // more blocks than the device runs at once
  int *a, *c, *d, *e, *f;
  CHECK(cudaMalloc(&a, 32 * 4));
  CHECK(cudaMalloc(&c, 64 * 4));
  CHECK(cudaMalloc(&d, 32 * 4));
  CHECK(cudaMalloc(&e, Big * 32 * 4));
  CHECK(cudaMalloc(&f, 32 * 4));
  CHECK(cudaMemset(a, 0, 32 * 4));
  CHECK(cudaMemset(c, 0, 64 * 4));
  CHECK(cudaMemset(d, 0, 32 * 4));
  CHECK(cudaMemset(f, 0, 32 * 4));
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphNode_t A = addKernel(g, {}, (void *)add, 1, 32, a, 1);
  addKernel(g, {A}, (void *)add, 1, 32, a, 10);                       // B
  cudaGraphNode_t C = addKernel(g, {}, (void *)add, 1, 64, c, 2);     // C
  addKernel(g, {}, (void *)bump, 1, 32, d, 3);                        // D
  addKernel(g, {}, (void *)fill, Big, 32, e, 4);                      // E
  addKernel(g, {}, (void *)add, 1, 32, f, 5);                         // F
  addKernel(g, {C}, (void *)add, 1, 32, f, 7);                        // G
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  bool ok = true;
  const int Reps = 4;
  for (int r = 1; r <= Reps; ++r) {
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    std::vector<int> ha(32), hc(64), hd(32), hf(32), he(Big * 32);
    CHECK(cudaMemcpy(ha.data(), a, 32 * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hc.data(), c, 64 * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hd.data(), d, 32 * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hf.data(), f, 32 * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(he.data(), e, Big * 32 * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; ++i)
      ok &= ha[i] == 11 * r && hd[i] == 3 * r && hf[i] == 12 * r;
    for (int i = 0; i < 64; ++i)
      ok &= hc[i] == 2 * r;
    for (int i = 0; i < Big * 32; ++i)
      ok &= he[i] == 4 + i / 32;
    int n;
    CHECK(cudaMemcpyFromSymbol(&n, counter, sizeof n));
    ok &= n == 32 * r;
  }
  std::printf("replays %s\n", ok ? "ok" : "WRONG");
  CHECK(cudaGraphExecDestroy(x));
  CHECK(cudaGraphDestroy(g));
  std::printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
