#include <cstdio>
#include <omp.h>
#include "util.h"

__global__ void square(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] * x[i];
}

int main() {
  const int N = 64;
  int h[N];
#pragma omp parallel for
  for (int i = 0; i < N; ++i)
    h[i] = i;
  int *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  square<<<1, N>>>(d, N);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("total %ld\n", total(h, N));
  return 0;
}
