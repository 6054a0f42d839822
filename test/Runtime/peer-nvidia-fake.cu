// Peer access and peer copies between two NVIDIA GPUs through the CUDA
// runtime API, on the stand-in driver (FAKE_CUDA_DEVICES=2: memory is host
// memory, kernels do not run; its log shows which driver calls were made).
// cudaDeviceCanAccessPeer comes from cuDeviceCanAccessPeer;
// cudaDeviceEnablePeerAccess calls cuCtxEnablePeerAccess once (then
// AlreadyEnabled); cudaMemcpyPeer, cudaMemcpyPeerAsync and cudaMemcpy
// (Default and DeviceToDevice) with pointers of the two GPUs go straight
// between them (cuMemcpyPeerAsync), not through host memory. In a migratable
// process GPU memory sits at unified addresses (VMM): enabling peer access
// grants the peer every page mapped now (cuMemSetAccess) and later, and a
// peer copy without peer access is staged through the host.
// Kernels on two real GPUs: bench/multigpu/run-x2.sh.
// RUN: hetgpu-cc -O2 %s -o %t
// RUN: rm -f %t.log %t.vmm.log
// RUN: env FAKE_CUDA_LOG=%t.log FAKE_CUDA_DEVICES=2 HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so HETGPU_DEVICE=nvidia %t | FileCheck %s
// RUN: FileCheck --check-prefix=LOG %s < %t.log
// CHECK: devices 2: Fake NVIDIA GPU, Fake NVIDIA GPU 1
// CHECK-NEXT: can access 1 1
// CHECK-NEXT: enable cudaSuccess, again cudaErrorPeerAccessAlreadyEnabled
// CHECK-NEXT: memcpy peer 0->1: cudaSuccess ok
// CHECK-NEXT: memcpy peer async 1->0: cudaSuccess ok
// CHECK-NEXT: memcpy default 0->1: cudaSuccess ok
// CHECK-NEXT: memcpy device-to-device 1->0: cudaSuccess ok
// CHECK-NEXT: disable cudaSuccess, again cudaErrorPeerAccessNotEnabled
// Enabling peer access to the device itself: cudaErrorPeerAccessUnsupported
// (CUDA 13 on an H200; test/Runtime/bad-api-table.cu).
// CHECK-NEXT: errors cudaErrorInvalidDevice cudaErrorPeerAccessUnsupported cudaErrorInvalidValue cudaErrorInvalidDevice cudaErrorInvalidDevice
// Each copy is one cuMemcpyPeerAsync (between them: the program's own
// read-backs and resets).
// LOG: peer-enable gpu 0 -> gpu 1
// LOG-NEXT: memcpy-peer on gpu 0 gpu 0 -> gpu 1 4096 bytes
// LOG-NEXT: memcpy-dtoh gpu 1 4096 bytes
// LOG-NEXT: memcpy-htod gpu 1 4096 bytes
// LOG-NEXT: memcpy-peer on gpu 1 gpu 1 -> gpu 0 4096 bytes
// LOG-NEXT: memcpy-dtoh gpu 0 4096 bytes
// LOG-NEXT: memcpy-htod gpu 0 4096 bytes
// LOG-NEXT: memcpy-htod gpu 1 4096 bytes
// LOG-NEXT: memcpy-peer on gpu 0 gpu 0 -> gpu 1 4096 bytes
// LOG-NEXT: memcpy-dtoh gpu 1 4096 bytes
// LOG-NEXT: memcpy-htod gpu 1 4096 bytes
// LOG-NEXT: memcpy-peer on gpu 1 gpu 1 -> gpu 0 4096 bytes
// LOG-NEXT: memcpy-dtoh gpu 0 4096 bytes
// LOG-NEXT: peer-disable gpu 0 -> gpu 1
//
// Negative twin: GPUs without peer-to-peer. Enabling is refused; copies
// still arrive (the driver stages cuMemcpyPeer itself).
// RUN: env FAKE_CUDA_NO_P2P=1 FAKE_CUDA_DEVICES=2 HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so HETGPU_DEVICE=nvidia %t | FileCheck --check-prefix=NOP2P %s
// NOP2P: can access 0 0
// NOP2P-NEXT: enable cudaErrorPeerAccessUnsupported, again cudaErrorPeerAccessUnsupported
// NOP2P-NEXT: memcpy peer 0->1: cudaSuccess ok
// NOP2P: disable cudaErrorPeerAccessNotEnabled, again cudaErrorPeerAccessNotEnabled
//
// Unified addresses (HETGPU_MIGRATE): the first copy, before peer access, is
// staged through the host; enabling grants GPU 0 access to GPU 1's pages
// (those mapped already and the one allocated afterwards); then copies go
// straight; disabling revokes the access.
// RUN: env FAKE_CUDA_LOG=%t.vmm.log FAKE_CUDA_DEVICES=2 HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so HETGPU_DEVICE=nvidia HETGPU_MIGRATE=on %t vmm | FileCheck --check-prefix=VMM %s
// RUN: FileCheck --check-prefix=VMMLOG %s < %t.vmm.log
// VMM: staged copy before enabling: cudaSuccess ok
// VMM: memcpy peer 0->1: cudaSuccess ok
// VMM: memcpy default 0->1: cudaSuccess ok
// VMM: disable cudaSuccess
// VMMLOG: memcpy-htod gpu 1 4096 bytes
// VMMLOG-NEXT: memcpy-dtoh gpu 0 4096 bytes
// VMMLOG-NEXT: memcpy-htod gpu 1 4096 bytes
// VMMLOG-NEXT: memcpy-dtoh gpu 1 4096 bytes
// VMMLOG-NEXT: memcpy-htod gpu 1 4096 bytes
// VMMLOG-NEXT: peer-enable gpu 0 -> gpu 1
// VMMLOG-NEXT: vmm-access gpu 0 rw on memory of gpu 1, 2 MiB
// The 3 MiB allocation made afterwards is one mapping of two granules,
// granted to GPU 0 when it is made.
// VMMLOG: vmm-map 4 MiB of gpu 1
// VMMLOG-NEXT: vmm-access gpu 0 rw on memory of gpu 1, 4 MiB
// VMMLOG-NOT: memcpy-dtoh gpu 0
// VMMLOG: memcpy-peer on gpu 0 gpu 0 -> gpu 1 4096 bytes
// VMMLOG: peer-disable gpu 0 -> gpu 1
// VMMLOG-NEXT: vmm-access gpu 0 none on memory of gpu 1, 2 MiB
// VMMLOG-NEXT: vmm-access gpu 0 none on memory of gpu 1, 4 MiB
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

static const int N = 1024;

static bool same(const int *d, int dev, const int *want) {
  int h[N];
  cudaSetDevice(dev);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  return !memcmp(h, want, sizeof h);
}

int main(int argc, char **argv) {
  bool vmm = argc > 1 && !strcmp(argv[1], "vmm");
  int count = 0;
  cudaGetDeviceCount(&count);
  cudaDeviceProp p0, p1;
  cudaGetDeviceProperties(&p0, 0);
  cudaGetDeviceProperties(&p1, 1);
  printf("devices %d: %s, %s\n", count, p0.name, p1.name);
  int a = -1, b = -1;
  cudaDeviceCanAccessPeer(&a, 0, 1);
  cudaDeviceCanAccessPeer(&b, 1, 0);
  printf("can access %d %d\n", a, b);

  int h0[N], h1[N];
  for (int i = 0; i < N; ++i) {
    h0[i] = i * 3 + 1;
    h1[i] = -i;
  }
  int *d0, *d1, *d1b = nullptr;
  cudaSetDevice(0);
  cudaMalloc(&d0, sizeof h0);
  cudaMemcpy(d0, h0, sizeof h0, cudaMemcpyHostToDevice);
  cudaSetDevice(1);
  cudaMalloc(&d1, sizeof h1);
  cudaMemcpy(d1, h1, sizeof h1, cudaMemcpyHostToDevice);

  if (vmm) {
    cudaError_t e = cudaMemcpyPeer(d1, 1, d0, 0, sizeof h0);
    printf("staged copy before enabling: %s %s\n", cudaGetErrorName(e),
           same(d1, 1, h0) ? "ok" : "WRONG");
    cudaSetDevice(1);
    cudaMemcpy(d1, h1, sizeof h1, cudaMemcpyHostToDevice);
  }

  cudaSetDevice(0);
  cudaError_t e1 = cudaDeviceEnablePeerAccess(1, 0);
  cudaError_t e2 = cudaDeviceEnablePeerAccess(1, 0);
  printf("enable %s, again %s\n", cudaGetErrorName(e1), cudaGetErrorName(e2));
  if (vmm) { // a page GPU 1 maps after peer access was enabled
    cudaSetDevice(1);
    cudaMalloc(&d1b, 3 << 20);
    cudaSetDevice(0);
  }

  cudaError_t e = cudaMemcpyPeer(d1, 1, d0, 0, sizeof h0);
  printf("memcpy peer 0->1: %s %s\n", cudaGetErrorName(e),
         same(d1, 1, h0) ? "ok" : "WRONG");
  if (!vmm) {
    cudaSetDevice(1);
    cudaMemcpy(d1, h1, sizeof h1, cudaMemcpyHostToDevice);
    cudaStream_t s;
    cudaStreamCreate(&s);
    e = cudaMemcpyPeerAsync(d0, 0, d1, 1, sizeof h1, s);
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
    printf("memcpy peer async 1->0: %s %s\n", cudaGetErrorName(e),
           same(d0, 0, h1) ? "ok" : "WRONG");
    cudaSetDevice(0);
    cudaMemcpy(d0, h0, sizeof h0, cudaMemcpyHostToDevice);
  }
  cudaSetDevice(1);
  cudaMemcpy(d1, h1, sizeof h1, cudaMemcpyHostToDevice);
  cudaSetDevice(0);
  e = cudaMemcpy(d1, d0, sizeof h0, cudaMemcpyDefault);
  printf("memcpy default 0->1: %s %s\n", cudaGetErrorName(e),
         same(d1, 1, h0) ? "ok" : "WRONG");
  if (!vmm) {
    cudaSetDevice(1);
    cudaMemcpy(d1, h1, sizeof h1, cudaMemcpyHostToDevice);
    e = cudaMemcpy(d0, d1, sizeof h1, cudaMemcpyDeviceToDevice);
    printf("memcpy device-to-device 1->0: %s %s\n", cudaGetErrorName(e),
           same(d0, 0, h1) ? "ok" : "WRONG");
  }

  cudaSetDevice(0);
  e1 = cudaDeviceDisablePeerAccess(1);
  e2 = cudaDeviceDisablePeerAccess(1);
  printf("disable %s, again %s\n", cudaGetErrorName(e1), cudaGetErrorName(e2));

  int x = 0;
  cudaError_t x1 = cudaDeviceCanAccessPeer(&x, 0, 0);
  cudaError_t x2 = cudaDeviceEnablePeerAccess(0, 0);
  cudaError_t x3 = cudaDeviceEnablePeerAccess(1, 7);
  cudaError_t x4 = cudaDeviceEnablePeerAccess(count + 3, 0);
  cudaError_t x5 = cudaMemcpyPeer(d1, count + 3, d0, 0, 4);
  printf("errors %s %s %s %s %s\n", cudaGetErrorName(x1), cudaGetErrorName(x2),
         cudaGetErrorName(x3), cudaGetErrorName(x4), cudaGetErrorName(x5));
  cudaFree(d0);
  cudaFree(d1);
  if (d1b)
    cudaFree(d1b);
  return 0;
}
