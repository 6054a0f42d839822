// CUDA on OpenCL (PoCL): __device__ and __constant__ variables through the
// globals block, cudaMemcpyTo/FromSymbol, math built-ins, events.
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=opencl %t | FileCheck %s
// REQUIRES: pocl, llvm-spirv
#include <cmath>
#include <cstdio>

__device__ int counter;
__device__ float bias = 0.25f;
__constant__ float scale[2];

__global__ void saxpy(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = scale[0] * x[i] + y[i] + sqrtf(x[i]) + bias;
    atomicAdd(&counter, 1);
  }
}

int main() {
  const int n = 1000;
  float hx[n], hy[n];
  for (int i = 0; i < n; ++i) { hx[i] = i; hy[i] = 1; }
  float *x, *y;
  cudaMalloc(&x, sizeof hx);
  cudaMalloc(&y, sizeof hy);
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice);
  float s[2] = {2.0f, 0.0f};
  cudaMemcpyToSymbol(scale, s, sizeof s);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  saxpy<<<(n + 127) / 128, 128>>>(n, x, y);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms = -1;
  // CHECK: elapsed ok: 1 no error
  printf("elapsed ok: %d %s\n", cudaEventElapsedTime(&ms, a, b) == cudaSuccess && ms >= 0,
         cudaGetErrorString(cudaGetLastError()));
  cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost);
  int c = 0;
  cudaMemcpyFromSymbol(&c, counter, sizeof c);
  int bad = 0;
  for (int i = 0; i < n; ++i)
    if (fabsf(hy[i] - (2.0f * i + 1 + sqrtf((float)i) + 0.25f)) > 1e-3f * (1 + i))
      ++bad;
  // CHECK-NEXT: counter 1000 bad 0
  printf("counter %d bad %d\n", c, bad);
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  // CHECK-NEXT: warp 32
  printf("warp %d\n", p.warpSize);
  return 0;
}
