// End to end through hetgpu-cc and the runtime's CPU device: a vector add
// (thread loop), a shared-memory block reduction finished with warp
// shuffles, and a histogram with atomics, each checked against the host.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// CHECK: vecadd ok
// CHECK-NEXT: reduce ok 32769423996
// CHECK-NEXT: histogram ok
#include <cstdio>
#include <cstdlib>

#define N (1 << 16)

__global__ void vecAdd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

__global__ void reduce(const unsigned *in, unsigned long long *out) {
  __shared__ unsigned s[256];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (unsigned k = 128; k >= 32; k >>= 1) {
    if (t < k)
      s[t] += s[t + k];
    __syncthreads();
  }
  if (t < 32) {
    unsigned v = s[t];
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffff, v, o);
    if (t == 0)
      atomicAdd(out, (unsigned long long)v);
  }
}

__global__ void histogram(const unsigned *in, unsigned *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[in[i] % 64], 1u);
}

int main() {
  float *a, *b, *c;
  unsigned *u, *bins;
  unsigned long long *sum;
  cudaMallocManaged(&a, N * sizeof(float));
  cudaMallocManaged(&b, N * sizeof(float));
  cudaMallocManaged(&c, N * sizeof(float));
  cudaMallocManaged(&u, N * sizeof(unsigned));
  cudaMallocManaged(&bins, 64 * sizeof(unsigned));
  cudaMallocManaged(&sum, sizeof(unsigned long long));
  for (int i = 0; i < N; ++i) {
    a[i] = i * 0.5f;
    b[i] = 3.0f - i;
    u[i] = (unsigned)i * 2654435761u % 1000003u;
  }
  for (int i = 0; i < 64; ++i)
    bins[i] = 0;
  *sum = 0;
  vecAdd<<<(N + 127) / 128, 128>>>(a, b, c, N);
  reduce<<<N / 256, 256>>>(u, sum);
  histogram<<<N / 512, 512>>>(u, bins, N);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("launch failed\n");
    return 1;
  }
  bool ok = true;
  for (int i = 0; i < N; ++i)
    ok &= c[i] == a[i] + b[i];
  std::printf("vecadd %s\n", ok ? "ok" : "WRONG");
  unsigned long long ref = 0;
  unsigned refBins[64] = {};
  for (int i = 0; i < N; ++i) {
    ref += u[i];
    refBins[u[i] % 64]++;
  }
  std::printf("reduce %s %llu\n", *sum == ref ? "ok" : "WRONG", *sum);
  ok = true;
  for (int i = 0; i < 64; ++i)
    ok &= bins[i] == refBins[i];
  std::printf("histogram %s\n", ok ? "ok" : "WRONG");
  return 0;
}
