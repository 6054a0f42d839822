// CUB 1.17's warp reduction and scan (shfl.sync with predicate outputs in
// scoped asm blocks), ThreadLoad<LOAD_CG> (ld.global.cg) and LaneId/WarpId
// (%laneid, %warpid) through hetgpu-cc on the CPU device. Without the CUB
// headers (libcub-dev) the kernel is not built and the test says so.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// CHECK: cub {{ok sum 1520|not installed}}
#include <cstdio>
#if __has_include(<cub/warp/warp_reduce.cuh>)
#define HAVE_CUB 1
#include <cub/thread/thread_load.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>

__global__ void k(int *in, int *out) {
  typedef cub::WarpReduce<int> WR;
  typedef cub::WarpScan<int> WS;
  __shared__ typename WR::TempStorage t;
  __shared__ typename WS::TempStorage s;
  int v = cub::ThreadLoad<cub::LOAD_CG>(in + threadIdx.x);
  int r = WR(t).Sum(v);
  int p;
  WS(s).InclusiveSum(v, p);
  out[threadIdx.x] = p;
  if (threadIdx.x == 0)
    out[32] = r;
  out[33 + threadIdx.x] = cub::LaneId() + 100 * cub::WarpId();
}
#endif

int main() {
#ifdef HAVE_CUB
  int h[32], *d, *o, ho[65];
  for (int i = 0; i < 32; ++i)
    h[i] = i * 3 + 1;
  cudaMalloc(&d, 128);
  cudaMalloc(&o, 65 * 4);
  cudaMemcpy(d, h, 128, cudaMemcpyHostToDevice);
  k<<<1, 32>>>(d, o);
  cudaMemcpy(ho, o, 65 * 4, cudaMemcpyDeviceToHost);
  int ok = 1, acc = 0;
  for (int i = 0; i < 32; ++i) {
    acc += h[i];
    ok &= ho[i] == acc;
    ok &= ho[33 + i] == i;
  }
  ok &= ho[32] == acc;
  printf("cub %s sum %d\n", ok ? "ok" : "FAILED", ho[32]);
  return !ok;
#else
  printf("cub not installed\n");
  return 0;
#endif
}
