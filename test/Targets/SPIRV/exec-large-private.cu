// A large private array live across __syncthreads (a 32 KiB table per
// thread, 256 threads per block, as HeCBench fsm has): PoCL keeps one copy
// per work-item on its worker thread's stack (8 MiB here, the default stack
// size): the OpenCL backend gives threads it makes the driver start a
// larger stack (HETGPU_OPENCL_THREAD_STACK_MB, default 256).
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=opencl %t | FileCheck %s
// REQUIRES: pocl, llvm-spirv
#include <cstdio>

constexpr int Table = 32768;

__global__ void table(const unsigned char *data, int *out) {
  unsigned char state[Table];
  __shared__ int round;
  for (int i = 0; i < Table; ++i)
    state[i] = (unsigned char)(threadIdx.x + i);
  int acc = 0;
  for (int r = 0; r < 3; ++r) {
    if (threadIdx.x == 0)
      round = r;
    __syncthreads();
    for (int i = 0; i < 64; ++i) {
      int at = (data[i] * 131 + threadIdx.x * 7 + round) % Table;
      acc += state[at];
      state[at] ^= (unsigned char)(r + 1);
    }
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

int main() {
  const int Blocks = 4, Threads = 256;
  unsigned char hd[64];
  for (int i = 0; i < 64; ++i)
    hd[i] = (unsigned char)(i * 37 + 11);
  unsigned char *d;
  int *o;
  cudaMallocManaged(&d, sizeof hd);
  cudaMallocManaged(&o, Blocks * Threads * sizeof(int));
  for (int i = 0; i < 64; ++i)
    d[i] = hd[i];
  table<<<Blocks, Threads>>>(d, o);
  cudaError_t e = cudaDeviceSynchronize();
  // The same computation on the host, thread by thread.
  static unsigned char state[Table];
  int bad = 0;
  for (int b = 0; b < Blocks; ++b)
    for (int t = 0; t < Threads; ++t) {
      for (int i = 0; i < Table; ++i)
        state[i] = (unsigned char)(t + i);
      int acc = 0;
      for (int r = 0; r < 3; ++r)
        for (int i = 0; i < 64; ++i) {
          int at = (hd[i] * 131 + t * 7 + r) % Table;
          acc += state[at];
          state[at] ^= (unsigned char)(r + 1);
        }
      bad += o[b * Threads + t] != acc;
    }
  // CHECK: table: no error, 0 wrong
  printf("table: %s, %d wrong\n", cudaGetErrorString(e), bad);
  return 0;
}
