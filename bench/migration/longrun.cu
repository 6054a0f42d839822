// bench/migration/longrun.cu - one long-running kernel, for suspending a
// kernel while it runs (run-gpu.sh: HETGPU_MIGRATE=after_ms=N on the GPU,
// where the host raises the yield flag through a second queue).
//
//   longrun [iters]    iterations of the loop per thread (default 2^21:
//                      about 10 ms on an H200)
//
// A short warm-up launch comes first, so the long launch is the one
// running when the timer fires. Prints a checksum of the result, equal on
// every device and with or without migration (integer arithmetic).
// SPDX-License-Identifier: Apache-2.0
#include <cstdio>
#include <cstdlib>
#include <vector>

// A block-uniform loop (the trip count is an argument): it gets a loop
// safe point every 1024 iterations.
__global__ void spin(unsigned *x, int iters) {
  unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = x[id];
  for (int i = 0; i < iters; ++i)
    v = v * 1664525u + (unsigned)i + 1013904223u;
  x[id] = v;
}

int main(int argc, char **argv) {
  int Iters = argc > 1 ? atoi(argv[1]) : 1 << 21;
  const int Blocks = 32, Threads = 128, Total = Blocks * Threads;
  std::vector<unsigned> X(Total);
  for (int i = 0; i < Total; ++i)
    X[i] = 2654435761u * i;
  unsigned *D = nullptr;
  if (cudaMalloc(&D, Total * sizeof(unsigned)) != cudaSuccess)
    return 1;
  cudaMemcpy(D, X.data(), Total * sizeof(unsigned), cudaMemcpyHostToDevice);
  spin<<<Blocks, Threads>>>(D, 16);
  cudaDeviceSynchronize();
  spin<<<Blocks, Threads>>>(D, Iters);
  cudaError_t E = cudaDeviceSynchronize();
  cudaMemcpy(X.data(), D, Total * sizeof(unsigned), cudaMemcpyDeviceToHost);
  unsigned long long Sum = 0;
  for (int i = 0; i < Total; ++i)
    Sum = Sum * 31 + X[i];
  printf("longrun %s %llu\n", E == cudaSuccess ? "ok" : cudaGetErrorString(E),
         Sum);
  return E == cudaSuccess ? 0 : 1;
}
