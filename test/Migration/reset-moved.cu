// cudaDeviceReset of a device that live migration moved: the context goes
// back to the device it was created for, as if it had never left, and the
// device it ran on is not reset (on NVIDIA a reset tears down the primary
// context, with the memory of that device's own context in it).
//
// On the CPU device with to=opencl (and to=tt-sim), kernels run: an assert
// fires after the move, the reset brings device 0 back to the CPU, where
// work runs again, and a later move runs there without the old fault.
// REQUIRES: built-target-host, built-target-spirv, pocl
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu HETGPU_MIGRATE=on:to=opencl %t opencl 2> %t.err | FileCheck --check-prefix=KERNELS %s
// RUN: FileCheck --check-prefix=MSG %s < %t.err
// RUN: %if qemu-riscv64 && built-target-rvmanycore %{ env HETGPU_DEVICE=cpu HETGPU_MIGRATE=on:to=tt-sim %t tt-sim 2> /dev/null | FileCheck --check-prefix=KERNELS %s %}
// KERNELS: moved: rc 0 () on {{opencl|tt-sim}}
// KERNELS-NEXT: sync: cudaErrorAssert
// KERNELS-NEXT: reset: cudaSuccess, device 0 on cpu
// KERNELS-NEXT: after reset: 7 no error
// KERNELS-NEXT: moved again: rc 0 () on {{opencl|tt-sim}}
// KERNELS-NEXT: there: 9 no error
// MSG: Assertion `v != 2` failed.
//
// Against the stand-in driver with two GPUs (kernels do not run there):
// device 0 moves to GPU 1, the reset resets GPU 0 alone and device 1's
// memory on GPU 1 stays.
// RUN: rm -f %t.log
// RUN: env FAKE_CUDA_LOG=%t.log FAKE_CUDA_DEVICES=2 HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so HETGPU_DEVICE=nvidia HETGPU_MIGRATE=on %t 1 | FileCheck --check-prefix=FAKE %s
// RUN: FileCheck --check-prefix=LOG %s < %t.log
// FAKE: moved: rc 0 () on nvidia, named Fake NVIDIA GPU 1
// FAKE-NEXT: reset: cudaSuccess, device 0 on nvidia, named Fake NVIDIA GPU{{$}}
// FAKE-NEXT: other device intact, memory of device 0 no error
// FAKE-NEXT: moved again: rc 0 () on nvidia, named Fake NVIDIA GPU 1
// LOG-NOT: reset gpu 1
// LOG: reset gpu 0
// LOG-NOT: reset gpu 1
#include <cassert>
#include <cstdio>
#include <cstring>
#include <hetgpu/hetgpu.h>

__global__ void store(int *p, int v) {
  assert(v != 2);
  p[threadIdx.x] = v;
}

static const char *where(int Dev) {
  const char *B = "?";
  hetgpuGetDeviceInfo(Dev, &B, nullptr, nullptr);
  return B;
}

static const char *name(int Dev) {
  static cudaDeviceProp P;
  cudaGetDeviceProperties(&P, Dev);
  return P.name;
}

/// Ends a line with where device 0 runs: the backend and, when \p Named,
/// the device's name (the stand-in driver's GPUs share a backend).
static void sayPlace(bool Named) {
  std::printf(" on %s", where(0));
  if (Named)
    std::printf(", named %s", name(0));
  std::printf("\n");
}

/// Moves device 0 to \p To and says how that went.
static void move(const char *What, const char *To, bool Named) {
  int R = hetgpuMigrateDevice(0, To);
  std::printf("%s: rc %d (%s)", What, R, hetgpuMigrationLastError());
  sayPlace(Named);
}

/// Runs store(v) on device 0 and returns what it wrote (-1 on an error).
static int run(int v, cudaError_t &E) {
  int *d, h = -1;
  E = cudaMalloc(&d, sizeof(int));
  if (E)
    return -1;
  store<<<1, 1>>>(d, v);
  E = cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  return h;
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  const char *To = argv[1];
  bool Kernels = std::strcmp(To, "1") != 0; // the stand-in runs none
  static int ho[256], go[256];
  int *other = nullptr, *d;
  if (!Kernels) {
    for (int i = 0; i < 256; ++i)
      ho[i] = i * 3 + 1;
    cudaSetDevice(1);
    cudaMalloc(&other, sizeof ho);
    cudaMemcpy(other, ho, sizeof ho, cudaMemcpyHostToDevice);
    cudaSetDevice(0);
  }
  cudaMalloc(&d, sizeof ho);
  move("moved", To, !Kernels);
  if (Kernels) {
    store<<<1, 1>>>(d, 2);
    std::printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  }
  cudaError_t E = cudaDeviceReset();
  std::printf("reset: %s, device 0", cudaGetErrorName(E));
  sayPlace(!Kernels);
  if (Kernels) {
    int v = run(7, E);
    std::printf("after reset: %d %s\n", v, cudaGetErrorString(E));
  } else {
    cudaSetDevice(1);
    cudaMemcpy(go, other, sizeof go, cudaMemcpyDeviceToHost);
    bool intact = !std::memcmp(go, ho, sizeof ho);
    cudaSetDevice(0);
    E = cudaMalloc(&d, sizeof ho);
    if (!E)
      E = cudaMemcpy(d, ho, sizeof ho, cudaMemcpyHostToDevice);
    std::printf("other device %s, memory of device 0 %s\n",
                intact ? "intact" : "CHANGED", cudaGetErrorString(E));
  }
  move("moved again", To, !Kernels);
  if (Kernels) {
    int v = run(9, E);
    std::printf("there: %d %s\n", v, cudaGetErrorString(E));
  }
  return 0;
}
