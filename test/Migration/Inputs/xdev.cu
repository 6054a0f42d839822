// test/Migration/Inputs/xdev.cu - the cross-device migration program
// (test/Migration/migrate-ttsim.test, bench/migration/run-gpu.sh): barriers
// in loops, static and dynamic shared memory, warp shuffles, atomics and
// linked lists of device pointers, all in integers so the output is
// bit-identical on every device.
// SPDX-License-Identifier: Apache-2.0
#include "lists.cuh"
#include <cstdio>

// Barriers in a loop, shared memory, warp shuffles, atomics.
__global__ void reduce(const unsigned *in, unsigned long long *out, int rounds) {
  __shared__ unsigned s[128];
  unsigned t = threadIdx.x;
  unsigned long long acc = 0;
  for (int r = 0; r < rounds; ++r) {
    s[t] = in[(blockIdx.x * 128 + t + r * 7) % (gridDim.x * 128)] + r;
    __syncthreads();
    unsigned v = s[t] + s[(t + 64) % 128];
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_xor_sync(0xffffffffu, v, o);
    __syncthreads();
    acc += v;
  }
  atomicAdd(out, acc);
}

// Dynamic shared memory (integers: bit-identical on every device).
__global__ void stencil(int *data, int iters) {
  extern __shared__ int buf[];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  for (int i = 0; i < iters; ++i) {
    buf[t] = data[g];
    __syncthreads();
    int l = buf[(t + blockDim.x - 1) % blockDim.x];
    int r = buf[(t + 1) % blockDim.x];
    __syncthreads();
    data[g] = (l + r + 2 * data[g] + i) & 0xffffff;
  }
}

int main() {
  const int B = 32, R = 100;
  unsigned *in;
  unsigned long long *out;
  cudaMallocManaged(&in, B * 128 * sizeof(unsigned));
  cudaMallocManaged(&out, sizeof(unsigned long long));
  for (int i = 0; i < B * 128; ++i)
    in[i] = (i * 2654435761u) >> 20;
  *out = 0;
  reduce<<<B, 128>>>(in, out, R);
  cudaDeviceSynchronize();
  printf("reduce %llu\n", *out);

  const int NB = 8, NT = 128, N = NB * NT, L = 64, S = 200;
  int *sums;
  Node **heads = makeLists(N, L, &sums);
  chase<<<NB, NT>>>(heads, sums, S);
  cudaDeviceSynchronize();
  reportChase(sums, N);

  int *data;
  cudaMallocManaged(&data, 16 * 64 * sizeof(int));
  for (int i = 0; i < 16 * 64; ++i)
    data[i] = i % 17;
  stencil<<<16, 64, 64 * sizeof(int)>>>(data, 300);
  cudaError_t e = cudaDeviceSynchronize();
  long long cs = 0;
  for (int i = 0; i < 16 * 64; ++i)
    cs += (long long)data[i] * (i % 5 + 1);
  printf("stencil %s %lld\n", e == cudaSuccess ? "ok" : cudaGetErrorString(e), cs);
  return 0;
}
