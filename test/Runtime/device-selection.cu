// Which devices CUDA programs see: the GPUs when there are any (two fake
// NVIDIA GPUs here: the CPU, PoCL and tt-sim are not counted), the CPU
// device when there are none; HETGPU_DEVICE=all or a list of backends names
// others explicitly, in the order given.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env -u HETGPU_DEVICE FAKE_CUDA_DEVICES=2 HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so %t | FileCheck --check-prefix=GPUS %s
// RUN: env -u HETGPU_DEVICE HETGPU_LIBCUDA=/nonexistent/libcuda.so.1 %t | FileCheck --check-prefix=NOGPU %s
// RUN: env HETGPU_DEVICE=cpu,nvidia FAKE_CUDA_DEVICES=2 HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so %t | FileCheck --check-prefix=LIST %s
// RUN: env HETGPU_DEVICE=all FAKE_CUDA_DEVICES=2 HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so %t | FileCheck --check-prefix=ALL %s
// RUN: env HETGPU_DEVICE=1 FAKE_CUDA_DEVICES=2 HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so %t | FileCheck --check-prefix=INDEX %s
// RUN: env HETGPU_DEVICE=cpu,bogus %t 2>&1 | FileCheck --check-prefix=BAD %s
// GPUS: count 2 current 0
// GPUS-NEXT: 0 nvidia
// GPUS-NEXT: 1 nvidia
// GPUS-NEXT: end
// NOGPU: count 1 current 0
// NOGPU-NEXT: 0 cpu
// NOGPU-NEXT: end
// LIST: count 3 current 0
// LIST-NEXT: 0 cpu
// LIST-NEXT: 1 nvidia
// LIST-NEXT: 2 nvidia
// LIST-NEXT: end
// ALL: count {{[3-9]}} current 0
// ALL-NEXT: 0 nvidia
// ALL-NEXT: 1 nvidia
// ALL-NEXT: 2 cpu
// INDEX: count 2 current 1
// BAD: HETGPU_DEVICE=cpu,bogus names no backend ('bogus')
// BAD: count error cudaErrorNoDevice
#include <cstdio>
#include <hetgpu/hetgpu.h>

int main() {
  int N = 0;
  cudaError_t E = cudaGetDeviceCount(&N);
  if (E != cudaSuccess) {
    std::printf("count error %s\n", cudaGetErrorName(E));
    return 0;
  }
  int Current = -1;
  cudaGetDevice(&Current);
  std::printf("count %d current %d\n", N, Current);
  for (int D = 0; D < N; ++D) {
    const char *Backend = "?";
    hetgpuGetDeviceInfo(D, &Backend, nullptr, nullptr);
    std::printf("%d %s\n", D, Backend);
  }
  std::printf("end\n");
  return 0;
}
