// The time trigger fires while no kernel runs (HETGPU_MIGRATE=after_ms=N
// with the host busy between two launches): the device moves before the
// next launch, which then runs on the target, and the data written by the
// first launch moves with it. Without a to= device nothing moves and the
// run still completes.
// REQUIRES: built-target-host, built-target-rvmanycore, qemu-riscv64
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t > %t.ref
// RUN: FileCheck --check-prefix=REF %s < %t.ref
// RUN: env HETGPU_DEVICE=cpu HETGPU_MIGRATE=after_ms=100:to=tt-sim:verbose %t > %t.out 2> %t.err
// RUN: diff %t.ref %t.out
// RUN: FileCheck --check-prefix=MOVE %s < %t.err
// RUN: env HETGPU_DEVICE=cpu HETGPU_MIGRATE=after_ms=100:verbose %t > %t.out.n 2> %t.err.n
// RUN: diff %t.ref %t.out.n
// RUN: FileCheck --check-prefix=STAY %s < %t.err.n
// REF: first on Host CPU
// REF: sum 99200
// MOVE: hetgpu-migrate: after_ms: yield flag raised between launches
// MOVE-NEXT: hetgpu-migrate: before launching _Z4bumpPii (between launches), {{[0-9]+}} bytes in {{.*}} ms: device 0 moved from Host CPU {{.*}} to tt-sim {{.*}} (tt-sim)
// MOVE-NOT: suspended
// STAY: hetgpu-migrate: after_ms: yield flag raised between launches
// STAY-NOT: moved
#include <chrono>
#include <cstdio>
#include <thread>

__global__ void bump(int *p, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i] = p[i] * 2 + v + i;
}

int main() {
  const int N = 256;
  int *d;
  if (cudaMalloc(&d, N * sizeof(int)) != cudaSuccess)
    return 1;
  cudaMemset(d, 0, N * sizeof(int));
  cudaDeviceProp P;
  cudaGetDeviceProperties(&P, 0);
  printf("first on %s\n", P.name);
  bump<<<4, 64>>>(d, 1);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 1;
  // Busy on the host well past the trigger's time.
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  bump<<<4, 64>>>(d, 3);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 1;
  int h[N];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  long sum = 0;
  for (int i = 0; i < N; ++i)
    sum += h[i];
  printf("sum %ld\n", sum);
  return cudaGetLastError() != cudaSuccess;
}
