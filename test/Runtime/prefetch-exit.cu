// A program that exits while the prefetch (Core/Prefetch.h) is still
// translating the other kernel groups of its module: exit waits for the
// translation in flight and refuses the rest, so the process ends with its
// own status and output. Before the exit handlers were registered after
// every translation (lib/Translate/Translate.cpp, ExitGate), LLVM's
// function-local statics were destroyed under the prefetch's translation:
// 2 of 10 cold runs of test/Libraries/thrust-algorithms.cu crashed or hung
// at exit. Three cold runs here, each must exit 0 with its line printed.
// REQUIRES: built-target-host
// RUN: hetgpu-cc -O2 %s -o %t
// RUN: rm -rf %t.c1 && env HETGPU_DEVICE=cpu HETGPU_CACHE_DIR=%t.c1 HETGPU_KERNEL_GROUP=2 \
// RUN:   HETGPU_PREFETCH=1 %t | FileCheck %s
// RUN: rm -rf %t.c2 && env HETGPU_DEVICE=cpu HETGPU_CACHE_DIR=%t.c2 HETGPU_KERNEL_GROUP=2 \
// RUN:   HETGPU_PREFETCH=1 %t | FileCheck %s
// RUN: rm -rf %t.c3 && env HETGPU_DEVICE=cpu HETGPU_CACHE_DIR=%t.c3 HETGPU_KERNEL_GROUP=2 \
// RUN:   HETGPU_PREFETCH=1 %t | FileCheck %s
// CHECK: first 3 PASS
#include <cstdio>
#include <utility>

template <int K> __global__ void step(float4 *V, double *D, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  float4 X = V[I];
  for (int J = 0; J < K + 1; ++J)
    X = make_float4(X.y * 0.5f + K, X.z, X.w - J, X.x);
  V[I] = X;
  D[I] = sqrt(D[I] * K + 1.0) + X.x;
}

template <int... Ks> void *pick(std::integer_sequence<int, Ks...>, int Which) {
  void *Fns[] = {(void *)step<Ks>...};
  return Fns[Which];
}

int main() {
  float4 *V;
  double *D;
  cudaMalloc(&V, 64 * sizeof(float4));
  cudaMalloc(&D, 64 * sizeof(double));
  cudaMemset(V, 0, 64 * sizeof(float4));
  cudaMemset(D, 0, 64 * sizeof(double));
  (void)pick(std::make_integer_sequence<int, 24>(), 23);
  step<0><<<1, 64>>>(V, D, 64);
  float4 H;
  cudaMemcpy(&H, V, sizeof(H), cudaMemcpyDeviceToHost);
  // step<0>: X = (0 + 0, 0, 0, 0) after one round with J = 0.
  int Ok = H.x == 0.0f && cudaGetLastError() == cudaSuccess;
  printf("first %d %s\n", 3, Ok ? "PASS" : "FAIL");
  return Ok ? 0 : 1;
}
