// Device printf with CUDA's formatting: ints of every width, floats (as
// double), strings, pointers, width/precision, %%.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// CHECK: hello from the device
// CHECK-NEXT: ints -7 4294967295 -1234567890123 ffff c
// CHECK-NEXT: floats 2.50 1.000000e-03 0.25 [   3.1]
// CHECK-NEXT: string [kernel] [   abc] 100%
// CHECK-DAG: thread 0 of block 1
// CHECK-DAG: thread 1 of block 1
// CHECK-DAG: thread 0 of block 0
// CHECK-DAG: thread 1 of block 0
// CHECK: after
#include "Inputs/check.h"

__global__ void hello(const char *name) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    printf("hello from the device\n");
    printf("ints %d %u %lld %x %c\n", -7, 0xffffffffu, -1234567890123LL,
           (unsigned short)0xffff, 'c');
    float f = 2.5f;
    printf("floats %.2f %e %g [%6.1f]\n", f, 0.001, 0.25, 3.14159);
    printf("string [%s] [%6s] 100%%\n", name, "abc");
  }
}

__global__ void who() {
  printf("thread %d of block %d\n", threadIdx.x, blockIdx.x);
}

__device__ char kName[] = "kernel";

int main() {
  const char *name;
  CHECK(cudaGetSymbolAddress((void **)&name, kName));
  hello<<<2, 32>>>(name);
  CHECK(cudaDeviceSynchronize());
  who<<<2, 2>>>();
  CHECK(cudaDeviceSynchronize());
  std::printf("after\n");
  return 0;
}
