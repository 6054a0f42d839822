// Shared-memory indices that wrap at 32 bits, as on NVIDIA GPUs: `p[~i]`
// with an unsigned i is 2^32 - i - 1 elements ahead in C++, which NVIDIA's
// 32-bit shared window turns into i + 1 elements behind (a binary search
// over a window in shared memory written so; HeCBench merge has one).
// hetgpu-wrap-shared-addresses gives other devices the same window.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// RUN: %if pocl %{ env HETGPU_DEVICE=opencl %t | FileCheck %s %}
// CHECK: mirror: ok
#include <cstdint>
#include <cstdio>

constexpr uint32_t N = 256;

__global__ void mirror(const int *in, int *out) {
  __shared__ int tile[2 * N];
  uint32_t t = threadIdx.x;
  tile[t] = in[t];
  tile[N + t] = -in[t];
  __syncthreads();
  // Element N - 1 - t, reached from the middle of the tile by a wrapped
  // index: end[~t] is end[-(t + 1)].
  int *end = tile + N;
  out[t] = end[~t];
}

int main() {
  int h[N], *din, *dout;
  for (uint32_t i = 0; i < N; ++i)
    h[i] = int(i * 7 + 3);
  cudaMalloc(&din, sizeof h);
  cudaMalloc(&dout, sizeof h);
  cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
  mirror<<<1, N>>>(din, dout);
  cudaError_t e = cudaDeviceSynchronize();
  int got[N];
  cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost);
  for (uint32_t i = 0; i < N; ++i)
    if (e != cudaSuccess || got[i] != h[N - 1 - i]) {
      std::printf("mirror: element %u is %d, want %d (%s)\n", i, got[i],
                  h[N - 1 - i], cudaGetErrorString(e));
      return 1;
    }
  std::printf("mirror: ok\n");
  return 0;
}
