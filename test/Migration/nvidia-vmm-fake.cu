// CPU <-> NVIDIA moves of device memory against the stand-in driver
// (libhetgpu-fake-cuda: memory is host memory, kernels do not run; its
// cuMemAddressReserve honours fixed addresses only from 32 MiB up, as driver
// 580 on an H200 does). hetgpuMigrateDevice copies every allocation to GPU
// memory mapped at the same addresses (arena chunks lent to the driver's
// VMM API) and back; linked lists of device pointers read back identical,
// and cudaFree still works. Kernels on a real GPU: bench/migration/run-gpu.sh.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: rm -f %t.log
// RUN: env FAKE_CUDA_LOG=%t.log HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so HETGPU_DEVICE=cpu HETGPU_MIGRATE=on:to=nvidia:verbose %t > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck --check-prefix=MOVE %s < %t.err
// RUN: FileCheck --check-prefix=VMM %s < %t.log
// Without the unified address space (HETGPU_ARENA=0) the
// move is refused by name and nothing changes.
// RUN: env HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so HETGPU_DEVICE=cpu HETGPU_ARENA=0 HETGPU_MIGRATE=on:to=nvidia %t 2>&1 | FileCheck --check-prefix=REFUSED %s
// CHECK: to nvidia: rc 0 () on nvidia, copy no error, data identical, d=0x1000000000
// CHECK: to cpu: rc 0 () on cpu, copy no error, data identical, d=0x1000000000
// CHECK: to nvidia: rc 0 () on nvidia, copy no error, data identical, d=0x1000000000
// CHECK: to cpu: rc 0 () on cpu, copy no error, data identical, d=0x1000000000
// CHECK: free no error no error
// MOVE: device 0 moved from Host CPU {{.*}} to Fake NVIDIA GPU (nvidia), 2 allocations copied
// MOVE: device 0 moved from Fake NVIDIA GPU to Host CPU {{.*}} (cpu), 2 allocations copied
// The whole arena range is reserved once, at discovery; chunks are mapped
// inside it with no reservation of their own.
// VMM: vmm-reserve 65536 MiB at the asked address
// VMM-NOT: vmm-reserve
// VMM: vmm-map 2 MiB of gpu 0
// The 40 MiB allocation goes to the GPU through the pinned ring
// (NVIDIAStaging.cpp) in 16 MiB chunks, and back in one pageable copy.
// VMM: memcpy-htod gpu 0 16777216 bytes
// VMM-NEXT: memcpy-htod gpu 0 16777216 bytes
// VMM-NEXT: memcpy-htod gpu 0 8388608 bytes
// VMM: memcpy-dtoh gpu 0 41943040 bytes
// REFUSED: to nvidia: rc 801 (cannot migrate device 0 from Host CPU {{.*}} to Fake NVIDIA GPU: Fake NVIDIA GPU cannot map memory at unified addresses (no unified address space: HETGPU_MIGRATE unset or HETGPU_ARENA=0)
#include <cstdio>
#include <cstring>
#include <hetgpu/hetgpu.h>

struct Node {
  Node *next;
  long value;
};

int main() {
  const int N = 1000;
  Node *d, *big;
  cudaMalloc(&d, N * sizeof(Node));
  cudaMalloc(&big, 40 << 20); // spans two 32 MiB chunks
  static Node h[N], g[N], g2[N];
  for (int i = 0; i < N; ++i)
    h[i] = {&d[(i * 7 + 1) % N], i * 3};
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(big + 100, h, sizeof h, cudaMemcpyHostToDevice);
  const char *seq[] = {"nvidia", "cpu", "nvidia", "cpu"};
  for (const char *to : seq) {
    int r = hetgpuMigrateDevice(0, to);
    const char *b = "?";
    hetgpuGetDeviceInfo(0, &b, 0, 0);
    cudaError_t e = cudaMemcpy(g, d, sizeof g, cudaMemcpyDeviceToHost);
    cudaMemcpy(g2, big + 100, sizeof g2, cudaMemcpyDeviceToHost);
    bool same = !memcmp(g, h, sizeof h) && !memcmp(g2, h, sizeof h);
    printf("to %s: rc %d (%s) on %s, copy %s, data %s, d=%p\n", to, r,
           hetgpuMigrationLastError(), b, cudaGetErrorString(e),
           same ? "identical" : "DIFFERENT", (void *)d);
    if (r)
      break;
  }
  printf("free %s %s\n", cudaGetErrorString(cudaFree(d)),
         cudaGetErrorString(cudaFree(big)));
  return 0;
}
