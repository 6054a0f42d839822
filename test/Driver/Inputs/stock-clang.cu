// A CUDA program built by a stock clang++ with hetGPU's plugins
// (test/Driver/clang-plugin-path.test).
#include <cstdio>

__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main() {
  const int N = 300;
  float x[N], y[N];
  for (int i = 0; i < N; ++i) {
    x[i] = float(i);
    y[i] = 1.0f;
  }
  float *dx, *dy;
  cudaMalloc(&dx, sizeof x);
  cudaMalloc(&dy, sizeof y);
  cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y, sizeof y, cudaMemcpyHostToDevice);
  axpy<<<(N + 127) / 128, 128>>>(2.0f, dx, dy, N);
  cudaError_t E = cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost);
  double sum = 0;
  for (int i = 0; i < N; ++i)
    sum += y[i];
  std::printf("%s sum %.0f\n", cudaGetErrorName(E), sum);
  return 0;
}
