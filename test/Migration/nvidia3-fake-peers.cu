// Peer access follows a migrated device (issue 26 item 2), on the stand-in
// driver with three GPUs (FAKE_CUDA_DEVICES=3; memory is host memory,
// kernels do not run; its log shows the driver calls). Devices 0 and 1 have
// peer access to each other; device 0 moves to GPU 2: GPU 2 is granted
// access to GPU 1's memory and GPU 1 to GPU 2's (the moved allocation
// included), so cudaMemcpyPeer still goes straight between the GPUs. Then
// device 0 moves onto GPU 1, where device 1 lives: the two share one
// device (no grant; cudaDeviceCanAccessPeer 1, the copy a device-to-device
// copy). A move to the CPU device is refused by name: the CPU device cannot
// reach GPU memory, and nothing changes.
// RUN: hetgpu-cc %s -o %t
// RUN: rm -f %t.log
// RUN: env FAKE_CUDA_LOG=%t.log FAKE_CUDA_DEVICES=3 HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so HETGPU_DEVICE=nvidia HETGPU_MIGRATE=on:to=cpu %t > %t.out
// RUN: FileCheck %s < %t.out
// RUN: FileCheck --check-prefix=LOG %s < %t.log
// CHECK: enable 0->1 cudaSuccess, 1->0 cudaSuccess
// CHECK-NEXT: to 2: rc 0 () on Fake NVIDIA GPU 2; can access 1 1; peer copies cudaSuccess cudaSuccess, bytes identical
// CHECK-NEXT: to 1: rc 0 () on Fake NVIDIA GPU 1; can access 1 1; peer copies cudaSuccess cudaSuccess, bytes identical
// CHECK-NEXT: to cpu: rc 801 (cannot migrate device 0 from Fake NVIDIA GPU 1 to {{.*}}: device 0 has peer access to device 1, which {{.*}} and Fake NVIDIA GPU 1 cannot have) on Fake NVIDIA GPU 1; can access 1 1; peer copies cudaSuccess cudaSuccess, bytes identical
// CHECK-NEXT: to 2: rc 0 () on Fake NVIDIA GPU 2; can access 1 1; peer copies cudaSuccess cudaSuccess, bytes identical
// CHECK-NEXT: free cudaSuccess cudaSuccess
//
// The program's own grants, then the move's: GPU 2 -> GPU 1 and
// GPU 1 -> GPU 2, before the memory moves; the moved allocation is mapped on
// GPU 2 with GPU 1's access; the copies after the move go peer to peer.
// LOG: peer-enable gpu 1 -> gpu 0
// LOG: peer-enable gpu 0 -> gpu 1
// LOG: peer-enable gpu 2 -> gpu 1
// LOG: peer-enable gpu 1 -> gpu 2
// LOG: memcpy-dtod on gpu 0 {{[0-9]+}} bytes, memory of gpu 0 -> gpu 2
// LOG: memcpy-peer on gpu {{[12]}} gpu 2 -> gpu 1 4096 bytes
// LOG: memcpy-peer on gpu {{[12]}} gpu 1 -> gpu 2 4096 bytes
// On GPU 1 (with device 1) no grant is made and the copies stay on GPU 1.
// LOG-NOT: peer-enable
// LOG: memcpy-dtod on gpu 2 {{[0-9]+}} bytes, memory of gpu 2 -> gpu 1
// LOG-NOT: peer-enable
// LOG: memcpy-dtod on gpu 1 4096 bytes, memory of gpu 1 -> gpu 1
// LOG-NEXT: memcpy-dtod on gpu 1 4096 bytes, memory of gpu 1 -> gpu 1
// Back to GPU 2: the grants of the first move are in place already.
// LOG: memcpy-dtod on gpu 1 {{[0-9]+}} bytes, memory of gpu 1 -> gpu 2
#include <cstdio>
#include <cstring>
#include <hetgpu/hetgpu.h>

int main() {
  const size_t N = 4096;
  static char h0[N], h1[N], g[N];
  for (size_t i = 0; i < N; ++i) {
    h0[i] = char(i * 7);
    h1[i] = char(i * 13 + 1);
  }
  char *d0, *d1, *t0, *t1;
  cudaSetDevice(1);
  cudaMalloc(&d1, N);
  cudaMalloc(&t1, N);
  cudaMemcpy(d1, h1, N, cudaMemcpyHostToDevice);
  cudaError_t e10 = cudaDeviceEnablePeerAccess(0, 0);
  cudaSetDevice(0);
  cudaMalloc(&d0, N);
  cudaMalloc(&t0, N);
  cudaMemcpy(d0, h0, N, cudaMemcpyHostToDevice);
  cudaError_t e01 = cudaDeviceEnablePeerAccess(1, 0);
  printf("enable 0->1 %s, 1->0 %s\n", cudaGetErrorName(e01),
         cudaGetErrorName(e10));
  const char *seq[] = {"2", "1", "cpu", "2"};
  for (const char *to : seq) {
    int r = hetgpuMigrateDevice(0, to);
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    const char *name = prop.name;
    int c01 = -1, c10 = -1;
    cudaDeviceCanAccessPeer(&c01, 0, 1);
    cudaDeviceCanAccessPeer(&c10, 1, 0);
    cudaSetDevice(0);
    cudaError_t p1 = cudaMemcpyPeer(t1, 1, d0, 0, N);
    cudaError_t p2 = cudaMemcpyPeer(t0, 0, d1, 1, N);
    bool same = true;
    cudaMemcpy(g, t0, N, cudaMemcpyDeviceToHost);
    same &= !memcmp(g, h1, N);
    cudaSetDevice(1);
    cudaMemcpy(g, t1, N, cudaMemcpyDeviceToHost);
    same &= !memcmp(g, h0, N);
    cudaSetDevice(0);
    printf("to %s: rc %d (%s) on %s; can access %d %d; peer copies %s %s, "
           "bytes %s\n",
           to, r, hetgpuMigrationLastError(), name, c01, c10,
           cudaGetErrorName(p1), cudaGetErrorName(p2),
           same ? "identical" : "DIFFERENT");
  }
  cudaError_t f0 = cudaFree(d0);
  cudaSetDevice(1);
  printf("free %s %s\n", cudaGetErrorName(f0), cudaGetErrorName(cudaFree(d1)));
  return 0;
}
