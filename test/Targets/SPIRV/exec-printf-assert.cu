// Device printf goes through the printf buffer and comes out at the
// synchronisation, in order with the host's output; a failed assert()
// prints CUDA's message and makes the next synchronisation return
// cudaErrorAssert.
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=opencl %t 2>&1 | FileCheck %s
// REQUIRES: pocl, llvm-spirv
#include <cassert>
#include <cstdio>

__global__ void hello(int x, const char *tag) {
  if (threadIdx.x < 2)
    printf("block %d thread %d: x=%d %s %.2f %lld\n", blockIdx.x, threadIdx.x,
           x, "lit", 0.5, (long long)x * 1000000000LL);
}

__global__ void check(int v) { assert(v > 0); }

int main() {
  // CHECK: host before
  printf("host before\n");
  fflush(stdout);
  hello<<<1, 4>>>(7, "t");
  cudaDeviceSynchronize();
  // CHECK-NEXT: block 0 thread {{[01]}}: x=7 lit 0.50 7000000000
  // CHECK-NEXT: block 0 thread {{[01]}}: x=7 lit 0.50 7000000000
  // CHECK-NEXT: host after
  printf("host after\n");
  fflush(stdout);
  check<<<1, 1>>>(1);
  // CHECK-NEXT: ok: no error
  printf("ok: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  fflush(stdout);
  check<<<1, 1>>>(0);
  cudaError_t e = cudaDeviceSynchronize();
  // CHECK-NEXT: exec-printf-assert.cu:{{[0-9]+}}: {{.*}}check{{.*}}: block: [0,0,0], thread: [0,0,0] Assertion `v > 0` failed.
  // CHECK-NEXT: assert: device-side assert triggered
  printf("assert: %s\n", cudaGetErrorString(e));
  return 0;
}
