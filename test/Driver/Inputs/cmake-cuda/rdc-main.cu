// Separable compilation: twice() is in rdc-helper.cu (cmake-cuda-language.test).
#include <cstdio>
extern __device__ float twice(float x);
__global__ void k(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = twice(float(i));
}
int main() {
  const int N = 64; float h[N]; float *d;
  cudaMalloc(&d, sizeof h);
  k<<<1, N>>>(d, N);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  float s = 0; for (int i = 0; i < N; ++i) s += h[i];
  std::printf("sum %.0f\n", s);
}
