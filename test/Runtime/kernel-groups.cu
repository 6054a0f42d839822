// A module of many kernels and no device variables is translated in groups
// of HETGPU_KERNEL_GROUP kernels (Core/Prefetch.h): the first launch
// translates only its kernel's group; every kernel computes what it would
// in a whole-module translation. A module with a device variable is
// translated whole.
// REQUIRES: built-target-host
// RUN: hetgpu-cc -O2 %s -o %t
// RUN: rm -rf %t.c1 && env HETGPU_DEVICE=cpu HETGPU_CACHE_DIR=%t.c1 HETGPU_KERNEL_GROUP=4 \
// RUN:   HETGPU_PREFETCH=0 HETGPU_LOG=info %t 2>&1 | FileCheck %s
// RUN: rm -rf %t.c2 && env HETGPU_DEVICE=cpu HETGPU_CACHE_DIR=%t.c2 HETGPU_KERNEL_GROUP=0 \
// RUN:   HETGPU_PREFETCH=0 HETGPU_LOG=info %t 2>&1 | FileCheck %s --check-prefix=WHOLE
// RUN: rm -rf %t.c3 && env HETGPU_DEVICE=cpu HETGPU_CACHE_DIR=%t.c3 HETGPU_KERNEL_GROUP=4 \
// RUN:   HETGPU_PREFETCH=1 HETGPU_LOG=info %t 2>&1 | FileCheck %s --check-prefix=PREFETCH
// The kernel table lists add<9> first: the groups are 9-6, 5-2, 1-0.
// CHECK: translated kernels of module {{[0-9a-f]+}} (2 of 10 kernels: void add<1>(int*), void add<0>(int*))
// CHECK: translated kernels of module {{[0-9a-f]+}} (4 of 10 kernels: void add<5>(int*),
// CHECK-NOT: translated module
// CHECK: sum 45 PASS
// WHOLE: translated module {{[0-9a-f]+}} (10 kernels
// WHOLE: sum 45 PASS
// PREFETCH-NOT: translated module
// PREFETCH: sum 45 PASS
#include <cstdio>
#include <utility>

template <int K> __global__ void add(int *Acc) { atomicAdd(Acc, K); }

template <int... Ks>
void launchAll(std::integer_sequence<int, Ks...>, int *Acc) {
  ((add<Ks><<<1, 1>>>(Acc)), ...);
}

int main() {
  int *Acc, S = 0;
  cudaMalloc(&Acc, sizeof(int));
  cudaMemcpy(Acc, &S, sizeof(int), cudaMemcpyHostToDevice);
  launchAll(std::make_integer_sequence<int, 10>(), Acc);
  cudaMemcpy(&S, Acc, sizeof(int), cudaMemcpyDeviceToHost);
  printf("sum %d %s\n", S, S == 45 ? "PASS" : "FAIL");
  return S == 45 ? 0 : 1;
}
