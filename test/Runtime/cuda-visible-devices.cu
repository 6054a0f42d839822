// CUDA_VISIBLE_DEVICES, applied by hetGPU with CUDA's rules to the NVIDIA
// backend's GPUs (three fake GPUs; device D's UUID starts GPU-d<D>):
// entries by index or by UUID prefix, in the order given, renumbered from
// 0; the list ends at the first entry that names no GPU (out of range,
// repeated, ambiguous); no GPU left means the CPU device is counted.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env -u HETGPU_DEVICE CUDA_VISIBLE_DEVICES=2,0 FAKE_CUDA_DEVICES=3 HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so %t | FileCheck --check-prefix=ORDER %s
// RUN: env -u HETGPU_DEVICE CUDA_VISIBLE_DEVICES=GPU-D1010203 FAKE_CUDA_DEVICES=3 HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so %t | FileCheck --check-prefix=UUID %s
// RUN: env -u HETGPU_DEVICE HETGPU_LOG=warn CUDA_VISIBLE_DEVICES=1,7,0 FAKE_CUDA_DEVICES=3 HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so %t 2>&1 | FileCheck --check-prefix=STOP %s
// RUN: env -u HETGPU_DEVICE CUDA_VISIBLE_DEVICES=0,0,1 FAKE_CUDA_DEVICES=3 HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so %t | FileCheck --check-prefix=REPEAT %s
// RUN: env -u HETGPU_DEVICE CUDA_VISIBLE_DEVICES=GPU-d FAKE_CUDA_DEVICES=3 HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so %t | FileCheck --check-prefix=NONE %s
// RUN: env -u HETGPU_DEVICE CUDA_VISIBLE_DEVICES= FAKE_CUDA_DEVICES=3 HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so %t | FileCheck --check-prefix=NONE %s
// A MIG- entry leaves the list to the driver (the fake one shows every GPU).
// RUN: env -u HETGPU_DEVICE CUDA_VISIBLE_DEVICES=MIG-1234 FAKE_CUDA_DEVICES=3 HETGPU_LIBCUDA=%hetgpu_libdir/libhetgpu-fake-cuda.so %t | FileCheck --check-prefix=MIG %s
// MIG: count 3
// ORDER: count 2
// ORDER-NEXT: 0 nvidia Fake NVIDIA GPU 2
// ORDER-NEXT: 1 nvidia Fake NVIDIA GPU{{$}}
// ORDER-NEXT: end
// UUID: count 1
// UUID-NEXT: 0 nvidia Fake NVIDIA GPU 1
// UUID-NEXT: end
// STOP: CUDA_VISIBLE_DEVICES='1,7,0': the list ends at '7', which names no NVIDIA GPU (3 found)
// STOP: count 1
// STOP-NEXT: 0 nvidia Fake NVIDIA GPU 1
// STOP-NEXT: end
// REPEAT: count 1
// REPEAT-NEXT: 0 nvidia Fake NVIDIA GPU{{$}}
// REPEAT-NEXT: end
// NONE: count 1
// NONE-NEXT: 0 cpu
// NONE-NEXT: end
#include <cstdio>
#include <hetgpu/hetgpu.h>
#include <string_view>

int main() {
  int N = 0;
  if (cudaGetDeviceCount(&N) != cudaSuccess)
    return 1;
  std::printf("count %d\n", N);
  for (int D = 0; D < N; ++D) {
    const char *Backend = "?";
    hetgpuGetDeviceInfo(D, &Backend, nullptr, nullptr);
    cudaDeviceProp P;
    cudaGetDeviceProperties(&P, D);
    std::printf("%d %s %s\n", D, Backend,
                std::string_view(Backend) == "nvidia" ? P.name : "");
  }
  std::printf("end\n");
  return 0;
}
