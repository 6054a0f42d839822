// Pre-CUDA-9 warp-synchronous code (HeCBench split's scanwarp, the last
// steps of classic tree reductions): lanes of a warp exchange values through
// `volatile` shared memory with no __syncwarp, relying on lockstep
// execution. The CPU thread loop must run each such access for all lanes of
// the warp before the next one.
// RUN: rm -rf %t && mkdir -p %t
// RUN: hetgpu-cc %s -o %t/scan
// RUN: env HETGPU_DEVICE=cpu %t/scan | FileCheck %s
// Each lane i of a warp holds i + 1: the exclusive scan is i * (i + 1) / 2;
// the warp totals are then scanned by warp 0 alone (the other warps never
// reach that code, and must not be waited for).
// CHECK: lane 0: 0 lane 1: 1 lane 5: 15 lane 31: 496
// CHECK: warp 1 lane 2: 3
// CHECK: offsets 0 528 1056 1584
// CHECK: block 1 total 2112
// CHECK: scan ok
#include <cstdio>

__device__ unsigned warpScan(unsigned v, volatile unsigned *s, int levels) {
  int lane = threadIdx.x & 31;
  int idx = 2 * threadIdx.x - lane; // 64 slots per warp: 32 zeros, 32 values
  s[idx] = 0;
  idx += 32;
  s[idx] = v;
  for (int l = 0; l < levels; ++l)
    s[idx] += s[idx - (1 << l)];
  return s[idx] - v;
}

__global__ void scan(unsigned *out, unsigned *offsets) {
  __shared__ unsigned s[2 * 128];
  __shared__ unsigned totals[4];
  unsigned v = (threadIdx.x & 31) + 1;
  unsigned ex = warpScan(v, s, 5);
  if ((threadIdx.x & 31) == 31)
    totals[threadIdx.x >> 5] = ex + v;
  __syncthreads();
  if (threadIdx.x < 4)
    offsets[4 * blockIdx.x + threadIdx.x] = warpScan(totals[threadIdx.x], s, 2);
  out[blockIdx.x * blockDim.x + threadIdx.x] = ex;
}

int main() {
  unsigned *out, *off;
  cudaMallocManaged(&out, 256 * sizeof(unsigned));
  cudaMallocManaged(&off, 8 * sizeof(unsigned));
  scan<<<2, 128>>>(out, off);
  cudaDeviceSynchronize();
  std::printf("lane 0: %u lane 1: %u lane 5: %u lane 31: %u\n", out[0], out[1],
              out[5], out[31]);
  std::printf("warp 1 lane 2: %u\n", out[34]);
  std::printf("offsets %u %u %u %u\n", off[0], off[1], off[2], off[3]);
  std::printf("block 1 total %u\n", off[7] + 528);
  bool ok = true;
  for (int i = 0; i < 256; ++i)
    ok &= out[i] == (i & 31) * ((i & 31) + 1) / 2;
  for (int i = 0; i < 8; ++i)
    ok &= off[i] == 528u * (i & 3);
  std::printf(ok ? "scan ok\n" : "scan WRONG\n");
  return 0;
}
