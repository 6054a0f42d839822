// A clock64() spin loop suspended on the CPU device and resumed on OpenCL
// ends: the OpenCL clock counter starts at the CPU device's clock (steady
// nanoseconds), so `clock64() - t0` stays positive after the move. Before,
// it restarted at 0 and the resumed loop would have spun for hours (the
// timeout fails it).
// REQUIRES: built-target-host, built-target-spirv, pocl
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu HETGPU_MIGRATE=visit=40:to=opencl:verbose timeout 120 %t > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck --check-prefix=MIG %s < %t.err
// CHECK: spun 32 threads
// MIG: threads suspended at per-thread safe points
// MIG: device 0 moved from {{.*}} to {{.*}}(opencl)
#include <cstdio>

__global__ void spin(int *done, long long ns) {
  long long t0 = clock64();
  while (clock64() - t0 < ns) {
  }
  atomicAdd(done, 1);
}

int main() {
  int *done;
  if (cudaMalloc(&done, sizeof(int)) != cudaSuccess)
    return 1;
  cudaMemset(done, 0, sizeof(int));
  spin<<<1, 32>>>(done, 200000000LL); // 0.2 s of the CPU device's clock
  int n = 0;
  cudaError_t e = cudaMemcpy(&n, done, sizeof n, cudaMemcpyDeviceToHost);
  std::printf("spun %d threads (%s)\n", n, cudaGetErrorName(e));
  return 0;
}
