// One file built with -rdc=true and linked by hetgpu-cc: the relocatable
// pipeline (device functions kept external, no state layout in the object)
// and the device link (hetgpu-finalize-link: internalize, inline the barrier
// helper, lay out the state) on a kernel with static and dynamic shared
// memory, a barrier helper, a template kernel and a __constant__ table. As a
// single-file program it is part of utils/run-e2e-suite.py, so it runs on
// every device of the end-to-end suites.
// REQUIRES: built-target-host
// RUN: hetgpu-cc -rdc=true %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// CHECK: scan ok
// CHECK-NEXT: scale ok
// CHECK-NEXT: PASS
#include <cstdio>

__constant__ int weights[4] = {1, 2, 3, 4};

__device__ int block_scan(int v) { // inclusive scan over the block
  extern __shared__ int buf[];
  buf[threadIdx.x] = v;
  __syncthreads();
  for (unsigned d = 1; d < blockDim.x; d *= 2) {
    int add = threadIdx.x >= d ? buf[threadIdx.x - d] : 0;
    __syncthreads();
    buf[threadIdx.x] += add;
    __syncthreads();
  }
  return buf[threadIdx.x];
}

__global__ void scan(const int *in, int *out) {
  __shared__ int tag[1];
  if (threadIdx.x == 0)
    tag[0] = 7;
  int s = block_scan(in[threadIdx.x] * weights[threadIdx.x % 4]);
  out[threadIdx.x] = s + tag[0] - 7;
}

template <typename T> __global__ void scale(T *p, T f) { p[threadIdx.x] *= f; }

int main() {
  const int N = 64;
  int *in, *out;
  cudaMallocManaged(&in, N * sizeof(int));
  cudaMallocManaged(&out, N * sizeof(int));
  for (int i = 0; i < N; ++i)
    in[i] = i % 5;
  scan<<<1, N, N * sizeof(int)>>>(in, out);
  cudaError_t e = cudaDeviceSynchronize();
  int want = 0;
  bool ok = e == cudaSuccess;
  for (int i = 0; i < N; ++i) {
    want += in[i] * (1 + i % 4);
    ok = ok && out[i] == want;
  }
  printf("scan %s\n", ok ? "ok" : "WRONG");
  scale<<<1, N>>>(out, 2);
  e = cudaDeviceSynchronize();
  ok = e == cudaSuccess && out[N - 1] == 2 * want;
  printf("scale %s\n", ok ? "ok" : "WRONG");
  printf(e == cudaSuccess ? "PASS\n" : "FAIL\n");
  return 0;
}
