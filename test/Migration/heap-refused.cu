// Device malloc/free take memory from the heap of the device that runs
// the kernel (host malloc on the CPU device, a heap in device memory on
// OpenCL, tt-sim and NVIDIA). A block suspended while it holds such memory,
// or memory left in the heap for a later launch, would be freed or read
// by another device's heap after a move (on the H200, starting on the CPU
// device with to=nvidia: a crash). Such a context is not moved: the
// refusal names the kernel, the suspended launch resumes where it was and
// the output is the unmigrated one; after cudaDeviceReset the context moves
// again.
// REQUIRES: built-target-host, built-target-spirv, pocl
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t > %t.ref
// RUN: FileCheck --check-prefix=OUT %s < %t.ref
// RUN: env HETGPU_DEVICE=cpu HETGPU_MIGRATE=visit=3:to=opencl:verbose %t > %t.out 2> %t.err
// RUN: diff %t.ref %t.out
// RUN: FileCheck --check-prefix=REFUSED %s < %t.err
// RUN: %if qemu-riscv64 && built-target-rvmanycore %{ env HETGPU_DEVICE=cpu HETGPU_MIGRATE=visit=3:to=tt-sim:verbose %t > %t.out.t 2> %t.err.t %}
// RUN: %if qemu-riscv64 && built-target-rvmanycore %{ diff %t.ref %t.out.t %}
// RUN: %if qemu-riscv64 && built-target-rvmanycore %{ FileCheck --check-prefix=REFUSED %s < %t.err.t %}
// OUT: heap sum 4685824 kept 64
// OUT: plain sum 4685824
// REFUSED: cannot migrate device 0 from {{.*}}: kernel {{.*}}heapWork{{.*}} calls device malloc/free: memory of the device heap {{.*}} is not known to the target's heap
// REFUSED: heapWork{{.*}} suspended {{.*}} resumed on device 0: {{.*}}(cpu)
// After the reset, a kernel without malloc moves.
// REFUSED: plainWork{{.*}} suspended {{.*}} resumed on device 0: {{.*}}{{\((opencl|tt-sim)\)$}}
#include "../Runtime/Inputs/check.h"

// Each thread sums through a buffer of its own heap memory (live across
// the loop's safe points); thread 0 of each block keeps one allocation
// for the next launch.
__global__ void heapWork(int n, unsigned long long *sum, int **kept) {
  int *buf = static_cast<int *>(malloc(n * sizeof(int)));
  if (!buf)
    return;
  unsigned long long s = 0;
  for (int i = 0; i < n; ++i) {
    buf[i] = i + threadIdx.x;
    s += buf[i];
  }
  atomicAdd(sum, s);
  if (threadIdx.x == 0) {
    buf[0] = 64;
    kept[blockIdx.x] = buf;
  } else {
    free(buf);
  }
}

__global__ void readKept(int **kept, int *out) {
  out[blockIdx.x] = kept[blockIdx.x][0];
  free(kept[blockIdx.x]);
}

__global__ void plainWork(int n, unsigned long long *sum) {
  unsigned long long s = 0;
  for (int i = 0; i < n; ++i)
    s += i + threadIdx.x;
  atomicAdd(sum, s);
}

int main() {
  const int B = 4, T = 32, N = 256;
  unsigned long long *sum;
  int **kept, *out;
  CHECK(cudaMallocManaged(&sum, sizeof(*sum)));
  CHECK(cudaMallocManaged(&kept, B * sizeof(int *)));
  CHECK(cudaMallocManaged(&out, B * sizeof(int)));
  *sum = 0;
  heapWork<<<B, T>>>(N, sum, kept);
  CHECK(cudaDeviceSynchronize());
  readKept<<<B, 1>>>(kept, out);
  CHECK(cudaDeviceSynchronize());
  std::printf("heap sum %llu kept %d\n", *sum, out[0] + out[B - 1] - out[1]);
  CHECK(cudaDeviceReset());
  CHECK(cudaMallocManaged(&sum, sizeof(*sum)));
  *sum = 0;
  plainWork<<<B, T>>>(N, sum);
  CHECK(cudaDeviceSynchronize());
  std::printf("plain sum %llu\n", *sum);
  return 0;
}
