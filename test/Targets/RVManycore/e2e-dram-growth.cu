// Persistent cores map DRAM up to the highest allocation when they boot; a
// later launch may use memory allocated after that. Here the cores boot on
// the first launch, then 16 buffers of 8 MiB are allocated (128 MiB more)
// and filled by kernels (the launch descriptors themselves may land in the
// new memory), and each buffer's last word is read back.
// RUN: hetgpu-cc -O2 %s -o %t
// RUN: env HETGPU_DEVICE=tt-sim HETGPU_TTSIM_CORES=2 HETGPU_LOG=info %t 2>&1 \
// RUN:   | FileCheck %s
// CHECK-COUNT-2: tt-sim: started core
// CHECK-NOT: tt-sim: started core
// CHECK: sums: 16 buffers ok
// CHECK-NEXT: PASS
// REQUIRES: qemu-riscv64
#include <cstdio>

__global__ void fill(int *p, size_t n, int v) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    p[i] = v;
}

int main() {
  int *first;
  cudaMalloc(&first, 4096);
  fill<<<2, 32>>>(first, 1024, 1); // boots the cores
  cudaDeviceSynchronize();
  const size_t N = (8u << 20) / sizeof(int);
  int *bufs[16];
  int ok = 0;
  for (int b = 0; b < 16; ++b) {
    if (cudaMalloc(&bufs[b], N * sizeof(int)) != cudaSuccess)
      break;
    fill<<<2, 256>>>(bufs[b], N, b + 1);
    int last = 0;
    cudaMemcpy(&last, bufs[b] + N - 1, sizeof(int), cudaMemcpyDeviceToHost);
    ok += last == b + 1;
  }
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("sums: %d buffers %s\n", ok, e == cudaSuccess ? "ok" : "FAIL");
  std::printf("PASS\n");
  return 0;
}
