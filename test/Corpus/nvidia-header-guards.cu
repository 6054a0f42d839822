// cuda-samples' helper_cuda.h only defines checkCudaErrors/findCudaDevice
// when NVIDIA's include-guard macros are defined, and PolyBench still calls
// cudaThreadSynchronize (removed in CUDA 13): both must keep working.
// RUN: rm -rf %t && mkdir -p %t
// RUN: hetgpu-cc %s -o %t/guards
// RUN: env HETGPU_DEVICE=cpu %t/guards | FileCheck %s
// CHECK: guards ok
// CHECK: sync 0
#include <cstdio>
#ifndef __CUDA_RUNTIME_H__
#error "__CUDA_RUNTIME_H__ is not defined"
#endif
#ifndef __DRIVER_TYPES_H__
#error "__DRIVER_TYPES_H__ is not defined"
#endif
#ifndef __CUDA_RUNTIME_API_H__
#error "__CUDA_RUNTIME_API_H__ is not defined"
#endif

__global__ void touch(int *p) { p[threadIdx.x] = threadIdx.x; }

int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  touch<<<1, 32>>>(d);
  std::printf("guards ok\n");
  std::printf("sync %d\n", (int)cudaThreadSynchronize());
  cudaFree(d);
  return 0;
}
