// A plain C++ file (no CUDA mode: what hetgpu-cc does with .cpp inputs) can
// include cuda_runtime.h and the other headers to call the runtime API: the
// keywords expand to nothing, the device API is absent, the vector types,
// make_*, CUDART_* constants, __half's host functions and the C++ runtime
// templates are there. The same from C.
// RUN: %clangxx -std=c++17 -Wall -Werror -fsyntax-only -isystem %hetgpu_src/runtime/include %s
// RUN: %clangxx -std=c++11 -fsyntax-only -isystem %hetgpu_src/runtime/include %s
// RUN: %clang_c -x c -std=c11 -Wall -Werror -fsyntax-only -DPLAIN_C -isystem %hetgpu_src/runtime/include %s
// Device-only names do not exist here.
// RUN: not %clangxx -fsyntax-only -DUSE_DEVICE_API -isystem %hetgpu_src/runtime/include %s 2>&1 \
// RUN:   | FileCheck %s
// CHECK: error: use of undeclared identifier 'threadIdx'
// CHECK: error: use of undeclared identifier '__syncthreads'
// And a program of a .cpp host file and a .cu kernel file runs end to end.
// REQUIRES: target-host
// RUN: hetgpu-cc %s %S/Inputs/plain-host-kernel.cu -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s --check-prefix=OUT
// OUT: sum 10 half 3 dim 4 pi 3.14159

#include <cuda_runtime.h>
#include <math_constants.h>
#include <stdio.h>
#ifndef PLAIN_C
#include <cooperative_groups.h>
#include <cuda_fp16.h>
#include <vector>
#endif

__device__ void declared_only(); // a keyword that expands to nothing

#ifdef USE_DEVICE_API
int f() { return threadIdx.x; }
void g() { __syncthreads(); }
#endif

#ifdef PLAIN_C
int main(void) {
  void *p;
  float2 v = make_float2(1, 2);
  if (cudaMalloc(&p, 16) != cudaSuccess)
    return 1;
  printf("%g %d\n", v.y, CUDA_VERSION);
  return 0;
}
#else
void launch_sum(const float *in, float *out, int n); // in the .cu file

int main() {
  std::vector<float> h = {1, 2, 3, 4};
  float *in, *out, sum = 0;
  cudaMalloc(&in, h.size() * sizeof(float)); // the T** template
  cudaMalloc(&out, sizeof(float));
  cudaMemcpy(in, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice);
  launch_sum(in, out, (int)h.size());
  cudaMemcpy(&sum, out, sizeof sum, cudaMemcpyDeviceToHost);
  __half x = __float2half(1.5f);
  dim3 d(4);
  uint3 u = d;
  printf("sum %g half %g dim %u pi %g\n", sum, __half2float(x + x), u.x,
         (double)CUDART_PI_F);
  return cudaFree(in) != cudaSuccess;
}
#endif
