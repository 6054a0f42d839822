// Graph coalescing of kernels of different block sizes: @tile (32x4
// threads, a barrier, shared memory) is fused with @lin (16 threads) and
// @plane (8x2 threads), which have no barriers or warp operations and run
// in the 32x4 block with the threads past their own block idle; @synced
// (24 threads, a barrier) may not run so and replays alone. Four streams of
// a capture; results checked on the host and identical with
// HETGPU_COALESCE=0.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu HETGPU_COALESCE=0 %t > %t.off
// RUN: env HETGPU_DEVICE=cpu HETGPU_COALESCE_MIN=2 HETGPU_LOG=info %t > %t.on 2> %t.log
// RUN: diff %t.off %t.on
// RUN: FileCheck %s < %t.on
// RUN: FileCheck --check-prefix=LOG %s < %t.log
// CHECK: results ok
// CHECK-NEXT: PASS
// LOG: graph coalescing: fused 3 kernel nodes (tile(int*), lin(int*), plane(int*)) into one launch of 7 blocks of 32x4x1 threads
// LOG: graph coalescing: kernel node 'synced(int*)' not coalesced: no other small kernel node of its block size is independent of it
#include "Inputs/check.h"
#include <vector>

__global__ void tile(int *o) {
  __shared__ int s[4][32];
  s[threadIdx.y][threadIdx.x] = threadIdx.x + 100 * threadIdx.y;
  __syncthreads();
  int t = threadIdx.y * 32 + threadIdx.x;
  o[blockIdx.x * 128 + t] = s[3 - threadIdx.y][31 - threadIdx.x] + blockDim.y;
}
__global__ void lin(int *o) {
  o[blockIdx.x * blockDim.x + threadIdx.x] = 1000 + blockDim.x * 10 + gridDim.x;
}
__global__ void plane(int *o) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  o[blockIdx.x * 16 + t] = blockDim.y * 7 + threadIdx.y + blockIdx.x * 3;
}
__global__ void synced(int *o) {
  __shared__ int s[24];
  s[threadIdx.x] = threadIdx.x * 2;
  __syncthreads();
  o[threadIdx.x] = s[23 - threadIdx.x];
}

int main() {
  int *a, *b, *c, *d;
  CHECK(cudaMalloc(&a, 256 * 4));
  CHECK(cudaMalloc(&b, 48 * 4));
  CHECK(cudaMalloc(&c, 32 * 4));
  CHECK(cudaMalloc(&d, 24 * 4));
  cudaStream_t s[4];
  cudaEvent_t fork, join[3];
  for (auto &x : s)
    CHECK(cudaStreamCreateWithFlags(&x, cudaStreamNonBlocking));
  CHECK(cudaEventCreate(&fork));
  for (auto &e : join)
    CHECK(cudaEventCreate(&e));
  CHECK(cudaStreamBeginCapture(s[0], cudaStreamCaptureModeGlobal));
  CHECK(cudaEventRecord(fork, s[0]));
  for (int i = 1; i < 4; ++i)
    CHECK(cudaStreamWaitEvent(s[i], fork, 0));
  tile<<<2, dim3(32, 4), 0, s[0]>>>(a);
  lin<<<3, 16, 0, s[1]>>>(b);
  plane<<<2, dim3(8, 2), 0, s[2]>>>(c);
  synced<<<1, 24, 0, s[3]>>>(d);
  for (int i = 1; i < 4; ++i) {
    CHECK(cudaEventRecord(join[i - 1], s[i]));
    CHECK(cudaStreamWaitEvent(s[0], join[i - 1], 0));
  }
  cudaGraph_t g;
  CHECK(cudaStreamEndCapture(s[0], &g));
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0));
  bool ok = true;
  for (int r = 0; r < 2; ++r) {
    CHECK(cudaMemset(a, 0xff, 256 * 4));
    CHECK(cudaMemset(b, 0xff, 48 * 4));
    CHECK(cudaMemset(c, 0xff, 32 * 4));
    CHECK(cudaMemset(d, 0xff, 24 * 4));
    CHECK(cudaGraphLaunch(x, s[0]));
    CHECK(cudaStreamSynchronize(s[0]));
    std::vector<int> ha(256), hb(48), hc(32), hd(24);
    CHECK(cudaMemcpy(ha.data(), a, 256 * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hb.data(), b, 48 * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hc.data(), c, 32 * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hd.data(), d, 24 * 4, cudaMemcpyDeviceToHost));
    for (int blk = 0; blk < 2; ++blk)
      for (int y = 0; y < 4; ++y)
        for (int t = 0; t < 32; ++t)
          ok &= ha[blk * 128 + y * 32 + t] == (31 - t) + 100 * (3 - y) + 4;
    for (int i = 0; i < 48; ++i)
      ok &= hb[i] == 1000 + 160 + 3;
    for (int blk = 0; blk < 2; ++blk)
      for (int t = 0; t < 16; ++t)
        ok &= hc[blk * 16 + t] == 14 + t / 8 + blk * 3;
    for (int i = 0; i < 24; ++i)
      ok &= hd[i] == (23 - i) * 2;
  }
  std::printf("results %s\n", ok ? "ok" : "WRONG");
  CHECK(cudaGraphExecDestroy(x));
  CHECK(cudaGraphDestroy(g));
  std::printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
