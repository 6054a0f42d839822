// The NVIDIA backend on a stand-in libcuda (no GPU needed): discovery picks
// sm_90 and the PTX ISA of a CUDA 12.8 driver, the translated PTX reaches
// cuModuleLoadDataEx, launches pass grid/block/shared memory through, and a
// PTX JIT failure comes back as an error carrying the driver's JIT log.
// RUN: hetgpu-cc -O2 %s -o %t
// RUN: hetgpu-cc -O2 -DJIT_ERROR %s -o %t.bad
// RUN: rm -rf %t.log %t.cache
// RUN: env HETGPU_DEVICE=nvidia HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so FAKE_CUDA_LOG=%t.log HETGPU_CACHE_DIR=%t.cache %t | FileCheck %s
// RUN: FileCheck --check-prefix=LOG %s < %t.log
// RUN: env HETGPU_DEVICE=nvidia HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so HETGPU_CACHE_DIR=%t.cache %t.bad 2>&1 | FileCheck --check-prefix=BAD %s
// The driver's JIT wall time is logged.
// RUN: env HETGPU_LOG=info HETGPU_DEVICE=nvidia HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so HETGPU_CACHE_DIR=%t.cache %t 2>&1 >/dev/null | FileCheck --check-prefix=INFO %s
// INFO: nvidia: device 0: Fake NVIDIA GPU (sm_90, driver 12080, +ptx87)
// INFO: nvidia: PTX JIT of {{[0-9]+}} bytes for sm_90 took 1.500000 ms
// Without the driver the backend reports why, and the program says so.
// RUN: env HETGPU_DEVICE=nvidia HETGPU_LIBCUDA=/nonexistent/libcuda.so.1 %t 2>&1 | FileCheck --check-prefix=NODRV %s
// CHECK: device: Fake NVIDIA GPU (cc 9.0)
// CHECK: launch: cudaSuccess
// CHECK: sync: cudaSuccess
// CHECK: copy back: 1 2 3
// CHECK: managed: cudaSuccess
// CHECK: reset: cudaSuccess
// CHECK: malloc after reset: cudaSuccess
// LOG: module-load //
// LOG: .version 8.7
// LOG: .target sm_90
// LOG: .visible .entry _Z5scalePfif(
// LOG: launch _Z5scalePfif grid 4 1 1 block 64 1 1 shared 256
// LOG: reset
// BAD-DAG: launch: cudaErrorNoKernelImageForDevice
// BAD-DAG: cuModuleLoadDataEx (sm_90, +ptx87): CUDA_ERROR_INVALID_PTX {{.*}}: ptxas fatal: fake error at FAKE_JIT_ERROR
// NODRV: /nonexistent/libcuda.so.1 not found
#include "Inputs/gpu.h"

#ifdef JIT_ERROR
extern "C" __global__ void FAKE_JIT_ERROR_kernel(float *p) { p[0] = 1; }
#else
__global__ void scale(float *p, int n, float a) {
  extern __shared__ float tmp[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tmp[threadIdx.x] = p[i];
  __syncthreads();
  if (i < n)
    p[i] = a * tmp[threadIdx.x];
}
#endif

int main() {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess || n == 0) {
    std::printf("no device: %s\n", cudaGetErrorName(e));
    return 0;
  }
  printDevice();
  float h[3] = {1, 2, 3}, *d;
  CK(cudaMalloc(&d, 256 * sizeof(float)));
  CK(cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice));
#ifdef JIT_ERROR
  FAKE_JIT_ERROR_kernel<<<1, 1>>>(d);
#else
  scale<<<4, 64, 64 * sizeof(float)>>>(d, 256, 2.0f);
#endif
  e = cudaGetLastError();
  std::printf("launch: %s %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
  std::fflush(stdout);
  if (e != cudaSuccess)
    return 0;
  std::printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  // The stand-in driver runs no kernels: the data come back unchanged.
  std::printf("copy back: %g %g %g\n", h[0], h[1], h[2]);
  float *m = nullptr;
  std::printf("managed: %s\n", cudaGetErrorName(cudaMallocManaged(&m, 64)));
  std::printf("reset: %s\n", cudaGetErrorName(cudaDeviceReset()));
  std::printf("malloc after reset: %s\n", cudaGetErrorName(cudaMalloc(&d, 64)));
  return 0;
}
