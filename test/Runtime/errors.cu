// Error behaviour as real CUDA: launch-configuration errors are reported by
// cudaGetLastError and are not sticky; bad pointers and directions give
// cudaErrorInvalidValue / cudaErrorInvalidMemcpyDirection.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// Launch configurations out of range are cudaErrorInvalidValue in CUDA 13
// (measured on an H200; CUDA 12 returned cudaErrorInvalidConfiguration).
// CHECK: 4096 threads: cudaErrorInvalidValue invalid argument
// CHECK-NEXT: after: cudaSuccess
// CHECK-NEXT: grid 0: cudaErrorInvalidValue
// CHECK-NEXT: block z 65: cudaErrorInvalidValue
// CHECK-NEXT: shared 1 MiB: cudaErrorInvalidValue
// CHECK-NEXT: bounds: cudaErrorLaunchOutOfResources
// CHECK-NEXT: free garbage: cudaErrorInvalidValue
// CHECK-NEXT: free twice: cudaErrorInvalidValue
// CHECK-NEXT: direction: cudaErrorInvalidMemcpyDirection
// CHECK-NEXT: bad stream: cudaErrorInvalidResourceHandle
// CHECK-NEXT: set device 5: cudaErrorInvalidDevice
// CHECK-NEXT: peek: cudaErrorInvalidDevice
// CHECK-NEXT: get: cudaErrorInvalidDevice
// CHECK-NEXT: get again: cudaSuccess
// CHECK-NEXT: result 12
// CHECK-NEXT: PASS
#include "Inputs/check.h"

__global__ void add(int *p, int v) { atomicAdd(p, v); }

__global__ void __launch_bounds__(64) bounded(int *p) { p[threadIdx.x] = 1; }

__global__ void dyn(int *p) {
  extern __shared__ int s[];
  s[threadIdx.x] = threadIdx.x;
  p[threadIdx.x] = s[threadIdx.x];
}

int main() {
  int *d;
  CHECK(cudaMalloc(&d, 1024 * sizeof(int)));
  CHECK(cudaMemset(d, 0, 1024 * sizeof(int)));

  add<<<1, 4096>>>(d, 1);
  cudaError_t e = cudaGetLastError();
  std::printf("4096 threads: %s %s\n", cudaGetErrorName(e),
              cudaGetErrorString(e));
  std::printf("after: %s\n", cudaGetErrorName(cudaGetLastError()));
  add<<<0, 32>>>(d, 1);
  std::printf("grid 0: %s\n", cudaGetErrorName(cudaGetLastError()));
  add<<<1, dim3(1, 1, 65)>>>(d, 1);
  std::printf("block z 65: %s\n", cudaGetErrorName(cudaGetLastError()));
  dyn<<<1, 32, 1 << 20>>>(d);
  std::printf("shared 1 MiB: %s\n", cudaGetErrorName(cudaGetLastError()));
  bounded<<<1, 128>>>(d);
  std::printf("bounds: %s\n", cudaGetErrorName(cudaGetLastError()));

  int local;
  std::printf("free garbage: %s\n", cudaGetErrorName(cudaFree(&local)));
  int *tmp;
  CHECK(cudaMalloc(&tmp, 16));
  CHECK(cudaFree(tmp));
  std::printf("free twice: %s\n", cudaGetErrorName(cudaFree(tmp)));
  std::printf("direction: %s\n",
              cudaGetErrorName(cudaMemcpy(d, &local, 4, (cudaMemcpyKind)9)));
  cudaStream_t bogus = (cudaStream_t)&local;
  add<<<1, 1, 0, bogus>>>(d, 1);
  std::printf("bad stream: %s\n", cudaGetErrorName(cudaGetLastError()));
  std::printf("set device 5: %s\n", cudaGetErrorName(cudaSetDevice(5)));
  std::printf("peek: %s\n", cudaGetErrorName(cudaPeekAtLastError()));
  std::printf("get: %s\n", cudaGetErrorName(cudaGetLastError()));
  std::printf("get again: %s\n", cudaGetErrorName(cudaGetLastError()));

  // The context is still usable.
  CHECK(cudaMemset(d, 0, sizeof(int)));
  add<<<3, 4>>>(d, 1);
  CHECK(cudaGetLastError());
  int r = 0;
  CHECK(cudaMemcpy(&r, d, sizeof(int), cudaMemcpyDeviceToHost));
  std::printf("result %d\n", r);
  CHECK(cudaFree(d));
  std::printf("PASS\n");
  return 0;
}
