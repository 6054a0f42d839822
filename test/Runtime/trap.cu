// __trap() makes the launch fail with the sticky cudaErrorLaunchFailure,
// reported at the next synchronising call; cudaDeviceReset recovers.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// CHECK: launch: cudaSuccess
// CHECK-NEXT: memcpy: cudaErrorLaunchFailure unspecified launch failure
// CHECK-NEXT: peek: cudaErrorLaunchFailure
// CHECK-NEXT: reset: cudaSuccess
// CHECK-NEXT: PASS
#include "Inputs/check.h"

__global__ void boom(int *p, int n) {
  if (threadIdx.x == 3 && blockIdx.x == 5)
    __trap();
  p[blockIdx.x * blockDim.x + threadIdx.x] = n;
}

int main() {
  int *d;
  CHECK(cudaMalloc(&d, 64 * 32 * sizeof(int)));
  boom<<<64, 32>>>(d, 1);
  std::printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  int h[4];
  cudaError_t e = cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  std::printf("memcpy: %s %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
  std::printf("peek: %s\n", cudaGetErrorName(cudaPeekAtLastError()));
  std::printf("reset: %s\n", cudaGetErrorName(cudaDeviceReset()));
  CHECK(cudaMalloc(&d, 32 * sizeof(int)));
  boom<<<1, 3>>>(d, 9);
  CHECK(cudaMemcpy(h, d, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(h[0] == 9);
  std::printf("PASS\n");
  return 0;
}
