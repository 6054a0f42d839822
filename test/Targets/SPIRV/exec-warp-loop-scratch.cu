// A warp-loop kernel (a shuffle that only half of each warp reaches) whose
// threads keep a 4 KiB array live across __syncthreads: 128 KiB of state
// per warp, 1 MiB per block of 256 threads, more than PoCL's local memory.
// The OpenCL backend puts the warps' states in a scratch area in device
// memory with fewer slots than blocks (ABI/SPIRVKernel.h), so blocks wait
// for and reuse slots; every block's result is checked against the host.
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=opencl %t | FileCheck %s
// REQUIRES: pocl, llvm-spirv
// CHECK: blocks 96 threads 256: ok
#include <cstdio>
#include <vector>

constexpr int Words = 1024;
constexpr int Threads = 256;
constexpr int Blocks = 96;

__host__ __device__ int mix(int Block, int Thread, int I) {
  return (Block * 7919 + Thread * 131 + I * 17) & 1023;
}

__global__ void keep(int *out) {
  int state[Words];
  __shared__ int round;
  for (int i = 0; i < Words; ++i)
    state[i] = mix(blockIdx.x, threadIdx.x, i);
  int acc = 0;
  for (int r = 0; r < 2; ++r) {
    if (threadIdx.x == 0)
      round = r + 1;
    __syncthreads();
    for (int i = 0; i < Words; i += 97)
      acc += state[(i + round) % Words];
    __syncthreads();
  }
  int lane = threadIdx.x % 32;
  if (lane < 16)
    acc += __shfl_xor_sync(0x0000ffffu, acc, 1);
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

int main() {
  int *d = nullptr;
  size_t n = size_t(Blocks) * Threads;
  if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess)
    return 1;
  keep<<<Blocks, Threads>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("launch failed: %s\n", cudaGetErrorString(e));
    return 1;
  }
  std::vector<int> got(n);
  cudaMemcpy(got.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost);
  std::vector<int> own(Threads);
  for (int b = 0; b < Blocks; ++b) {
    for (int t = 0; t < Threads; ++t) {
      int acc = 0;
      for (int r = 0; r < 2; ++r)
        for (int i = 0; i < Words; i += 97)
          acc += mix(b, t, (i + r + 1) % Words);
      own[t] = acc;
    }
    for (int t = 0; t < Threads; ++t) {
      int want = own[t] + ((t % 32) < 16 ? own[t ^ 1] : 0);
      if (got[size_t(b) * Threads + t] != want) {
        std::printf("block %d thread %d: %d, want %d\n", b, t,
                    got[size_t(b) * Threads + t], want);
        return 1;
      }
    }
  }
  std::printf("blocks %d threads %d: ok\n", Blocks, Threads);
  return 0;
}
