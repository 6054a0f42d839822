// __trap() aborts the launch with cudaErrorLaunchFailure.
// REQUIRES: gpu-nvidia
// RUN: hetgpu-cc -O2 %s -o %t
// RUN: env HETGPU_DEVICE=nvidia %t | FileCheck %s
// CHECK: device: NVIDIA
// CHECK: trap -> cudaErrorLaunchFailure
// CHECK: PASS
// CHECK-NOT: FAIL
#include "Inputs/gpu.h"

__global__ void maybeTrap(int v) {
  if (threadIdx.x == 3 && v > 0)
    __trap();
}

int main() {
  printDevice();
  maybeTrap<<<1, 32>>>(0);
  CK(cudaDeviceSynchronize());
  maybeTrap<<<1, 32>>>(1);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("trap -> %s\n", cudaGetErrorName(e));
  EXPECT(e == cudaErrorLaunchFailure, "got %s", cudaGetErrorName(e));
  std::printf("PASS\n");
  return 0;
}
