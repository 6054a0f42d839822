// cudaFuncGetAttributes, cudaFuncSetAttribute (opt-in dynamic shared
// memory), occupancy queries, limits and cache configuration.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// CHECK: shared 2048 maxThreads 128
// CHECK-NEXT: 64 KiB before opt-in: cudaErrorInvalidValue
// CHECK-NEXT: 64 KiB after opt-in: cudaSuccess, last 16383
// CHECK-NEXT: occupancy 256: 8
// CHECK-NEXT: potential block size 128
// CHECK-NEXT: heap limit 33554432
// CHECK-NEXT: PASS
#include "Inputs/check.h"

__global__ void __launch_bounds__(128) tiled(float *p) {
  __shared__ float tile[512];
  tile[threadIdx.x] = threadIdx.x;
  __syncthreads();
  p[threadIdx.x] = tile[127 - threadIdx.x];
}

__global__ void big(int *out, int n) {
  extern __shared__ int s[];
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    s[i] = i;
  __syncthreads();
  if (threadIdx.x == 0)
    *out = s[n - 1];
}

__global__ void plain(int *p) { p[threadIdx.x] = 0; }

int main() {
  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, tiled));
  std::printf("shared %zu maxThreads %d\n", attr.sharedSizeBytes,
              attr.maxThreadsPerBlock);
  int *out;
  CHECK(cudaMallocManaged(&out, sizeof(int)));
  const int n = 65536 / sizeof(int);
  big<<<1, 256, 65536>>>(out, n);
  std::printf("64 KiB before opt-in: %s\n", cudaGetErrorName(cudaGetLastError()));
  CHECK(cudaFuncSetAttribute(big, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             65536));
  big<<<1, 256, 65536>>>(out, n);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("64 KiB after opt-in: %s, last %d\n", cudaGetErrorName(e), *out);
  int blocks = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, plain, 256, 0));
  std::printf("occupancy 256: %d\n", blocks);
  int minGrid = 0, blockSize = 0;
  CHECK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &blockSize, tiled, 0, 0));
  std::printf("potential block size %d\n", blockSize);
  CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 32 << 20));
  size_t v = 0;
  CHECK(cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize));
  std::printf("heap limit %zu\n", v);
  CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferL1));
  CHECK(cudaFree(out));
  std::printf("PASS\n");
  return 0;
}
