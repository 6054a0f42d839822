// Failures are errors, not crashes: with the warp-loop form off
// (HETGPU_OPENCL_WARP_LOOP=off), a warp operation in divergent code cannot
// be emulated on PoCL (no sub-groups): that kernel is left out of the
// module (the others still run) and launching it reports
// cudaErrorInvalidDeviceFunction with a message naming kernel, device and
// reason; by default the kernel runs one warp per work-item and gives
// CUDA's result;
// a missing SPIR-V translator names the tool and the variable to set (and a
// device that takes only SPIR 1.2 is then not offered).
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=opencl HETGPU_OPENCL_WARP_LOOP=off HETGPU_CACHE_DIR=%t.cache1 %t 2>&1 | FileCheck %s
// RUN: env HETGPU_DEVICE=opencl HETGPU_CACHE_DIR=%t.cache3 %t 2>&1 | FileCheck --check-prefix=LOOP %s
// RUN: hetgpu-cc -DCONVERGENT %s -o %t.conv
// RUN: env HETGPU_DEVICE=opencl HETGPU_CACHE_DIR=%t.cache2 HETGPU_LLVM_SPIRV=/nonexistent/llvm-spirv %t.conv 2>&1 | FileCheck --check-prefix=TOOL %s
// REQUIRES: pocl, llvm-spirv
#include <cstdio>

__global__ void divergent(int *out) {
  int v = threadIdx.x;
#ifndef CONVERGENT
  if (threadIdx.x < 32)
#endif
    v = __shfl_down_sync(0xffffffffu, v, 1);
  out[threadIdx.x] = v;
}

int main() {
  int *o;
  cudaMalloc(&o, 64 * 4);
  divergent<<<1, 64>>>(o);
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess)
    e = cudaDeviceSynchronize();
  // CHECK: kernel _Z9divergentPi cannot run on {{.*}}: kernel '_Z9divergentPi': warp operation '__hetgpu_shfl_down_i32' is in code that not every thread of the block reaches
  // CHECK: launch: invalid device function
  // A device that takes only SPIR 1.2 is not offered without the translator.
  // TOOL: no usable OpenCL device (skipped: {{.*}}: takes SPIR 1.2 only, and HETGPU_LLVM_SPIRV=/nonexistent/llvm-spirv is not executable
  // TOOL: launch: no CUDA-capable device is detected
  printf("launch: %s\n", cudaGetErrorString(e));
  // Lanes 0..30 read their neighbour, lane 31 its own value; the second
  // warp does not take part and keeps threadIdx.x.
  // LOOP: launch: no error
  // LOOP-NEXT: 1 2 3 30 31 31 32 33 63
  int h[64];
  if (e == cudaSuccess) {
    cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
    printf("%d %d %d %d %d %d %d %d %d\n", h[0], h[1], h[2], h[29], h[30],
           h[31], h[32], h[33], h[63]);
  }
  return 0;
}
