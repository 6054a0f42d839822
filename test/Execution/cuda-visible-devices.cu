// On a GPU machine CUDA programs see the GPUs only (not the CPU device,
// PoCL or tt-sim), CUDA_VISIBLE_DEVICES filters them as CUDA does (hetGPU
// applies it and hides it from NVIDIA's driver; a list ends at its first
// invalid entry), and with no GPU left the CPU device is the one device.
// REQUIRES: gpu-nvidia
// RUN: hetgpu-cc -O2 %s -o %t
// RUN: env -u HETGPU_DEVICE -u CUDA_VISIBLE_DEVICES %t | FileCheck --check-prefix=GPUS %s
// RUN: env -u HETGPU_DEVICE CUDA_VISIBLE_DEVICES=0 %t | FileCheck --check-prefix=ONE %s
// RUN: env -u HETGPU_DEVICE CUDA_VISIBLE_DEVICES=0,99,1 %t | FileCheck --check-prefix=ONE %s
// RUN: env -u HETGPU_DEVICE CUDA_VISIBLE_DEVICES= %t | FileCheck --check-prefix=NONE %s
// GPUS: count {{[1-9]}}
// GPUS-NEXT: 0 nvidia
// GPUS-NOT: cpu
// GPUS-NOT: tt-sim
// GPUS-NOT: opencl
// GPUS: kernel ok
// ONE: count 1
// ONE-NEXT: 0 nvidia
// ONE: kernel ok
// NONE: count 1
// NONE-NEXT: 0 cpu
// NONE: kernel ok
#include <cstdio>
#include <hetgpu/hetgpu.h>

__global__ void inc(int *p) { p[threadIdx.x] += threadIdx.x; }

int main() {
  int N = 0;
  if (cudaGetDeviceCount(&N) != cudaSuccess)
    return 1;
  std::printf("count %d\n", N);
  for (int D = 0; D < N; ++D) {
    const char *Backend = "?";
    hetgpuGetDeviceInfo(D, &Backend, nullptr, nullptr);
    std::printf("%d %s\n", D, Backend);
  }
  int H[32] = {0}, *P;
  cudaMalloc(&P, sizeof H);
  cudaMemcpy(P, H, sizeof H, cudaMemcpyHostToDevice);
  inc<<<1, 32>>>(P);
  cudaMemcpy(H, P, sizeof H, cudaMemcpyDeviceToHost);
  std::printf("kernel %s\n", H[31] == 31 ? "ok" : "wrong");
  return 0;
}
