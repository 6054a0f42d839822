// A CPU -> NVIDIA move after watched launches (stand-in driver, memory is
// host memory): the runtime's own state buffers and control blocks live in
// chunks of their own (Device::allocateRuntime), so the arena chunk of a
// small allocation holds nothing but the program's memory and can be lent
// to the GPU. Before, the state buffer sat in the same chunk and the move
// was refused ("the arena chunk of the allocation ... also holds ... of
// another device").
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so HETGPU_DEVICE=cpu HETGPU_MIGRATE=on:to=nvidia %t 2>&1 | FileCheck %s
// CHECK: launches ok
// CHECK-NEXT: to nvidia: rc 0 () on nvidia, data identical
// CHECK-NEXT: to cpu: rc 0 () on cpu, data identical
#include <cstdio>
#include <cstring>
#include <hetgpu/hetgpu.h>

__global__ void fill(int *p, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = i * k;
}

int main() {
  const int N = 1000;
  int *d, h[N], g[N];
  cudaMalloc(&d, N * sizeof(int));
  for (int k = 1; k <= 3; ++k)
    fill<<<(N + 127) / 128, 128>>>(d, N, k);
  cudaError_t e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  bool ok = !e;
  for (int i = 0; i < N; ++i)
    ok &= h[i] == 3 * i;
  printf("launches %s\n", ok ? "ok" : "WRONG");
  const char *seq[] = {"nvidia", "cpu"};
  for (const char *to : seq) {
    int r = hetgpuMigrateDevice(0, to);
    const char *b = "?";
    hetgpuGetDeviceInfo(0, &b, 0, 0);
    cudaMemcpy(g, d, sizeof g, cudaMemcpyDeviceToHost);
    printf("to %s: rc %d (%s) on %s, data %s\n", to, r,
           hetgpuMigrationLastError(), b,
           memcmp(g, h, sizeof h) ? "DIFFERENT" : "identical");
  }
  return 0;
}
