// Block reduction with warp shuffles (emulated exactly on PoCL, which has
// no sub-groups), shared memory, __syncthreads_count, dynamic shared
// memory and float atomics.
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=opencl %t | FileCheck %s
// REQUIRES: pocl, llvm-spirv
#include <cstdio>

__device__ float warpSum(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

__global__ void reduce(const float *in, float *out, int *evens, int n) {
  extern __shared__ float partial[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  v = warpSum(v);
  if ((threadIdx.x & 31) == 0)
    partial[threadIdx.x / 32] = v;
  int e = __syncthreads_count(i < n && (in[i] == 2.0f));
  if (threadIdx.x == 0) {
    float s = 0;
    for (int w = 0; w < blockDim.x / 32; ++w)
      s += partial[w];
    atomicAdd(out, s);
    atomicAdd(evens, e);
  }
}

__global__ void ballots(unsigned *out) {
  unsigned b = __ballot_sync(0xffffffffu, threadIdx.x % 3 == 0);
  int x = __shfl_xor_sync(0xffffffffu, (int)threadIdx.x, 1);
  int up = __shfl_up_sync(0xffffffffu, (int)threadIdx.x, 2, 16);
  out[threadIdx.x] = b ^ (unsigned)x ^ ((unsigned)up << 8) ^ (__all_sync(0xffffffffu, threadIdx.x < 40) << 20);
}

int main() {
  const int n = 5000;
  static float h[n];
  float expect = 0;
  for (int i = 0; i < n; ++i) {
    h[i] = (i % 7 == 0) ? 2.0f : 1.0f;
    expect += h[i];
  }
  float *in, *out;
  int *ev;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, 4);
  cudaMalloc(&ev, 4);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(out, 0, 4);
  cudaMemset(ev, 0, 4);
  reduce<<<(n + 255) / 256, 256, 8 * sizeof(float)>>>(in, out, ev, n);
  float r = 0;
  int e = 0;
  cudaMemcpy(&r, out, 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(&e, ev, 4, cudaMemcpyDeviceToHost);
  // CHECK: sum 5715 expect 5715 sevens 715
  printf("sum %.0f expect %.0f sevens %d\n", r, expect, e);

  unsigned *o;
  cudaMalloc(&o, 64 * 4);
  ballots<<<1, 64>>>(o);
  unsigned ho[64];
  cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (unsigned t = 0; t < 64; ++t) {
    unsigned b = 0;
    for (unsigned l = 0; l < 32; ++l)
      if (((t & ~31u) + l) % 3 == 0)
        b |= 1u << l;
    unsigned lane16 = t % 16;
    unsigned up = lane16 >= 2 ? t - 2 : t;
    unsigned all = t < 32 ? 1 : 0;
    if (ho[t] != (b ^ (t ^ 1) ^ (up << 8) ^ (all << 20)))
      ++bad;
  }
  // CHECK-NEXT: warp ops bad 0
  printf("warp ops bad %d\n", bad);
  return 0;
}
