// HETGPU_MEMCHECK=1 checks every global and shared access of a kernel: an
// access out of bounds (past an allocation, past a device-malloc block,
// outside a __shared__ array), into freed memory (cudaFree, device free)
// or misaligned is reported with the kernel, the thread, the block and the
// address, is not made, and the launch ends with CUDA's sticky error (700,
// 716 misaligned); a correct program (shared, dynamic shared, atomics,
// device malloc, __device__ and __constant__ variables, memcpy in a
// kernel) runs with no report and the same results. Each mode in its own
// process, on every device.
// REQUIRES: built-target-host
// RUN: hetgpu-cc -O2 %s -o %t
// RUN: env HETGPU_DEVICE=cpu HETGPU_MEMCHECK=1 %t clean 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: env HETGPU_DEVICE=cpu %t clean 2>&1 | FileCheck %s --check-prefix=PLAIN
// RUN: env HETGPU_DEVICE=cpu HETGPU_MEMCHECK=1 %t oob 2>&1 | FileCheck %s --check-prefix=OOB
// RUN: env HETGPU_DEVICE=cpu HETGPU_MEMCHECK=1 %t freed 2>&1 | FileCheck %s --check-prefix=FREED
// RUN: env HETGPU_DEVICE=cpu HETGPU_MEMCHECK=1 %t misaligned 2>&1 | FileCheck %s --check-prefix=MIS
// RUN: env HETGPU_DEVICE=cpu HETGPU_MEMCHECK=1 %t shared 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: env HETGPU_DEVICE=cpu HETGPU_MEMCHECK=1 %t heap 2>&1 | FileCheck %s --check-prefix=HEAP
// RUN: %if pocl %{ env HETGPU_DEVICE=opencl HETGPU_MEMCHECK=1 %t clean 2>&1 | FileCheck %s --check-prefix=CLEAN %}
// RUN: %if pocl %{ env HETGPU_DEVICE=opencl HETGPU_MEMCHECK=1 %t oob 2>&1 | FileCheck %s --check-prefix=OOB %}
// RUN: %if pocl %{ env HETGPU_DEVICE=opencl HETGPU_MEMCHECK=1 %t shared 2>&1 | FileCheck %s --check-prefix=SHARED %}
// RUN: %if qemu-riscv64 %{ env HETGPU_DEVICE=tt-sim HETGPU_MEMCHECK=1 %t clean 2>&1 | FileCheck %s --check-prefix=CLEAN %}
// RUN: %if qemu-riscv64 %{ env HETGPU_DEVICE=tt-sim HETGPU_MEMCHECK=1 %t oob 2>&1 | FileCheck %s --check-prefix=OOB %}
// RUN: %if qemu-riscv64 %{ env HETGPU_DEVICE=tt-sim HETGPU_MEMCHECK=1 %t freed 2>&1 | FileCheck %s --check-prefix=FREED %}
//
// CLEAN-NOT: Invalid
// CLEAN: clean: sum 4032 shared 2016 dyn 496 heap 28 var 7 copy 1 err 0
// CLEAN: ========= ERROR SUMMARY: 0 errors
// PLAIN: clean: sum 4032 shared 2016 dyn 496 heap 28 var 7 copy 1 err 0
// PLAIN-NOT: ERROR SUMMARY
//
// OOB: ========= Invalid __global__ write of size 4 bytes
// OOB-NEXT: =========     at write_past(int*, int) in kernel write_past(int*, int)
// OOB-NEXT: =========     by thread (0,0,0) in block (2,0,0)
// OOB-NEXT: =========     Address 0x{{[0-9a-f]+}} is out of bounds
// OOB-NEXT: =========     and is 0 bytes after the nearest allocation at 0x{{[0-9a-f]+}} of size 256 bytes
// OOB-NOT: Invalid
// OOB: oob: sync 700
// OOB: ========= ERROR SUMMARY: 1 error
//
// FREED: ========= Invalid __global__ read of size 4 bytes
// FREED: =========     by thread (3,0,0) in block (0,0,0)
// FREED-NEXT: =========     Address 0x{{[0-9a-f]+}} is in freed memory
// FREED-NEXT: =========     and is 12 bytes inside the freed allocation at 0x{{[0-9a-f]+}} of size 256 bytes
// FREED: freed: sync 700
//
// MIS: ========= Invalid __global__ read of size 4 bytes
// MIS: Address 0x{{[0-9a-f]*}}{{[13579bdf]}} is misaligned
// MIS: misaligned: sync 716
//
// SHARED: ========= Invalid __shared__ write of size 4 bytes
// SHARED-NEXT: at shared_past(int*) in kernel shared_past(int*)
// SHARED-NEXT: by thread ({{28|29|30|31}},0,0) in block (0,0,0)
// SHARED-NEXT: is out of bounds of the shared variable it is based on
// SHARED-COUNT-3: Invalid __shared__ write of size 4 bytes
// SHARED-NOT: Invalid
// SHARED: shared: sync 700
//
// HEAP: ========= Invalid __global__ write of size 4 bytes
// HEAP-NEXT: at heap_faults() in kernel heap_faults()
// HEAP: is out of bounds
// HEAP-NEXT: and is 0 bytes after the nearest freed allocation at 0x{{[0-9a-f]+}} of size 16 bytes
// HEAP: ========= Invalid __global__ read of size 4 bytes
// HEAP: is in freed memory
// HEAP: heap: sync 700

#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__device__ int dev_var = 3;
__constant__ int const_var = 4;

__global__ void clean_kernel(const int *in, int *sum, int *shared_out,
                             int *dyn_out, int *heap_out, int *var_out,
                             int *copy_out) {
  __shared__ int tile[64];
  extern __shared__ int dyn[];
  int t = threadIdx.x;
  tile[t] = in[t];
  dyn[t % 32] = t % 32;
  __syncthreads();
  atomicAdd(sum, tile[63 - t] * 2);
  if (t == 0) {
    int s = 0, d = 0;
    for (int i = 0; i < 64; ++i)
      s += tile[i];
    for (int i = 0; i < 32; ++i)
      d += dyn[i];
    *shared_out = s;
    *dyn_out = d;
    int *h = static_cast<int *>(malloc(8 * sizeof(int)));
    for (int i = 0; i < 8; ++i)
      h[i] = i;
    int hs = 0;
    for (int i = 0; i < 8; ++i)
      hs += h[i];
    free(h);
    *heap_out = hs;
    *var_out = dev_var + const_var;
    int local[4] = {1, 2, 3, 4};
    memcpy(copy_out, local, sizeof(local));
  }
}

__global__ void write_past(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) // one too many
    p[i] = i;
}

__global__ void read_all(const int *p, int *out) {
  atomicAdd(out, p[threadIdx.x]);
}

__global__ void read_misaligned(const char *p, int *out) {
  *out = *reinterpret_cast<const int *>(p + 1);
}

__global__ void shared_past(int *out) {
  __shared__ int small[32];
  small[threadIdx.x] = 1;
  __syncthreads();
  small[threadIdx.x + 4] = 2; // lanes 28..31 write past the end
  __syncthreads();
  out[threadIdx.x] = small[threadIdx.x];
}

__global__ void heap_faults() {
  int *h = static_cast<int *>(malloc(4 * sizeof(int)));
  h[4] = 1; // past the block
  free(h);
  volatile int v = h[0]; // after free
  (void)v;
}

static int mode_clean() {
  int host[64];
  for (int i = 0; i < 64; ++i)
    host[i] = i;
  int *in, *res;
  cudaMalloc(&in, sizeof(host));
  cudaMalloc(&res, 10 * sizeof(int));
  cudaMemcpy(in, host, sizeof(host), cudaMemcpyHostToDevice);
  cudaMemset(res, 0, 10 * sizeof(int));
  clean_kernel<<<1, 64, 32 * sizeof(int)>>>(in, res, res + 1, res + 2,
                                            res + 3, res + 4, res + 5);
  cudaError_t E = cudaDeviceSynchronize();
  int r[10];
  cudaMemcpy(r, res, sizeof(r), cudaMemcpyDeviceToHost);
  std::printf("clean: sum %d shared %d dyn %d heap %d var %d copy %d err %d\n",
              r[0], r[1], r[2], r[3], r[4], r[5] == 1 && r[8] == 4, int(E));
  return 0;
}

int main(int argc, char **argv) {
  const char *Mode = argc > 1 ? argv[1] : "clean";
  if (!std::strcmp(Mode, "clean"))
    return mode_clean();
  if (!std::strcmp(Mode, "oob")) {
    int *p, *next; // next: an allocation that may follow p in memory
    cudaMalloc(&p, 64 * sizeof(int));
    cudaMalloc(&next, 64 * sizeof(int));
    write_past<<<3, 32>>>(p, 64);
    cudaError_t E = cudaDeviceSynchronize();
    std::printf("oob: sync %d\n", int(E));
    return 0;
  }
  if (!std::strcmp(Mode, "freed")) {
    int *p, *out;
    cudaMalloc(&p, 64 * sizeof(int));
    cudaMalloc(&out, sizeof(int));
    cudaMemset(out, 0, sizeof(int));
    cudaFree(p);
    read_all<<<1, 4>>>(p, out);
    cudaError_t E = cudaDeviceSynchronize();
    std::printf("freed: sync %d\n", int(E));
    return 0;
  }
  if (!std::strcmp(Mode, "misaligned")) {
    char *p;
    int *out;
    cudaMalloc(&p, 64);
    cudaMalloc(&out, sizeof(int));
    read_misaligned<<<1, 1>>>(p, out);
    std::printf("misaligned: sync %d\n", int(cudaDeviceSynchronize()));
    return 0;
  }
  if (!std::strcmp(Mode, "shared")) {
    int *out;
    cudaMalloc(&out, 32 * sizeof(int));
    shared_past<<<1, 32>>>(out);
    cudaError_t E = cudaDeviceSynchronize();
    std::printf("shared: sync %d\n", int(E));
    return 0;
  }
  if (!std::strcmp(Mode, "heap")) {
    heap_faults<<<1, 1>>>();
    std::printf("heap: sync %d\n", int(cudaDeviceSynchronize()));
    return 0;
  }
  return 2;
}
