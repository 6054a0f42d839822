// A failing device-side assert prints CUDA's message and makes the context
// fail with the sticky cudaErrorAssert until cudaDeviceReset.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=MSG < %t.err
// CHECK: sync: cudaErrorAssert device-side assert triggered
// CHECK-NEXT: last: cudaErrorAssert
// CUDA 13 (H200): cudaGetLastError clears a sticky error like any other;
// the next call that touches the device returns it again.
// CHECK-NEXT: last again: cudaSuccess
// CHECK-NEXT: malloc: cudaErrorAssert
// CHECK-NEXT: reset: cudaSuccess
// CHECK-NEXT: after reset: 7
// CHECK-NEXT: PASS
// MSG: assert.cu:[[#@LINE+5]]: {{.*}}check{{.*}}: block: [2,0,0], thread: {{.*}} Assertion `v != blockIdx.x || v != 2` failed.
#include "Inputs/check.h"
#include <cassert>

__global__ void check(int *p, int v) {
  assert(v != blockIdx.x || v != 2);
  p[blockIdx.x] = v;
}

int main() {
  int *d;
  CHECK(cudaMalloc(&d, 8 * sizeof(int)));
  check<<<4, 1>>>(d, 2);
  CHECK(cudaGetLastError()); // the launch itself succeeded
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("sync: %s %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
  std::printf("last: %s\n", cudaGetErrorName(cudaGetLastError()));
  std::printf("last again: %s\n", cudaGetErrorName(cudaGetLastError()));
  int *x;
  std::printf("malloc: %s\n", cudaGetErrorName(cudaMalloc(&x, 4)));
  std::printf("reset: %s\n", cudaGetErrorName(cudaDeviceReset()));
  CHECK(cudaMalloc(&d, sizeof(int)));
  check<<<1, 1>>>(d, 7);
  CHECK(cudaDeviceSynchronize());
  int r = 0;
  CHECK(cudaMemcpy(&r, d, sizeof(int), cudaMemcpyDeviceToHost));
  std::printf("after reset: %d\n", r);
  std::printf("PASS\n");
  return 0;
}
