#include <cstdio>
#include "scale.h"

__global__ void scale(float *x, float f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= f;
}

int main() {
  const int N = 100;
  float h[N];
  for (int i = 0; i < N; ++i)
    h[i] = 1.0f;
  float *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  scale<<<2, 64>>>(d, float(SCALE), N);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  float sum = 0;
  for (int i = 0; i < N; ++i)
    sum += h[i];
  std::printf("sum %.0f host %d\n", sum, hostPart());
  return 0;
}
