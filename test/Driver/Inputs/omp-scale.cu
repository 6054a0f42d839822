// A kernel and an OpenMP host loop in one .cu file (HeCBench style).
#include <cstdio>
#include <omp.h>

__global__ void scale(float *x, float f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= f;
}

int main() {
  const int N = 256;
  float h[N];
#pragma omp parallel for
  for (int i = 0; i < N; ++i)
    h[i] = float(i);
  float *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  scale<<<(N + 63) / 64, 64>>>(d, 3.0f, N);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  double sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < N; ++i)
    sum += h[i];
  printf("sum %.0f threads>0 %d\n", sum, omp_get_max_threads() > 0);
  return 0;
}
