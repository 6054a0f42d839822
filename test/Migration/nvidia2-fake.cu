// GPU 0 <-> GPU 1 moves of a device (live migration's moveContext) against
// the stand-in driver with two GPUs (FAKE_CUDA_DEVICES=2; memory is host
// memory, kernels do not run). hetgpuMigrateDevice moves device 0 to GPU 1
// and back twice: allocations keep their addresses (GPU memory at unified
// addresses through the VMM API) and their bytes (a linked list of device
// pointers, a 40 MiB allocation over two arena chunks), cudaFree works
// afterwards, and device 1 (GPU 1's own context) is not disturbed. Kernels on two real GPUs:
// bench/multigpu/run-x2.sh.
// RUN: hetgpu-cc %s -o %t
// RUN: rm -f %t.log
// RUN: env FAKE_CUDA_LOG=%t.log FAKE_CUDA_DEVICES=2 HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so HETGPU_DEVICE=nvidia HETGPU_MIGRATE=on:verbose %t > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck --check-prefix=MOVE %s < %t.err
// CHECK: to 1: rc 0 () on nvidia, copy no error, data identical, other device intact, d=[[D:0x10[0-9a-f]+]]
// CHECK-NEXT: to 0: rc 0 () on nvidia, copy no error, data identical, other device intact, d=[[D]]
// CHECK-NEXT: to 1: rc 0 () on nvidia, copy no error, data identical, other device intact, d=[[D]]
// CHECK-NEXT: to 0: rc 0 () on nvidia, copy no error, data identical, other device intact, d=[[D]]
// CHECK-NEXT: free no error no error no error
// MOVE: device 0 moved from Fake NVIDIA GPU to Fake NVIDIA GPU 1 (nvidia), 2 allocations moved device to device
// MOVE: device 0 moved from Fake NVIDIA GPU 1 to Fake NVIDIA GPU (nvidia), 2 allocations moved device to device
// The bytes go GPU to GPU (Device::transferArenaRange), none through the host.
// RUN: FileCheck --check-prefix=LOG %s < %t.log
// LOG: memcpy-dtod on gpu 0 41943040 bytes, memory of gpu 0 -> gpu 1
// LOG-NOT: memcpy-dtoh gpu 0 41943040
// LOG: memcpy-dtod on gpu 1 41943040 bytes, memory of gpu 1 -> gpu 0
// Without unified addresses the move is refused by name; nothing changes.
// RUN: env FAKE_CUDA_DEVICES=2 HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so HETGPU_DEVICE=nvidia HETGPU_ARENA=0 HETGPU_MIGRATE=on %t 2>&1 | FileCheck --check-prefix=REFUSED %s
// REFUSED: to 1: rc 801 (cannot migrate device 0 from Fake NVIDIA GPU to Fake NVIDIA GPU 1: {{.*}}cannot map memory at unified addresses (no unified address space: HETGPU_MIGRATE unset or HETGPU_ARENA=0)
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
  int *other;
  static Node h[N], g[N], g2[N];
  static int ho[256], go[256];
  for (int i = 0; i < 256; ++i)
    ho[i] = i * i;
  cudaSetDevice(1);
  cudaMalloc(&other, sizeof ho);
  cudaMemcpy(other, ho, sizeof ho, cudaMemcpyHostToDevice);
  cudaSetDevice(0);
  cudaMalloc(&d, N * sizeof(Node));
  cudaMalloc(&big, 40 << 20); // spans two 32 MiB chunks
  for (int i = 0; i < N; ++i)
    h[i] = {&d[(i * 7 + 1) % N], i * 3};
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(big + 100, h, sizeof h, cudaMemcpyHostToDevice);
  const char *seq[] = {"1", "0", "1", "0"};
  for (const char *to : seq) {
    int r = hetgpuMigrateDevice(0, to);
    const char *b = "?";
    hetgpuGetDeviceInfo(0, &b, 0, 0);
    cudaSetDevice(0);
    cudaError_t e = cudaMemcpy(g, d, sizeof g, cudaMemcpyDeviceToHost);
    cudaMemcpy(g2, big + 100, sizeof g2, cudaMemcpyDeviceToHost);
    bool same = !memcmp(g, h, sizeof h) && !memcmp(g2, h, sizeof h);
    cudaSetDevice(1);
    cudaMemcpy(go, other, sizeof go, cudaMemcpyDeviceToHost);
    bool intact = !memcmp(go, ho, sizeof ho);
    cudaSetDevice(0);
    printf("to %s: rc %d (%s) on %s, copy %s, data %s, other device %s, d=%p\n",
           to, r, hetgpuMigrationLastError(), b, cudaGetErrorString(e),
           same ? "identical" : "DIFFERENT", intact ? "intact" : "CHANGED",
           (void *)d);
    if (r)
      break;
  }
  cudaError_t f1 = cudaFree(d), f2 = cudaFree(big);
  cudaSetDevice(1);
  printf("free %s %s %s\n", cudaGetErrorString(f1), cudaGetErrorString(f2),
         cudaGetErrorString(cudaFree(other)));
  return 0;
}
