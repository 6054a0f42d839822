// Once a module that calls the device runtime (device printf here) is
// loaded, the H200's driver (580, CUDA 13) grants no 32 MiB
// cuMemAddressReserve at a fixed address; the stand-in driver does the
// same. The NVIDIA backend therefore reserves the whole arena range at
// discovery (WHOLE): an allocation after the printf launch is mapped inside
// it and the context moves with its data. Where that reservation is not
// granted (FAKE_CUDA_RESERVE_MAX_MB=32, CHUNKS), chunks are reserved one by
// one; after the printf module an allocation fell into the refused arena
// path (cudaMalloc failed with cudaErrorMemoryAllocation and launches
// needing a runtime buffer failed without a word). Now it is an ordinary
// one at the driver's address, a warning says why, and a move of the
// context is refused because its memory is not in the unified address
// space; the data stays where it was.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so HETGPU_DEVICE=nvidia HETGPU_MIGRATE=on:to=cpu HETGPU_LOG=warn %t > %t.whole 2> %t.whole.err
// RUN: FileCheck --check-prefixes=CHECK,WHOLE %s < %t.whole
// RUN: count 0 < %t.whole.err
// RUN: env HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so FAKE_CUDA_RESERVE_MAX_MB=32 HETGPU_DEVICE=nvidia HETGPU_MIGRATE=on:to=cpu HETGPU_LOG=warn %t > %t.out 2> %t.err
// RUN: FileCheck --check-prefixes=CHECK,CHUNKS %s < %t.out
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// CHECK: first 0x1{{0*}}{{[0-9a-f]+}} ok
// CHECK-NEXT: launch cudaSuccess
// WHOLE-NEXT: second 0x1{{0*}}{{[0-9a-f]+}} ok
// WHOLE-NEXT: move rc 0 ({{.*}}) on cpu
// CHUNKS-NEXT: second 0x{{[0-9a-f]+}} ok
// CHUNKS-NEXT: move rc {{[1-9][0-9]*}} (cannot migrate device 0 {{.*}} is not in the unified address space {{.*}}) on nvidia
// CHECK-NEXT: after move: first ok, second ok
// CHECK-NEXT: free cudaSuccess cudaSuccess
// WARN: nvidia: cuMemAddressReserve at 0x{{[0-9a-f]+}}: the driver chose 0x{{[0-9a-f]+}} instead; device memory of the NVIDIA GPUs is allocated where the driver places it
#include <cstdio>
#include <cstring>
#include <hetgpu/hetgpu.h>

__global__ void hello(int v) { printf("hello %d\n", v); }

static bool roundTrip(int *d, int k) {
  int h[256], g[256];
  for (int i = 0; i < 256; ++i)
    h[i] = i * k;
  if (cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice) ||
      cudaMemcpy(g, d, sizeof g, cudaMemcpyDeviceToHost))
    return false;
  return !memcmp(g, h, sizeof h);
}

static bool same(int *d, int k) {
  int g[256];
  if (cudaMemcpy(g, d, sizeof g, cudaMemcpyDeviceToHost))
    return false;
  for (int i = 0; i < 256; ++i)
    if (g[i] != i * k)
      return false;
  return true;
}

int main() {
  int *a = nullptr, *b = nullptr;
  cudaError_t e = cudaMalloc(&a, 256 * sizeof(int));
  printf("first %p %s\n", (void *)a, !e && roundTrip(a, 3) ? "ok" : "FAILED");
  hello<<<1, 1>>>(7);
  printf("launch %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  e = cudaMalloc(&b, 256 * sizeof(int));
  printf("second %p %s\n", (void *)b,
         e ? cudaGetErrorName(e) : roundTrip(b, 5) ? "ok" : "FAILED");
  int r = hetgpuMigrateDevice(0, "cpu");
  const char *on = "?";
  hetgpuGetDeviceInfo(0, &on, 0, 0);
  printf("move rc %d (%s) on %s\n", r, hetgpuMigrationLastError(), on);
  printf("after move: first %s, second %s\n", same(a, 3) ? "ok" : "FAILED",
         same(b, 5) ? "ok" : "FAILED");
  cudaError_t f1 = cudaFree(b), f2 = cudaFree(a);
  printf("free %s %s\n", cudaGetErrorName(f1), cudaGetErrorName(f2));
  return 0;
}
