// Cooperative launch: cudaLaunchCooperativeKernel with a grid-wide barrier
// (cg::this_grid().sync()) between phases that read other blocks' results,
// twice; the device attribute; a grid larger than the device runs at once
// is refused with cudaErrorCooperativeLaunchTooLarge. The CPU device runs
// each block of a cooperative launch on a thread of its own (8 blocks on
// a machine of 2 workers); tt-sim one block per core. OpenCL promises no
// work-groups running at once (PoCL runs the two groups of its two units
// one after the other): the attribute is 0 and the launch is refused with
// cudaErrorNotSupported.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// One block per multiprocessor (the first run is the one the end-to-end
// suites take to the other devices), then 8 on the CPU device.
// RUN: env HETGPU_DEVICE=cpu %t sm | FileCheck %s
// RUN: env HETGPU_DEVICE=cpu %t 8 | FileCheck %s
// RUN: %if qemu-riscv64 %{ env HETGPU_DEVICE=tt-sim %t sm | FileCheck %s %}
// RUN: %if pocl %{ env HETGPU_DEVICE=opencl %t sm | FileCheck --check-prefix=NONE %s %}
// CHECK: attribute 1
// CHECK-NEXT: phases ok
// CHECK-NEXT: too large: cudaErrorCooperativeLaunchTooLarge
// NONE: attribute 0
// NONE-NEXT: refused: cudaErrorNotSupported
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
namespace cg = cooperative_groups;

constexpr int Threads = 64;

__global__ void phases(int *a, int *b, long long *sum, int *valid) {
  cg::grid_group g = cg::this_grid();
  int n = int(g.size()), i = int(g.thread_rank());
  a[i] = 3 * i + 1;
  g.sync();
  // The next block's first element: written by another block.
  b[i] = a[(i + Threads) % n] - a[i];
  g.sync();
  if (i == 0) {
    long long s = 0;
    for (int k = 0; k < n; ++k)
      s += b[k];
    *sum = s;
    *valid = g.is_valid();
  }
}

int main(int argc, char **argv) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int attr = -1;
  cudaDeviceGetAttribute(&attr, cudaDevAttrCooperativeLaunch, 0);
  std::printf("attribute %d\n", attr);
  int blocks = argc > 1 && std::strcmp(argv[1], "sm") == 0
                   ? prop.multiProcessorCount
                   : std::atoi(argc > 1 ? argv[1] : "8");
  int n = blocks * Threads;
  int *a, *b, *valid;
  long long *sum;
  cudaMalloc(&a, n * sizeof(int));
  cudaMalloc(&b, n * sizeof(int));
  cudaMalloc(&sum, sizeof(long long));
  cudaMalloc(&valid, sizeof(int));
  void *args[] = {&a, &b, &sum, &valid};
  if (attr == 0) {
    cudaError_t r = cudaLaunchCooperativeKernel(
        (const void *)phases, dim3(1), dim3(Threads), args, 0, 0);
    std::printf("refused: %s\n", cudaGetErrorName(r));
    return 0;
  }
  cudaError_t e = cudaLaunchCooperativeKernel((const void *)phases, dim3(blocks),
                                              dim3(Threads), args, 0, 0);
  cudaError_t s = cudaDeviceSynchronize();
  long long got = 0;
  int v = 0;
  cudaMemcpy(&got, sum, sizeof got, cudaMemcpyDeviceToHost);
  cudaMemcpy(&v, valid, sizeof v, cudaMemcpyDeviceToHost);
  // Sum of a[i + Threads] - a[i] around the ring: 3 * Threads per element
  // but the last block's, which wraps to the first (-(n - Threads) * 3).
  long long want = 0;
  for (int i = 0; i < n; ++i)
    want += (3LL * ((i + Threads) % n) + 1) - (3LL * i + 1);
  if (e != cudaSuccess || s != cudaSuccess || got != want || v != 1)
    std::printf("phases: launch %s, sync %s, sum %lld want %lld, valid %d\n",
                cudaGetErrorName(e), cudaGetErrorName(s), got, want, v);
  else
    std::printf("phases ok\n");
  e = cudaLaunchCooperativeKernel((const void *)phases, dim3(1 << 20),
                                  dim3(Threads), args, 0, 0);
  std::printf("too large: %s\n", cudaGetErrorName(e));
  return 0;
}
