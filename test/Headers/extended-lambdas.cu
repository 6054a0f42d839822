// Modern CUDA style, end to end on the CPU device: __device__ and
// __host__ __device__ lambdas created in host code and passed by value to a
// kernel template, a functor captured in them, managed memory.
// REQUIRES: target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// CHECK: sum 10300 expect 10300
#include <cstdio>

template <typename F> __global__ void for_each(int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    f(i);
}
template <typename F> void launch(int n, F f) {
  for_each<<<(n + 63) / 64, 64>>>(n, f);
  cudaDeviceSynchronize();
}
struct Scale {
  float s;
  __device__ float operator()(float x) const { return s * x; }
};

int main() {
  float *a;
  int n = 100;
  cudaMallocManaged(&a, n * sizeof(float));
  for (int i = 0; i < n; ++i)
    a[i] = i;
  float k = 3.f;
  Scale sc{2.f};
  launch(n, [=] __device__(int i) { a[i] = sc(a[i]) + k; });
  launch(n, [=] __host__ __device__(int i) { a[i] += 1; });
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i];
  printf("sum %g expect %g\n", s, 2.0 * 4950 + 4.0 * n);
  return cudaFree(a) != cudaSuccess;
}
