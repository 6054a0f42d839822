// hetgpu-translate writes the PTX of every kernel of a hetgpu-cc object or
// executable (the same translation the runtime does on a JIT-cache miss),
// with math from libdevice when a toolkit is found, else hetGPU's library.
// RUN: hetgpu-cc -O2 -c %s -o %t.o
// RUN: hetgpu-cc -O2 %s -o %t.exe
// RUN: env HETGPU_MATH_LIBRARY=%hetgpu_libdir hetgpu-translate --target=nvptx --arch=sm_90 %t.o -o %t.o.ptx
// RUN: env HETGPU_MATH_LIBRARY=%hetgpu_libdir hetgpu-translate --target=nvptx --arch=sm_90 %t.exe -o %t.exe.ptx
// RUN: FileCheck %s < %t.o.ptx
// RUN: FileCheck %s < %t.exe.ptx
// RUN: env HETGPU_LIBDEVICE=none HETGPU_MATH_LIBRARY=%hetgpu_libdir hetgpu-translate --target=nvptx --arch=sm_80 %t.o -o %t.own.ptx
// RUN: FileCheck --check-prefix=OWN %s < %t.own.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.exe.ptx -o /dev/null %}
// RUN: %if ptxas %{ %ptxas -arch=sm_80 %t.own.ptx -o /dev/null %}
// CHECK: .target sm_90
// CHECK-DAG: .visible .entry _Z6kernelPfPKfi(
// CHECK-DAG: .visible .entry _Z4scanPi(
// CHECK-DAG: .visible .global .align 4 .b8 table[64];
// CHECK-DAG: shfl.sync.up.b32
// CHECK-DAG: bar.sync 0;
// CHECK-NOT: .extern
// OWN: .target sm_80
// OWN-NOT: __nv_
// OWN-NOT: .extern
// OWN: .func (.param .b32 func_retval0) __hetgpu_math_{{sinf|expf}}
#include <cuda_runtime.h>

__device__ float table[16];

__global__ void kernel(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = sinf(in[i]) + expf(in[i]) * table[i % 16];
}

__global__ void scan(int *data) {
  __shared__ int s[32];
  int v = data[threadIdx.x];
  for (int d = 1; d < 32; d <<= 1) {
    int u = __shfl_up_sync(0xffffffffu, v, d);
    if ((threadIdx.x & 31) >= d)
      v += u;
  }
  s[threadIdx.x & 31] = v;
  __syncthreads();
  data[threadIdx.x] = s[31 - (threadIdx.x & 31)];
}

int main() { return 0; }
