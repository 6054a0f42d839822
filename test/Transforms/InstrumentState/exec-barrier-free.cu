// A barrier-free kernel launched instrumented (HETGPU_MIGRATE=on) computes
// the same results as uninstrumented: every thread of every block runs.
// (Regression: an entry status test let threads that started after thread 0
// had marked the block finished skip their work on the CPU device, where a
// block's threads run one after another.)
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// RUN: env HETGPU_DEVICE=cpu HETGPU_MIGRATE=on %t | FileCheck %s
// RUN: %if pocl && llvm-spirv %{ env HETGPU_DEVICE=opencl HETGPU_MIGRATE=on %t | FileCheck %s %}
// CHECK: sum 18432 first 1 last 8
#include <cstdio>

__global__ void vecadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

int main() {
  const int N = 1 << 12;
  float *a, *b, *c;
  cudaMallocManaged(&a, N * sizeof(float));
  cudaMallocManaged(&b, N * sizeof(float));
  cudaMallocManaged(&c, N * sizeof(float));
  for (int i = 0; i < N; ++i) {
    a[i] = 1.0f;
    b[i] = float(i & 7);
    c[i] = -1.0f;
  }
  vecadd<<<N / 256, 256>>>(a, b, c, N);
  cudaDeviceSynchronize();
  double sum = 0;
  for (int i = 0; i < N; ++i)
    sum += c[i];
  printf("sum %.0f first %g last %g\n", sum, c[0], c[N - 1]);
  return 0;
}
