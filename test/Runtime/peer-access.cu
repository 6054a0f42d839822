// Peer access between devices. Devices that keep their memory in the
// process-wide arena (the CPU device and tt-sim with HETGPU_ARENA=1 or in a
// migratable process) reach each other's allocations: cudaDeviceCanAccessPeer
// says 1, cudaDeviceEnablePeerAccess succeeds once (then AlreadyEnabled), a
// kernel on one device reads and writes the other's memory in place, and
// cudaMemcpyPeer copies directly. Without the arena the answer is 0 and
// enabling is refused with cudaErrorPeerAccessUnsupported; bad device
// numbers and flags get their CUDA errors in both cases.
// REQUIRES: built-target-host, built-target-rvmanycore, qemu-riscv64
// RUN: hetgpu-cc -O2 %s -o %t
// RUN: env HETGPU_DEVICE=cpu,tt-sim HETGPU_ARENA=1 %t | FileCheck --check-prefix=ARENA %s
// RUN: env HETGPU_DEVICE=cpu,tt-sim HETGPU_ARENA=0 %t | FileCheck --check-prefix=APART %s
// ARENA: devices 0 (cpu) and {{[0-9]+}} (tt-sim)
// ARENA-NEXT: can access 1 1
// ARENA-NEXT: enable cudaSuccess, again cudaErrorPeerAccessAlreadyEnabled
// ARENA-NEXT: kernel on the peer, in place: ok
// ARENA-NEXT: memcpy peer: ok
// ARENA-NEXT: disable cudaSuccess, again cudaErrorPeerAccessNotEnabled
// APART: devices 0 (cpu) and {{[0-9]+}} (tt-sim)
// APART-NEXT: can access 0 0
// APART-NEXT: enable cudaErrorPeerAccessUnsupported, again cudaErrorPeerAccessUnsupported
// APART-NEXT: memcpy peer: ok
// APART-NEXT: disable cudaErrorPeerAccessNotEnabled, again cudaErrorPeerAccessNotEnabled
// ARENA: errors cudaErrorInvalidDevice cudaErrorInvalidValue cudaErrorInvalidDevice
// APART: errors cudaErrorInvalidDevice cudaErrorInvalidValue cudaErrorInvalidDevice
#include <cstdio>
#include <cstring>
#include <hetgpu/hetgpu.h>

__global__ void scaleInPlace(int *p, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = p[i] * k + i;
}

static const char *backend(int d) {
  const char *b = "?";
  hetgpuGetDeviceInfo(d, &b, nullptr, nullptr);
  return b;
}

int main() {
  int count = 0;
  cudaGetDeviceCount(&count);
  int sim = -1;
  for (int d = 0; d < count; ++d)
    if (!strcmp(backend(d), "tt-sim"))
      sim = d;
  if (sim < 0 || strcmp(backend(0), "cpu")) {
    printf("need the cpu device first and a tt-sim device\n");
    return 1;
  }
  printf("devices 0 (%s) and %d (%s)\n", backend(0), sim, backend(sim));
  int a = -1, b = -1;
  cudaDeviceCanAccessPeer(&a, 0, sim);
  cudaDeviceCanAccessPeer(&b, sim, 0);
  printf("can access %d %d\n", a, b);

  const int n = 1000;
  int *onCpu = nullptr, *onSim = nullptr;
  cudaSetDevice(0);
  cudaMalloc(&onCpu, n * sizeof(int));
  int host[n];
  for (int i = 0; i < n; ++i)
    host[i] = i % 13;
  cudaMemcpy(onCpu, host, sizeof host, cudaMemcpyHostToDevice);

  cudaSetDevice(sim);
  cudaError_t e1 = cudaDeviceEnablePeerAccess(0, 0);
  cudaError_t e2 = cudaDeviceEnablePeerAccess(0, 0);
  printf("enable %s, again %s\n", cudaGetErrorName(e1), cudaGetErrorName(e2));
  cudaGetLastError();
  if (a) {
    // The tt-sim kernel works on the CPU device's allocation in place.
    scaleInPlace<<<(n + 127) / 128, 128>>>(onCpu, n, 3);
    cudaError_t e = cudaDeviceSynchronize();
    int back[n];
    cudaSetDevice(0);
    cudaMemcpy(back, onCpu, sizeof back, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    for (int i = 0; i < n; ++i)
      ok = ok && back[i] == (i % 13) * 3 + i;
    printf("kernel on the peer, in place: %s\n", ok ? "ok" : "FAIL");
    cudaSetDevice(sim);
  }
  cudaMalloc(&onSim, n * sizeof(int));
  cudaMemcpyPeer(onSim, sim, onCpu, 0, n * sizeof(int));
  int want[n], got[n];
  cudaSetDevice(0);
  cudaMemcpy(want, onCpu, sizeof want, cudaMemcpyDeviceToHost);
  cudaSetDevice(sim);
  cudaMemcpy(got, onSim, sizeof got, cudaMemcpyDeviceToHost);
  printf("memcpy peer: %s\n", memcmp(want, got, sizeof got) ? "FAIL" : "ok");
  cudaError_t d1 = cudaDeviceDisablePeerAccess(0);
  cudaError_t d2 = cudaDeviceDisablePeerAccess(0);
  printf("disable %s, again %s\n", cudaGetErrorName(d1), cudaGetErrorName(d2));

  int c = 0;
  cudaError_t x1 = cudaDeviceCanAccessPeer(&c, 0, count + 5);
  cudaError_t x2 = cudaDeviceEnablePeerAccess(0, 7);
  cudaError_t x3 = cudaDeviceEnablePeerAccess(count + 5, 0);
  printf("errors %s %s %s\n", cudaGetErrorName(x1), cudaGetErrorName(x2),
         cudaGetErrorName(x3));
  return 0;
}
