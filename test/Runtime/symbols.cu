// __device__ and __constant__ variables: initial values, cudaMemcpyToSymbol/
// FromSymbol (+Async, offsets), cudaGetSymbolAddress/Size, error paths.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// CHECK: initial 5 1.5
// CHECK-NEXT: counter 640
// CHECK-NEXT: coeffs 1 2 30 4
// CHECK-NEXT: size 16
// CHECK-NEXT: via address 31
// CHECK-NEXT: async 77
// CHECK-NEXT: out of range: cudaErrorInvalidValue
// CHECK-NEXT: direction: cudaErrorInvalidMemcpyDirection
// CHECK-NEXT: not a symbol: cudaErrorInvalidSymbol
// CHECK-NEXT: PASS
#include "Inputs/check.h"

__device__ int counter = 5;
__device__ float scaleFactor = 1.5f;
__constant__ float coeffs[4] = {1, 2, 3, 4};

__global__ void bump() { atomicAdd(&counter, 1); }
__global__ void applyCoeffs(float *out) {
  out[threadIdx.x] = coeffs[threadIdx.x] * scaleFactor;
}

int main() {
  int c = 0;
  float f = 0;
  CHECK(cudaMemcpyFromSymbol(&c, counter, sizeof(int)));
  CHECK(cudaMemcpyFromSymbol(&f, scaleFactor, sizeof(float)));
  std::printf("initial %d %.1f\n", c, f);
  int zero = 0;
  CHECK(cudaMemcpyToSymbol(counter, &zero, sizeof(int)));
  bump<<<10, 64>>>();
  CHECK(cudaMemcpyFromSymbol(&c, counter, sizeof(int)));
  std::printf("counter %d\n", c);

  float thirty = 30;
  CHECK(cudaMemcpyToSymbol(coeffs, &thirty, sizeof(float), 2 * sizeof(float)));
  float one = 1;
  CHECK(cudaMemcpyToSymbol(scaleFactor, &one, sizeof(float)));
  float *out;
  CHECK(cudaMallocManaged(&out, 4 * sizeof(float)));
  applyCoeffs<<<1, 4>>>(out);
  CHECK(cudaDeviceSynchronize());
  std::printf("coeffs %g %g %g %g\n", out[0], out[1], out[2], out[3]);

  size_t size = 0;
  CHECK(cudaGetSymbolSize(&size, coeffs));
  std::printf("size %zu\n", size);
  float *addr = nullptr;
  CHECK(cudaGetSymbolAddress((void **)&addr, coeffs));
  float viaAddr = 0;
  float thirtyOne = 31;
  CHECK(cudaMemcpy(addr + 2, &thirtyOne, sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpyFromSymbol(&viaAddr, coeffs, sizeof(float), 2 * sizeof(float)));
  std::printf("via address %g\n", viaAddr);

  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  int v = 77, back = 0;
  CHECK(cudaMemcpyToSymbolAsync(counter, &v, sizeof(int), 0,
                                cudaMemcpyHostToDevice, s));
  CHECK(cudaMemcpyFromSymbolAsync(&back, counter, sizeof(int), 0,
                                  cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  std::printf("async %d\n", back);

  float big[8];
  std::printf("out of range: %s\n",
              cudaGetErrorName(cudaMemcpyToSymbol(coeffs, big, sizeof(big))));
  std::printf("direction: %s\n",
              cudaGetErrorName(cudaMemcpyToSymbol(coeffs, big, 4, 0,
                                                  cudaMemcpyDeviceToHost)));
  static int notDevice;
  std::printf("not a symbol: %s\n",
              cudaGetErrorName(cudaMemcpyToSymbol(notDevice, big, 4)));
  cudaGetLastError();
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(out));
  std::printf("PASS\n");
  return 0;
}
