// Device printf goes through the driver's vprintf with CUDA's formatting;
// device malloc/free use the driver's heap.
// REQUIRES: gpu-nvidia
// RUN: hetgpu-cc -O2 %s -o %t
// RUN: env HETGPU_DEVICE=nvidia %t | FileCheck %s
// CHECK: device: NVIDIA
// CHECK: hello from block 0
// CHECK: ints -7 4294967295 -1234567890123 ffff c
// CHECK: floats 2.50 1.000000e-03 0.25 [   3.1]
// CHECK: string [kernel] [   abc] 100%
// CHECK: heap ok
// CHECK: PASS
// CHECK-NOT: FAIL
#include "Inputs/gpu.h"

__global__ void hello(const char *name) {
  if (threadIdx.x == 0) {
    printf("hello from block %d\n", blockIdx.x);
    printf("ints %d %u %lld %x %c\n", -7, 0xffffffffu, -1234567890123LL, 0xffff,
           'c');
    printf("floats %.2f %e %g [%6.1f]\n", 2.5f, 1e-3, 0.25, 3.14159);
    printf("string [%s] [%6s] %d%%\n", name, "abc", 100);
  }
}

__global__ void heap(int *ok) {
  int n = 16 + threadIdx.x;
  int *p = (int *)malloc(n * sizeof(int));
  if (!p) {
    atomicAdd(ok, 1000000);
    return;
  }
  for (int i = 0; i < n; ++i)
    p[i] = i * threadIdx.x;
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i];
  free(p);
  if (s == threadIdx.x * (n - 1) * n / 2)
    atomicAdd(ok, 1);
}

int main() {
  printDevice();
  char *name;
  CK(cudaMalloc(&name, 8));
  CK(cudaMemcpy(name, "kernel", 7, cudaMemcpyHostToDevice));
  hello<<<1, 32>>>(name);
  CK(cudaDeviceSynchronize());
  std::fflush(stdout);
  int *ok, h = 0;
  CK(cudaMalloc(&ok, sizeof(int)));
  CK(cudaMemset(ok, 0, sizeof(int)));
  heap<<<4, 64>>>(ok);
  CK(cudaMemcpy(&h, ok, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT(h == 256, "heap checks %d", h);
  std::printf("heap ok\n");
  std::printf("PASS\n");
  return 0;
}
