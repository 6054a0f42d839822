// Device printf goes through ctx->services with CUDA's argument buffer
// (ints, 64-bit ints, doubles, strings), also across a barrier.
// RUN: %hetir %s -o %t.bc
// RUN: hetgpu-host-run --grid=2 --block=2 %t.bc _Z5hellox i64=-5 | FileCheck %s
// CHECK:      block 0 thread 0: 0.50 -5 ok
// CHECK-NEXT: block 0 thread 1: 1.50 -4 ok
// CHECK-NEXT: after barrier 0/1
// CHECK-NEXT: block 1 thread 0: 0.50 -5 ok
// CHECK-NEXT: block 1 thread 1: 1.50 -4 ok
// CHECK-NEXT: after barrier 1/1
#include <cstdio>

__global__ void hello(long long base) {
  int t = threadIdx.x;
  printf("block %d thread %d: %.2f %lld %s\n", blockIdx.x, t, t + 0.5,
         base + t, "ok");
  __syncthreads();
  if (t == 1)
    printf("after barrier %u/%d\n", blockIdx.x, t);
}
