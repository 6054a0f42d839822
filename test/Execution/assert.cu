// A failed device assert() stops the launch with cudaErrorAssert and the
// driver reports the message; the error is sticky as in CUDA.
// REQUIRES: gpu-nvidia
// RUN: hetgpu-cc -O2 %s -o %t
// RUN: env HETGPU_DEVICE=nvidia %t 2>%t.err | FileCheck %s
// RUN: FileCheck --check-prefix=MSG %s < %t.err
// CHECK: device: NVIDIA
// CHECK: first launch ok
// CHECK: assert -> cudaErrorAssert
// CHECK: PASS
// CHECK-NOT: FAIL
// MSG: Assertion `v < 100` failed
#include "Inputs/gpu.h"
#include <cassert>

__global__ void check(const int *p) {
  int v = p[threadIdx.x];
  assert(v < 100);
}

int main() {
  printDevice();
  int h[32], *d;
  for (int i = 0; i < 32; ++i)
    h[i] = i;
  CK(cudaMalloc(&d, sizeof(h)));
  CK(cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice));
  check<<<1, 32>>>(d);
  CK(cudaDeviceSynchronize());
  std::printf("first launch ok\n");
  h[5] = 500;
  CK(cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice));
  check<<<1, 32>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("assert -> %s\n", cudaGetErrorName(e));
  EXPECT(e == cudaErrorAssert, "got %s", cudaGetErrorName(e));
  std::printf("PASS\n");
  return 0;
}
